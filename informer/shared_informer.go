package informer

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	metav1 "github.com/crdlab/crdlab/apis/meta/v1"
	"github.com/crdlab/crdlab/machinery/clock"
	"github.com/crdlab/crdlab/trace"
)

// SharedInformer keeps a cache of one resource in step with the server and
// tells any number of handlers about its changes, over one list+watch.
//
// Contracts:
//   - The cache (GetStore) is eventually consistent with the server: after a
//     change, it is first applied to the cache, then handed to handlers; a
//     handler that looks the object up in the cache sees that state or a
//     newer one.
//   - Each handler gets the changes of one object in order. Handlers are
//     independent: each has its own goroutine and unbounded buffer.
//   - The informer runs once: Run after Run returns does nothing, and
//     handlers added after Run returned are refused.
//   - Objects handed out (to handlers, by the store) are shared: treat them
//     as read-only.
//
// Mirrors k8s.io/client-go/tools/cache.SharedInformer (shared_informer.go).
type SharedInformer interface {
	// AddEventHandler registers handler. Added before Run, it sees the
	// initial list as OnAdd(obj, true). Added after, it is first given the
	// current content of the cache as OnAdd(obj, true), then the changes
	// after it. Fails with ErrInformerStopped after Run returned.
	AddEventHandler(handler ResourceEventHandler) (ResourceEventHandlerRegistration, error)
	// RemoveEventHandler unregisters a handler and stops its goroutine;
	// notifications not yet delivered to it are dropped. Removing twice
	// does nothing.
	RemoveEventHandler(handle ResourceEventHandlerRegistration) error
	// GetStore returns the cache.
	GetStore() Store
	// Run lists, watches and delivers until ctx ends, then stops every
	// handler's goroutine and returns.
	Run(ctx context.Context)
	// HasSynced is true once the first list is in the cache and has been
	// distributed to the handlers (not necessarily handled: see
	// ResourceEventHandlerRegistration.HasSynced).
	HasSynced() bool
	// LastSyncResourceVersion is the resourceVersion the cache is in step
	// with ("" before the first list).
	LastSyncResourceVersion() string
	// IsStopped is true once Run has returned.
	IsStopped() bool
}

// SharedIndexInformer is a SharedInformer whose cache is an Indexer.
//
// Mirrors k8s.io/client-go/tools/cache.SharedIndexInformer.
type SharedIndexInformer interface {
	SharedInformer
	// AddIndexers adds indices to the cache. Fails with
	// ErrInformerStarted once Run was called.
	AddIndexers(indexers Indexers) error
	// GetIndexer returns the cache.
	GetIndexer() Indexer
}

// InformerSynced is a HasSynced function, as passed to WaitForCacheSync.
//
// Mirrors k8s.io/client-go/tools/cache.InformerSynced.
type InformerSynced func() bool

// syncedPollPeriod is how often WaitForCacheSync polls.
const syncedPollPeriod = 100 * time.Millisecond

// WaitForCacheSync waits until every cacheSyncs returns true (true), or ctx
// ends (false). It polls, checking first at once.
//
// Mirrors k8s.io/client-go/tools/cache.WaitForCacheSync.
func WaitForCacheSync(ctx context.Context, cacheSyncs ...InformerSynced) bool {
	allSynced := func() bool {
		for _, synced := range cacheSyncs {
			if !synced() {
				return false
			}
		}
		return true
	}
	if allSynced() {
		return true
	}
	t := time.NewTicker(syncedPollPeriod)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return false
		case <-t.C:
			if allSynced() {
				return true
			}
		}
	}
}

