package informer

import (
	"fmt"
	"sync"
	"sync/atomic"
)

// The notifications a processorListener buffers, one per handler call.
type (
	addNotification struct {
		newObj          any
		isInInitialList bool
	}
	updateNotification struct{ oldObj, newObj any }
	deleteNotification struct{ oldObj any }
)

// initialBufferSize is the starting size of a listener's ring buffer,
// which doubles whenever it is full. Upstream starts at 1024 (16 KiB per
// listener); crdlab starts small: the garbage collector runs an informer
// per resource, so with thousands of CRDs there are thousands of
// listeners, nearly all idle (docs/crd-memory.md).
const initialBufferSize = 16

// sharedProcessor fans the informer's notifications out to its listeners.
// distribute never blocks on a handler: it only appends to each listener's
// buffer.
//
// Mirrors k8s.io/client-go/tools/cache.sharedProcessor (shared_informer.go).
type sharedProcessor struct {
	// mu guards listeners and started. distribute holds it for reading, so
	// that adding and removing listeners waits for a distribution to end.
	mu sync.RWMutex
	// listeners holds the registered listeners. While started is true,
	// each one has a running goroutine, counted in wg.
	listeners map[*processorListener]struct{}
	// started is true if and only if run has started the listeners and has
	// not stopped them yet.
	started bool
	// wg counts the listeners' goroutines.
	wg sync.WaitGroup
}

func newSharedProcessor() *sharedProcessor {
	return &sharedProcessor{listeners: map[*processorListener]struct{}{}}
}

// addListener registers l, starting it if the processor runs.
func (p *sharedProcessor) addListener(l *processorListener) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.listeners[l] = struct{}{}
	if p.started {
		p.wg.Go(l.run)
	}
}

// removeListener unregisters and stops l. Removing a listener that is not
// registered does nothing.
func (p *sharedProcessor) removeListener(l *processorListener) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if _, ok := p.listeners[l]; !ok {
		return
	}
	delete(p.listeners, l)
	l.stop()
}

// distribute hands n to every listener; a sync notification (a resync, or
// a relisted object that did not change) only to the listeners that want
// resyncs. It returns how many listeners got n.
//
// Mirrors (*sharedProcessor).distribute.
func (p *sharedProcessor) distribute(n any, isSync bool) (notified int) {
	p.mu.RLock()
	defer p.mu.RUnlock()
	for l := range p.listeners {
		if isSync && !l.syncing {
			continue
		}
		l.add(n)
		notified++
	}
	return notified
}

// start starts every listener; stop stops them. Together they are
// upstream's run, which starts the listeners, waits for its context to
// end and stops them, on a goroutine of its own: here the informer's Run
// calls stop when its controller has returned, and no goroutine waits in
// between (the garbage collector runs an informer per resource).
//
// Mirrors (*sharedProcessor).run.
func (p *sharedProcessor) start() {
	p.mu.Lock()
	for l := range p.listeners {
		p.wg.Go(l.run)
	}
	p.started = true
	p.mu.Unlock()
}

// stop stops every listener and waits for their goroutines. Pending
// notifications are dropped.
func (p *sharedProcessor) stop() {
	p.mu.Lock()
	for l := range p.listeners {
		l.stop()
	}
	// Stopped listeners cannot be restarted: forget them.
	clear(p.listeners)
	p.started = false
	p.mu.Unlock()
	p.wg.Wait()
}

// processorListener delivers notifications to one handler, in order, from
// its own goroutine (run). Between distribute and the handler sits an
// unbounded ring buffer, so that a slow handler never blocks distribute,
// and through it the DeltaFIFO and every other handler. The price: a
// handler that never returns makes its buffer grow without bound.
//
// Mirrors k8s.io/client-go/tools/cache.processorListener.
type processorListener struct {
	handler ResourceEventHandler
	// syncing is true if and only if the listener gets sync notifications.
	syncing bool
	// syncTracker counts the initial-list adds not yet handled.
	syncTracker singleFileTracker

	// mu guards pending and stopped; cond waits on it for either to change.
	mu   sync.Mutex
	cond sync.Cond
	// pending holds the notifications not yet handed to the handler, oldest
	// first.
	pending *ringGrowing[any]
	// stopped is true if and only if stop was called; run then returns
	// without handling what is pending.
	stopped bool
}

var _ ResourceEventHandlerRegistration = (*processorListener)(nil)

func newProcessorListener(handler ResourceEventHandler, syncing bool, informerHasSynced func() bool) *processorListener {
	l := &processorListener{
		handler:     handler,
		syncing:     syncing,
		syncTracker: singleFileTracker{upstreamHasSynced: informerHasSynced},
		pending:     newRingGrowing[any](initialBufferSize),
	}
	l.cond.L = &l.mu
	return l
}

// HasSynced is true once the informer has synced and every initial-list
// add given to this listener has been handled.
func (l *processorListener) HasSynced() bool { return l.syncTracker.HasSynced() }

// add buffers n for the handler. It never blocks on the handler.
func (l *processorListener) add(n any) {
	if a, ok := n.(addNotification); ok && a.isInInitialList {
		l.syncTracker.Start()
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.stopped {
		return
	}
	l.pending.WriteOne(n)
	l.cond.Signal()
}

// stop makes run return; what is pending is dropped.
func (l *processorListener) stop() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.stopped = true
	l.cond.Signal()
}

// next waits for the oldest pending notification; ok is false once stopped.
func (l *processorListener) next() (n any, ok bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	for l.pending.Len() == 0 && !l.stopped {
		l.cond.Wait()
	}
	if l.stopped {
		return nil, false
	}
	return l.pending.ReadOne()
}

// run hands notifications to the handler, one at a time, until stopped.
//
// Mirrors (*processorListener).run and pop, in one goroutine: a sync.Cond
// over the buffer replaces upstream's addCh/nextCh pair.
func (l *processorListener) run() {
	for {
		n, ok := l.next()
		if !ok {
			return
		}
		switch n := n.(type) {
		case addNotification:
			l.handler.OnAdd(n.newObj, n.isInInitialList)
			if n.isInInitialList {
				l.syncTracker.Finished()
			}
		case updateNotification:
			l.handler.OnUpdate(n.oldObj, n.newObj)
		case deleteNotification:
			l.handler.OnDelete(n.oldObj)
		default:
			panic(fmt.Sprintf("informer: unknown notification %T", n))
		}
	}
}

// singleFileTracker is HasSynced for one listener: synced when the informer
// is, and no initial-list add is waiting for or inside the handler.
//
// Mirrors k8s.io/client-go/tools/cache/synctrack.SingleFileTracker.
type singleFileTracker struct {
	// num is the number of initial-list adds started and not finished.
	num atomic.Int32
	// upstreamHasSynced is the informer's HasSynced.
	upstreamHasSynced func() bool
}

// Start counts one more initial-list add.
func (t *singleFileTracker) Start() { t.num.Add(1) }

// Finished counts one initial-list add as handled.
func (t *singleFileTracker) Finished() {
	if t.num.Add(-1) < 0 {
		panic("informer: singleFileTracker Finished more often than Started")
	}
}

// HasSynced reads upstreamHasSynced first: the informer turns synced only
// after the last initial add was distributed (and so Started), so a count
// read after it is not stale.
func (t *singleFileTracker) HasSynced() bool {
	upstream := t.upstreamHasSynced()
	return t.num.Load() < 1 && upstream
}
