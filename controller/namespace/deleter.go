package namespace

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sort"
	"time"

	"github.com/crdlab/crdlab/apis/core"
	corev1 "github.com/crdlab/crdlab/apis/core/v1"
	apierrors "github.com/crdlab/crdlab/apis/errors"
	metav1 "github.com/crdlab/crdlab/apis/meta/v1"
	"github.com/crdlab/crdlab/client/discovery"
	"github.com/crdlab/crdlab/client/metadata"
	"github.com/crdlab/crdlab/controller"
	"github.com/crdlab/crdlab/scheme"
	"github.com/crdlab/crdlab/trace"
)

// upstreamDelete is the upstream function Delete mirrors, named in traces.
const upstreamDelete = "k8s.io/kubernetes/pkg/controller/namespace/deletion.(*namespacedResourcesDeleter).Delete"

// finalizerEstimateSeconds is how long the deleter guesses that objects
// held by finalizers of their own take to go (upstream's default).
const finalizerEstimateSeconds = int64(15)

// NamespaceClient reads namespaces and writes their status and
// finalizers. The Clientset's CoreV1().Namespaces() satisfies it.
//
// Mirrors the methods of upstream's typed/core/v1.NamespaceInterface
// the deleter calls.
type NamespaceClient interface {
	Get(ctx context.Context, name string, opts metav1.GetOptions) (*corev1.Namespace, error)
	UpdateStatus(ctx context.Context, ns *corev1.Namespace, opts metav1.UpdateOptions) (*corev1.Namespace, error)
	Finalize(ctx context.Context, ns *corev1.Namespace, opts metav1.UpdateOptions) (*corev1.Namespace, error)
}

// DiscoverResourcesFunc returns the namespaced resources the server
// serves, preferred versions only; with an error, what it could find.
// (*discovery.DiscoveryClient).ServerPreferredNamespacedResources is one.
type DiscoverResourcesFunc func(ctx context.Context) ([]*metav1.APIResourceList, error)

// ResourcesRemainingError says that everything in the namespace was asked
// to go but some objects are still there, held by finalizers: the caller
// looks again in about Estimate/2 seconds.
//
// Mirrors deletion.ResourcesRemainingError.
type ResourcesRemainingError struct {
	Estimate int64
}

func (e *ResourcesRemainingError) Error() string {
	return fmt.Sprintf("some content remains in the namespace, estimate %d seconds before it is removed", e.Estimate)
}

// NamespacedResourcesDeleter deletes everything in a deleted namespace,
// then removes its finalizer token from the namespace's spec.finalizers.
//
// Mirrors namespacedResourcesDeleter in
// k8s.io/kubernetes/pkg/controller/namespace/deletion/namespaced_resources_deleter.go.
type NamespacedResourcesDeleter struct {
	nsClient NamespaceClient
	// metadataClient lists and deletes the objects of any resource, as
	// metadata only (PartialObjectMetadata), as upstream's does.
	metadataClient metadata.Interface
	discover       DiscoverResourcesFunc
	// finalizerToken is the spec.finalizers entry this deleter owns.
	finalizerToken corev1.FinalizerName
	opts           controller.Options
}

// NewNamespacedResourcesDeleter returns a deleter that removes
// finalizerToken once a namespace is empty.
//
// Mirrors NewNamespacedResourcesDeleter.
func NewNamespacedResourcesDeleter(nsClient NamespaceClient, metadataClient metadata.Interface, discover DiscoverResourcesFunc,
	finalizerToken corev1.FinalizerName, opts controller.Options) *NamespacedResourcesDeleter {
	return &NamespacedResourcesDeleter{nsClient: nsClient, metadataClient: metadataClient, discover: discover, finalizerToken: finalizerToken, opts: opts}
}