// SharedIndexInformerOptions configure a SharedIndexInformer. The zero
// value works.
//
// Mirrors k8s.io/client-go/tools/cache.SharedIndexInformerOptions.
type SharedIndexInformerOptions struct {
	// ResyncPeriod is how often every cached object is re-delivered to
	// every handler as OnUpdate(obj, obj); 0 never. With 0, handlers also
	// do not get OnUpdate for objects a relist found unchanged.
	ResyncPeriod time.Duration
	// Indexers are the cache's indices; add NamespaceIndex for listers that
	// query by namespace.
	Indexers Indexers
	// UseWatchList makes the Reflector get the initial state from a
	// watch-list (see Reflector.ListAndWatch).
	UseWatchList bool
	// Name names the informer's Reflector in logs.
	Name string
	// Clock drives resync and backoff; nil is the real clock.
	Clock clock.Clock
	// Backoff paces the Reflector's retries; nil is the Reflector's default.
	Backoff BackoffManager
	// Logger gets the warnings; nil is slog.Default().
	Logger *slog.Logger
	// Transform, if not nil, is applied to every object from the server
	// before it is cached and delivered (upstream's SetTransform).
	Transform TransformFunc
	// Tracer, if not nil, follows every change through the informer:
	// its Reflector's events (trace.Reflector), its DeltaFIFO's
	// (trace.DeltaFIFO) and a "deliver" (trace.Informer) for each delta
	// applied to the cache and handed to the handlers, all with Name as
	// actor. Nil is tracing off. (Not upstream.)
	Tracer *trace.Tracer
}

// NewSharedIndexInformer returns a SharedIndexInformer over lw with the
// given resync period and indices.
//
// Mirrors k8s.io/client-go/tools/cache.NewSharedIndexInformer (without the
// example object).
func NewSharedIndexInformer(lw ListerWatcher, resyncPeriod time.Duration, indexers Indexers) SharedIndexInformer {
	return NewSharedIndexInformerWithOptions(lw, SharedIndexInformerOptions{ResyncPeriod: resyncPeriod, Indexers: indexers})
}

// NewSharedIndexInformerWithOptions returns a SharedIndexInformer over lw.
//
// Mirrors k8s.io/client-go/tools/cache.NewSharedIndexInformerWithOptions.
func NewSharedIndexInformerWithOptions(lw ListerWatcher, opts SharedIndexInformerOptions) SharedIndexInformer {
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	return &sharedIndexInformer{
		indexer:   NewIndexer(DeletionHandlingMetaNamespaceKeyFunc, opts.Indexers),
		processor: newSharedProcessor(),
		lw:        lw,
		opts:      opts,
	}
}

// sharedIndexInformer implements SharedIndexInformer: a Reflector fills a
// DeltaFIFO; one loop pops it, applies each key's Deltas to the Indexer and
// distributes them to the listeners.
//
// Mirrors k8s.io/client-go/tools/cache.sharedIndexInformer, with the
// controller of controller.go folded in (runController).
type sharedIndexInformer struct {
	// Set at construction, never changed. indexer and processor do their
	// own locking.
	indexer   Indexer
	processor *sharedProcessor
	lw        ListerWatcher
	opts      SharedIndexInformerOptions

	// startedMu guards started, stopped, fifo and reflector.
	startedMu sync.Mutex
	// started is true if and only if Run was called; fifo and reflector
	// are set then.
	started bool
	// stopped is true if and only if Run has returned (or is returning).
	stopped   bool
	fifo      *DeltaFIFO
	reflector *Reflector

	// blockDeltas is held while one key's Deltas are applied to the
	// indexer and distributed, and while a handler added after start is
	// given the indexer's content: the new handler sees each change either
	// in that content or as a notification, never both, never neither.
	blockDeltas sync.Mutex
}

var _ SharedIndexInformer = (*sharedIndexInformer)(nil)

func (s *sharedIndexInformer) GetStore() Store     { return s.indexer }
func (s *sharedIndexInformer) GetIndexer() Indexer { return s.indexer }

func (s *sharedIndexInformer) AddIndexers(indexers Indexers) error {
	s.startedMu.Lock()
	defer s.startedMu.Unlock()
	if s.started {
		return ErrInformerStarted
	}
	return s.indexer.AddIndexers(indexers)
}

