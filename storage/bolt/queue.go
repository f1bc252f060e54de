package bolt

import (
	"sync"

	"github.com/crdlab/crdlab/machinery/watch"
)

// eventQueue is one watcher's events waiting for its reader: a slice that
// grows only while the reader lags and is let go when it catches up, in
// place of a buffered channel of WatchBufferSize events per watcher
// (8 KiB each at the server's 256, 8 MB for 1,000 watchers, whether they
// lag or not).
//
// One goroutine reads it (TryNext, or the pump behind ResultChan); the
// fan-out and the watcher's catch-up goroutine write it.
type eventQueue struct {
	mu     sync.Mutex // guards events, head, closed
	events []watch.Event
	head   int  // events[head:] are waiting
	closed bool // no more events will come: the watch ends once they are read
	limit  int  // how many may wait (WatchBufferSize)

	ready chan struct{} // a token: there may be something new to read
	space chan struct{} // a token: the reader took events (for pushWait)
}

// keptEvents is the capacity a drained queue keeps; a larger one, grown
// while its reader lagged, is let go.
const keptEvents = 16

func newEventQueue(limit int) *eventQueue {
	return &eventQueue{limit: limit, ready: make(chan struct{}, 1), space: make(chan struct{}, 1)}
}

func signal(c chan struct{}) {
	select {
	case c <- struct{}{}:
	default:
	}
}

// push queues ev unless limit events are waiting (or the queue is closed);
// it never waits.
func (q *eventQueue) push(ev watch.Event) bool {
	q.mu.Lock()
	if q.closed || len(q.events)-q.head >= q.limit {
		q.mu.Unlock()
		return false
	}
	q.events = append(q.events, ev)
	q.mu.Unlock()
	signal(q.ready)
	return true
}

// pushWait queues ev, waiting for room while limit events are waiting; it
// returns false if stop or closing is closed first.
func (q *eventQueue) pushWait(ev watch.Event, stop, closing <-chan struct{}) bool {
	for {
		if q.push(ev) {
			return true
		}
		select {
		case <-q.space:
		case <-stop:
			return false
		case <-closing:
			return false
		}
	}
}

// closeWith queues ev (if it is not the zero Event), past the limit if
// need be, and closes the queue: ev is the last event. It reports whether
// the queue was open.
func (q *eventQueue) closeWith(ev watch.Event) bool {
	q.mu.Lock()
	if q.closed {
		q.mu.Unlock()
		return false
	}
	if ev.Type != "" {
		q.events = append(q.events, ev)
	}
	q.closed = true
	q.mu.Unlock()
	signal(q.ready)
	return true
}

// TryNext returns the next event if there is one. done says there is none
// and never will be: the watch has ended.
func (q *eventQueue) TryNext() (ev watch.Event, ok, done bool) {
	q.mu.Lock()
	if q.head == len(q.events) {
		done = q.closed
		q.mu.Unlock()
		return watch.Event{}, false, done
	}
	ev = q.events[q.head]
	q.events[q.head] = watch.Event{} // keep no object alive
	q.head++
	if q.head == len(q.events) {
		q.head = 0
		if cap(q.events) > keptEvents {
			q.events = nil
		} else {
			q.events = q.events[:0]
		}
	}
	q.mu.Unlock()
	signal(q.space)
	return ev, true, false
}

// Ready returns a channel that receives when TryNext may have an event or
// the end of the watch to report.
func (q *eventQueue) Ready() <-chan struct{} { return q.ready }

// Wake makes Ready receive (a wake-up with nothing new to read).
func (q *eventQueue) Wake() { signal(q.ready) }

// pump moves the queue's events to out for ResultChan, and closes out at
// the end of the watch, or when stop or closing is closed while it waits
// for the reader.
func (q *eventQueue) pump(out chan<- watch.Event, stop, closing <-chan struct{}) {
	defer close(out)
	for {
		ev, ok, done := q.TryNext()
		switch {
		case ok:
			select {
			case out <- ev:
			case <-stop:
				return
			case <-closing:
				return
			}
		case done:
			return
		default:
			select {
			case <-q.ready:
			case <-stop:
				return
			}
		}
	}
}
