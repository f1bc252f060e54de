// Package informer keeps client-side caches of API objects in step with the
// server and tells controllers about every change, over one list+watch per
// resource. It is crdlab's client-go tools/cache and informers: the
// machinery the CRD controllers (naming, establishing, finalizer) and the
// CRD handler follow CustomResourceDefinitions with.
//
// # Vocabulary
//
//   - A ListerWatcher lists a resource and watches it from a resourceVersion
//     (ListWatch adapts two functions to one).
//   - A Reflector runs the ListerWatcher: list, then watch from the list's
//     resourceVersion, writing each result into a store; it resumes a
//     dropped watch from the last resourceVersion it saw, relists when that
//     version is too old (410), and backs off on errors.
//   - A Delta is one change to one object (Added, Updated, Deleted,
//     Replaced, Sync); Deltas are the changes to one object, oldest first.
//   - A DeltaFIFO is the queue of keys between the Reflector and the
//     informer, each key holding its Deltas. A relist becomes Replaced
//     deltas plus DeletedFinalStateUnknown tombstones for objects that
//     vanished while nobody watched.
//   - An Indexer is the cache: a thread-safe Store of objects by key
//     ("namespace/name"), plus indices (by namespace, or by any IndexFunc).
//   - A SharedIndexInformer owns one Reflector, DeltaFIFO and Indexer for
//     one resource and hands every change to any number of
//     ResourceEventHandlers (OnAdd, OnUpdate, OnDelete).
//   - A processorListener is one handler's private queue and goroutine: an
//     unbounded ring buffer, so a slow handler never holds up the others.
//   - A SharedInformerFactory makes sure each resource has one informer,
//     however many controllers ask, and starts and stops them together.
//   - A Lister reads the cache, typed, by name or namespace.
//
// # Data flow
//
//	API server ──HTTP list/watch──▶ ListerWatcher
//	                                    │ List (resourceVersion R), Watch(from R)
//	                                    ▼
//	                                Reflector ── Replace / Add / Update / Delete / Resync
//	                                    ▼
//	                                DeltaFIFO   key → [Delta, Delta, …]
//	                                    │ Pop (one key, under the FIFO lock)
//	                                    ▼
//	                         sharedIndexInformer.handleDeltas
//	                          │ 1. apply to Indexer      │ 2. distribute
//	                          ▼                          ▼
//	                   Indexer ◀── Lister        processorListener ×N (ring buffer)
//	                   (the cache)                       │ own goroutine
//	                                                     ▼
//	                                        ResourceEventHandler.OnAdd/OnUpdate/OnDelete
//	                                                     │ usually: workqueue.Add(key)
//	                                                     ▼
//	                                        controller worker: Lister.Get(key) → sync
//
// A change reaches the cache before any handler hears of it, so a handler
// (or the worker it wakes) that reads the cache sees that state or a newer
// one.
//
// # Sharing
//
// Everything the cache holds is shared: the Indexer, every Lister and every
// handler see the same object values, and none of them is copied on the way.
// Treat objects from this package as read-only; DeepCopyObject one before
// changing it (to build an update, say). A handler that changes an object in
// place corrupts the cache for everyone.
//
// # The three questions of seed 000 ("Landscape")
//
// How does the SharedInformerFactory tell apart the different kinds of state
// change? It does not itself: the factory only shares one informer per
// resource. The kinds come from the watch: the Reflector turns each watch
// event type into a DeltaFIFO operation (ADDED → Add → Added delta,
// MODIFIED → Update → Updated, DELETED → Delete → Deleted, BOOKMARK → only
// the resourceVersion moves), a relist into Replaced deltas plus Deleted
// tombstones, and the resync timer into Sync deltas. processDeltas then
// turns deltas into handler calls by looking at the cache: Added, Updated,
// Replaced and Sync become OnUpdate(old, new) if the key is cached and
// OnAdd otherwise; Deleted becomes OnDelete. So "Update" for the CRD
// handler (seed: "When the Watch object type is Update …") is a MODIFIED
// event of an object it already had, for example a CRD whose status just
// gained NamesAccepted.
//
// Can one ResourceEventHandler follow changes of several resource types at
// once? Yes: an informer is per resource, but a handler is just a value;
// register the same handler (or handlers feeding one workqueue) on several
// informers with AddEventHandler, and tell the objects apart by their Go
// type or apiVersion/kind. Each registration gets its own processorListener,
// so the handler's methods may then be called concurrently, one goroutine
// per informer: make them safe for that (adding to a workqueue is). This is
// how a controller that owns one kind and watches another (e.g. the
// finalizer, which follows CRDs and their custom resources) is wired.
//
// How are resource state changes obtained? Over HTTP, as any client does:
// the Reflector lists the resource (GET …?resourceVersion=0), takes the
// list's metadata.resourceVersion, and watches from it (GET
// …?watch=true&resourceVersion=R&allowWatchBookmarks=true), a chunked
// stream of {"type","object"} events in resourceVersion order. Every event
// carries the object's new resourceVersion, which the Reflector remembers
// (bookmarks advance it without an object change); when a watch ends it
// rewatches from there, and if the server answers 410 Expired (that
// revision was compacted) it lists again. Nothing is polled; resync only
// re-delivers what is cached.
//
// # Tracing
//
// With SharedIndexInformerOptions.Tracer set (or ReflectorOptions.Tracer,
// DeltaFIFOOptions.Tracer for the parts used alone), a change can be
// followed through the informer, each event with the informer's Name as
// actor and the object's key and resourceVersion: the Reflector emits
// "list" (how many items, at which resourceVersion), "watch" (started
// from which resourceVersion), "event" for every ADDED, MODIFIED or
// DELETED it receives (bookmarks are not traced: they come every few
// seconds and change nothing), and "relist" when a 410 makes it list
// again; the DeltaFIFO emits "add" for every delta queued (the message
// is its type: Added, Updated, Deleted, Replaced or Sync) and "pop" when
// a key's deltas are taken out; the informer emits "deliver" (component
// trace.Informer) for every delta applied to the cache, saying how many
// handlers were notified. A nil Tracer is tracing off.
//
// # Upstream
//
//   - k8s.io/client-go/tools/cache: listwatch.go (ListerWatcher, ListWatch,
//     NewFilteredListWatchFromClient), reflector.go (Reflector,
//     ListAndWatch, watchList, handleWatch), delta_fifo.go (DeltaFIFO,
//     Delta, Deltas, DeletedFinalStateUnknown), store.go (Store, KeyFunc,
//     MetaNamespaceKeyFunc, cache), index.go (Indexer, IndexFunc,
//     MetaNamespaceIndexFunc), thread_safe_store.go (threadSafeMap,
//     storeIndex), shared_informer.go (SharedIndexInformer,
//     sharedIndexInformer, sharedProcessor, processorListener,
//     WaitForCacheSync), controller.go (ResourceEventHandler,
//     ResourceEventHandlerFuncs, FilteringResourceEventHandler,
//     processDeltas, the controller's processLoop),
//     synctrack/synctrack.go (SingleFileTracker)
//   - k8s.io/client-go/informers/factory.go (sharedInformerFactory) and
//     k8s.io/client-go/dynamic/dynamicinformer/informer.go (keyed by
//     GroupVersionResource)
//   - k8s.io/client-go/listers/generic_helpers.go (ResourceIndexer)
//   - k8s.io/apimachinery/pkg/api/meta: ExtractList, ListAccessor
//   - k8s.io/apimachinery/pkg/util/wait: ExponentialBackoffManager,
//     BackoffUntil
//   - k8s.io/utils/buffer/ring_growing.go (RingGrowing)
//
// # Differences from upstream
//
//   - Context first: Run(ctx), ListerWatcher methods take ctx; no stop
//     channels. The factory's Shutdown cancels what it started (upstream's
//     only waits for the caller to close the stop channel).
//   - One resync period per informer: every handler gets resyncs if it is
//     set, none if not. Not implemented: AddEventHandlerWithResyncPeriod
//     (per-handler periods) and the informer's resyncCheckPeriod.
//   - The DeltaFIFO always emits Replaced on Replace (upstream's
//     EmitDeltaTypeReplaced: true, which informers set). Not implemented:
//     AddIfNotPresent, ErrRequeue, TransformFunc, the Queue interface.
//   - Index functions' errors are returned, and leave the store unchanged;
//     upstream panics. Indices cannot be added to a store that holds items.
//   - The controller of controller.go (Config, New, Controller) is folded
//     into sharedIndexInformer.runController; there is no standalone
//     NewInformer/NewIndexerInformer.
//   - processorListener uses one goroutine and a sync.Cond over its ring
//     buffer instead of the pop/run goroutine pair joined by channels.
//   - The Reflector lists without paging (no pager, no WatchListPageSize),
//     does not check event types against an expected type, and has no
//     MaxInternalErrorRetryDuration; it uses the default 800ms–30s backoff
//     and logs to a *slog.Logger instead of klog. UseWatchList defaults to
//     false (client-go v1.37 tries watch-list first): as upstream, a server
//     that accepts sendInitialEvents but never sends the initial-events-end
//     bookmark would leave the informer waiting.
//   - The factory takes the constructor per call (InformerFor(gvr, newFunc))
//     and holds no client, namespace or default resync: building the
//     ListerWatcher (see NewFilteredListWatch) is the caller's.
//   - Lister selectors are functions over labels (labels.Selector.Matches
//     fits) so this package does not depend on the labels package.
//   - Time comes from workqueue.Clock (FakeClock in tests); WaitForCacheSync
//     polls on the real clock every 100ms, as upstream.
//   - Tracing (the Tracer options, and Name on DeltaFIFOOptions) is
//     crdlab's; upstream has none.
//   - Not implemented: the cache mutation detector, watch-list consistency
//     check, SetWatchErrorHandler, SetTransform, the expiration and
//     undelta stores, the heap, and NewSharedInformer without indexer.
package informer
