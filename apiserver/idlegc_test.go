package apiserver

import (
	"context"
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
