package garbagecollector

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"sync"
	"time"

	apierrors "github.com/crdlab/crdlab/apis/errors"
	metav1 "github.com/crdlab/crdlab/apis/meta/v1"
	"github.com/crdlab/crdlab/client/discovery"
	"github.com/crdlab/crdlab/client/metadata"
	"github.com/crdlab/crdlab/controller"
	"github.com/crdlab/crdlab/informer/workqueue"
	"github.com/crdlab/crdlab/scheme"
	"github.com/crdlab/crdlab/trace"
)

// Upstream functions the traces name.
const (
	upstreamAttemptToDelete = "k8s.io/kubernetes/pkg/controller/garbagecollector.(*GarbageCollector).attemptToDeleteItem"
	upstreamAttemptToOrphan = "k8s.io/kubernetes/pkg/controller/garbagecollector.(*GarbageCollector).attemptToOrphanWorker"
)

// DefaultSyncPeriod is how often Sync asks discovery for new resources
// (kube-controller-manager's 30 s); Resync asks at once.
const DefaultSyncPeriod = 30 * time.Second

// DefaultResyncMinInterval is the least time between two discovery reads
// that Resync asks for. A burst of CRD writes (each a discovery change)
// then costs one read of every group version a second, not one each; the
// first request after a quiet second is served at once.
const DefaultResyncMinInterval = time.Second

// resyncReadShare bounds the time discovery reads asked for by Resync may
// take: a read that took d is followed by the next one no sooner than
// resyncReadShare×d after it started (and DefaultResyncMinInterval at
// least). A read costs as much as the server has resources: at a fixed
// second between reads, a burst of 2,000 CRDs spent more on these reads
// than on anything else that grew with the number of CRDs
// (docs/crd-memory.md, "What grows with the number of CRDs"); spaced by
// their own cost, they take a fixed share of the time whatever the
// number of CRDs. Upstream reads discovery every 30 s only.
const resyncReadShare = 20

// DiscoverResourcesFunc returns the server's resources, preferred
// versions only; with an error, what it could find.
// (*discovery.DiscoveryClient).ServerPreferredResources is one.
type DiscoverResourcesFunc func(ctx context.Context) ([]*metav1.APIResourceList, error)

// GarbageCollector deletes the objects whose owners are gone, and carries
// out the foreground and orphan deletions the registry marked with
// finalizers. Its GraphBuilder keeps the graph; its workers take nodes
// off two queues:
//   - attemptToDelete: is this object garbage (every owner gone), or an
//     owner in foreground deletion whose blocking dependents are gone?
//   - attemptToOrphan: an owner deleted with Orphan — take its
//     ownerReference off every dependent, then its orphan finalizer.
//
// Mirrors GarbageCollector in
// k8s.io/kubernetes/pkg/controller/garbagecollector/garbagecollector.go.
type GarbageCollector struct {
	// metadataClient reads, patches and deletes objects as metadata.
	metadataClient metadata.Interface
	discover       DiscoverResourcesFunc
	restMapper     *restMapper

	dependencyGraphBuilder *GraphBuilder
	// attemptToDelete, attemptToOrphan and absentOwnerCache are the
	// GraphBuilder's.
	attemptToDelete  workqueue.RateLimitingInterface[*node]
	attemptToOrphan  workqueue.RateLimitingInterface[*node]
	absentOwnerCache *referenceCache

	// resync asks Sync to look at discovery now (buffered, one pending).
	resync chan struct{}
	// resyncMinInterval spaces the reads resync asks for, at least
	// (DefaultResyncMinInterval; tests shorten it); a slow read spaces
	// them more (resyncReadShare).
	resyncMinInterval time.Duration
	log               *slog.Logger
	opts              controller.Options
}

