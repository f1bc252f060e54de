package garbagecollector

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"sync"
	"time"

	metav1 "github.com/crdlab/crdlab/apis/meta/v1"
	"github.com/crdlab/crdlab/client/metadata"
	"github.com/crdlab/crdlab/controller"
	"github.com/crdlab/crdlab/informer"
	"github.com/crdlab/crdlab/informer/workqueue"
	"github.com/crdlab/crdlab/machinery/watch"
	"github.com/crdlab/crdlab/scheme"
)

// eventType is what an informer said happened to an object.
type eventType int

const (
	addEvent eventType = iota
	updateEvent
	deleteEvent
)

// event is one change for the graph. A virtual event did not come from
// an informer: the collector made it up after the server said an object
// the graph holds does not exist.
//
// Mirrors event in graph_builder.go.
type event struct {
	virtual   bool
	eventType eventType
	obj       metav1.Object
	// oldObj is the object before an update (nil otherwise).
	oldObj metav1.Object
	gvk    scheme.GroupVersionKind
	// apiVersion is gvk's group version as a string, if the sender made
	// it once for all its events (a monitor does); else
	// identityFromEvent makes it.
	apiVersion string
}

// monitor is the informer of one resource, feeding graphChanges.
type monitor struct {
	informer informer.SharedIndexInformer
	// cancel stops the informer; nil until started.
	cancel context.CancelFunc
}

// GraphBuilder keeps the dependency graph: it runs an informer (a
// "monitor") for every resource the collector can delete, turns their
// events into graph changes, and, from one goroutine, applies them to
// uidToNode and queues the nodes the collector must look at
// (attemptToDelete, attemptToOrphan).
//
// Mirrors GraphBuilder in
// k8s.io/kubernetes/pkg/controller/garbagecollector/graph_builder.go.
type GraphBuilder struct {
	// metadataClient lists and watches every resource as metadata only
	// (PartialObjectMetadata): the server leaves spec, status and data out.
	metadataClient metadata.Interface
	opts           controller.Options

	monitorLock sync.Mutex // guards monitors, running and runCtx
	// monitors are the informers, by resource.
	monitors map[scheme.GroupVersionResource]*monitor
	// running is true between Run's start and end; monitors start only
	// then, with runCtx.
	running bool
	runCtx  context.Context
	// monitorWG counts the running monitors.
	monitorWG sync.WaitGroup

	// graphChanges carries the informers' events to processGraphChanges.
	graphChanges *workqueue.Queue[*event]
	// uidToNode is the graph. Only processGraphChanges writes it.
	uidToNode *uidToNode
	// attemptToDelete and attemptToOrphan are the collector's queues.
	attemptToDelete workqueue.RateLimitingInterface[*node]
	attemptToOrphan workqueue.RateLimitingInterface[*node]
	// absentOwnerCache holds owners known not to exist; shared with the
	// collector.
	absentOwnerCache *referenceCache
	ignoredResources map[scheme.GroupResource]struct{}
}

// DefaultIgnoredResources are the resources the collector does not
// follow: Events, which come and go by the thousand and own nothing.
//
// Mirrors DefaultIgnoredResources in graph_builder.go.
func DefaultIgnoredResources() map[scheme.GroupResource]struct{} {
	return map[scheme.GroupResource]struct{}{
		{Group: "", Resource: "events"}:              {},
		{Group: "events.k8s.io", Resource: "events"}: {},
	}
}

// newDependencyGraphBuilder returns a GraphBuilder with no monitors yet.
//
// Mirrors NewDependencyGraphBuilder.
func newDependencyGraphBuilder(metadataClient metadata.Interface, ignoredResources map[scheme.GroupResource]struct{}, opts controller.Options) *GraphBuilder {
	return &GraphBuilder{
		metadataClient: metadataClient,
		opts:           opts,
		// Graph changes are not traced: every write of every object
		// passes through, which would drown the trace.
		graphChanges:     workqueue.New[*event](workqueue.Config{Name: "garbage_collector_graph_changes", Clock: opts.Clock, MetricsProvider: opts.MetricsProvider}),
		uidToNode:        &uidToNode{nodes: map[metav1.UID]*node{}},
		attemptToDelete:  controller.NewQueue[*node]("garbage_collector_attempt_to_delete", opts),
		attemptToOrphan:  controller.NewQueue[*node]("garbage_collector_attempt_to_orphan", opts),
		absentOwnerCache: newReferenceCache(500),
		ignoredResources: ignoredResources,
	}
}