func (s *sharedIndexInformer) HasSynced() bool {
	s.startedMu.Lock()
	defer s.startedMu.Unlock()
	return s.fifo != nil && s.fifo.HasSynced()
}

func (s *sharedIndexInformer) LastSyncResourceVersion() string {
	s.startedMu.Lock()
	defer s.startedMu.Unlock()
	if s.reflector == nil {
		return ""
	}
	return s.reflector.LastSyncResourceVersion()
}

func (s *sharedIndexInformer) IsStopped() bool {
	s.startedMu.Lock()
	defer s.startedMu.Unlock()
	return s.stopped
}

// AddEventHandler mirrors (*sharedIndexInformer).AddEventHandlerWithOptions.
func (s *sharedIndexInformer) AddEventHandler(handler ResourceEventHandler) (ResourceEventHandlerRegistration, error) {
	s.startedMu.Lock()
	defer s.startedMu.Unlock()
	if s.stopped {
		return nil, ErrInformerStopped
	}
	l := newProcessorListener(handler, s.opts.ResyncPeriod > 0, s.HasSynced)
	if !s.started {
		s.processor.addListener(l)
		return l, nil
	}
	// Joining a running informer: stop the flow of deltas, replay the
	// cache to the new listener as initial adds, let the flow go on. The
	// adds are buffered before the registration is returned, so its
	// HasSynced cannot be true before they are handled.
	s.blockDeltas.Lock()
	defer s.blockDeltas.Unlock()
	s.processor.addListener(l)
	for _, item := range s.indexer.List() {
		l.add(addNotification{newObj: item, isInInitialList: true})
	}
	return l, nil
}

func (s *sharedIndexInformer) RemoveEventHandler(handle ResourceEventHandlerRegistration) error {
	l, ok := handle.(*processorListener)
	if !ok {
		return fmt.Errorf("%w: %T", ErrUnknownRegistration, handle)
	}
	s.blockDeltas.Lock()
	defer s.blockDeltas.Unlock()
	s.processor.removeListener(l)
	return nil
}

// Run mirrors (*sharedIndexInformer).RunWithContext.
func (s *sharedIndexInformer) Run(ctx context.Context) {
	s.startedMu.Lock()
	if s.started {
		s.startedMu.Unlock()
		s.opts.Logger.Warn("informer: Run called more than once; ignored", "informer", s.opts.Name)
		return
	}
	s.fifo = NewDeltaFIFO(DeltaFIFOOptions{KnownObjects: s.indexer, Transformer: s.opts.Transform, Name: s.opts.Name, Tracer: s.opts.Tracer})
	s.reflector = NewReflector(s.lw, s.fifo, ReflectorOptions{
		Name:         s.opts.Name,
		ResyncPeriod: s.opts.ResyncPeriod,
		UseWatchList: s.opts.UseWatchList,
		Clock:        s.opts.Clock,
		Backoff:      s.opts.Backoff,
		Logger:       s.opts.Logger,
		Tracer:       s.opts.Tracer,
	})
	s.started = true
	s.startedMu.Unlock()

	// The processor stops after the controller, so nothing is
	// distributed to stopped listeners.
	s.processor.start()
	defer func() {
		s.startedMu.Lock()
		s.stopped = true // refuse new handlers from now on
		s.startedMu.Unlock()
		s.processor.stop()
	}()
	s.runController(ctx)
}

// runController runs the Reflector and pops the DeltaFIFO until ctx ends.
//
// Mirrors (*controller).RunWithContext and processLoop in controller.go.
func (s *sharedIndexInformer) runController(ctx context.Context) {
	stopClosing := context.AfterFunc(ctx, s.fifo.Close)
	defer stopClosing()
	var wg sync.WaitGroup
	defer wg.Wait()
	wg.Go(func() { s.reflector.Run(ctx) })
	for {
		_, err := s.fifo.Pop(s.handleDeltas)
		if errors.Is(err, ErrFIFOClosed) {
			return
		}
		if err != nil {
			s.opts.Logger.Warn("informer: unable to process deltas", "informer", s.opts.Name, "err", err)
		}
	}
}