// Delete empties the namespace nsName if it is being deleted, then
// removes the finalizer token. It returns a *ResourcesRemainingError while
// objects wait on their own finalizers; call it again until it returns
// nil.
//
// Mirrors (*namespacedResourcesDeleter).Delete.
func (d *NamespacedResourcesDeleter) Delete(ctx context.Context, nsName string) error {
	// Read the latest namespace, not the cache's: others write it too.
	ns, err := d.nsClient.Get(ctx, nsName, metav1.GetOptions{})
	if err != nil {
		if apierrors.IsNotFound(err) {
			return nil
		}
		return err
	}
	if ns.DeletionTimestamp == nil {
		return nil
	}
	// The phase says Terminating (the namespace storage sets it already on
	// delete; this heals a namespace that missed it).
	ns, err = d.retryOnConflictError(ctx, ns, d.updateNamespaceStatusFunc)
	if err != nil {
		if apierrors.IsNotFound(err) {
			return nil
		}
		return err
	}
	if ns.DeletionTimestamp == nil || finalized(ns) {
		return nil
	}

	estimate, err := d.deleteAllContent(ctx, ns)
	if err != nil {
		return err
	}
	if estimate > 0 {
		return &ResourcesRemainingError{Estimate: estimate}
	}

	// Empty: take our token off spec.finalizers. With none left, the
	// namespace storage deletes the namespace in that same write.
	_, err = d.retryOnConflictError(ctx, ns, d.finalizeNamespace)
	if apierrors.IsNotFound(err) {
		return nil
	}
	return err
}

// updateNamespaceFunc changes a namespace on the server.
type updateNamespaceFunc func(ctx context.Context, ns *corev1.Namespace) (*corev1.Namespace, error)

// retryOnConflictError calls fn until it does not fail with a Conflict,
// reading the namespace again before each retry; a namespace that was
// deleted and created again (a new UID) is an error.
//
// Mirrors (*namespacedResourcesDeleter).retryOnConflictError.
func (d *NamespacedResourcesDeleter) retryOnConflictError(ctx context.Context, ns *corev1.Namespace, fn updateNamespaceFunc) (*corev1.Namespace, error) {
	latest := ns
	for {
		result, err := fn(ctx, latest)
		if err == nil {
			return result, nil
		}
		if !apierrors.IsConflict(err) {
			return nil, err
		}
		prev := latest
		latest, err = d.nsClient.Get(ctx, latest.Name, metav1.GetOptions{})
		if err != nil {
			return nil, err
		}
		if prev.UID != latest.UID {
			return nil, errors.New("namespace uid has changed across retries")
		}
	}
}

// updateNamespaceStatusFunc sets phase Terminating on a deleted namespace
// that does not say so yet.
//
// Mirrors (*namespacedResourcesDeleter).updateNamespaceStatusFunc.
func (d *NamespacedResourcesDeleter) updateNamespaceStatusFunc(ctx context.Context, ns *corev1.Namespace) (*corev1.Namespace, error) {
	if ns.DeletionTimestamp == nil || ns.Status.Phase == corev1.NamespaceTerminating {
		return ns, nil
	}
	updated := ns.DeepCopyObject().(*corev1.Namespace)
	updated.Status.Phase = corev1.NamespaceTerminating
	return d.nsClient.UpdateStatus(ctx, updated, metav1.UpdateOptions{})
}

// finalized reports whether spec.finalizers is empty.
func finalized(ns *corev1.Namespace) bool { return len(ns.Spec.Finalizers) == 0 }

// finalizeNamespace removes the deleter's token from spec.finalizers
// through the /finalize subresource.
//
// Mirrors (*namespacedResourcesDeleter).finalizeNamespace.
func (d *NamespacedResourcesDeleter) finalizeNamespace(ctx context.Context, ns *corev1.Namespace) (*corev1.Namespace, error) {
	finalize := ns.DeepCopyObject().(*corev1.Namespace)
	finalize.Spec.Finalizers = slices.DeleteFunc(finalize.Spec.Finalizers, func(f corev1.FinalizerName) bool { return f == d.finalizerToken })
	sort.Slice(finalize.Spec.Finalizers, func(i, j int) bool { return finalize.Spec.Finalizers[i] < finalize.Spec.Finalizers[j] })
	finalize.Spec.Finalizers = slices.Compact(finalize.Spec.Finalizers)
	out, err := d.nsClient.Finalize(ctx, finalize, metav1.UpdateOptions{})
	if err == nil && d.opts.Tracer.Enabled() {
		d.opts.Trace(trace.Event{Step: "finalize", Resource: "namespaces", Key: ns.Name, ResourceVersion: out.ResourceVersion,
			Message:  fmt.Sprintf("namespace empty: %q removed from spec.finalizers through /finalize (%d left)", d.finalizerToken, len(finalize.Spec.Finalizers)),
			Upstream: "k8s.io/kubernetes/pkg/controller/namespace/deletion.(*namespacedResourcesDeleter).finalizeNamespace"})
	}
	return out, err
}