// trimToGraph is the monitors' informer transform: the objects come as
// metadata already (the metadata client asks the server for
// PartialObjectMetadata, and leaves managedFields out), and the graph
// reads only their identity, ownerReferences, finalizers and
// deletionTimestamp. Labels and annotations go too, so that the
// informers' caches (an object per object of every resource) hold no
// more than the graph needs: their memory is the collector's largest,
// and the Go collector marks it over and over.
//
// Mirrors the trim transform kube-controller-manager gives its informer
// factories (CreateControllerContext in
// cmd/kube-controller-manager/app/controllermanager.go), which drops
// managedFields only: upstream's informers are shared with other
// controllers, which read labels.
func trimToGraph(obj any) (any, error) {
	if m, ok := obj.(metav1.Object); ok {
		if m.GetManagedFields() != nil {
			m.SetManagedFields(nil)
		}
		if m.GetLabels() != nil {
			m.SetLabels(nil)
		}
		if m.GetAnnotations() != nil {
			m.SetAnnotations(nil)
		}
	}
	return obj, nil
}

// monitorFor builds the informer of resource, whose objects are of kind,
// with handlers that turn its events into graph changes. The informer
// lists and watches through the metadata client: its objects are
// *metav1.PartialObjectMetadata, whatever the resource.
//
// Mirrors (*GraphBuilder).controllerFor, with the metadata informer
// upstream's informerFactory.ForResource gives it (metadatainformer.NewFilteredMetadataInformer).
func (gb *GraphBuilder) monitorFor(resource scheme.GroupVersionResource, kind scheme.GroupVersionKind) (*monitor, error) {
	client := gb.metadataClient.Resource(resource)
	inf := informer.NewSharedIndexInformerWithOptions(&informer.ListWatch{
		ListFunc: func(ctx context.Context, o metav1.ListOptions) (scheme.Object, error) {
			list, err := client.List(ctx, o)
			if err != nil {
				return nil, err
			}
			return list, nil
		},
		WatchFunc: func(ctx context.Context, o metav1.ListOptions) (watch.Interface, error) {
			return client.Watch(ctx, o)
		},
	}, informer.SharedIndexInformerOptions{
		Name:      "garbagecollector-" + resource.String(),
		Transform: trimToGraph,
		Logger:    gb.opts.Logger.With("informer", resource.String()),
	})
	apiVersion := kind.GroupVersion().String()
	accessor := func(obj any) (metav1.Object, bool) {
		if t, ok := obj.(informer.DeletedFinalStateUnknown); ok {
			obj = t.Obj
		}
		o, ok := obj.(metav1.Object)
		return o, ok
	}
	_, err := inf.AddEventHandler(informer.ResourceEventHandlerFuncs{
		AddFunc: func(obj any, _ bool) {
			if o, ok := accessor(obj); ok {
				gb.graphChanges.Add(&event{eventType: addEvent, obj: o, gvk: kind, apiVersion: apiVersion})
			}
		},
		UpdateFunc: func(oldObj, newObj any) {
			o, ok := accessor(newObj)
			old, _ := accessor(oldObj)
			if ok {
				gb.graphChanges.Add(&event{eventType: updateEvent, obj: o, oldObj: old, gvk: kind, apiVersion: apiVersion})
			}
		},
		DeleteFunc: func(obj any) {
			if o, ok := accessor(obj); ok {
				gb.graphChanges.Add(&event{eventType: deleteEvent, obj: o, gvk: kind, apiVersion: apiVersion})
			}
		},
	})
	if err != nil {
		return nil, err
	}
	return &monitor{informer: inf}, nil
}

