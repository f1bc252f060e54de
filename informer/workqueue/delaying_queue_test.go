package workqueue

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/crdlab/crdlab/machinery/clock"
)

var epoch = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

// newFakeDelaying returns a delaying queue on a FakeClock, shut down when
// the test ends.
func newFakeDelaying[T comparable](t *testing.T) (*delayingType[T], *clock.FakeClock) {
	t.Helper()
	fakeClock := clock.NewFakeClock(epoch)
	q := newDelaying[T](Config{Name: t.Name(), Clock: fakeClock})
	t.Cleanup(q.ShutDown)
	return q, fakeClock
}

// waitingLen returns how many items wait in q's heap.
func waitingLen[T comparable](q *delayingType[T]) int {
	q.mu.Lock()
	defer q.mu.Unlock()
	return len(q.waiting)
}

// checkDelaying fails the test if q's heap and timer invariants are broken.
func checkDelaying[T comparable](t *testing.T, q *delayingType[T]) {
	t.Helper()
	q.mu.Lock()
	defer q.mu.Unlock()
	if len(q.known) != len(q.waiting) {
		t.Fatalf("known has %d items, waiting has %d", len(q.known), len(q.waiting))
	}
	for i, e := range q.waiting {
		if e.index != i || q.known[e.item] != e {
			t.Fatalf("waiting[%d] = %v is not indexed as such", i, e.item)
		}
	}
	if (q.timer == nil) != (len(q.waiting) == 0) {
		t.Fatalf("timer set = %v with %d waiting", q.timer != nil, len(q.waiting))
	}
	if len(q.waiting) > 0 && !q.armedFor.Equal(q.waiting[0].readyAt) {
		t.Fatalf("timer armed for %v, earliest item ready at %v", q.armedFor, q.waiting[0].readyAt)
	}
}

func TestDelaying_AddAfter(t *testing.T) {
	t.Run("ReadyInOrderOfReadyTime", func(t *testing.T) {
		q, fakeClock := newFakeDelaying[string](t)
		q.AddAfter("c", 30*time.Second)
		q.AddAfter("a", 10*time.Second)
		q.AddAfter("b", 20*time.Second)
		checkDelaying(t, q)
		wantLen(t, q, 0)

		fakeClock.Step(9 * time.Second)
		wantLen(t, q, 0) // no timer is due, so nothing can have arrived

		for _, want := range []string{"a", "b", "c"} {
			if want == "a" {
				fakeClock.Step(time.Second)
			} else {
				fakeClock.Step(10 * time.Second)
			}
			mustGet(t, q, want)
			wantLen(t, q, 0)
			q.Done(want)
			checkDelaying(t, q)
		}
		if fakeClock.HasWaiters() {
			t.Fatal("a timer is still armed with nothing waiting")
		}
	})

	t.Run("DuplicateKeepsEarliestReadyTime", func(t *testing.T) {
		q, fakeClock := newFakeDelaying[string](t)
		q.AddAfter("a", 10*time.Second)
		q.AddAfter("a", 20*time.Second) // later: ignored
		q.AddAfter("a", 5*time.Second)  // earlier: wins
		if n := waitingLen(q); n != 1 {
			t.Fatalf("%d entries waiting, want 1", n)
		}
		checkDelaying(t, q)

		fakeClock.Step(5 * time.Second)
		mustGet(t, q, "a")
		q.Done("a")

		fakeClock.Step(time.Hour) // the 10s and 20s AddAfters must not resurface
		wantLen(t, q, 0)
		if n := waitingLen(q); n != 0 {
			t.Fatalf("%d entries waiting, want 0", n)
		}
		checkDelaying(t, q)
	})

	t.Run("EqualReadyTimesComeOutInAddOrder", func(t *testing.T) {
		q, fakeClock := newFakeDelaying[string](t)
		for _, s := range []string{"x", "y", "z"} {
			q.AddAfter(s, time.Second)
		}
		fakeClock.Step(time.Second)
		for _, s := range []string{"x", "y", "z"} {
			mustGet(t, q, s)
		}
	})

	t.Run("NonPositiveDelayAddsAtOnce", func(t *testing.T) {
		q, _ := newFakeDelaying[string](t)
		q.AddAfter("a", 0)
		q.AddAfter("b", -time.Second)
		wantLen(t, q, 2)
		if n := waitingLen(q); n != 0 {
			t.Fatalf("%d entries waiting, want 0", n)
		}
	})

	t.Run("clock.RealClock", func(t *testing.T) {
		q := NewDelaying[string](Config{})
		defer q.ShutDown()
		q.AddAfter("b", 20*time.Millisecond)
		q.AddAfter("a", time.Millisecond)
		mustGet(t, q, "a")
		mustGet(t, q, "b")
	})
}

