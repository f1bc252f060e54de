package reliability

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"strconv"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
)

// ack is a write that got a 2xx: the object, the resourceVersion the
// server gave it, and the counter value it wrote.
type ack struct {
	name    string // namespace/name
	rv      int64
	counter int
	writer  string
}

// acks collects acknowledged writes from many goroutines.
type acks struct {
	mu   sync.Mutex // guards list
	list []ack
}

func (a *acks) add(k ack) {
	a.mu.Lock()
	a.list = append(a.list, k)
	a.mu.Unlock()
}

func (a *acks) all() []ack {
	a.mu.Lock()
	defer a.mu.Unlock()
	return append([]ack(nil), a.list...)
}

// writer is one client: it creates crontabs (its own names) and updates
// them with merge patches that bump spec.counter, until a request fails
// at the transport level (the server is gone) or ctx ends. Every 2xx is
// recorded. Other answers (e.g. 429) are retried.
type writer struct {
	id      string
	ns      string
	counter int
	objects []string
	rng     *rand.Rand
}

func (w *writer) run(ctx context.Context, s *server, got *acks, stats *loadStats) {
	for ctx.Err() == nil {
		w.counter++
		var method, path, body, name string
		if len(w.objects) == 0 || w.rng.IntN(4) == 0 {
			name = fmt.Sprintf("%s-%d", w.id, w.counter)
			method, path, body = "POST", "/apis/stable.example.com/v1/namespaces/"+w.ns+"/crontabs", cronTab(w.ns, name, w.id, w.counter)
		} else {
			name = w.objects[w.rng.IntN(len(w.objects))]
			method, path = "PATCH", "/apis/stable.example.com/v1/namespaces/"+w.ns+"/crontabs/"+name
			body = fmt.Sprintf(`{"spec":{"counter":%d,"writer":%q}}`, w.counter, w.id)
		}
		code, b, err := s.do(ctx, method, path, body)
		var torn *tornError
		if errors.As(err, &torn) {
			stats.torn.Add(1)
			return
		}
		if err != nil {
			stats.transportErrors.Add(1)
			return
		}
		if code >= 300 {
			stats.rejected.Add(1)
			if code >= 500 {
				stats.serverErrors.Add(1)
			}
			continue
		}
		o, err := parseObject(b)
		if err != nil || o.Spec.Counter != w.counter || rvOf(o) == 0 {
			stats.badAnswers.Add(1)
			continue
		}
		if method == "POST" {
			w.objects = append(w.objects, name)
		}
		got.add(ack{name: w.ns + "/" + name, rv: rvOf(o), counter: w.counter, writer: w.id})
		stats.acked.Add(1)
	}
}

// loadStats counts what the writers saw.
type loadStats struct {
	acked, rejected, serverErrors, badAnswers, torn, transportErrors atomic.Int64
}

// TestCrash_SIGKILL drives crdlab serve with 16 concurrent writers,
// SIGKILLs it at a random moment, runs Check on the data file, restarts
// it, and again, for 20 rounds. At the end every acknowledged write must
// be in the history with the resourceVersion it was given and the value
// it wrote, and the events one watcher saw — resuming after each restart
// from the last resourceVersion it had seen — must be exactly that
// history: no gap, no duplicate, no reordering.
func TestCrash_SIGKILL(t *testing.T) {
	const (
		rounds  = 20
		writers = 16
	)
	seed := uint64(time.Now().UnixNano())
	t.Logf("seed %d", seed)
	rng := rand.New(rand.NewPCG(seed, 1))
	start := time.Now()

	dataDir := t.TempDir()
	s := startServer(t, dataDir, serverOptions{})
	setupCRD(s)
	s.createNamespaces("ns0", "ns1", "ns2", "ns3")
	from := s.revision()

	ws := make([]*writer, writers)
	for i := range ws {
		ws[i] = &writer{id: fmt.Sprintf("w%02d", i), ns: fmt.Sprintf("ns%d", i%4), rng: rand.New(rand.NewPCG(seed, uint64(i+2)))}
	}
	got := &acks{}
	var seen []event // what the watcher saw, across restarts
	lastSeen := from
	var stats loadStats
	var totalUp time.Duration

	for round := 0; round < rounds; round++ {
		if round > 0 {
			s = startServer(t, dataDir, serverOptions{})
			waitServed(s)
		}
		upAt := time.Now()
		ctx, cancel := context.WithCancel(context.Background())
		var wg sync.WaitGroup
		// The watcher resumes from the last resourceVersion it saw.
		watchDone := make(chan error, 1)
		go func() {
			watchDone <- watchStream(ctx, s, allCrontabs, strconv.FormatInt(lastSeen, 10), func(e event) bool {
				seen = append(seen, e)
				lastSeen = e.RV
				return true
			})
		}()
		for _, w := range ws {
			wg.Add(1)
			go func() { defer wg.Done(); w.run(ctx, s, got, &stats) }()
		}
		time.Sleep(time.Duration(100+rng.IntN(600)) * time.Millisecond)
		s.kill()
		totalUp += time.Since(upAt)
		cancel()
		wg.Wait()
		if err := <-watchDone; err != nil && !isDisconnect(err) {
			t.Fatalf("round %d: watch: %v", round, err)
		}
		// Nothing has the file open now: check it.
		checkStore(t, dataDir)
	}

	s = startServer(t, dataDir, serverOptions{})
	waitServed(s)
	hist := history(t, s, from, "end")
	s.stop()
	checkStore(t, dataDir)

	// 1. Every acknowledged write is in the history, as acknowledged.
	byRV := map[int64]event{}
	for i, e := range hist {
		if i > 0 && e.RV <= hist[i-1].RV {
			t.Fatalf("history out of order: %v after %v", e, hist[i-1])
		}
		byRV[e.RV] = e
	}
	all := got.all()
	for _, a := range all {
		e, ok := byRV[a.rv]
		if !ok || e.Name != a.name || e.Counter != a.counter || e.Writer != a.writer {
			t.Errorf("acknowledged write %+v lost: history has %v (%v)", a, e, ok)
		}
	}
	// 2. The watcher saw exactly a prefix of the history, in order.
	if len(seen) > len(hist) {
		t.Fatalf("the watcher saw %d events, the history has %d", len(seen), len(hist))
	}
	for i, e := range seen {
		if e != hist[i] {
			t.Fatalf("watch event %d: saw %v, history has %v (a gap, duplicate or reordering across restarts)", i, e, hist[i])
		}
	}
	if n := stats.serverErrors.Load(); n > 0 {
		t.Errorf("%d requests answered 5xx", n)
	}
	t.Logf("%d rounds in %v (servers up %v in all): %d writes acknowledged (%d other answers, %d wrong answers, %d answers cut off and %d requests failed by SIGKILL); "+
		"history %d events; the watcher saw %d of them across %d restarts, in order, without gaps; Check passed after every kill",
		rounds, time.Since(start).Round(time.Second), totalUp.Round(100*time.Millisecond), len(all), stats.rejected.Load(),
		stats.badAnswers.Load(), stats.torn.Load(), stats.transportErrors.Load(), len(hist), len(seen), rounds)
}

// isDisconnect reports whether err is what a client sees when the server
// dies under it.
func isDisconnect(err error) bool {
	var ne net.Error
	return errors.Is(err, syscall.ECONNRESET) || errors.Is(err, syscall.ECONNREFUSED) || errors.Is(err, context.Canceled) ||
		errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) || errors.As(err, &ne)
}