// syncMonitors makes the monitors those of resources (each with its
// kind): it builds the missing ones and stops those of resources that are
// gone. New monitors start in startMonitors.
//
// Mirrors (*GraphBuilder).syncMonitors.
func (gb *GraphBuilder) syncMonitors(resources map[scheme.GroupVersionResource]scheme.GroupVersionKind) error {
	gb.monitorLock.Lock()
	defer gb.monitorLock.Unlock()
	toRemove := gb.monitors
	current := map[scheme.GroupVersionResource]*monitor{}
	var errs []error
	for resource, kind := range resources {
		if _, ignored := gb.ignoredResources[resource.GroupResource()]; ignored {
			continue
		}
		if m, ok := toRemove[resource]; ok {
			current[resource] = m
			delete(toRemove, resource)
			continue
		}
		m, err := gb.monitorFor(resource, kind)
		if err != nil {
			errs = append(errs, fmt.Errorf("couldn't start monitor for resource %q: %w", resource, err))
			continue
		}
		current[resource] = m
	}
	gb.monitors = current
	for _, m := range toRemove {
		if m.cancel != nil {
			m.cancel()
		}
	}
	return errors.Join(errs...)
}

// startMonitors starts the monitors not yet running; before Run it does
// nothing.
//
// Mirrors (*GraphBuilder).startMonitors.
func (gb *GraphBuilder) startMonitors() {
	gb.monitorLock.Lock()
	defer gb.monitorLock.Unlock()
	if !gb.running {
		return
	}
	for _, m := range gb.monitors {
		if m.cancel != nil {
			continue
		}
		ctx, cancel := context.WithCancel(gb.runCtx)
		m.cancel = cancel
		inf := m.informer
		gb.monitorWG.Go(func() { inf.Run(ctx) })
	}
}

// IsSynced reports whether there are monitors and every one has synced.
//
// Mirrors (*GraphBuilder).IsSynced.
func (gb *GraphBuilder) IsSynced() bool {
	gb.monitorLock.Lock()
	defer gb.monitorLock.Unlock()
	if len(gb.monitors) == 0 {
		return false
	}
	for _, m := range gb.monitors {
		if !m.informer.HasSynced() {
			return false
		}
	}
	return true
}

// Run starts the monitors and applies graph changes until ctx ends, then
// stops the monitors.
//
// Mirrors (*GraphBuilder).Run.
func (gb *GraphBuilder) Run(ctx context.Context) {
	gb.monitorLock.Lock()
	gb.runCtx, gb.running = ctx, true
	gb.monitorLock.Unlock()
	gb.startMonitors()

	stop := context.AfterFunc(ctx, gb.graphChanges.ShutDown)
	defer stop()
	for gb.processGraphChanges() {
	}

	gb.monitorLock.Lock()
	gb.running = false
	for _, m := range gb.monitors {
		if m.cancel != nil {
			m.cancel()
		}
	}
	gb.monitors = nil
	gb.monitorLock.Unlock()
	gb.monitorWG.Wait()
}

// enqueueVirtualDeleteEvent tells the graph that ref does not exist (the
// server said so), as if an informer had seen it deleted.
//
// Mirrors (*GraphBuilder).enqueueVirtualDeleteEvent.
func (gb *GraphBuilder) enqueueVirtualDeleteEvent(ref objectReference) {
	gv, _ := scheme.ParseGroupVersion(ref.APIVersion)
	obj := &metav1.PartialObjectMetadata{ObjectMeta: metav1.ObjectMeta{Namespace: ref.Namespace, Name: ref.Name, UID: ref.UID}}
	gb.graphChanges.Add(&event{virtual: true, eventType: deleteEvent, obj: obj, gvk: gv.WithKind(ref.Kind), apiVersion: ref.APIVersion})
}

// addDependentToOwners adds n to the dependents of each of owners. An
// owner the graph does not hold yet gets a virtual node, queued for the
// collector to check with the server.
//
// Mirrors (*GraphBuilder).addDependentToOwners (without its checks of
// owner references whose coordinates disagree with the observed owner,
// but the namespace one).
func (gb *GraphBuilder) addDependentToOwners(n *node, owners []metav1.OwnerReference) {
	for _, owner := range owners {
		ownerNode, ok := gb.uidToNode.Read(owner.UID)
		if !ok {
			// A namespaced dependent's owner is looked for in its
			// namespace (cluster-scoped owners ignore it).
			ownerNode = &node{
				identity: objectReference{OwnerReference: ownerReferenceCoordinates(owner), Namespace: n.identity.Namespace},
				virtual:  true,
			}
			gb.uidToNode.Write(ownerNode)
		}
		ownerNode.addDependent(n)
		switch {
		case !ok:
			// Does it exist? The collector asks the server; if not, a
			// virtual delete event removes the node and frees n.
			gb.attemptToDelete.Add(ownerNode)
		case ownerNode.isObserved() && ownerNode.identity.Namespace != "" && ownerNode.identity.Namespace != n.identity.Namespace:
			// An owner in another namespace cannot be n's owner: let the
			// collector find the reference dangling.
			gb.attemptToDelete.Add(n)
		}
	}
}

