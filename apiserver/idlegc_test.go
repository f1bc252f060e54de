package apiserver

import (
	"context"
	rtmetrics "runtime/metrics"
	"sync"
	"testing"
	"time"
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
