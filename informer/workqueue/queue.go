package workqueue

import (
	"fmt"
	"sync"
	"time"

	"github.com/crdlab/crdlab/machinery/clock"
	"github.com/crdlab/crdlab/trace"
)

// Interface is a work queue of items of type T.
//
// Its contract:
//   - Items are handed out by Get in the order they became dirty (FIFO),
//     except that an item Added while processing joins the back of the
//     queue only when Done is called.
//   - An item Added again while it waits in the queue is not queued twice:
//     the Adds coalesce into one Get.
//   - An item is never handed to two workers at once: between a Get that
//     returns it and the matching Done, no Get returns it again.
//   - Every Add made before shut down is followed by a Get that returns the
//     item (after the Add, and after the Done of any worker holding it).
//
// All methods are safe for concurrent use.
//
// Interface mirrors TypedInterface[T] in client-go util/workqueue/queue.go.
type Interface[T comparable] interface {
	// Add marks item as needing processing. It is a no-op after shut down.
	Add(item T)
	// Len returns how many items wait in the queue, for information only:
	// gating Add or Get on Len cannot be synchronised.
	Len() int
	// Get blocks until it can hand out an item. shutdown=true means the
	// queue is shut down and empty, and the worker should return. Every item
	// Get returns must be passed to Done when the worker is finished with it.
	Get() (item T, shutdown bool)
	// Done marks item as no longer processing; if it was Added meanwhile, it
	// goes back on the queue.
	Done(item T)
	// ShutDown makes Add a no-op and, once the queue is empty, makes every
	// Get return shutdown=true. Items already queued are still handed out.
	ShutDown()
	// ShutDownWithDrain is ShutDown that also waits until every processing
	// item is Done. Workers must keep calling Done, or it blocks forever; a
	// ShutDown from another goroutine makes it return early.
	ShutDownWithDrain()
	// ShuttingDown reports whether ShutDown or ShutDownWithDrain was called.
	ShuttingDown() bool
}

// Config configures a queue. The zero Config is valid.
//
// Config mirrors QueueConfig (and the Name, Clock and MetricsProvider fields
// of TypedDelayingQueueConfig and TypedRateLimitingQueueConfig) in client-go.
type Config struct {
	// Name labels the queue's metrics. Empty is allowed.
	Name string
	// Clock is where the queue reads time. Nil means clock.RealClock{}.
	Clock clock.Clock
	// MetricsProvider makes the queue's metrics. Nil means metrics are
	// dropped.
	MetricsProvider MetricsProvider
	// Tracer, if not nil, gets an event (component trace.Workqueue, actor
	// Name) when an item is added, handed out, done, or delayed by
	// AddAfter/AddRateLimited. Nil is tracing off. (Not upstream.)
	Tracer *trace.Tracer
}

// withDefaults returns c with nil fields filled in.
func (c Config) withDefaults() Config {
	if c.Clock == nil {
		c.Clock = clock.RealClock{}
	}
	if c.MetricsProvider == nil {
		c.MetricsProvider = noopMetricsProvider{}
	}
	return c
}

// Queue is the basic work queue: an ordered queue, a dirty set and a
// processing set under one lock.
//
// Queue mirrors Typed[T] in client-go util/workqueue/queue.go.
type Queue[T comparable] struct {
	// mu guards every field below. cond uses it: Add and Done Signal a
	// waiting Get when they queue an item; ShutDown Broadcasts; Done
	// Broadcasts when processing becomes empty during shut down.
	mu   sync.Mutex
	cond *sync.Cond

	// queue is the order in which items are handed out. An item is in queue
	// if and only if it is in dirty and not in processing. It holds no
	// duplicates.
	queue []T

	// dirty holds the items that need processing: an item is in dirty if and
	// only if it was Added (before shut down) since the last Get that handed
	// it out.
	dirty set[T]

	// processing holds the items that are being processed: an item is in
	// processing if and only if a Get handed it out and Done has not been
	// called for it since. An item may be in both dirty and processing; it
	// then waits in dirty (not in queue) until Done moves it to queue.
	processing set[T]

	// shuttingDown is true once ShutDown or ShutDownWithDrain was called. It
	// never goes back to false.
	shuttingDown bool
	// drain is true while a ShutDownWithDrain waits for processing to
	// empty; ShutDown sets it to false to make that wait give up.
	drain bool

	// waiting counts Get calls blocked in cond.Wait. It exists so that
	// tests can wait for a Get to block before acting.
	waiting int

	metrics *queueMetrics[T]

	// name and tracer are Config's, set at construction.
	name   string
	tracer *trace.Tracer
}