// insertNode adds n to the graph and to its owners' dependents.
func (gb *GraphBuilder) insertNode(n *node) {
	gb.uidToNode.Write(n)
	gb.addDependentToOwners(n, n.getOwners())
}

// removeDependentFromOwners removes n from the dependents of owners.
func (gb *GraphBuilder) removeDependentFromOwners(n *node, owners []metav1.OwnerReference) {
	for _, owner := range owners {
		if ownerNode, ok := gb.uidToNode.Read(owner.UID); ok {
			ownerNode.deleteDependent(n)
		}
	}
}

// removeNode removes n from the graph and from its owners' dependents.
func (gb *GraphBuilder) removeNode(n *node) {
	gb.uidToNode.Delete(n.identity.UID)
	gb.removeDependentFromOwners(n, n.getOwners())
}

// ownerRefPair is an ownerReference before and after an update.
type ownerRefPair struct{ oldRef, newRef metav1.OwnerReference }

// referencesDiffs compares two lists of ownerReferences by owner UID.
//
// Mirrors referencesDiffs.
func referencesDiffs(old, new []metav1.OwnerReference) (added, removed []metav1.OwnerReference, changed []ownerRefPair) {
	oldByUID := map[metav1.UID]metav1.OwnerReference{}
	for _, ref := range old {
		oldByUID[ref.UID] = ref
	}
	for _, ref := range new {
		if o, ok := oldByUID[ref.UID]; ok {
			if !reflect.DeepEqual(o, ref) {
				changed = append(changed, ownerRefPair{oldRef: o, newRef: ref})
			}
			delete(oldByUID, ref.UID)
		} else {
			added = append(added, ref)
		}
	}
	for _, ref := range old {
		if _, ok := oldByUID[ref.UID]; ok {
			removed = append(removed, ref)
		}
	}
	return added, removed, changed
}

func isTrue(b *bool) bool { return b != nil && *b }

// addUnblockedOwnersToDeleteQueue queues the owners an update stopped
// blocking (a blocking ownerReference removed, or its blockOwnerDeletion
// turned off): one of them may be waiting in foreground deletion.
//
// Mirrors (*GraphBuilder).addUnblockedOwnersToDeleteQueue.
func (gb *GraphBuilder) addUnblockedOwnersToDeleteQueue(removed []metav1.OwnerReference, changed []ownerRefPair) {
	for _, ref := range removed {
		if isTrue(ref.BlockOwnerDeletion) {
			if n, ok := gb.uidToNode.Read(ref.UID); ok {
				gb.attemptToDelete.Add(n)
			}
		}
	}
	for _, c := range changed {
		if isTrue(c.oldRef.BlockOwnerDeletion) && !isTrue(c.newRef.BlockOwnerDeletion) {
			if n, ok := gb.uidToNode.Read(c.newRef.UID); ok {
				gb.attemptToDelete.Add(n)
			}
		}
	}
}

func beingDeleted(o metav1.Object) bool { return o.GetDeletionTimestamp() != nil }

func hasFinalizer(o metav1.Object, f string) bool { return slices.Contains(o.GetFinalizers(), f) }

// deletionStartsWithFinalizer reports whether the update from oldObj to
// newObj is the one that started its deletion with finalizer f.
//
// Mirrors deletionStartsWithFinalizer.
func deletionStartsWithFinalizer(oldObj, newObj metav1.Object, f string) bool {
	if !beingDeleted(newObj) || !hasFinalizer(newObj, f) {
		return false
	}
	return oldObj == nil || !beingDeleted(oldObj) || !hasFinalizer(oldObj, f)
}