// NewGarbageCollector returns a collector that watches, reads, patches
// and deletes objects as metadata through metadataClient and finds the resources with discover. ignoredResources are not
// followed (nil: DefaultIgnoredResources).
//
// Mirrors NewGarbageCollector.
func NewGarbageCollector(metadataClient metadata.Interface, discover DiscoverResourcesFunc, ignoredResources map[scheme.GroupResource]struct{}, opts controller.Options) *GarbageCollector {
	opts = opts.WithDefaults("garbagecollector")
	if ignoredResources == nil {
		ignoredResources = DefaultIgnoredResources()
	}
	gb := newDependencyGraphBuilder(metadataClient, ignoredResources, opts)
	return &GarbageCollector{
		metadataClient:         metadataClient,
		discover:               discover,
		restMapper:             &restMapper{},
		dependencyGraphBuilder: gb,
		attemptToDelete:        gb.attemptToDelete,
		attemptToOrphan:        gb.attemptToOrphan,
		absentOwnerCache:       gb.absentOwnerCache,
		resync:                 make(chan struct{}, 1),
		resyncMinInterval:      DefaultResyncMinInterval,
		log:                    opts.Logger,
		opts:                   opts,
	}
}

// Run runs the GraphBuilder, waits (at most initialSyncTimeout) for its
// monitors to sync, and runs workers workers on each queue until ctx ends.
// Sync, run beside it, gives it its monitors.
//
// Mirrors (*GarbageCollector).Run.
func (gc *GarbageCollector) Run(ctx context.Context, workers int, initialSyncTimeout time.Duration) {
	gc.log.Info("starting garbage collector")
	defer gc.log.Info("shutting down garbage collector")
	var wg sync.WaitGroup
	defer func() {
		gc.attemptToDelete.ShutDown()
		gc.attemptToOrphan.ShutDown()
		wg.Wait()
	}()
	wg.Go(func() { gc.dependencyGraphBuilder.Run(ctx) })

	if !gc.dependencyGraphBuilder.waitForSync(ctx, initialSyncTimeout) {
		gc.log.Info("garbage collector: not all resource monitors could be synced, proceeding anyway")
	}
	stop := context.AfterFunc(ctx, func() {
		gc.attemptToDelete.ShutDown()
		gc.attemptToOrphan.ShutDown()
	})
	defer stop()
	for range max(workers, 1) {
		wg.Go(func() {
			for gc.processAttemptToDeleteWorker(ctx) {
			}
		})
		wg.Go(func() {
			for gc.processAttemptToOrphanWorker(ctx) {
			}
		})
	}
	<-ctx.Done()
}

// Resync makes Sync look at discovery soon rather than at its next
// period: crdlab calls it when the discovery of CRDs changes. Requests
// coalesce: at most one read is in flight and one more pending, and reads
// asked for this way are at least DefaultResyncMinInterval apart. Each
// request is followed by a read that starts after it.
func (gc *GarbageCollector) Resync() {
	select {
	case gc.resync <- struct{}{}:
	default: // one is pending already
	}
}