func TestDelaying_ShutDown(t *testing.T) {
	t.Run("DropsWaitingItemsAndStopsTheLoop", func(t *testing.T) {
		q, fakeClock := newFakeDelaying[string](t)
		q.AddAfter("a", time.Second)
		q.Add("b")
		q.ShutDown()

		select {
		case <-q.loopDone:
		default:
			t.Fatal("ShutDown returned before the waiting loop ended")
		}
		if fakeClock.HasWaiters() {
			t.Fatal("ShutDown left a timer armed")
		}
		fakeClock.Step(time.Hour)
		mustGet(t, q, "b")
		if _, shutdown := q.Get(); !shutdown {
			t.Fatal("Get: shutdown=false; the waiting item survived ShutDown")
		}
	})

	t.Run("AddAfterIsIgnored", func(t *testing.T) {
		q, fakeClock := newFakeDelaying[string](t)
		q.ShutDown()
		q.AddAfter("a", time.Second)
		q.AddAfter("b", 0)
		fakeClock.Step(time.Hour)
		wantLen(t, q, 0)
		if n := waitingLen(q); n != 0 {
			t.Fatalf("%d entries waiting, want 0", n)
		}
	})

	t.Run("WithDrainStopsTheLoopToo", func(t *testing.T) {
		q, fakeClock := newFakeDelaying[string](t)
		q.AddAfter("a", time.Second)
		q.ShutDownWithDrain()
		<-q.loopDone // closed, or this test hangs and times out
		if fakeClock.HasWaiters() {
			t.Fatal("ShutDownWithDrain left a timer armed")
		}
		q.ShutDown() // a second shut down is harmless
	})
}

// TestDelaying_Concurrent races AddAfter from many goroutines against a
// goroutine stepping the clock, and checks that every item arrives exactly
// once. The clock keeps moving until then: a timer armed late because a Step
// raced with arming it (see docs/informer.md) still fires.
func TestDelaying_Concurrent(t *testing.T) {
	const (
		adders   = 6
		perAdder = 300
	)
	q, fakeClock := newFakeDelaying[string](t)

	collected := make(chan struct{})
	stepperDone := make(chan struct{})
	go func() {
		defer close(stepperDone)
		for {
			select {
			case <-collected:
				return
			default:
				fakeClock.Step(time.Millisecond)
				runtime.Gosched()
			}
		}
	}()
	defer func() {
		close(collected)
		<-stepperDone
	}()

	var wg sync.WaitGroup
	for a := range adders {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := rand.New(rand.NewPCG(uint64(a), 1))
			for i := range perAdder {
				q.AddAfter(fmt.Sprintf("%d-%d", a, i), time.Duration(r.IntN(50))*time.Millisecond)
			}
		}()
	}

	seen := map[string]bool{}
	for len(seen) < adders*perAdder {
		r := receive(t, "Get", getAsync[string](q))
		if r.shutdown {
			t.Fatal("Get: shutdown=true")
		}
		if seen[r.item] {
			t.Fatalf("%s delivered twice", r.item)
		}
		seen[r.item] = true
		q.Done(r.item)
	}
	wg.Wait()
	wantLen(t, q, 0)
	checkDelaying(t, q)
	mustCheck(t, q.Queue)
}