// gvrDeletionMetadata is what deleting one resource's objects left.
type gvrDeletionMetadata struct {
	// finalizerEstimateSeconds is how much longer to wait; 0 is no
	// estimate, not "all gone".
	finalizerEstimateSeconds int64
	// numRemaining is how many objects remain.
	numRemaining int
	// finalizersToNumRemaining counts the remaining objects by finalizer.
	finalizersToNumRemaining map[string]int
}

// allGVRDeletionMetadata sums gvrDeletionMetadata over the resources.
type allGVRDeletionMetadata struct {
	gvrToNumRemaining        map[scheme.GroupVersionResource]int
	finalizersToNumRemaining map[string]int
}

// deleteAllContent deletes every object of every namespaced resource
// discovery names in ns, and writes what it found in ns's conditions. It
// returns an estimate of the seconds until the remaining objects go (0:
// none remain). Errors of one resource do not stop the others.
//
// Mirrors (*namespacedResourcesDeleter).deleteAllContent (crdlab serves no
// pods, so there is no pods-first pass).
func (d *NamespacedResourcesDeleter) deleteAllContent(ctx context.Context, ns *corev1.Namespace) (int64, error) {
	var errs []error
	updater := &namespaceConditionUpdater{now: d.opts.Clock.Now}
	estimate := int64(0)

	resources, err := d.discover(ctx)
	if err != nil {
		// Not fatal: delete what was found; the error keeps the namespace
		// queued until discovery answers in full.
		errs = append(errs, err)
		updater.ProcessDiscoverResourcesErr(err)
	}
	deletable := discovery.FilteredBy(discovery.SupportsAllVerbs("delete"), resources)
	gvrs, err := discovery.GroupVersionResources(deletable)
	if err != nil {
		errs = append(errs, err)
		updater.ProcessGroupVersionErr(err)
	}
	verbs := verbsByGVR(deletable)

	totals := allGVRDeletionMetadata{
		gvrToNumRemaining:        map[scheme.GroupVersionResource]int{},
		finalizersToNumRemaining: map[string]int{},
	}
	for _, gvr := range sortedGVRs(gvrs) {
		m, err := d.deleteAllContentForGroupVersionResource(ctx, gvr, verbs[gvr], ns.Name)
		if err != nil {
			errs = append(errs, err)
			updater.ProcessDeleteContentErr(err)
		}
		estimate = max(estimate, m.finalizerEstimateSeconds)
		if m.numRemaining > 0 {
			totals.gvrToNumRemaining[gvr] = m.numRemaining
			for f, n := range m.finalizersToNumRemaining {
				totals.finalizersToNumRemaining[f] += n
			}
		}
	}
	updater.ProcessContentTotals(totals)

	// Always write the conditions when they changed, "it worked" after
	// "it failed" included.
	if updater.Update(ns) {
		updated, err := d.nsClient.UpdateStatus(ctx, ns, metav1.UpdateOptions{})
		if err != nil {
			d.opts.Logger.Warn("couldn't update status conditions of namespace", "namespace", ns.Name, "err", err)
		} else if d.opts.Tracer.Enabled() {
			d.opts.Trace(trace.Event{Step: "status", Resource: "namespaces", Key: ns.Name, ResourceVersion: updated.ResourceVersion,
				Message: conditionSummary(updated), Upstream: upstreamDelete})
		}
	}
	return estimate, errors.Join(errs...)
}