// Sync keeps the monitors in step with discovery until ctx ends: every
// period, or when Resync asks, it reads the deletable resources and, if
// they changed, updates the REST mapping and the monitors.
//
// Mirrors (*GarbageCollector).Sync.
func (gc *GarbageCollector) Sync(ctx context.Context, period time.Duration) {
	var old map[scheme.GroupVersionResource]scheme.GroupVersionKind
	var last time.Time        // when the last read started
	var spacing time.Duration // the least time from last to a read Resync asks for
	timer := time.NewTimer(0)
	defer timer.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-timer.C:
		case <-gc.resync:
			// Coalesce a burst: wait out the interval since the last
			// read; requests made meanwhile wait in gc.resync.
			if wait := spacing - time.Since(last); wait > 0 {
				pause := time.NewTimer(wait)
				select {
				case <-ctx.Done():
					pause.Stop()
					return
				case <-pause.C:
				}
			}
		}
		// The read below answers every request made until now.
		select {
		case <-gc.resync:
		default:
		}
		last = time.Now()
		timer.Reset(period)

		all, err := gc.discover(ctx)
		spacing = max(gc.resyncMinInterval, resyncReadShare*time.Since(last))
		if len(all) == 0 {
			gc.log.Warn("garbage collector: no resources from discovery", "err", err)
			continue
		}
		resources := deletableResources(all)
		var failed *discovery.ErrGroupDiscoveryFailed
		if errors.As(err, &failed) {
			// Keep the monitors of groups discovery failed to read this time.
			for gvr, kind := range old {
				if _, lost := failed.Groups[gvr.GroupVersion()]; lost {
					resources[gvr] = kind
				}
			}
		}
		if maps.Equal(old, resources) {
			continue
		}
		gc.restMapper.reset(all)
		if err := gc.dependencyGraphBuilder.syncMonitors(resources); err != nil {
			gc.log.Warn("garbage collector: failed to sync resource monitors", "err", err)
			continue
		}
		gc.dependencyGraphBuilder.startMonitors()
		gc.log.Info("garbage collector: synced monitors with discovery", "resources", len(resources))
		if gc.opts.Tracer.Enabled() {
			gc.opts.Trace(trace.Event{Step: "monitors", Message: fmt.Sprintf("following %d resources from discovery", len(resources)),
				Upstream: "k8s.io/kubernetes/pkg/controller/garbagecollector.(*GarbageCollector).Sync"})
		}
		old = resources
	}
}

// deletableResources are the resources the collector follows: those with
// the delete, list and watch verbs, each with its kind.
//
// Mirrors GetDeletableResources.
func deletableResources(all []*metav1.APIResourceList) map[scheme.GroupVersionResource]scheme.GroupVersionKind {
	out := map[scheme.GroupVersionResource]scheme.GroupVersionKind{}
	for _, list := range discovery.FilteredBy(discovery.SupportsAllVerbs("delete", "list", "watch"), all) {
		gv, err := scheme.ParseGroupVersion(list.GroupVersion)
		if err != nil {
			continue
		}
		for _, r := range list.APIResources {
			out[gv.WithResource(r.Name)] = gv.WithKind(r.Kind)
		}
	}
	return out
}

// IsSynced reports whether every monitor has synced.
func (gc *GarbageCollector) IsSynced() bool { return gc.dependencyGraphBuilder.IsSynced() }

// GraphHasUID reports whether the graph holds the object uid (for tests
// and the debug view).
//
// Mirrors (*GarbageCollector).GraphHasUID.
func (gc *GarbageCollector) GraphHasUID(uid metav1.UID) bool {
	_, ok := gc.dependencyGraphBuilder.uidToNode.Read(uid)
	return ok
}

// Errors attemptToDeleteItem ends with that are not worth a retry.
var (
	// errEnqueuedVirtualDeleteEvent: the object does not exist; a virtual
	// delete event will take it out of the graph.
	errEnqueuedVirtualDeleteEvent = errors.New("enqueued virtual delete event")
	// errNamespacedOwnerOfClusterScopedObject: a cluster-scoped object
	// cannot have a namespaced owner.
	errNamespacedOwnerOfClusterScopedObject = errors.New("cluster-scoped objects cannot refer to namespaced owners")
)