var _ Interface[string] = (*Queue[string])(nil)

// The upstream functions the queue's trace events name.
const (
	upstreamAdd            = "k8s.io/client-go/util/workqueue.(*Typed).Add"
	upstreamGet            = "k8s.io/client-go/util/workqueue.(*Typed).Get"
	upstreamDone           = "k8s.io/client-go/util/workqueue.(*Typed).Done"
	upstreamAddAfter       = "k8s.io/client-go/util/workqueue.(*delayingType).AddAfter"
	upstreamAddRateLimited = "k8s.io/client-go/util/workqueue.(*rateLimitingType).AddRateLimited"
)

// New returns an empty Queue.
//
// New mirrors NewTypedWithConfig in client-go util/workqueue/queue.go.
func New[T comparable](cfg Config) *Queue[T] {
	cfg = cfg.withDefaults()
	q := &Queue[T]{
		dirty:      set[T]{},
		processing: set[T]{},
		metrics:    newQueueMetrics[T](cfg.Name, cfg.MetricsProvider, cfg.Clock),
		name:       cfg.Name,
		tracer:     cfg.Tracer,
	}
	q.cond = sync.NewCond(&q.mu)
	return q
}

// Add marks item as needing processing. If item is already dirty, Add does
// nothing; if item is processing, it is queued when Done is called.
func (q *Queue[T]) Add(item T) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.shuttingDown {
		return
	}
	if q.dirty.has(item) {
		// Coalesce: item is already queued, or will be on Done.
		return
	}
	q.metrics.add(item)
	q.dirty.insert(item)
	if q.processing.has(item) {
		// A worker holds item; Done will queue it. Queueing it now would let
		// a second worker process it concurrently.
		if q.tracer.Enabled() {
			q.emit("add", item, 0, fmt.Sprintf("dirty while a worker holds it: queued again on Done (depth %d)", len(q.queue)), upstreamAdd)
		}
		return
	}
	q.queue = append(q.queue, item)
	q.cond.Signal()
	if q.tracer.Enabled() {
		q.emit("add", item, 0, fmt.Sprintf("queued (depth %d)", len(q.queue)), upstreamAdd)
	}
}

// Len returns how many items wait in the queue. It does not count dirty
// items that are still processing.
func (q *Queue[T]) Len() int {
	q.mu.Lock()
	defer q.mu.Unlock()
	return len(q.queue)
}

// Get blocks until the queue is non-empty or shut down. It hands out the
// first queued item and marks it processing; after shut down it keeps
// handing out queued items and returns shutdown=true once there are none.
func (q *Queue[T]) Get() (item T, shutdown bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	for len(q.queue) == 0 && !q.shuttingDown {
		q.waiting++
		q.cond.Wait()
		q.waiting--
	}
	if len(q.queue) == 0 {
		// Shut down and empty.
		var zero T
		return zero, true
	}

	item = q.queue[0]
	var zero T
	q.queue[0] = zero // drop the reference so the backing array does not pin it
	q.queue = q.queue[1:]

	waited := q.metrics.get(item)
	q.processing.insert(item)
	q.dirty.delete(item)
	if q.tracer.Enabled() {
		q.emit("get", item, waited, fmt.Sprintf("handed to a worker after %s in the queue (depth %d)", waited.Round(time.Microsecond), len(q.queue)), upstreamGet)
	}
	return item, false
}

