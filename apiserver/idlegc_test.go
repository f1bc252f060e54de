package apiserver

import (
	"context"
	"runtime/debug"
	rtmetrics "runtime/metrics"
	"sync"
	"testing"
	"time"

	"github.com/crdlab/crdlab/internal/specmemo"
)

// forcedGCs is how many collections runtime.GC has run in this process.
func forcedGCs() uint64 {
	s := []rtmetrics.Sample{{Name: "/gc/cycles/forced:gc-cycles"}}
	rtmetrics.Read(s)
	return s[0].Value.Uint64()
}

var idleGCSink [][]byte

// TestIdleGC_CollectsAfterBurst allocates a burst, then goes quiet, and
// waits for idleGC to have run a collection; it fails if none comes.
func TestIdleGC_CollectsAfterBurst(t *testing.T) {
	g := idleGC{tick: 20 * time.Millisecond, burst: 64 << 20, quiet: 1 << 20}
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	wg.Go(func() { g.run(ctx) })
	defer wg.Wait()
	defer cancel()

	before := forcedGCs()
	for range 128 { // 128 MiB, kept until the loop ends
		idleGCSink = append(idleGCSink, make([]byte, 1<<20))
	}
	idleGCSink = nil

	deadline := time.Now().Add(60 * time.Second)
	for forcedGCs() == before {
		if time.Now().After(deadline) {
			t.Fatal("no collection after a burst of 128 MiB and a quiet minute")
		}
		time.Sleep(10 * time.Millisecond) // polling the runtime's count
	}
}

// TestIdleGC_WaitsForIdle drives idleGC's decision tick by tick: after a
// burst it collects only once calm ticks in a row each allocated little
// and saw no request begin and none in flight; a client sending requests
// one after another (little allocation, but requests) never lets it.
func TestIdleGC_WaitsForIdle(t *testing.T) {
	const MiB = 1 << 20
	g := idleGC{burst: 256 * MiB, quiet: 4 * MiB, calm: 3}
	st := idleState{}
	var allocs, begun uint64
	tick := func(alloc uint64, requests uint64, inFlight int64) bool {
		allocs += alloc
		begun += requests
		return g.observe(&st, allocs, begun, inFlight)
	}
	for i := range 10 { // the burst: 300 MiB over ten busy ticks
		if tick(30*MiB, 50, 1) {
			t.Fatalf("collected during the burst, tick %d", i)
		}
	}
	for i := range 20 { // one client: 2 MiB and 300 requests a tick
		if tick(2*MiB, 300, 0) {
			t.Fatalf("collected under a client sending requests, tick %d", i)
		}
	}
	if tick(MiB, 0, 1) {
		t.Fatal("collected with a request in flight")
	}
	for i := range 2 {
		if tick(MiB, 0, 0) {
			t.Fatalf("collected after %d idle ticks, want %d", i+1, g.calm)
		}
	}
	if tick(0, 1, 0) {
		t.Fatal("collected on a tick that saw a request")
	}
	for i := range 2 {
		if tick(0, 0, 0) {
			t.Fatalf("collected after %d idle ticks since the last request, want %d", i+1, g.calm)
		}
	}
	if !tick(0, 0, 0) {
		t.Fatalf("no collection after %d idle ticks following a burst", g.calm)
	}
	st.collected(allocs)
	for i := range 10 {
		if tick(MiB, 0, 0) {
			t.Fatalf("collected again without a new burst, tick %d", i)
		}
	}
}

// TestIdleGC_AllocationIsNotIdle: ticks that see no request but allocate
// more than quiet (watch events fanned out, a controller's work) are not
// idle.
func TestIdleGC_AllocationIsNotIdle(t *testing.T) {
	const MiB = 1 << 20
	g := idleGC{burst: 256 * MiB, quiet: 4 * MiB, calm: 2}
	st := idleState{}
	var allocs uint64
	for i := range 20 {
		allocs += 50 * MiB
		if g.observe(&st, allocs, 0, 0) {
			t.Fatalf("collected on a tick allocating 50 MiB, tick %d", i)
		}
	}
	g.observe(&st, allocs, 0, 0)
	if !g.observe(&st, allocs, 0, 0) {
		t.Fatal("no collection after two idle ticks following a burst")
	}
}