// processAttemptToDeleteWorker takes one node off attemptToDelete and
// looks at it. It returns false once the queue is shut down.
//
// Mirrors (*GarbageCollector).processAttemptToDeleteWorker and
// attemptToDeleteWorker.
func (gc *GarbageCollector) processAttemptToDeleteWorker(ctx context.Context) bool {
	n, quit := gc.attemptToDelete.Get()
	if quit {
		return false
	}
	defer gc.attemptToDelete.Done(n)

	if !n.isObserved() {
		// A virtual node queued again after a failure: the graph may have
		// since seen the real object (or its deletion).
		inGraph, ok := gc.dependencyGraphBuilder.uidToNode.Read(n.identity.UID)
		if !ok || inGraph.isObserved() {
			gc.attemptToDelete.Forget(n)
			return true
		}
	}

	start := time.Now()
	err := gc.attemptToDeleteItem(ctx, n)
	switch {
	case errors.Is(err, errEnqueuedVirtualDeleteEvent), errors.Is(err, errNamespacedOwnerOfClusterScopedObject):
		gc.attemptToDelete.Forget(n)
		err = nil
	case err != nil:
		gc.log.Warn("garbage collector: error syncing item; requeued", "item", n.identity, "err", err)
		gc.attemptToDelete.AddRateLimited(n)
	case !n.isObserved():
		// The owner exists but no informer has shown it yet: look again,
		// or a virtual node of an object created and deleted during a
		// watch gap would stay forever.
		gc.attemptToDelete.AddRateLimited(n)
	default:
		gc.attemptToDelete.Forget(n)
	}
	gc.opts.TraceSync(n, start, err, upstreamAttemptToDelete)
	return true
}

// isDangling reports whether reference, an ownerReference of item, names
// an object that does not exist (or exists with another UID); if it
// exists, it is returned.
//
// Mirrors (*GarbageCollector).isDangling.
func (gc *GarbageCollector) isDangling(ctx context.Context, reference metav1.OwnerReference, item *node) (dangling bool, owner metav1.Object, err error) {
	key := objectReference{OwnerReference: ownerReferenceCoordinates(reference)}
	if gc.absentOwnerCache.Has(key) { // cluster-scoped owner known absent
		return true, nil, nil
	}
	key.Namespace = item.identity.Namespace
	if gc.absentOwnerCache.Has(key) { // namespaced owner known absent
		return true, nil, nil
	}
	resource, namespaced, err := gc.restMapper.apiResource(reference.APIVersion, reference.Kind)
	if err != nil {
		return false, nil, err
	}
	if !namespaced {
		key.Namespace = ""
	}
	if item.identity.Namespace == "" && namespaced {
		return false, nil, errNamespacedOwnerOfClusterScopedObject
	}
	got, err := gc.metadataClient.Resource(resource).Namespace(resourceDefaultNamespace(namespaced, item.identity.Namespace)).Get(ctx, reference.Name, metav1.GetOptions{})
	switch {
	case apierrors.IsNotFound(err):
		gc.absentOwnerCache.Add(key)
		return true, nil, nil
	case err != nil:
		return false, nil, err
	}
	if got.GetUID() != reference.UID {
		// Deleted and created again: not the owner the reference meant.
		gc.absentOwnerCache.Add(key)
		return true, nil, nil
	}
	return false, got, nil
}

// classifyReferences sorts item's ownerReferences: solid (the owner
// exists and is not being deleted in foreground), dangling (the owner is
// gone), waitingForDependentsDeletion (the owner is being deleted in
// foreground, waiting for item).
//
// Mirrors (*GarbageCollector).classifyReferences.
func (gc *GarbageCollector) classifyReferences(ctx context.Context, item *node, refs []metav1.OwnerReference) (solid, dangling, waiting []metav1.OwnerReference, err error) {
	for _, ref := range refs {
		isDangling, owner, err := gc.isDangling(ctx, ref, item)
		if err != nil {
			return nil, nil, nil, err
		}
		switch {
		case isDangling:
			dangling = append(dangling, ref)
		case beingDeleted(owner) && hasFinalizer(owner, metav1.FinalizerDeleteDependents):
			waiting = append(waiting, ref)
		default:
			solid = append(solid, ref)
		}
	}
	return solid, dangling, waiting, nil
}

