package filters

import (
	"bytes"
	"runtime"
	"strconv"
	"sync"
	"testing"
	"time"
)

// goroutineID is the number runtime.Stack prints for the calling goroutine.
func goroutineID() int {
	buf := make([]byte, 64)
	buf = buf[:runtime.Stack(buf, false)]
	f := bytes.Fields(buf) // "goroutine 42 [running]:"
	id, _ := strconv.Atoi(string(f[1]))
	return id
}

// toIdle hands f to a worker waiting for work, as Go does when one is
// waiting, but waits for one to receive it: a worker counts itself idle
// just before it waits, so Go right after waitIdle can find no receiver
// yet and start a new goroutine.
func toIdle(t *testing.T, p *handlerWorkers, f func()) {
	t.Helper()
	select {
	case p.work <- f:
	case <-time.After(10 * time.Second):
		t.Fatal("no idle worker took the handler")
	}
}

// waitIdle polls until n workers wait for work.
func waitIdle(t *testing.T, p *handlerWorkers, n int32) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); p.idle.Load() != n; time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("%d idle workers, want %d", p.idle.Load(), n)
		}
	}
}

// TestHandlerWorkers_Reuse: a handler runs on the goroutine that ran the
// one before it once that one is idle, so that it starts on the stack
// the earlier handler grew.
func TestHandlerWorkers_Reuse(t *testing.T) {
	p := newHandlerWorkers(4, time.Minute)
	ids := make(chan int, 1)
	p.Go(func() { ids <- goroutineID() })
	first := <-ids
	waitIdle(t, p, 1)
	toIdle(t, p, func() { ids <- goroutineID() })
	if second := <-ids; second != first {
		t.Errorf("the second handler ran on goroutine %d, the first on %d: the idle worker was not reused", second, first)
	}
}

// TestHandlerWorkers_Concurrent: handlers never wait for each other (a
// new goroutine when no worker is idle), and at most maxIdle workers stay
// once they are done.
func TestHandlerWorkers_Concurrent(t *testing.T) {
	const maxIdle, n = 3, 10
	p := newHandlerWorkers(maxIdle, time.Minute)
	var started, finished sync.WaitGroup
	release := make(chan struct{})
	ids := make(chan int, n)
	for range n {
		started.Add(1)
		finished.Add(1)
		p.Go(func() {
			defer finished.Done()
			ids <- goroutineID()
			started.Done()
			<-release // all n run at once, or this never returns
		})
	}
	started.Wait()
	close(release)
	finished.Wait()
	close(ids)
	seen := map[int]bool{}
	for id := range ids {
		seen[id] = true
	}
	if len(seen) != n {
		t.Errorf("%d handlers ran on %d goroutines", n, len(seen))
	}
	waitIdle(t, p, maxIdle)
	// The others ended: another handler still finds an idle worker.
	done := make(chan int)
	toIdle(t, p, func() { done <- goroutineID() })
	if id := <-done; !seen[id] {
		t.Errorf("a handler after the burst ran on a new goroutine %d, not an idle worker", id)
	}
}

// TestHandlerWorkers_Goexit: a handler that ends its goroutine
// (runtime.Goexit, as t.FailNow does) takes only its worker with it.
func TestHandlerWorkers_Goexit(t *testing.T) {
	p := newHandlerWorkers(4, time.Minute)
	exited := make(chan struct{})
	p.Go(func() {
		defer close(exited)
		runtime.Goexit()
	})
	<-exited
	ran := make(chan struct{})
	p.Go(func() { close(ran) })
	<-ran
	waitIdle(t, p, 1) // the second handler's worker; the first's is gone
}

// TestHandlerWorkers_IdleEnds: a worker with no work for idleFor ends, so
// that a server gone quiet keeps no workers; the next handler starts a
// new goroutine.
func TestHandlerWorkers_IdleEnds(t *testing.T) {
	p := newHandlerWorkers(4, 20*time.Millisecond)
	ids := make(chan int, 1)
	p.Go(func() { ids <- goroutineID() })
	first := <-ids
	for deadline := time.Now().Add(10 * time.Second); p.idleEnded.Load() != 1; time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the idle worker did not end")
		}
	}
	if n := p.idle.Load(); n != 0 {
		t.Errorf("%d idle workers after the only one ended", n)
	}
	p.Go(func() { ids <- goroutineID() })
	if second := <-ids; second == first {
		t.Errorf("a handler after the idle time ran on the ended worker %d", first)
	}
}

// TestHandlerWorkers_EveryHandlerRuns: a worker that has run its share
// of handlers (runs) ends, and the handler sent to it as it ended still
// runs. Handlers sent one at a time, each to the idle worker, as a
// client with one request in flight sends them: the worker's last
// handler was received and dropped once, and its request hung until
// the timeout's 504.
func TestHandlerWorkers_EveryHandlerRuns(t *testing.T) {
	p := newHandlerWorkers(4, time.Minute)
	p.runs = 3
	workers := map[int]int{} // goroutine → handlers it ran
	for i := range 10 {
		ran := make(chan int)
		f := func() { ran <- goroutineID() }
		if i%p.runs == 0 {
			// The worker before has run its share: none takes the
			// handler (the old loop's did, and dropped it), and Go
			// starts a new one.
			select {
			case p.work <- f:
			case <-time.After(50 * time.Millisecond):
				p.Go(f)
			}
		} else {
			toIdle(t, p, f) // the worker that ran the one before
		}
		select {
		case id := <-ran:
			workers[id]++
		case <-time.After(10 * time.Second):
			t.Fatalf("handler %d did not run", i+1)
		}
	}
	for id, n := range workers {
		if n > p.runs {
			t.Errorf("goroutine %d ran %d handlers, more than %d", id, n, p.runs)
		}
	}
	if len(workers) < 4 {
		t.Errorf("10 handlers ran on %d workers of at most 3 each", len(workers))
	}
}