// handleDeltas is the DeltaFIFO's PopProcessFunc. It runs under the FIFO's
// lock (see Pop).
//
// Mirrors (*sharedIndexInformer).HandleDeltas.
func (s *sharedIndexInformer) handleDeltas(obj any, isInInitialList bool) error {
	s.blockDeltas.Lock()
	defer s.blockDeltas.Unlock()
	deltas, ok := obj.(Deltas)
	if !ok {
		return fmt.Errorf("object given as Process argument is not Deltas: %T", obj)
	}
	return processDeltas(s, s.indexer, deltas, isInInitialList)
}

// processDeltas applies deltas, oldest first, to clientState and tells
// handler about each: this is where watch event types become handler
// calls. Added, Updated, Replaced and Sync become OnUpdate if the key is
// already cached, else OnAdd; Deleted becomes OnDelete.
//
// Mirrors processDeltas in controller.go.
func processDeltas(handler ResourceEventHandler, clientState Store, deltas Deltas, isInInitialList bool) error {
	for _, d := range deltas {
		obj := d.Object
		switch d.Type {
		case Sync, Replaced, Added, Updated:
			old, exists, err := clientState.Get(obj)
			if err == nil && exists {
				if err := clientState.Update(obj); err != nil {
					return err
				}
				handler.OnUpdate(old, obj)
			} else {
				if err := clientState.Add(obj); err != nil {
					return err
				}
				handler.OnAdd(obj, isInInitialList)
			}
		case Deleted:
			if err := clientState.Delete(obj); err != nil {
				return err
			}
			handler.OnDelete(obj)
		}
	}
	return nil
}

// OnAdd, OnUpdate and OnDelete make the informer the handler processDeltas
// calls; they distribute to the listeners. They run with blockDeltas held.

func (s *sharedIndexInformer) OnAdd(obj any, isInInitialList bool) {
	n := s.processor.distribute(addNotification{newObj: obj, isInInitialList: isInInitialList}, false)
	if s.opts.Tracer.Enabled() {
		how := "OnAdd"
		if isInInitialList {
			how = "OnAdd, initial list"
		}
		s.traceDeliver(obj, n, how)
	}
}

// OnUpdate treats an update that did not change the resourceVersion (a
// resync, or an unchanged object in a relist) as a sync notification.
func (s *sharedIndexInformer) OnUpdate(oldObj, newObj any) {
	isSync := false
	if o, ok := metav1.Accessor(oldObj); ok {
		if n, ok := metav1.Accessor(newObj); ok {
			isSync = o.GetResourceVersion() == n.GetResourceVersion()
		}
	}
	n := s.processor.distribute(updateNotification{oldObj: oldObj, newObj: newObj}, isSync)
	if s.opts.Tracer.Enabled() {
		how := "OnUpdate"
		if isSync {
			how = "OnUpdate, resync"
		}
		s.traceDeliver(newObj, n, how)
	}
}

func (s *sharedIndexInformer) OnDelete(obj any) {
	n := s.processor.distribute(deleteNotification{oldObj: obj}, false)
	if s.opts.Tracer.Enabled() {
		s.traceDeliver(obj, n, "OnDelete")
	}
}

// plural returns one if n is 1, else many.
func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// traceDeliver records that processDeltas applied obj to the cache and
// handed it to n handlers, as how says. Call it only when tracing is on.
func (s *sharedIndexInformer) traceDeliver(obj any, n int, how string) {
	key, _ := DeletionHandlingMetaNamespaceKeyFunc(obj)
	s.opts.Tracer.Emit(trace.Event{
		Component: trace.Informer, Step: "deliver", Actor: s.opts.Name,
		Key: key, ResourceVersion: resourceVersionOf(obj),
		Message:  fmt.Sprintf("cache updated, %d %s notified (%s)", n, plural(n, "handler", "handlers"), how),
		Upstream: "k8s.io/client-go/tools/cache.processDeltas",
	})
}