// processTransitions queues an object whose deletion has just started
// with the orphan finalizer (for orphaning) or the foregroundDeletion one
// (its dependents first, then itself).
//
// Mirrors (*GraphBuilder).processTransitions.
func (gb *GraphBuilder) processTransitions(oldObj, newObj metav1.Object, n *node) {
	if deletionStartsWithFinalizer(oldObj, newObj, metav1.FinalizerOrphanDependents) {
		gb.attemptToOrphan.Add(n)
		return
	}
	if deletionStartsWithFinalizer(oldObj, newObj, metav1.FinalizerDeleteDependents) {
		n.markDeletingDependents()
		for _, d := range n.getDependents() {
			gb.attemptToDelete.Add(d)
		}
		gb.attemptToDelete.Add(n)
	}
}

// identityFromEvent is the identity of the event's object.
func identityFromEvent(e *event) objectReference {
	apiVersion := e.apiVersion
	if apiVersion == "" {
		apiVersion = e.gvk.GroupVersion().String()
	}
	return objectReference{
		OwnerReference: metav1.OwnerReference{APIVersion: apiVersion, Kind: e.gvk.Kind, UID: e.obj.GetUID(), Name: e.obj.GetName()},
		Namespace:      e.obj.GetNamespace(),
	}
}

// processGraphChanges applies one event to the graph. It returns false
// once graphChanges is shut down.
//
// Mirrors (*GraphBuilder).processGraphChanges (a virtual delete event of
// a node whose dependents disagree on its coordinates is simply applied:
// upstream's alternate identities are left out).
func (gb *GraphBuilder) processGraphChanges() bool {
	e, quit := gb.graphChanges.Get()
	if quit {
		return false
	}
	defer gb.graphChanges.Done(e)
	obj := e.obj

	existing, found := gb.uidToNode.Read(obj.GetUID())
	if found && !e.virtual && !existing.isObserved() {
		// An informer now shows an owner the graph only knew from
		// ownerReferences: it is real. If the references got its
		// coordinates wrong, the observed ones win, and its dependents are
		// checked again.
		if observed := identityFromEvent(e); observed != existing.identity {
			for _, d := range existing.getDependents() {
				gb.attemptToDelete.Add(d)
			}
			existing = existing.clone()
			existing.identity = observed
			gb.uidToNode.Write(existing)
		}
		existing.markObserved()
	}

	switch {
	case (e.eventType == addEvent || e.eventType == updateEvent) && !found:
		n := &node{
			identity:           identityFromEvent(e),
			owners:             obj.GetOwnerReferences(),
			beingDeleted:       beingDeleted(obj),
			deletingDependents: beingDeleted(obj) && hasFinalizer(obj, metav1.FinalizerDeleteDependents),
		}
		gb.insertNode(n)
		// The informer may have merged a create and the start of its
		// deletion into one event.
		gb.processTransitions(e.oldObj, obj, n)

	case e.eventType == addEvent || e.eventType == updateEvent:
		added, removed, changed := referencesDiffs(existing.getOwners(), obj.GetOwnerReferences())
		if len(added) != 0 || len(removed) != 0 || len(changed) != 0 {
			gb.addUnblockedOwnersToDeleteQueue(removed, changed)
			existing.setOwners(obj.GetOwnerReferences())
			gb.addDependentToOwners(existing, added)
			gb.removeDependentFromOwners(existing, removed)
		}
		if beingDeleted(obj) {
			existing.markBeingDeleted()
		}
		gb.processTransitions(e.oldObj, obj, existing)

	case e.eventType == deleteEvent:
		if !found {
			return true
		}
		if e.virtual && existing.isObserved() && identityFromEvent(e) != existing.identity {
			// The server denied an object under other coordinates than
			// the ones an informer showed: keep the real node.
			return true
		}
		gb.removeNode(existing)
		// Its dependents may be garbage now; an owner waiting for its
		// dependents (foreground) may be free to go.
		deps := existing.getDependents()
		if len(deps) > 0 {
			gb.absentOwnerCache.Add(identityFromEvent(e))
		}
		for _, d := range deps {
			gb.attemptToDelete.Add(d)
		}
		for _, owner := range existing.getOwners() {
			if ownerNode, ok := gb.uidToNode.Read(owner.UID); ok && ownerNode.isDeletingDependents() {
				gb.attemptToDelete.Add(ownerNode)
			}
		}
	}
	return true
}

// waitForSync waits until every monitor has synced, or timeout.
func (gb *GraphBuilder) waitForSync(ctx context.Context, timeout time.Duration) bool {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	return informer.WaitForCacheSync(ctx, gb.IsSynced)
}