// TestIdleGC_WaitsForSpecMemos: the server's idle collection waits for
// quiet longer than the spec memos keep their entries unused, so that it
// runs after they empty and frees what they held. The memos are used by
// requests, so when the last request began is the latest they empty
// from; a collection runs calm ticks after it at the earliest.
func TestIdleGC_WaitsForSpecMemos(t *testing.T) {
	g := defaultIdleGC
	if quiet := time.Duration(g.calm) * g.tick; quiet < specmemo.Idle+time.Second {
		t.Errorf("the idle collection runs %s after the last request, the memos empty %s after their last use: want a second between, at least", quiet, specmemo.Idle)
	}
}

// fakeHeap is a heapRuntime whose goal follows the runtime's rule: the
// live heap plus percent/100 of the live heap and scan roots.
type fakeHeap struct {
	// mu guards the fields below.
	mu                          sync.Mutex
	allocs, live, roots, cycles uint64
	percent                     int64
	// garbage is what the next collection frees.
	garbage uint64
	// sets are the percents set, in order.
	sets []int64
}

func (h *fakeHeap) read() heapReading {
	h.mu.Lock()
	defer h.mu.Unlock()
	goal := uint64(1 << 62)
	if h.percent >= 0 {
		goal = h.live + (h.live+h.roots)*uint64(h.percent)/100
	}
	return heapReading{allocs: h.allocs, goal: goal, live: h.live, cycles: h.cycles, percent: h.percent}
}

// collect is a collection: the runtime's own or the release's.
func (h *fakeHeap) collect() {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.live -= h.garbage
	h.garbage = 0
	h.cycles++
}

func (h *fakeHeap) release() { h.collect() }

// burst makes n bytes live that the next collection frees.
func (h *fakeHeap) burst(n uint64) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.live += n
	h.garbage += n
}

func (h *fakeHeap) setGCPercent(p int64) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.percent = p
	h.sets = append(h.sets, p)
}

// TestGoalKeeper_Collect: the idle collection releases the heap, keeps
// the goal it found until the runtime's next collection has completed,
// then puts the configured percent back; with collection off it sets
// nothing.
func TestGoalKeeper_Collect(t *testing.T) {
	const MB = 1 << 20
	t.Run("KeepsGoalUntilNextCollection", func(t *testing.T) {
		for _, configured := range []int64{100, 50, 400} {
			// 600 MB live at the burst's last collection, 450 of it
			// garbage now (the emptied memos).
			h := &fakeHeap{live: 600 * MB, roots: 10 * MB, percent: configured, garbage: 450 * MB}
			k := &goalKeeper{}
			goalBefore := h.read().goal
			k.collect(h)
			if h.live != 150*MB {
				t.Fatalf("GOGC=%d: %d MB live after the release, want 150", configured, h.live/MB)
			}
			goal := h.read().goal
			if goal < goalBefore || goal > goalBefore+goalBefore/100 {
				t.Errorf("GOGC=%d: goal %d MB after the release, want the %d MB it was before", configured, goal/MB, goalBefore/MB)
			}
			if !k.kept {
				t.Fatalf("GOGC=%d: the goal is not noted as kept", configured)
			}
			k.restore(h, h.read(), false)
			if h.percent == configured {
				t.Fatalf("GOGC=%d: percent put back before the next collection", configured)
			}
			h.collect()
			k.restore(h, h.read(), false)
			if h.percent != configured || k.kept {
				t.Errorf("GOGC=%d: percent %d after the next collection (kept %v), want it back", configured, h.percent, k.kept)
			}
			if got := h.read().goal; got != 150*MB+160*MB*uint64(configured)/100 {
				t.Errorf("GOGC=%d: goal %d MB after the next collection, want the runtime's own", configured, got/MB)
			}
		}
	})
	t.Run("AgainWhileKept", func(t *testing.T) {
		h := &fakeHeap{live: 600 * MB, roots: 10 * MB, percent: 100, garbage: 450 * MB}
		k := &goalKeeper{}
		k.collect(h)
		h.garbage = 50 * MB
		k.collect(h) // before the runtime collected: a second burst
		if !k.kept || k.configured != 100 {
			t.Fatalf("kept %v, configured %d after a second release, want true, 100", k.kept, k.configured)
		}
		h.collect()
		k.restore(h, h.read(), false)
		if h.percent != 100 {
			t.Errorf("percent %d after the next collection, want the configured 100", h.percent)
		}
	})
	t.Run("Off", func(t *testing.T) {
		h := &fakeHeap{live: 600 * MB, roots: 10 * MB, percent: -1, garbage: 450 * MB}
		k := &goalKeeper{}
		k.collect(h)
		if len(h.sets) != 0 || k.kept {
			t.Errorf("with GOGC=off: percents set %v (kept %v), want none", h.sets, k.kept)
		}
		if h.live != 150*MB {
			t.Errorf("with GOGC=off: %d MB live after the release, want 150", h.live/MB)
		}
	})
	t.Run("GoalNotLower", func(t *testing.T) {
		h := &fakeHeap{live: 600 * MB, roots: 10 * MB, percent: 100}
		k := &goalKeeper{}
		k.collect(h)
		if len(h.sets) != 0 || k.kept {
			t.Errorf("nothing freed: percents set %v (kept %v), want none", h.sets, k.kept)
		}
	})
	t.Run("RestoredWhenRunEnds", func(t *testing.T) {
		h := &fakeHeap{live: 600 * MB, roots: 10 * MB, percent: 100, garbage: 450 * MB}
		k := &goalKeeper{}
		k.collect(h)
		k.restore(h, h.read(), true)
		if h.percent != 100 {
			t.Errorf("percent %d once done, want 100", h.percent)
		}
	})
}

