package apiserver

import (
	"context"
	"runtime"
	rtmetrics "runtime/metrics"
	"time"
)

// The heap after a burst of work.
//
// The Go runtime collects when the heap reaches its goal, twice the live
// heap at the last collection. After a burst (a few hundred CRDs created,
// each decoded, converted and encoded several times over) the last
// collection ran with the burst's work in flight, so the goal, and the
// memory the runtime keeps mapped for it, stay at about twice that until
// the next collection, which a quiet server reaches only through the
// runtime's forced collection every two minutes. idleGC.run collects once
// when the process has gone quiet after a burst: the goal then follows
// what is really live, and the runtime's background scavenger returns the
// rest to the operating system at its own pace. It never calls
// debug.FreeOSMemory, which returns everything at once under the heap's
// lock, stalling requests meanwhile.

// idleGC says when its run collects: after burst bytes of allocation
// since its last collection, at the first tick (every tick) that
// allocated less than quiet bytes.
type idleGC struct {
	tick         time.Duration
	burst, quiet uint64
}

// defaultIdleGC is the server's: a burst is 256 MiB (a few dozen
// real-size CRDs created, or a few thousand objects), a quiet second
// allocated under 4 MiB.
var defaultIdleGC = idleGC{tick: time.Second, burst: 256 << 20, quiet: 4 << 20}

// idleGC.run collects once after each burst of allocation, when the
// process has gone quiet, until ctx ends. The collection is the
// runtime's own (concurrent, its pauses sub-millisecond), as the runtime
// would run at the next allocation or after two minutes.
func (g idleGC) run(ctx context.Context) {
	sample := []rtmetrics.Sample{{Name: "/gc/heap/allocs:bytes"}}
	allocs := func() uint64 {
		rtmetrics.Read(sample)
		if sample[0].Value.Kind() != rtmetrics.KindUint64 {
			return 0
		}
		return sample[0].Value.Uint64()
	}
	last := allocs() // at the last tick
	base := last     // at the last idle collection
	t := time.NewTicker(g.tick)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		now := allocs()
		if now-last < g.quiet && now-base >= g.burst {
			runtime.GC()
			now = allocs()
			base = now
		}
		last = now
	}
}
