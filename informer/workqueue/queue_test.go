package workqueue

import (
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// waitTimeout bounds every wait in these tests. It is a failure deadline,
// never a sleep: nothing waits for it to pass.
const waitTimeout = 10 * time.Second

// eventually polls cond until it is true, failing the test after
// waitTimeout.
func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(waitTimeout)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		runtime.Gosched()
	}
}

// getResult is what Get returned.
type getResult[T comparable] struct {
	item     T
	shutdown bool
}

// getAsync runs q.Get in a goroutine and returns a channel for its result.
func getAsync[T comparable](q Interface[T]) <-chan getResult[T] {
	c := make(chan getResult[T], 1)
	go func() {
		item, shutdown := q.Get()
		c <- getResult[T]{item, shutdown}
	}()
	return c
}

// receive waits for a value on c, failing the test after waitTimeout.
func receive[V any](t *testing.T, what string, c <-chan V) V {
	t.Helper()
	select {
	case v := <-c:
		return v
	case <-time.After(waitTimeout):
		t.Fatalf("timed out waiting for %s", what)
		panic("unreachable")
	}
}

// mustGet calls q.Get, failing the test if it blocks past waitTimeout, says
// shutdown, or returns something other than want.
func mustGet[T comparable](t *testing.T, q Interface[T], want T) {
	t.Helper()
	r := receive(t, "Get", getAsync(q))
	if r.shutdown {
		t.Fatalf("Get: shutdown=true, want %v", want)
	}
	if r.item != want {
		t.Fatalf("Get = %v, want %v", r.item, want)
	}
}

// mustCheck fails the test if q's field invariants are broken.
func mustCheck[T comparable](t *testing.T, q *Queue[T]) {
	t.Helper()
	if err := q.check(); err != nil {
		t.Fatal(err)
	}
}

func wantLen[T comparable](t *testing.T, q Interface[T], want int) {
	t.Helper()
	if got := q.Len(); got != want {
		t.Fatalf("Len = %d, want %d", got, want)
	}
}

func TestQueue_Add(t *testing.T) {
	t.Run("FIFO", func(t *testing.T) {
		q := New[string](Config{})
		for _, s := range []string{"c", "a", "b"} {
			q.Add(s)
		}
		wantLen(t, q, 3)
		for _, s := range []string{"c", "a", "b"} {
			mustGet(t, q, s)
		}
		mustCheck(t, q)
	})

	t.Run("DuplicatesCoalesce", func(t *testing.T) {
		q := New[string](Config{})
		q.Add("a")
		q.Add("b")
		q.Add("a")
		q.Add("a")
		wantLen(t, q, 2)
		mustCheck(t, q)
		mustGet(t, q, "a")
		mustGet(t, q, "b")
		wantLen(t, q, 0)
	})

	t.Run("WhileProcessingIsRedeliveredAfterDone", func(t *testing.T) {
		q := New[string](Config{})
		q.Add("a")
		mustGet(t, q, "a")

		q.Add("a") // a is processing: it must wait in dirty, not the queue
		q.Add("a") // and coalesce
		wantLen(t, q, 0)
		mustCheck(t, q)

		q.Done("a")
		wantLen(t, q, 1)
		mustCheck(t, q)
		mustGet(t, q, "a")
		q.Done("a")
		wantLen(t, q, 0)
		mustCheck(t, q)
	})

	t.Run("WhileProcessingGoesToTheBack", func(t *testing.T) {
		q := New[string](Config{})
		q.Add("a")
		mustGet(t, q, "a")
		q.Add("a")
		q.Add("b")
		q.Done("a")
		mustGet(t, q, "b")
		mustGet(t, q, "a")
	})

	t.Run("AfterShutDownIsIgnored", func(t *testing.T) {
		q := New[string](Config{})
		q.ShutDown()
		q.Add("a")
		wantLen(t, q, 0)
		mustCheck(t, q)
	})
}

func TestQueue_Get(t *testing.T) {
	t.Run("ShutDownUnblocksEveryGet", func(t *testing.T) {
		q := New[string](Config{})
		const getters = 3
		results := make([]<-chan getResult[string], getters)
		for i := range results {
			results[i] = getAsync[string](q)
		}
		eventually(t, "every Get to block", func() bool {
			q.mu.Lock()
			defer q.mu.Unlock()
			return q.waiting == getters
		})

		q.ShutDown()
		for _, c := range results {
			if r := receive(t, "Get after ShutDown", c); !r.shutdown {
				t.Fatalf("Get = %v, shutdown=false; want shutdown=true", r.item)
			}
		}
		if !q.ShuttingDown() {
			t.Fatal("ShuttingDown = false after ShutDown")
		}
	})

	t.Run("HandsOutQueuedItemsAfterShutDown", func(t *testing.T) {
		q := New[string](Config{})
		q.Add("a")
		q.Add("b")
		q.ShutDown()
		mustGet(t, q, "a")
		mustGet(t, q, "b")
		if _, shutdown := q.Get(); !shutdown {
			t.Fatal("Get on an empty, shut down queue: shutdown=false")
		}
	})

	t.Run("DoneAfterShutDownRequeuesDirtyItem", func(t *testing.T) {
		q := New[string](Config{})
		q.Add("a")
		mustGet(t, q, "a")
		q.Add("a") // before shut down: must still be delivered
		q.ShutDown()
		q.Done("a")
		mustGet(t, q, "a")
		q.Done("a")
		if _, shutdown := q.Get(); !shutdown {
			t.Fatal("Get on an empty, shut down queue: shutdown=false")
		}
	})
}

