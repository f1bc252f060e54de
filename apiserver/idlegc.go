package apiserver

import (
	"context"
	"runtime"
	rtmetrics "runtime/metrics"
	"time"

	"github.com/crdlab/crdlab/internal/specmemo"
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
//
// Quiet means idle, not merely allocating little: no request began or
// was in flight for calm ticks in a row. A collection is concurrent, but
// with 2,000 real-size CRDs the heap is about 2 GB and its marking takes
// seconds of CPU: requests served meanwhile share the cores with it, pay
// the write barrier and help mark (assists). A client creating objects
// one after another allocates only a few MiB a second, so an allocation
// threshold alone took it for quiet and collected under it: CR create p50
// 1.50 → 4.16 ms with 2,000 CRDs (bench/cmd/crdbench/perf-notes.md).
//
// Quiet also lasts longer than specmemo.Idle: the memos of CRD specs (the
// storage codec's and the controllers' client's) empty Idle after their
// last use, which a request made, and only then is what they held (about
// 300 MB of heap after 500 real-size CRDs) garbage. A collection before
// that kept it, and a goal of twice it, until the next one (on a quiet
// server, the runtime's forced one two minutes later): docs/crd-memory.md,
// "Session 13: RSS after settling at 500".
// Upstream has nothing like it: kube-apiserver leaves the heap to the
// runtime (GOGC, GOMEMLIMIT and the forced collection every two minutes).

// idleGC says when its run collects: after burst bytes of allocation
// since its last collection, once calm ticks in a row each allocated
// less than quiet bytes and saw no request (requests).
type idleGC struct {
	tick         time.Duration
	burst, quiet uint64
	calm         int
	// requests, if set, reads how many requests the server has begun
	// and how many are in flight (long-running ones, watches, excepted).
	requests func() (begun uint64, inFlight int64)
}

// defaultIdleGC is the server's: a burst is 256 MiB (a few dozen
// real-size CRDs created, or a few thousand objects), quiet is
// specmemo.Idle and a second more (three seconds) without a request,
// each second allocating under 4 MiB.
var defaultIdleGC = idleGC{tick: time.Second, burst: 256 << 20, quiet: 4 << 20,
	calm: int(specmemo.Idle/time.Second) + 1}

// idleState is what idleGC.run remembers between ticks.
type idleState struct {
	allocs uint64 // at the last tick
	base   uint64 // at the last collection
	begun  uint64 // requests begun, at the last tick
	calm   int    // quiet ticks in a row
}

// observe takes one tick's readings (the bytes allocated so far, the
// requests begun so far and in flight now) and says whether to collect.
func (g idleGC) observe(st *idleState, allocs, begun uint64, inFlight int64) bool {
	quiet := allocs-st.allocs < g.quiet && begun == st.begun && inFlight == 0
	st.allocs, st.begun = allocs, begun
	if !quiet {
		st.calm = 0
		return false
	}
	st.calm++
	return st.calm >= max(g.calm, 1) && allocs-st.base >= g.burst
}

// collected notes a collection that ended with allocs bytes allocated.
func (st *idleState) collected(allocs uint64) {
	st.allocs, st.base, st.calm = allocs, allocs, 0
}

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
	requests := g.requests
	if requests == nil {
		requests = func() (uint64, int64) { return 0, 0 }
	}
	begun, _ := requests()
	now := allocs()
	st := idleState{allocs: now, base: now, begun: begun}
	t := time.NewTicker(g.tick)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		begun, inFlight := requests()
		if g.observe(&st, allocs(), begun, inFlight) {
			runtime.GC()
			st.collected(allocs())
		}
	}
}