// deleteAllContentForGroupVersionResource deletes the objects of gvr in
// namespace (one deletecollection, or a list and a delete per object),
// then lists what is left.
//
// Mirrors (*namespacedResourcesDeleter).deleteAllContentForGroupVersionResource
// (no graceful-termination estimate: that is for pods).
func (d *NamespacedResourcesDeleter) deleteAllContentForGroupVersionResource(ctx context.Context, gvr scheme.GroupVersionResource, verbs []string, namespace string) (gvrDeletionMetadata, error) {
	start := time.Now()
	supported, err := d.deleteCollection(ctx, gvr, verbs, namespace)
	if err != nil {
		return gvrDeletionMetadata{}, err
	}
	if !supported {
		if err := d.deleteEachItem(ctx, gvr, verbs, namespace); err != nil {
			return gvrDeletionMetadata{}, err
		}
	}

	// What is left?
	items, listSupported, err := d.listCollection(ctx, gvr, verbs, namespace)
	if err != nil {
		return gvrDeletionMetadata{}, err
	}
	if !listSupported {
		return gvrDeletionMetadata{}, nil
	}
	finalizers := map[string]int{}
	for _, it := range items {
		for _, f := range it.GetFinalizers() {
			finalizers[f]++
		}
	}
	d.traceDelete(gvr, namespace, supported, len(items), start)
	switch {
	case len(items) == 0:
		return gvrDeletionMetadata{}, nil
	case len(finalizers) > 0:
		// Objects held by finalizers are normal: give them (the garbage
		// collector, say) time.
		return gvrDeletionMetadata{finalizerEstimateSeconds: finalizerEstimateSeconds, numRemaining: len(items), finalizersToNumRemaining: finalizers}, nil
	default:
		// Nothing holds them: they should have gone (or were created
		// meanwhile, which admission forbids in a Terminating namespace).
		return gvrDeletionMetadata{numRemaining: len(items)},
			fmt.Errorf("unexpected items still remain in namespace: %s for gvr: %s", namespace, gvr)
	}
}

// deleteCollection deletes the objects of gvr in namespace with one
// deletecollection; supported is false if the resource has no such verb.
// Background propagation: the garbage collector must not put the orphan
// finalizer on them (the namespace deletes everything anyway).
//
// Mirrors (*namespacedResourcesDeleter).deleteCollection; discovery's
// verbs stand for upstream's opCache.
func (d *NamespacedResourcesDeleter) deleteCollection(ctx context.Context, gvr scheme.GroupVersionResource, verbs []string, namespace string) (supported bool, err error) {
	if !slices.Contains(verbs, "deletecollection") {
		return false, nil
	}
	background := metav1.DeletePropagationBackground
	err = d.metadataClient.Resource(gvr).Namespace(namespace).DeleteCollection(ctx, metav1.DeleteOptions{PropagationPolicy: &background}, metav1.ListOptions{})
	if err == nil {
		return true, nil
	}
	// A resource that went away since discovery (a deleted CRD), or that
	// refuses the verb after all.
	if apierrors.IsMethodNotSupported(err) || apierrors.IsNotFound(err) {
		return false, nil
	}
	return true, err
}

// listCollection lists the objects of gvr in namespace; supported is
// false if the resource cannot be listed.
//
// Mirrors (*namespacedResourcesDeleter).listCollection.
func (d *NamespacedResourcesDeleter) listCollection(ctx context.Context, gvr scheme.GroupVersionResource, verbs []string, namespace string) (items []metav1.Object, supported bool, err error) {
	if !slices.Contains(verbs, "list") {
		return nil, false, nil
	}
	list, err := d.metadataClient.Resource(gvr).Namespace(namespace).List(ctx, metav1.ListOptions{})
	if err != nil {
		if apierrors.IsMethodNotSupported(err) || apierrors.IsNotFound(err) {
			return nil, false, nil
		}
		return nil, true, err
	}
	for i := range list.Items {
		items = append(items, &list.Items[i])
	}
	return items, true, nil
}