func TestQueue_ShutDownWithDrain(t *testing.T) {
	// drainWaiting reports whether a ShutDownWithDrain is parked in its
	// wait: it set drain under the lock, and only cond.Wait releases it.
	drainWaiting := func(q *Queue[string]) func() bool {
		return func() bool {
			q.mu.Lock()
			defer q.mu.Unlock()
			return q.drain
		}
	}

	t.Run("WaitsForProcessingItems", func(t *testing.T) {
		q := New[string](Config{})
		q.Add("a")
		q.Add("b")
		mustGet(t, q, "a")
		mustGet(t, q, "b")

		returned := make(chan struct{})
		go func() {
			q.ShutDownWithDrain()
			close(returned)
		}()
		eventually(t, "ShutDownWithDrain to wait", drainWaiting(q))

		q.Done("a")
		select {
		case <-returned:
			t.Fatal("ShutDownWithDrain returned while b was processing")
		default:
		}
		q.Done("b")
		receive(t, "ShutDownWithDrain to return", returned)
	})

	t.Run("ShutDownCutsTheWaitShort", func(t *testing.T) {
		q := New[string](Config{})
		q.Add("a")
		mustGet(t, q, "a")

		returned := make(chan struct{})
		go func() {
			q.ShutDownWithDrain()
			close(returned)
		}()
		eventually(t, "ShutDownWithDrain to wait", drainWaiting(q))

		q.ShutDown()
		receive(t, "ShutDownWithDrain to return", returned)
	})

	t.Run("NothingProcessing", func(t *testing.T) {
		q := New[string](Config{})
		q.Add("a") // queued, not processing: drain does not wait for it
		q.ShutDownWithDrain()
		mustGet(t, q, "a")
	})
}

// TestQueue_Concurrent runs many adders and workers on a small key space and
// checks the two promises that matter to a controller: no key is handled by
// two workers at once, and every key is handled after its last Add.
func TestQueue_Concurrent(t *testing.T) {
	const (
		keys         = 32
		adders       = 8
		addsPerAdder = 2000
		workers      = 6
	)
	q := New[int](Config{})

	// seq orders events across goroutines. An Add is stamped before it
	// starts and a Get after it returns, so if a Get hands a key out after
	// an Add of it, the Get's stamp is larger.
	var seq atomic.Int64
	var lastAdd, lastGot [keys]atomic.Int64
	var inFlight [keys]atomic.Bool
	storeMax := func(v *atomic.Int64, n int64) {
		for {
			old := v.Load()
			if n <= old || v.CompareAndSwap(old, n) {
				return
			}
		}
	}

	var workersDone sync.WaitGroup
	var handled atomic.Int64
	for range workers {
		workersDone.Add(1)
		go func() {
			defer workersDone.Done()
			for n := 0; ; n++ {
				key, shutdown := q.Get()
				if shutdown {
					return
				}
				storeMax(&lastGot[key], seq.Add(1))
				if !inFlight[key].CompareAndSwap(false, true) {
					t.Errorf("key %d handed to two workers at once", key)
				}
				handled.Add(1)
				if n%64 == 0 {
					if err := q.check(); err != nil {
						t.Error(err)
					}
				}
				runtime.Gosched() // widen the window for a second worker
				inFlight[key].Store(false)
				q.Done(key)
			}
		}()
	}

	var addersDone sync.WaitGroup
	for a := range adders {
		addersDone.Add(1)
		go func() {
			defer addersDone.Done()
			for i := range addsPerAdder {
				key := (a*7 + i*13) % keys
				storeMax(&lastAdd[key], seq.Add(1))
				q.Add(key)
			}
		}()
	}
	addersDone.Wait()
	q.ShutDown()
	workersDone.Wait()

	for key := range keys {
		if a, g := lastAdd[key].Load(), lastGot[key].Load(); a != 0 && g <= a {
			t.Errorf("key %d: last Add at %d, last handled at %d: the last Add was lost", key, a, g)
		}
	}
	mustCheck(t, q)
	if len(q.dirty) != 0 || len(q.processing) != 0 || len(q.queue) != 0 {
		t.Errorf("after drain: dirty=%d processing=%d queue=%d, want all 0", len(q.dirty), len(q.processing), len(q.queue))
	}
	if n := handled.Load(); n >= adders*addsPerAdder {
		t.Logf("no Adds coalesced (%d handled); the test proves less than it could", n)
	}
}
