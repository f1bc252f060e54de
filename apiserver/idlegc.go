package apiserver

import (
	"context"
	"log/slog"
	"runtime/debug"
	rtmetrics "runtime/metrics"
	"sync"
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
// when the process has gone quiet after a burst and returns the free
// part of the heap to the operating system at once (debug.FreeOSMemory):
// left to the runtime's background scavenger, which keeps to about 1 % of
// the CPU, RSS fell by 100-150 MB a second after a burst at 500 CRDs,
// still far from the live heap ten seconds later (docs/crd-memory.md,
// "Session 13: RSS after settling at 500"). The scavenge takes the heap's
// lock for one 4 MiB chunk at a time, not while it returns the pages, so
// an allocation arriving meanwhile waits for one chunk's bookkeeping at
// most ("Session 14: RSS after settling").
//
// The collection keeps the heap goal it found. A collection at the live
// heap sets the goal to twice that, lower than the burst's; the next
// requests then reached it within seconds and collected again while they
// were served: CR create p50 2.2-2.6 times the one-CRD figure with 2,000
// CRDs, against 1 without. So the run raises the GC percent until the
// goal is what it was before it collected, and puts the configured
// percent back once the next collection has completed; from then on the
// runtime paces as it would have. It leaves the percent alone when
// collection is off (GOGC=off) or the goal was no higher than the new
// one.
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
	// log, if set, gets a line for each collection.
	log *slog.Logger
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

// heapRuntime is what the idle collection reads from the Go runtime and
// does to it: goRuntime is the process's, tests use a fake.
type heapRuntime interface {
	read() heapReading
	// release collects and returns the free heap to the operating system.
	release()
	setGCPercent(percent int64)
}

// heapReading is the runtime's state at one moment (runtime/metrics).
type heapReading struct {
	allocs  uint64 // bytes allocated so far (/gc/heap/allocs:bytes)
	goal    uint64 // the heap goal (/gc/heap/goal:bytes)
	live    uint64 // marked live by the last collection (/gc/heap/live:bytes)
	cycles  uint64 // collections completed (/gc/cycles/total:gc-cycles)
	percent int64  // the GC percent, negative if off (/gc/gogc:percent)
}

// keptPercent is the GC percent that sets the goal after a collection
// back to the goal before it. The runtime's goal is the live heap plus
// percent/100 of what it scans (the live heap, stacks and globals), so
// the goal's margin over the live heap grows with the percent. ok is
// false if collection is off, or the goal before was no higher.
func keptPercent(before, after heapReading) (percent int64, ok bool) {
	if after.percent <= 0 || before.goal <= after.goal || after.goal <= after.live {
		return 0, false
	}
	margin, want := after.goal-after.live, before.goal-after.live
	p := (uint64(after.percent)*want + margin - 1) / margin // rounded up
	return int64(min(p, maxKeptPercent)), true
}

// maxKeptPercent bounds a kept percent (the runtime's is an int32): a
// goal a thousand times the live heap is as good as none.
const maxKeptPercent = 100_000

// goalKeeper runs the idle collections and keeps the goal after them.
// The GC percent is the process's: the servers in one process (tests
// run several) share one goalKeeper, processGoal, else one's collection
// would take the percent another raised for the configured one and put
// that back.
type goalKeeper struct {
	// mu guards the fields below and serializes the collections.
	mu sync.Mutex
	// kept is true if and only if a collection raised the GC percent to
	// keep the goal; configured is then the percent to put back once a
	// collection after the first keptAt has completed.
	kept       bool
	configured int64
	keptAt     uint64
}

// processGoal is the process's goalKeeper.
var processGoal goalKeeper

// collect runs an idle collection: it releases the free heap and keeps
// the goal.
func (k *goalKeeper) collect(rt heapRuntime) (before, after heapReading) {
	k.mu.Lock()
	defer k.mu.Unlock()
	before = rt.read()
	if k.kept { // the collection below is the one that ends it
		rt.setGCPercent(k.configured)
		before.percent, k.kept = k.configured, false
	}
	rt.release()
	after = rt.read()
	if p, ok := keptPercent(before, after); ok {
		rt.setGCPercent(p)
		k.kept, k.configured, k.keptAt = true, after.percent, after.cycles
	}
	return before, after
}

// restore puts the configured GC percent back once a collection has
// completed since the goal was kept (now is the runtime's reading), or
// at once if done.
func (k *goalKeeper) restore(rt heapRuntime, now heapReading, done bool) {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.kept && (done || now.cycles > k.keptAt) {
		rt.setGCPercent(k.configured)
		k.kept = false
	}
}

// idleGC.run collects once after each burst of allocation, when the
// process has gone quiet, until ctx ends, and keeps the heap goal until
// the runtime's next collection.
func (g idleGC) run(ctx context.Context) {
	g.runWith(ctx, newGoRuntime(), &processGoal)
}

func (g idleGC) runWith(ctx context.Context, rt heapRuntime, k *goalKeeper) {
	requests := g.requests
	if requests == nil {
		requests = func() (uint64, int64) { return 0, 0 }
	}
	begun, _ := requests()
	now := rt.read()
	st := idleState{allocs: now.allocs, base: now.allocs, begun: begun}
	defer k.restore(rt, heapReading{}, true)
	t := time.NewTicker(g.tick)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		now := rt.read()
		k.restore(rt, now, false)
		begun, inFlight := requests()
		if !g.observe(&st, now.allocs, begun, inFlight) {
			continue
		}
		start := time.Now()
		before, after := k.collect(rt)
		st.collected(after.allocs)
		if g.log != nil {
			g.log.Info("idle collection", "took", time.Since(start), "liveMB", after.live>>20,
				"goalBeforeMB", before.goal>>20, "goalAfterMB", rt.read().goal>>20, "gcPercent", after.percent)
		}
	}
}

// goRuntime is the process's Go runtime.
type goRuntime struct{ samples []rtmetrics.Sample }

func newGoRuntime() *goRuntime {
	return &goRuntime{samples: []rtmetrics.Sample{
		{Name: "/gc/heap/allocs:bytes"},
		{Name: "/gc/heap/goal:bytes"},
		{Name: "/gc/heap/live:bytes"},
		{Name: "/gc/cycles/total:gc-cycles"},
		{Name: "/gc/gogc:percent"},
	}}
}

func (r *goRuntime) read() heapReading {
	rtmetrics.Read(r.samples)
	u := func(i int) uint64 {
		if r.samples[i].Value.Kind() != rtmetrics.KindUint64 {
			return 0
		}
		return r.samples[i].Value.Uint64()
	}
	// The runtime's percent is an int32, -1 when off, widened to uint64.
	return heapReading{allocs: u(0), goal: u(1), live: u(2), cycles: u(3), percent: int64(u(4))}
}

func (*goRuntime) release()                   { debug.FreeOSMemory() }
func (*goRuntime) setGCPercent(percent int64) { debug.SetGCPercent(int(percent)) }
