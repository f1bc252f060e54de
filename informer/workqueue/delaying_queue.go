package workqueue

import (
	"container/heap"
	"fmt"
	"sync"
	"time"

	"github.com/crdlab/crdlab/machinery/clock"
)

// DelayingInterface is an Interface that can also Add an item later.
//
// DelayingInterface mirrors TypedDelayingInterface[T] in client-go
// util/workqueue/delaying_queue.go.
type DelayingInterface[T comparable] interface {
	Interface[T]
	// AddAfter Adds item once d has passed on the queue's Clock; d <= 0 Adds
	// it at once. While item waits, another AddAfter of it keeps the earlier
	// ready time. Items still waiting at shut down are dropped.
	AddAfter(item T, d time.Duration)
}

// delayingType is a Queue plus a min-heap of items waiting for their ready
// time, and one goroutine (loop) that Adds them when a timer fires.
//
// delayingType mirrors delayingType[T] in client-go
// util/workqueue/delaying_queue.go.
type delayingType[T comparable] struct {
	*Queue[T]

	clock clock.Clock

	// mu guards every field below. It is never held while calling into
	// Queue: AddAfter and loop call Add without it.
	mu sync.Mutex

	// waiting is the min-heap of items not yet ready, earliest readyAt (then
	// lowest seq) first.
	waiting waitForPriorityQueue[T]
	// known indexes waiting by item: an item is a key of known if and only if
	// it is in waiting, and known[item] is its entry.
	known map[T]*waitFor[T]
	// seq numbers entries in AddAfter order, to break readyAt ties.
	seq uint64

	// timer is nil if and only if waiting is empty. Otherwise it is armed
	// for armedFor, which equals waiting[0].readyAt: loop is woken when the
	// earliest item is due. (Between a timer firing and loop re-locking mu,
	// timer is spent; loop restores the invariant before unlocking.)
	timer    clock.Timer
	armedFor time.Time

	// stopped is true once ShutDown or ShutDownWithDrain began; AddAfter
	// then does nothing.
	stopped bool

	// rearm (capacity 1) tells loop that timer was replaced and it must
	// select on the new timer's channel.
	rearm chan struct{}
	// stop is closed on shut down to end loop; loopDone is closed by loop
	// when it returns.
	stop     chan struct{}
	loopDone chan struct{}
	stopOnce sync.Once
}

var _ DelayingInterface[string] = (*delayingType[string])(nil)

// NewDelaying returns an empty DelayingInterface and starts its waiting
// goroutine, which ShutDown or ShutDownWithDrain stops.
//
// NewDelaying mirrors NewTypedDelayingQueueWithConfig in client-go
// util/workqueue/delaying_queue.go.
func NewDelaying[T comparable](cfg Config) DelayingInterface[T] {
	return newDelaying[T](cfg)
}

func newDelaying[T comparable](cfg Config) *delayingType[T] {
	cfg = cfg.withDefaults()
	q := &delayingType[T]{
		Queue:    New[T](cfg),
		clock:    cfg.Clock,
		known:    map[T]*waitFor[T]{},
		rearm:    make(chan struct{}, 1),
		stop:     make(chan struct{}),
		loopDone: make(chan struct{}),
	}
	go q.loop()
	return q
}

// AddAfter Adds item after d. The heap and timer are updated before AddAfter
// returns, so with a FakeClock a Step that follows it will fire the timer.
//
// AddAfter mirrors (*delayingType).AddAfter; the heap insertion upstream
// happens in waitingLoop via waitingForAddCh.
func (q *delayingType[T]) AddAfter(item T, d time.Duration) {
	q.addAfter(item, d, false)
}

// addAfter is AddAfter; rateLimited says AddRateLimited called it, for
// the trace.
func (q *delayingType[T]) addAfter(item T, d time.Duration, rateLimited bool) {
	if q.ShuttingDown() {
		return
	}
	q.metrics.retry()
	if d <= 0 {
		q.Add(item)
		return
	}

	q.mu.Lock()
	defer q.mu.Unlock()
	if q.stopped {
		return
	}
	now := q.clock.Now()
	readyAt := now.Add(d)
	if e, ok := q.known[item]; ok {
		if !readyAt.Before(e.readyAt) {
			return // the earlier ready time wins
		}
		e.readyAt = readyAt
		heap.Fix(&q.waiting, e.index)
	} else {
		e := &waitFor[T]{item: item, readyAt: readyAt, seq: q.seq}
		q.seq++
		heap.Push(&q.waiting, e)
		q.known[item] = e
	}
	q.armLocked(now)
	if q.tracer.Enabled() {
		msg, upstream := fmt.Sprintf("waits %s before it is added", d), upstreamAddAfter
		if rateLimited {
			msg, upstream = fmt.Sprintf("backoff: waits %s before it is added again", d), upstreamAddRateLimited
		}
		q.emit("requeue", item, 0, msg, upstream)
	}
}

