package reliability

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sync"
	"testing"
	"time"
)

// TestShutdown_SIGTERMDuringWrites sends SIGTERM while 16 writers are busy.
// Each request must end one of two clean ways: a whole answer (2xx or a
// Status), or a transport error from a closed connection (the request was
// never served). The server must exit 0 in time, Check must pass, and
// after a restart every acknowledged write must be there as acknowledged.
func TestShutdown_SIGTERMDuringWrites(t *testing.T) {
	dataDir := t.TempDir()
	s := startServer(t, dataDir, serverOptions{})
	setupCRD(s)
	from := s.revision()

	got := &acks{}
	var stats loadStats
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var wg sync.WaitGroup
	for i := 0; i < 16; i++ {
		w := &writer{id: fmt.Sprintf("t%02d", i), ns: "default", rng: rand.New(rand.NewPCG(uint64(i), 7))}
		wg.Add(1)
		go func() { defer wg.Done(); w.run(ctx, s, got, &stats) }()
	}
	time.Sleep(500 * time.Millisecond)
	stopAt := time.Now()
	s.stop() // fails t unless the exit is clean and within stopTimeout
	stopTook := time.Since(stopAt)
	wg.Wait()
	checkStore(t, dataDir)

	s = startServer(t, dataDir, serverOptions{})
	waitServed(s)
	hist := history(t, s, from, "end")
	byRV := map[int64]event{}
	for _, e := range hist {
		byRV[e.RV] = e
	}
	for _, a := range got.all() {
		if e, ok := byRV[a.rv]; !ok || e.Name != a.name || e.Counter != a.counter {
			t.Errorf("acknowledged write %+v lost after SIGTERM: %v %v", a, e, ok)
		}
	}
	if n := stats.serverErrors.Load(); n > 0 {
		t.Errorf("%d requests answered 5xx during shutdown", n)
	}
	if n := stats.badAnswers.Load() + stats.torn.Load(); n > 0 {
		t.Errorf("%d answers were cut off or wrong", n)
	}
	t.Logf("SIGTERM under 16 writers: exit 0 after %v; %d writes acknowledged and kept, %d requests refused at the transport (connection closed or refused), %d other answers",
		stopTook.Round(time.Millisecond), len(got.all()), stats.transportErrors.Load(), stats.rejected.Load())
}
