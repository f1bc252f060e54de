package informer

// ResourceEventHandler receives an informer's notifications about one
// resource. Each registered handler has its own goroutine and its own
// unbounded buffer (a processorListener): calls to one handler are made one
// at a time, in the order the changes happened, and a slow handler delays
// only itself.
//
// The objects passed in are the informer's cached objects, shared with the
// Indexer, listers and every other handler: treat them as read-only, and
// DeepCopyObject one before changing it.
//
// A handler sees states, not every intermediate change: if an object
// changes twice while its first change waits in the DeltaFIFO, both changes
// are delivered; but after a relist only the listed state is, so handlers
// must be level-based (look at the object, not at the sequence of events).
//
// Mirrors k8s.io/client-go/tools/cache.ResourceEventHandler (controller.go).
type ResourceEventHandler interface {
	// OnAdd is called when an object is added to the cache.
	// isInInitialList is true for objects of the informer's first list
	// (and for the replay a handler added after start gets), false for
	// objects created later.
	OnAdd(obj any, isInInitialList bool)
	// OnUpdate is called when an object in the cache is replaced. It is
	// also called on every resync, and after a relist for objects that did
	// not change, with oldObj and newObj of the same resourceVersion:
	// compare resourceVersions to tell a real change from a resync.
	OnUpdate(oldObj, newObj any)
	// OnDelete is called when an object leaves the cache. obj is its last
	// known state, or a DeletedFinalStateUnknown if the delete itself was
	// missed and found out by a relist.
	OnDelete(obj any)
}

// ResourceEventHandlerFuncs is a ResourceEventHandler made of optional
// functions; a nil one ignores its notification.
//
// Mirrors k8s.io/client-go/tools/cache.ResourceEventHandlerFuncs
// (AddFunc takes isInInitialList, as upstream's
// ResourceEventHandlerDetailedFuncs does).
type ResourceEventHandlerFuncs struct {
	AddFunc    func(obj any, isInInitialList bool)
	UpdateFunc func(oldObj, newObj any)
	DeleteFunc func(obj any)
}

var _ ResourceEventHandler = ResourceEventHandlerFuncs{}

// OnAdd calls AddFunc if it is not nil.
func (r ResourceEventHandlerFuncs) OnAdd(obj any, isInInitialList bool) {
	if r.AddFunc != nil {
		r.AddFunc(obj, isInInitialList)
	}
}

// OnUpdate calls UpdateFunc if it is not nil.
func (r ResourceEventHandlerFuncs) OnUpdate(oldObj, newObj any) {
	if r.UpdateFunc != nil {
		r.UpdateFunc(oldObj, newObj)
	}
}

// OnDelete calls DeleteFunc if it is not nil.
func (r ResourceEventHandlerFuncs) OnDelete(obj any) {
	if r.DeleteFunc != nil {
		r.DeleteFunc(obj)
	}
}

// FilteringResourceEventHandler passes on to Handler only the objects
// FilterFunc accepts. An update is turned into an add when the object
// starts passing the filter, and into a delete when it stops.
//
// Mirrors k8s.io/client-go/tools/cache.FilteringResourceEventHandler.
type FilteringResourceEventHandler struct {
	FilterFunc func(obj any) bool
	Handler    ResourceEventHandler
}

var _ ResourceEventHandler = FilteringResourceEventHandler{}

// OnAdd passes obj on if it passes the filter.
func (r FilteringResourceEventHandler) OnAdd(obj any, isInInitialList bool) {
	if r.FilterFunc(obj) {
		r.Handler.OnAdd(obj, isInInitialList)
	}
}

// OnUpdate passes on an update, add or delete, by which states pass.
func (r FilteringResourceEventHandler) OnUpdate(oldObj, newObj any) {
	oldOK, newOK := r.FilterFunc(oldObj), r.FilterFunc(newObj)
	switch {
	case oldOK && newOK:
		r.Handler.OnUpdate(oldObj, newObj)
	case !oldOK && newOK:
		r.Handler.OnAdd(newObj, false)
	case oldOK && !newOK:
		r.Handler.OnDelete(oldObj)
	}
}

// OnDelete passes obj on if it passes the filter.
func (r FilteringResourceEventHandler) OnDelete(obj any) {
	if r.FilterFunc(obj) {
		r.Handler.OnDelete(obj)
	}
}

// ResourceEventHandlerRegistration is what AddEventHandler returns: the
// handle to give RemoveEventHandler, and the handler's own HasSynced.
//
// Mirrors k8s.io/client-go/tools/cache.ResourceEventHandlerRegistration.
type ResourceEventHandlerRegistration interface {
	// HasSynced is true once the informer has synced and this handler has
	// returned from OnAdd for every object of the initial list (or, for a
	// handler added after start, of the replayed state).
	HasSynced() bool
}