// attemptToDeleteItem looks at item on the server and decides:
//   - it does not exist: a virtual delete event takes it out of the graph;
//   - it is an owner in foreground deletion: processDeletingDependentsItem;
//   - it has an owner that exists: its dangling references (and those to
//     owners waiting for it) are removed, and it stays;
//   - an owner waits for it in foreground deletion, and it has dependents
//     of its own: it is deleted in foreground too;
//   - every owner is gone: it is deleted, with the policy its own
//     finalizers ask for (Background by default).
//
// Mirrors (*GarbageCollector).attemptToDeleteItem.
func (gc *GarbageCollector) attemptToDeleteItem(ctx context.Context, item *node) error {
	// Being deleted is a one-way trip: wait for the deletion itself,
	// which frees the dependents.
	if item.isBeingDeleted() && !item.isDeletingDependents() {
		return nil
	}

	latest, err := gc.getObject(ctx, item.identity)
	switch {
	case apierrors.IsNotFound(err):
		// A virtual node for an owner that does not exist (or an object
		// deleted before the informer said so).
		gc.dependencyGraphBuilder.enqueueVirtualDeleteEvent(item.identity)
		return errEnqueuedVirtualDeleteEvent
	case err != nil:
		return err
	}
	if latest.GetUID() != item.identity.UID {
		gc.dependencyGraphBuilder.enqueueVirtualDeleteEvent(item.identity)
		return errEnqueuedVirtualDeleteEvent
	}

	if item.isDeletingDependents() {
		return gc.processDeletingDependentsItem(ctx, item)
	}

	refs := latest.GetOwnerReferences()
	if len(refs) == 0 {
		return nil // an owner only, or nobody's dependent
	}
	solid, dangling, waiting, err := gc.classifyReferences(ctx, item, refs)
	if err != nil {
		return err
	}

	switch {
	case len(solid) != 0:
		// An owner is still there: item stays. Drop the references that
		// would keep an owner waiting (dangling ones, and owners in
		// foreground deletion, which would wait for item forever).
		if len(dangling) == 0 && len(waiting) == 0 {
			return nil
		}
		remove := append(ownerUIDs(dangling), ownerUIDs(waiting)...)
		gc.traceAction(item, "orphan", fmt.Sprintf("still owned by %s: removing %d ownerReferences to owners gone or deleting in foreground", solid[0].Name, len(remove)), upstreamAttemptToDelete)
		return gc.removeOwnerReferences(ctx, item, remove)

	case len(waiting) != 0 && item.dependentsLength() != 0:
		// An owner waits for item in foreground, and item has dependents:
		// delete it in foreground too, so the wait goes down the tree.
		// Two owners waiting for each other would wait forever: unblock
		// item's references if one of its dependents is deleting its own.
		for _, d := range item.getDependents() {
			if d.isDeletingDependents() {
				if err := gc.unblockOwnerReferences(ctx, item); err != nil {
					return err
				}
				break
			}
		}
		return gc.deleteItem(ctx, item, latest, metav1.DeletePropagationForeground, "an owner is deleting in foreground: deleting it in foreground too")

	default:
		// No owner left (or only owners waiting for it): garbage. Honour a
		// propagation the object already asked for with its finalizers.
		policy := metav1.DeletePropagationBackground
		switch {
		case hasFinalizer(latest, metav1.FinalizerOrphanDependents):
			policy = metav1.DeletePropagationOrphan
		case hasFinalizer(latest, metav1.FinalizerDeleteDependents):
			policy = metav1.DeletePropagationForeground
		}
		why := "every owner is gone"
		if len(dangling) == 0 {
			why = "its owners are deleting in foreground"
		}
		return gc.deleteItem(ctx, item, latest, policy, why+": deleting it with propagationPolicy "+string(policy))
	}
}

// deleteItem deletes item (as latest showed it) with policy; a NotFound
// ends in a virtual delete event.
func (gc *GarbageCollector) deleteItem(ctx context.Context, item *node, latest metav1.Object, policy metav1.DeletionPropagation, why string) error {
	gc.traceAction(item, "delete", why, upstreamAttemptToDelete)
	err := gc.deleteObject(ctx, item.identity, latest.GetResourceVersion(), latest.GetOwnerReferences(), policy)
	if apierrors.IsNotFound(err) {
		gc.dependencyGraphBuilder.enqueueVirtualDeleteEvent(item.identity)
		return errEnqueuedVirtualDeleteEvent
	}
	return err
}