// deleteEachItem lists the objects of gvr in namespace and deletes them
// one by one.
//
// Mirrors (*namespacedResourcesDeleter).deleteEachItem.
func (d *NamespacedResourcesDeleter) deleteEachItem(ctx context.Context, gvr scheme.GroupVersionResource, verbs []string, namespace string) error {
	items, supported, err := d.listCollection(ctx, gvr, verbs, namespace)
	if err != nil || !supported {
		return err
	}
	background := metav1.DeletePropagationBackground
	for _, it := range items {
		err := d.metadataClient.Resource(gvr).Namespace(namespace).Delete(ctx, it.GetName(), metav1.DeleteOptions{PropagationPolicy: &background})
		if err != nil && !apierrors.IsNotFound(err) && !apierrors.IsMethodNotSupported(err) {
			return err
		}
	}
	return nil
}

// traceDelete records, if tracing is on, that the objects of gvr in
// namespace were deleted and remaining are left.
func (d *NamespacedResourcesDeleter) traceDelete(gvr scheme.GroupVersionResource, namespace string, collection bool, remaining int, start time.Time) {
	if !d.opts.Tracer.Enabled() {
		return
	}
	how := "list and delete each"
	if collection {
		how = "deletecollection"
	}
	d.opts.Trace(trace.Event{Step: "delete", Resource: gvr.GroupResource().String(), Key: namespace, Duration: time.Since(start),
		Message:  fmt.Sprintf("%s %s in namespace %s: %d remain", how, gvr.GroupResource(), namespace, remaining),
		Upstream: "k8s.io/kubernetes/pkg/controller/namespace/deletion.(*namespacedResourcesDeleter).deleteAllContentForGroupVersionResource"})
}

// verbsByGVR returns the verbs discovery lists for each resource.
func verbsByGVR(lists []*metav1.APIResourceList) map[scheme.GroupVersionResource][]string {
	out := map[scheme.GroupVersionResource][]string{}
	for _, l := range lists {
		gv, err := scheme.ParseGroupVersion(l.GroupVersion)
		if err != nil {
			continue
		}
		for _, r := range l.APIResources {
			out[gv.WithResource(r.Name)] = r.Verbs
		}
	}
	return out
}

// sortedGVRs returns the resources in a fixed order (upstream ranges over
// a map), so traces and conditions read the same each time.
func sortedGVRs(gvrs map[scheme.GroupVersionResource]struct{}) []scheme.GroupVersionResource {
	out := make([]scheme.GroupVersionResource, 0, len(gvrs))
	for gvr := range gvrs {
		out = append(out, gvr)
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.Group != b.Group {
			return a.Group < b.Group
		}
		if a.Resource != b.Resource {
			return a.Resource < b.Resource
		}
		return a.Version < b.Version
	})
	return out
}

// conditionSummary is the namespace's True conditions, for traces.
func conditionSummary(ns *corev1.Namespace) string {
	var parts []string
	for _, c := range ns.Status.Conditions {
		if c.Status == metav1.ConditionTrue {
			parts = append(parts, fmt.Sprintf("%s=True (%s)", c.Type, c.Reason))
		}
	}
	if len(parts) == 0 {
		return "conditions: all content deleted"
	}
	return "conditions: " + fmt.Sprint(parts)
}

// The core package's condition types, in v1.
var (
	nsDeletionDiscoveryFailure = corev1.NamespaceConditionType(core.NamespaceDeletionDiscoveryFailure)
	nsDeletionGVParsingFailure = corev1.NamespaceConditionType(core.NamespaceDeletionGVParsingFailure)
	nsDeletionContentFailure   = corev1.NamespaceConditionType(core.NamespaceDeletionContentFailure)
	nsContentRemaining         = corev1.NamespaceConditionType(core.NamespaceContentRemaining)
	nsFinalizersRemaining      = corev1.NamespaceConditionType(core.NamespaceFinalizersRemaining)
)
