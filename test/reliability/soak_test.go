package reliability

import (
	"context"
	"fmt"
	"math/rand/v2"
	"regexp"
	"sort"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// Soak test parameters: the 200 watchers and (here also) 200
// writers, for 60 s, on loopback.
const (
	soakDuration   = 60 * time.Second
	soakNamespaces = 20
	soakWatchers   = 200 // 10 per namespace
	soakWriters    = 200 // 10 per namespace
	soakObjects    = 5   // per writer
	// The bounds the test holds the server to once the load is gone.
	soakGoroutineSlack = 20       // goroutines above the baseline
	soakHeapSlack      = 64 << 20 // bytes of live heap above the baseline
)

// TestSoak runs 200 watchers and 200 writers against one server for 60 s.
// Every watcher must see exactly the acknowledged writes of its namespace,
// in resourceVersion order, none missing or repeated; /readyz must answer
// throughout; and once the clients are gone the server's goroutines and
// live heap must come back to within soakGoroutineSlack and soakHeapSlack
// of what they were before.
func TestSoak(t *testing.T) {
	s := startServer(t, t.TempDir(), serverOptions{args: []string{"--profiling"}})
	setupCRD(s)
	for i := range soakNamespaces {
		s.createNamespaces(fmt.Sprintf("soak-%02d", i))
	}
	ctx := context.Background()

	// Create the objects first: the load then only updates, so the data
	// set has a fixed size and memory should not grow with time.
	type owned struct{ ns, name string }
	objects := make([][]owned, soakWriters)
	for w := range soakWriters {
		ns := fmt.Sprintf("soak-%02d", w%soakNamespaces)
		for i := range soakObjects {
			name := fmt.Sprintf("w%03d-%d", w, i)
			s.must(201, "POST", "/apis/stable.example.com/v1/namespaces/"+ns+"/crontabs", cronTab(ns, name, fmt.Sprintf("w%03d", w), 0))
			objects[w] = append(objects[w], owned{ns, name})
		}
	}
	s.client.CloseIdleConnections()
	baseGoroutines, baseHeap := s.goroutines(), s.liveHeap()
	from := s.revision()
	t.Logf("baseline: %d goroutines, live heap %.1f MiB, %d objects, revision %d",
		baseGoroutines, float64(baseHeap)/(1<<20), soakWriters*soakObjects, from)

	loadCtx, stopLoad := context.WithCancel(ctx)
	watchCtx, stopWatches := context.WithCancel(ctx)
	defer stopLoad()
	defer stopWatches()

	// Watchers: each namespace's events from the baseline revision.
	type watcher struct {
		ns string
		// lastRV is the resourceVersion of the last event, for the
		// catch-up wait; events and err are read only after watchWG.Wait.
		lastRV atomic.Int64
		events []event
		err    error
	}
	watchers := make([]*watcher, soakWatchers)
	var watchWG sync.WaitGroup
	var started atomic.Int64
	for i := range watchers {
		w := &watcher{ns: fmt.Sprintf("soak-%02d", i%soakNamespaces)}
		watchers[i] = w
		watchWG.Add(1)
		go func() {
			defer watchWG.Done()
			started.Add(1)
			w.err = watchStream(watchCtx, s, "/apis/stable.example.com/v1/namespaces/"+w.ns+"/crontabs", strconv.FormatInt(from, 10),
				func(e event) bool { w.events = append(w.events, e); w.lastRV.Store(e.RV); return true })
		}()
	}
	s.poll("watchers started", func() bool { return started.Load() == soakWatchers })

	// Writers: merge patches that bump spec.counter, 200-400 ms apart.
	got := &acks{}
	var stats loadStats
	var writeWG sync.WaitGroup
	for w := range soakWriters {
		writeWG.Add(1)
		go func() {
			defer writeWG.Done()
			rng := rand.New(rand.NewPCG(uint64(w), 11))
			id := fmt.Sprintf("w%03d", w)
			for counter := 1; loadCtx.Err() == nil; counter++ {
				o := objects[w][rng.IntN(len(objects[w]))]
				code, b, err := s.do(ctx, "PATCH", "/apis/stable.example.com/v1/namespaces/"+o.ns+"/crontabs/"+o.name,
					fmt.Sprintf(`{"spec":{"counter":%d,"writer":%q}}`, counter, id))
				switch {
				case err != nil:
					stats.transportErrors.Add(1)
				case code == 200:
					if obj, err := parseObject(b); err == nil && obj.Spec.Counter == counter {
						got.add(ack{name: o.ns + "/" + o.name, rv: rvOf(obj), counter: counter, writer: id})
						stats.acked.Add(1)
					} else {
						stats.badAnswers.Add(1)
					}
				case code >= 500:
					stats.serverErrors.Add(1)
				default:
					stats.rejected.Add(1)
				}
				select {
				case <-loadCtx.Done():
				case <-time.After(time.Duration(200+rng.IntN(200)) * time.Millisecond):
				}
			}
		}()
	}

	// /readyz throughout.
	var readyMax time.Duration
	var readyFailures int
	loadStart := time.Now()
	for time.Since(loadStart) < soakDuration {
		t0 := time.Now()
		rctx, cancel := context.WithTimeout(ctx, 5*time.Second)
		code, _, err := s.do(rctx, "GET", "/readyz", "")
		cancel()
		readyMax = max(readyMax, time.Since(t0))
		if err != nil || code != 200 {
			readyFailures++
		}
		time.Sleep(500 * time.Millisecond)
	}
	stopLoad()
	writeWG.Wait()
	loadTook := time.Since(loadStart)

	// Let every watcher catch up with the last acknowledged write of its
	// namespace, then stop them.
	all := got.all()
	want := map[string][]ack{}
	for _, a := range all {
		ns := a.name[:len("soak-00")]
		want[ns] = append(want[ns], a)
	}
	for ns := range want {
		sort.Slice(want[ns], func(i, j int) bool { return want[ns][i].rv < want[ns][j].rv })
	}
	caughtUp := func() bool {
		for _, w := range watchers {
			exp := want[w.ns]
			if len(exp) > 0 && w.lastRV.Load() < exp[len(exp)-1].rv {
				return false
			}
		}
		return true
	}
	deadline := time.Now().Add(30 * time.Second)
	for !caughtUp() && time.Now().Before(deadline) {
		time.Sleep(100 * time.Millisecond)
	}
	stopWatches()
	watchWG.Wait()

	// Every watcher saw exactly its namespace's acknowledged writes, in
	// order.
	var events int
	for i, w := range watchers {
		if w.err != nil && !isDisconnect(w.err) {
			t.Errorf("watcher %d (%s): %v", i, w.ns, w.err)
		}
		exp := want[w.ns]
		events += len(w.events)
		if len(w.events) != len(exp) {
			t.Errorf("watcher %d (%s): %d events, want %d", i, w.ns, len(w.events), len(exp))
		}
		for j := 0; j < min(len(w.events), len(exp)); j++ {
			e, a := w.events[j], exp[j]
			if e.Type != "MODIFIED" || e.RV != a.rv || e.Name != a.name || e.Counter != a.counter || e.Writer != a.writer {
				t.Errorf("watcher %d (%s): event %d is %v, want the write %+v", i, w.ns, j, e, a)
				break
			}
		}
	}
	if n := stats.serverErrors.Load() + stats.transportErrors.Load() + stats.badAnswers.Load(); n > 0 {
		t.Errorf("%d writes failed (5xx %d, transport %d, wrong answers %d)", n, stats.serverErrors.Load(), stats.transportErrors.Load(), stats.badAnswers.Load())
	}
	if readyFailures > 0 {
		t.Errorf("/readyz failed %d times under load", readyFailures)
	}

	// The load is gone: goroutines and live heap come back.
	s.client.CloseIdleConnections()
	var goroutines int
	var heap uint64
	settleBy := time.Now().Add(15 * time.Second)
	for {
		goroutines, heap = s.goroutines(), s.liveHeap()
		if goroutines <= baseGoroutines+soakGoroutineSlack && heap <= baseHeap+soakHeapSlack || time.Now().After(settleBy) {
			break
		}
		time.Sleep(500 * time.Millisecond)
	}
	if goroutines > baseGoroutines+soakGoroutineSlack {
		t.Errorf("goroutines: %d after the load, %d before (bound: +%d)\n%s", goroutines, baseGoroutines, soakGoroutineSlack, s.goroutineDump())
	}
	if heap > baseHeap+soakHeapSlack {
		t.Errorf("live heap: %.1f MiB after the load, %.1f MiB before (bound: +%d MiB)", float64(heap)/(1<<20), float64(baseHeap)/(1<<20), soakHeapSlack>>20)
	}
	t.Logf("soak: %v of load, %d watchers and %d writers over %d namespaces: %d writes acknowledged (%d/s; %d answered 429 or 409, retried), "+
		"%d events delivered, every watcher saw its namespace's writes exactly and in order; /readyz always 200, slowest %v; "+
		"after: %d goroutines (before %d, bound +%d), live heap %.1f MiB (before %.1f MiB, bound +%d MiB), revision %d",
		loadTook.Round(time.Second), soakWatchers, soakWriters, soakNamespaces, len(all), len(all)*int(time.Second)/int(loadTook),
		stats.rejected.Load(), events, readyMax.Round(time.Millisecond), goroutines, baseGoroutines, soakGoroutineSlack,
		float64(heap)/(1<<20), float64(baseHeap)/(1<<20), soakHeapSlack>>20, s.revision())
}

// goroutines is the server's go_goroutines.
func (s *server) goroutines() int { return int(s.metric("go_goroutines")) }

var heapAllocLine = regexp.MustCompile(`(?m)^# HeapAlloc = (\d+)$`)

// liveHeap runs a GC in the server (pprof's heap profile with gc=1) and
// returns HeapAlloc after it: the live heap.
func (s *server) liveHeap() uint64 {
	s.t.Helper()
	b := s.must(200, "GET", "/debug/pprof/heap?gc=1&debug=1", "")
	m := heapAllocLine.FindSubmatch(b)
	if m == nil {
		s.t.Fatalf("no HeapAlloc in the heap profile")
	}
	n, _ := strconv.ParseUint(string(m[1]), 10, 64)
	return n
}

// goroutineDump is the server's goroutines, for a failure message.
func (s *server) goroutineDump() string {
	code, b, err := s.do(context.Background(), "GET", "/debug/pprof/goroutine?debug=1", "")
	if err != nil || code != 200 {
		return fmt.Sprintf("(no goroutine dump: %d %v)", code, err)
	}
	return tail(string(b), 20000)
}