// armLocked restores the timer invariant after waiting changed: stop the
// timer if nothing waits, or re-arm it if the earliest ready time moved. now
// is the time the caller read. q.mu must be held.
func (q *delayingType[T]) armLocked(now time.Time) {
	if len(q.waiting) == 0 {
		if q.timer != nil {
			q.timer.Stop()
			q.timer = nil
			q.armedFor = time.Time{}
		}
		return
	}
	next := q.waiting[0].readyAt
	if q.timer != nil && q.armedFor.Equal(next) {
		return
	}
	if q.timer != nil {
		q.timer.Stop()
	}
	q.timer = q.clock.NewTimer(next.Sub(now))
	q.armedFor = next
	select {
	case q.rearm <- struct{}{}:
	default: // a wake-up is already pending
	}
}

// loop waits for the current timer, then moves every ready item from the heap
// to the queue. It is the only goroutine that reads timer channels.
//
// loop mirrors (*delayingType).waitingLoop.
func (q *delayingType[T]) loop() {
	defer close(q.loopDone)
	for {
		q.mu.Lock()
		cur := q.timer
		q.mu.Unlock()
		var fired <-chan time.Time // nil (never ready) when nothing waits
		if cur != nil {
			fired = cur.C()
		}

		select {
		case <-q.stop:
			return
		case <-q.rearm:
			continue
		case <-fired:
		}

		q.mu.Lock()
		if q.timer == cur {
			// cur has fired, so it is spent: armLocked must make a new one.
			q.timer = nil
			q.armedFor = time.Time{}
		}
		now := q.clock.Now()
		var ready []T
		for len(q.waiting) > 0 && !q.waiting[0].readyAt.After(now) {
			e := heap.Pop(&q.waiting).(*waitFor[T])
			delete(q.known, e.item)
			ready = append(ready, e.item)
		}
		// Arm for the next item before Adding the ready ones, so that a test
		// which sees a ready item in Get may Step the clock again safely.
		// Re-read the clock to keep the window small in which a concurrent
		// FakeClock.Step would make the new timer late (see docs/informer.md).
		q.armLocked(q.clock.Now())
		q.mu.Unlock()

		for _, item := range ready {
			q.Add(item)
		}
	}
}

// ShutDown stops the waiting loop, dropping items not yet ready, then shuts
// the queue down.
func (q *delayingType[T]) ShutDown() {
	q.stopLoop()
	q.Queue.ShutDown()
}

// ShutDownWithDrain stops the waiting loop, dropping items not yet ready,
// then shuts the queue down and waits for processing items to be Done.
func (q *delayingType[T]) ShutDownWithDrain() {
	q.stopLoop()
	q.Queue.ShutDownWithDrain()
}

// stopLoop ends loop and waits for it to return. Safe to call many times.
func (q *delayingType[T]) stopLoop() {
	q.stopOnce.Do(func() {
		q.mu.Lock()
		q.stopped = true
		q.waiting = nil // dropped, as upstream
		clear(q.known)
		q.armLocked(time.Time{}) // nothing waits: stops the timer
		q.mu.Unlock()
		close(q.stop)
	})
	<-q.loopDone
}

// waitFor is an item waiting in the heap.
//
// waitFor mirrors waitFor in client-go util/workqueue/delaying_queue.go.
type waitFor[T comparable] struct {
	item    T
	readyAt time.Time
	// seq is the AddAfter order, breaking readyAt ties (upstream has none).
	seq uint64
	// index is the entry's position in the heap, kept by Swap/Push/Pop.
	index int
}

// waitForPriorityQueue is a container/heap min-heap of waitFor entries.
//
// waitForPriorityQueue mirrors waitForPriorityQueue in client-go
// util/workqueue/delaying_queue.go.
type waitForPriorityQueue[T comparable] []*waitFor[T]

func (pq waitForPriorityQueue[T]) Len() int { return len(pq) }

func (pq waitForPriorityQueue[T]) Less(i, j int) bool {
	if !pq[i].readyAt.Equal(pq[j].readyAt) {
		return pq[i].readyAt.Before(pq[j].readyAt)
	}
	return pq[i].seq < pq[j].seq
}

func (pq waitForPriorityQueue[T]) Swap(i, j int) {
	pq[i], pq[j] = pq[j], pq[i]
	pq[i].index = i
	pq[j].index = j
}

// Push is for container/heap; use heap.Push.
func (pq *waitForPriorityQueue[T]) Push(x any) {
	e := x.(*waitFor[T])
	e.index = len(*pq)
	*pq = append(*pq, e)
}

// Pop is for container/heap; use heap.Pop.
func (pq *waitForPriorityQueue[T]) Pop() any {
	old := *pq
	n := len(old)
	e := old[n-1]
	old[n-1] = nil
	e.index = -1
	*pq = old[:n-1]
	return e
}