// processDeletingDependentsItem handles an owner in foreground deletion:
// once no dependent blocks it, its foregroundDeletion finalizer goes (and
// with it, the owner); until then its blocking dependents are queued.
//
// Mirrors (*GarbageCollector).processDeletingDependentsItem.
func (gc *GarbageCollector) processDeletingDependentsItem(ctx context.Context, item *node) error {
	blocking := item.blockingDependents()
	if len(blocking) == 0 {
		gc.traceAction(item, "finalize", "no blocking dependents left: removing the foregroundDeletion finalizer", upstreamAttemptToDelete)
		return gc.removeFinalizer(ctx, item, metav1.FinalizerDeleteDependents)
	}
	for _, d := range blocking {
		if !d.isDeletingDependents() {
			gc.attemptToDelete.Add(d)
		}
	}
	return nil
}

// processAttemptToOrphanWorker takes one owner off attemptToOrphan: its
// dependents lose their ownerReference to it, then it loses its orphan
// finalizer. It returns false once the queue is shut down.
//
// Mirrors (*GarbageCollector).processAttemptToOrphanWorker and
// attemptToOrphanWorker.
func (gc *GarbageCollector) processAttemptToOrphanWorker(ctx context.Context) bool {
	owner, quit := gc.attemptToOrphan.Get()
	if quit {
		return false
	}
	defer gc.attemptToOrphan.Done(owner)

	start := time.Now()
	err := gc.orphanDependents(ctx, owner.identity, owner.getDependents())
	if err == nil {
		gc.traceAction(owner, "finalize", "dependents orphaned: removing the orphan finalizer", upstreamAttemptToOrphan)
		err = gc.removeFinalizer(ctx, owner, metav1.FinalizerOrphanDependents)
	}
	if err != nil {
		gc.log.Warn("garbage collector: orphaning failed; requeued", "owner", owner.identity, "err", err)
		gc.attemptToOrphan.AddRateLimited(owner)
	} else {
		gc.attemptToOrphan.Forget(owner)
	}
	gc.opts.TraceSync(owner, start, err, upstreamAttemptToOrphan)
	return true
}

// orphanDependents removes the ownerReference to owner from every one of
// dependents, concurrently.
//
// Mirrors (*GarbageCollector).orphanDependents.
func (gc *GarbageCollector) orphanDependents(ctx context.Context, owner objectReference, dependents []*node) error {
	var (
		wg   sync.WaitGroup
		mu   sync.Mutex // guards errs
		errs []error
	)
	for _, d := range dependents {
		wg.Go(func() {
			gc.traceAction(d, "orphan", "its owner "+owner.Name+" is deleted with Orphan: removing the ownerReference", upstreamAttemptToOrphan)
			if err := gc.removeOwnerReferences(ctx, d, []metav1.UID{owner.UID}); err != nil && !apierrors.IsNotFound(err) {
				mu.Lock()
				errs = append(errs, fmt.Errorf("orphaning %s failed: %w", d.identity, err))
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	if len(errs) != 0 {
		return fmt.Errorf("failed to orphan dependents of owner %s: %w", owner, errors.Join(errs...))
	}
	return nil
}

// traceAction records, if tracing is on, that the collector acted on n.
func (gc *GarbageCollector) traceAction(n *node, step, message, upstream string) {
	if !gc.opts.Tracer.Enabled() {
		return
	}
	key := n.identity.Name
	if n.identity.Namespace != "" {
		key = n.identity.Namespace + "/" + key
	}
	gc.opts.Trace(trace.Event{Step: step, Resource: n.identity.Kind + "." + n.identity.APIVersion, Key: key, Message: message, Upstream: upstream})
}

func ownerUIDs(refs []metav1.OwnerReference) []metav1.UID {
	out := make([]metav1.UID, 0, len(refs))
	for _, r := range refs {
		out = append(out, r.UID)
	}
	return out
}
