package watch

import (
	"sync"

	"github.com/crdlab/crdlab/scheme"
)

// EventType is the type of a watch event.
type EventType string

// The event types, spelled as on the wire.
const (
	Added    EventType = "ADDED"
	Modified EventType = "MODIFIED"
	Deleted  EventType = "DELETED"
	// Bookmark carries only a resourceVersion: "you have seen everything up
	// to here". Sent only to watchers that asked for bookmarks.
	Bookmark EventType = "BOOKMARK"
	// Error carries a *metav1.Status; the watch ends after it.
	Error EventType = "ERROR"
)

// Event is one change seen by a watcher.
//
// Object is shared by every watcher that receives the event: treat it as
// read-only, and DeepCopyObject it before changing it.
type Event struct {
	Type   EventType
	Object scheme.Object
}

// Interface is a running watch: events arrive on ResultChan until it is
// closed, which happens when the watch ends for any reason or after Stop.
//
// Mirrors k8s.io/apimachinery/pkg/watch.Interface.
type Interface interface {
	// Stop ends the watch. It is safe to call more than once and from any
	// goroutine; ResultChan is closed soon after.
	Stop()
	// ResultChan delivers the events, in resourceVersion order.
	ResultChan() <-chan Event
}

// Poller is a watch whose events can be taken one at a time without a
// channel: a server holding a thousand watches (serveWatch) polls them
// instead of keeping a buffered channel per watch, and storage queues an
// event only while its reader lags. A watch is read either through
// ResultChan or through TryNext, never both.
//
// Upstream has no such interface: its cacheWatcher keeps a buffered
// channel per watch (cacher/cache_watcher.go).
type Poller interface {
	Interface
	// TryNext returns the next event if one is waiting (ok); done says
	// none is and none will come: the watch has ended.
	TryNext() (ev Event, ok, done bool)
	// Ready receives when TryNext may have an event, or the end of the
	// watch, to report, or after Wake.
	Ready() <-chan struct{}
	// Wake makes Ready receive even if nothing came: the reader folds its
	// own reasons to stop waiting (its request ended, its timeout passed)
	// into the one channel it waits on.
	Wake()
}

// FakeWatcher is a watch driven by hand, for tests of code that consumes
// watches (reflectors, informers).
//
// Mirrors k8s.io/apimachinery/pkg/watch.RaceFreeFakeWatcher.
type FakeWatcher struct {
	result chan Event

	mu      sync.Mutex // guards stopped
	stopped bool
}

var _ Interface = (*FakeWatcher)(nil)

// NewFake returns a FakeWatcher with a buffer of 100 events.
func NewFake() *FakeWatcher { return &FakeWatcher{result: make(chan Event, 100)} }

// Stop closes the result channel once.
func (f *FakeWatcher) Stop() {
	f.mu.Lock()
	defer f.mu.Unlock()
	if !f.stopped {
		f.stopped = true
		close(f.result)
	}
}

// IsStopped reports whether Stop was called.
func (f *FakeWatcher) IsStopped() bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.stopped
}

// ResultChan returns the event channel.
func (f *FakeWatcher) ResultChan() <-chan Event { return f.result }

// Action sends an event unless the watcher is stopped. It blocks if the
// buffer is full.
func (f *FakeWatcher) Action(t EventType, obj scheme.Object) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if !f.stopped {
		f.result <- Event{Type: t, Object: obj}
	}
}

// Add, Modify, Delete and Error send one event of their type.
func (f *FakeWatcher) Add(obj scheme.Object)    { f.Action(Added, obj) }
func (f *FakeWatcher) Modify(obj scheme.Object) { f.Action(Modified, obj) }
func (f *FakeWatcher) Delete(obj scheme.Object) { f.Action(Deleted, obj) }
func (f *FakeWatcher) Error(obj scheme.Object)  { f.Action(Error, obj) }