// Done marks item as no longer processing. If item was Added while it was
// processing, Done queues it.
func (q *Queue[T]) Done(item T) {
	q.mu.Lock()
	defer q.mu.Unlock()

	worked := q.metrics.done(item)
	q.processing.delete(item)
	requeued := q.dirty.has(item)
	if requeued {
		q.queue = append(q.queue, item)
		q.cond.Signal()
	} else if len(q.processing) == 0 && q.shuttingDown {
		// Wake a ShutDownWithDrain. Broadcast, not Signal: upstream
		// Signals, which a Get waiter could swallow.
		q.cond.Broadcast()
	}
	if q.tracer.Enabled() {
		msg := fmt.Sprintf("worker done after %s", worked.Round(time.Microsecond))
		if requeued {
			msg += fmt.Sprintf("; it was added meanwhile, so it is queued again (depth %d)", len(q.queue))
		}
		q.emit("done", item, worked, msg, upstreamDone)
	}
}

// emit records one event of the queue, keyed by item. Call it only when
// q.tracer.Enabled(), so that the message is not built for nothing.
func (q *Queue[T]) emit(step string, item T, d time.Duration, msg, upstream string) {
	q.tracer.Emit(trace.Event{
		Component: trace.Workqueue, Step: step, Actor: q.name,
		Key: fmt.Sprint(item), Duration: d, Message: msg, Upstream: upstream,
	})
}

// ShutDown makes Add a no-op and wakes every Get; once the queue is empty
// they return shutdown=true. It also ends a ShutDownWithDrain's wait.
func (q *Queue[T]) ShutDown() {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.drain = false
	q.shuttingDown = true
	q.cond.Broadcast()
}

// ShutDownWithDrain is ShutDown, then waits until no item is processing or
// until a ShutDown call cuts the wait short.
func (q *Queue[T]) ShutDownWithDrain() {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.drain = true
	q.shuttingDown = true
	q.cond.Broadcast()
	for len(q.processing) != 0 && q.drain {
		q.cond.Wait()
	}
}

// ShuttingDown reports whether ShutDown or ShutDownWithDrain was called.
func (q *Queue[T]) ShuttingDown() bool {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.shuttingDown
}

// check returns an error describing the first broken field invariant, or
// nil. Tests call it; it takes the lock.
func (q *Queue[T]) check() error {
	q.mu.Lock()
	defer q.mu.Unlock()
	inQueue := set[T]{}
	for _, item := range q.queue {
		if inQueue.has(item) {
			return fmt.Errorf("item %v is queued twice", item)
		}
		inQueue.insert(item)
		if !q.dirty.has(item) {
			return fmt.Errorf("queued item %v is not dirty", item)
		}
		if q.processing.has(item) {
			return fmt.Errorf("queued item %v is processing", item)
		}
	}
	for item := range q.dirty {
		if !q.processing.has(item) && !inQueue.has(item) {
			return fmt.Errorf("dirty item %v is neither processing nor queued", item)
		}
	}
	if len(q.metrics.addTimes) != len(q.dirty) {
		return fmt.Errorf("metrics track %d add times for %d dirty items", len(q.metrics.addTimes), len(q.dirty))
	}
	if len(q.metrics.processingStartTimes) != len(q.processing) {
		return fmt.Errorf("metrics track %d start times for %d processing items", len(q.metrics.processingStartTimes), len(q.processing))
	}
	return nil
}

// set is a set of items.
type set[T comparable] map[T]struct{}

func (s set[T]) has(item T) bool { _, ok := s[item]; return ok }
func (s set[T]) insert(item T)   { s[item] = struct{}{} }
func (s set[T]) delete(item T)   { delete(s, item) }