// TestKeptPercent: the percent that sets the goal back, on figures from
// the server at 500 and 2,000 CRDs, and where there is none.
func TestKeptPercent(t *testing.T) {
	const MB = 1 << 20
	for _, tc := range []struct {
		name          string
		before, after heapReading
		want          int64
		ok            bool
	}{
		{"500", heapReading{goal: 1250 * MB}, heapReading{goal: 320 * MB, live: 155 * MB, percent: 100}, 664, true},
		{"2000", heapReading{goal: 2400 * MB}, heapReading{goal: 1230 * MB, live: 606 * MB, percent: 100}, 288, true},
		{"GOGC=50", heapReading{goal: 900 * MB}, heapReading{goal: 240 * MB, live: 160 * MB, percent: 50}, 463, true},
		{"Off", heapReading{goal: 900 * MB}, heapReading{goal: 1 << 62, live: 160 * MB, percent: -1}, 0, false},
		{"Zero", heapReading{goal: 900 * MB}, heapReading{goal: 160 * MB, live: 160 * MB, percent: 0}, 0, false},
		{"NotLower", heapReading{goal: 300 * MB}, heapReading{goal: 320 * MB, live: 155 * MB, percent: 100}, 0, false},
		{"Bounded", heapReading{goal: 1 << 40}, heapReading{goal: 2 * MB, live: MB, percent: 100}, maxKeptPercent, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := keptPercent(tc.before, tc.after)
			if got != tc.want || ok != tc.ok {
				t.Errorf("keptPercent = %d, %v, want %d, %v", got, ok, tc.want, tc.ok)
			}
		})
	}
}

// TestGoalKeeper_Concurrent: the runs of several servers in one process
// share a goalKeeper; whatever order their collections and the
// runtime's come in, the configured percent is back once the runtime has
// collected after the last of them.
func TestGoalKeeper_Concurrent(t *testing.T) {
	const MB = 1 << 20
	h := &fakeHeap{live: 600 * MB, roots: 10 * MB, percent: 100}
	k := &goalKeeper{}
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			for range 50 {
				h.burst(100 * MB)
				k.collect(h)
				h.collect() // the runtime's own
				k.restore(h, h.read(), false)
			}
		})
	}
	wg.Wait()
	k.restore(h, h.read(), false)
	if p := h.read().percent; p != 100 || k.kept {
		t.Errorf("percent %d (kept %v) once the runtime collected after every release, want 100", p, k.kept)
	}
}

// TestGoRuntime_Off: with collection off the process's runtime reads a
// negative percent (the runtime's int32 -1, widened), and the goal is
// then left alone.
func TestGoRuntime_Off(t *testing.T) {
	saved := debug.SetGCPercent(-1)
	defer debug.SetGCPercent(saved)
	if got := newGoRuntime().read().percent; got != -1 {
		t.Errorf("percent %d read with GOGC=off, want -1", got)
	}
}
