package finalizer

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"reflect"
	"strings"
	"time"

	"github.com/crdlab/crdlab/apis/apiextensions/helpers"
	apiextensionsv1 "github.com/crdlab/crdlab/apis/apiextensions/v1"
	apierrors "github.com/crdlab/crdlab/apis/errors"
	metav1 "github.com/crdlab/crdlab/apis/meta/v1"
	"github.com/crdlab/crdlab/controller"
	"github.com/crdlab/crdlab/informer"
	"github.com/crdlab/crdlab/informer/workqueue"
	"github.com/crdlab/crdlab/machinery/clock"
	"github.com/crdlab/crdlab/scheme"
)

// upstreamSync is the upstream function sync mirrors, named in traces.
const upstreamSync = "k8s.io/apiextensions-apiserver/pkg/controller/finalizer.(*CRDFinalizer).sync"

// MaxRetryDelay caps the backoff between tries while instances remain.
// Upstream's default controller limiter goes up to 1000 s; a CRD whose
// last instance has just lost its own finalizer should not wait that long.
const MaxRetryDelay = 30 * time.Second

// ErrInstancesRemain is what sync returns while the CRD still has
// instances after the deletes: the key is retried with backoff.
var ErrInstancesRemain = errors.New("custom resources remain")

// OverlappingBuiltInResources returns the built-in resources whose URLs
// and storage a CRD could share: the finalizer never deletes instances of
// a CRD that names one.
//
// Mirrors OverlappingBuiltInResources in crd_finalizer.go.
func OverlappingBuiltInResources() map[scheme.GroupResource]bool {
	return map[scheme.GroupResource]bool{
		{Group: "apiregistration.k8s.io", Resource: "apiservices"}:             true,
		{Group: "apiextensions.k8s.io", Resource: "customresourcedefinitions"}: true,
	}
}

// ListerCollectionDeleter lists and deletes the instances of one CRD.
//
// Mirrors ListerCollectionDeleter in crd_finalizer.go (rest.Lister plus
// rest.CollectionDeleter), narrowed to what the finalizer calls.
type ListerCollectionDeleter interface {
	// List returns a page of the instances in every namespace (their
	// metadata: the finalizer needs their namespaces and their number);
	// opts.Limit and opts.Continue page as in any list.
	List(ctx context.Context, opts metav1.ListOptions) (*metav1.PartialObjectMetadataList, error)
	// DeleteCollection deletes every instance of namespace ("" for a
	// cluster-scoped CRD).
	DeleteCollection(ctx context.Context, namespace string) error
}

// CRClientGetter returns the ListerCollectionDeleter of a CRD.
//
// Mirrors CRClientGetter in crd_finalizer.go.
type CRClientGetter interface {
	GetCustomResourceListerCollectionDeleter(crd *apiextensionsv1.CustomResourceDefinition) (ListerCollectionDeleter, error)
}

// CRDFinalizer deletes the instances of deleted CRDs, then removes the
// customresourcecleanup finalizer so that the CRD goes too.
//
// Mirrors CRDFinalizer in
// k8s.io/apiextensions-apiserver/pkg/controller/finalizer/crd_finalizer.go.
type CRDFinalizer struct {
	crdClient      controller.CRDClient
	crClientGetter CRClientGetter

	crdLister *controller.CRDLister
	crdSynced informer.InformerSynced

	// syncFn is sync; tests replace it.
	syncFn func(ctx context.Context, key string) error

	// queue holds CRD names.
	queue workqueue.RateLimitingInterface[string]
	log   *slog.Logger
	clock clock.Clock
	// opts are the defaulted Options; ProcessNextWorkItem and the traces
	// read them.
	opts controller.Options
}

// NewCRDFinalizer returns a finalizer fed by crdInformer's events (it
// registers its handlers now: call it before the informer starts).
//
// Mirrors NewCRDFinalizer.
func NewCRDFinalizer(crdInformer informer.SharedIndexInformer, crdClient controller.CRDClient, crClientGetter CRClientGetter, opts controller.Options) (*CRDFinalizer, error) {
	opts = opts.WithDefaults("finalizer")
	c := &CRDFinalizer{
		crdClient:      crdClient,
		crClientGetter: crClientGetter,
		crdLister:      controller.NewCRDLister(crdInformer),
		crdSynced:      crdInformer.HasSynced,
		queue: workqueue.NewRateLimiting(
			workqueue.NewMaxOfRateLimiter(
				workqueue.NewItemExponentialFailureRateLimiter[string](5*time.Millisecond, MaxRetryDelay),
				workqueue.NewBucketRateLimiter[string](10, 100, nil),
			),
			opts.QueueConfig("crd_finalizer")),
		log:   opts.Logger,
		clock: opts.Clock,
		opts:  opts,
	}
	c.syncFn = c.sync
	if _, err := crdInformer.AddEventHandler(informer.ResourceEventHandlerFuncs{
		AddFunc:    func(obj any, _ bool) { c.addCustomResourceDefinition(obj) },
		UpdateFunc: c.updateCustomResourceDefinition,
	}); err != nil {
		return nil, fmt.Errorf("finalizer: %w", err)
	}
	return c, nil
}

// Run waits for the CRD informer to sync, then runs workers workers until
// ctx ends.
//
// Mirrors (*CRDFinalizer).Run.
func (c *CRDFinalizer) Run(ctx context.Context, workers int) {
	defer c.queue.ShutDown()
	c.log.Info("starting CRDFinalizer")
	defer c.log.Info("shutting down CRDFinalizer")

	if !informer.WaitForCacheSync(ctx, c.crdSynced) {
		return
	}
	controller.RunWorkers(ctx, c.queue, workers, c.processNextWorkItem)
}

// processNextWorkItem handles one key off the queue. It returns false
// when the queue is shut down.
//
// Mirrors (*CRDFinalizer).processNextWorkItem.
func (c *CRDFinalizer) processNextWorkItem(ctx context.Context) bool {
	return controller.ProcessNextWorkItem(ctx, c.queue, c.syncFn, c.opts, upstreamSync)
}

// sync finalizes one deleted CRD: Terminating, instances deleted,
// finalizer removed.
//
// Mirrors (*CRDFinalizer).sync.
func (c *CRDFinalizer) sync(ctx context.Context, key string) error {
	cachedCRD, err := c.crdLister.Get(key)
	if apierrors.IsNotFound(err) {
		return nil
	}
	if err != nil {
		return err
	}

	// Not deleted, or already finalized by us: nothing to do.
	if cachedCRD.DeletionTimestamp == nil || !helpers.CRDHasFinalizer(cachedCRD, apiextensionsv1.CustomResourceCleanupFinalizer) {
		return nil
	}

	crd := controller.CopyForStatus(cachedCRD)

	// Say that the cleanup has started: it may take a while.
	inProgress := apiextensionsv1.CustomResourceDefinitionCondition{
		Type:    apiextensionsv1.Terminating,
		Status:  apiextensionsv1.ConditionTrue,
		Reason:  "InstanceDeletionInProgress",
		Message: "CustomResource deletion is in progress",
	}
	if !helpers.IsCRDConditionEquivalent(&inProgress, helpers.FindCRDCondition(crd, apiextensionsv1.Terminating)) {
		helpers.SetCRDConditionAt(crd, inProgress, c.clock.Now())
		crd, err = c.crdClient.UpdateStatus(ctx, crd, metav1.UpdateOptions{})
		if apierrors.IsNotFound(err) || apierrors.IsConflict(err) {
			// Deleted or changed meanwhile: we are called again.
			return nil
		}
		if err != nil {
			return err
		}
		c.opts.TraceStatus(crd, upstreamSync, "", apiextensionsv1.Terminating)
	}

	// Delete the instances through the API, so that whatever a delete
	// does (their own finalizers, watch events) happens. A CRD that never
	// became Established never served one; one that shadows a built-in
	// resource shares its URL, and must not delete the built-in's objects.
	if OverlappingBuiltInResources()[scheme.GroupResource{Group: crd.Spec.Group, Resource: crd.Spec.Names.Plural}] {
		helpers.SetCRDConditionAt(crd, apiextensionsv1.CustomResourceDefinitionCondition{
			Type:    apiextensionsv1.Terminating,
			Status:  apiextensionsv1.ConditionFalse,
			Reason:  "OverlappingBuiltInResource",
			Message: "instances overlap with built-in resources in storage",
		}, c.clock.Now())
	} else if helpers.IsCRDConditionTrue(crd, apiextensionsv1.Established) {
		cond, deleteErr := c.deleteInstances(ctx, crd)
		helpers.SetCRDConditionAt(crd, cond, c.clock.Now())
		if deleteErr != nil {
			// Report a failure; "instances remain" is still progress, and
			// the CRD already says so.
			if !errors.Is(deleteErr, ErrInstancesRemain) {
				updated, err := c.crdClient.UpdateStatus(ctx, crd, metav1.UpdateOptions{})
				if err != nil {
					c.log.Error("cannot report instance deletion failure", "crd", key, "err", err)
				}
				c.opts.TraceStatus(updated, upstreamSync, "", apiextensionsv1.Terminating)
			}
			return deleteErr
		}
	} else {
		helpers.SetCRDConditionAt(crd, apiextensionsv1.CustomResourceDefinitionCondition{
			Type:    apiextensionsv1.Terminating,
			Status:  apiextensionsv1.ConditionFalse,
			Reason:  "NeverEstablished",
			Message: "resource was never established",
		}, c.clock.Now())
	}

	// Removing the last finalizer of a CRD being deleted deletes it.
	helpers.CRDRemoveFinalizer(crd, apiextensionsv1.CustomResourceCleanupFinalizer)
	updated, err := c.crdClient.UpdateStatus(ctx, crd, metav1.UpdateOptions{})
	if apierrors.IsNotFound(err) || apierrors.IsConflict(err) {
		// Deleted or changed meanwhile: we are called again.
		return nil
	}
	if err != nil {
		return err
	}
	c.opts.TraceStatus(updated, upstreamSync, "finalizer "+apiextensionsv1.CustomResourceCleanupFinalizer+" removed", apiextensionsv1.Terminating)
	return nil
}

// deleteInstances deletes every instance of crd and checks that none is
// left. It returns the Terminating condition to report: False with
// InstanceDeletionCompleted on success, True with InstanceDeletionFailed
// if a list or delete failed, or True with InstanceDeletionInProgress and
// ErrInstancesRemain while instances remain.
//
// Mirrors (*CRDFinalizer).deleteInstances.
func (c *CRDFinalizer) deleteInstances(ctx context.Context, crd *apiextensionsv1.CustomResourceDefinition) (apiextensionsv1.CustomResourceDefinitionCondition, error) {
	failed := func(msg string, err error) (apiextensionsv1.CustomResourceDefinitionCondition, error) {
		return apiextensionsv1.CustomResourceDefinitionCondition{
			Type:    apiextensionsv1.Terminating,
			Status:  apiextensionsv1.ConditionTrue,
			Reason:  "InstanceDeletionFailed",
			Message: fmt.Sprintf("%s: %v", msg, err),
		}, err
	}
	crClient, err := c.crClientGetter.GetCustomResourceListerCollectionDeleter(crd)
	if err != nil {
		err = fmt.Errorf("unable to find a custom resource client for %s.%s: %w", crd.Status.AcceptedNames.Plural, crd.Spec.Group, err)
		return failed("could not list instances", err)
	}

	// One DeleteCollection per namespace that has instances (a namespaced
	// resource cannot be deleted across namespaces in one call), as the
	// pages of a list name them. Upstream lists every instance first; here
	// a namespace is deleted as soon as a page names it, and the list
	// starts again where its instances are gone, so that at most a page or
	// two of instances are decoded and held at a time (a list of 5,000 left
	// 22 MB of decoded objects in storage while they were deleted). A page
	// that names no namespace not yet deleted (instances that finalizers
	// keep, or whose delete failed) is paged past.
	deleted := map[string]bool{}
	var deleteErrors []string
	opts := metav1.ListOptions{Limit: ListPageSize}
	for pages := 0; ; pages++ {
		if pages == maxListPages {
			return failed("could not list instances", fmt.Errorf("more than %d pages of %d", maxListPages, ListPageSize))
		}
		page, err := crClient.List(ctx, opts)
		if err != nil {
			return failed("could not list instances", err)
		}
		fresh := false
		for i := range page.Items {
			ns := page.Items[i].GetNamespace()
			if deleted[ns] {
				continue
			}
			deleted[ns], fresh = true, true
			if err := crClient.DeleteCollection(ctx, ns); err != nil && !apierrors.IsNotFound(err) {
				deleteErrors = append(deleteErrors, err.Error())
			}
		}
		if fresh {
			opts.Continue = ""
			continue
		}
		if page.Continue == "" {
			break
		}
		opts.Continue = page.Continue
	}
	if len(deleteErrors) > 0 {
		return failed("could not issue all deletes", errors.New(strings.Join(deleteErrors, "; ")))
	}

	// Check that they are gone. DeleteCollection is synchronous for
	// instances without finalizers; those with finalizers (or created
	// just before Terminating reached the handler) make us come back.
	n, err := countInstances(ctx, crClient)
	if err != nil {
		return failed("could not list instances", err)
	}
	if n > 0 {
		return apiextensionsv1.CustomResourceDefinitionCondition{
			Type:    apiextensionsv1.Terminating,
			Status:  apiextensionsv1.ConditionTrue,
			Reason:  "InstanceDeletionInProgress",
			Message: "CustomResource deletion is in progress",
		}, fmt.Errorf("%w: %s.%s waiting for %d items to be removed", ErrInstancesRemain, crd.Status.AcceptedNames.Plural, crd.Spec.Group, n)
	}
	return apiextensionsv1.CustomResourceDefinitionCondition{
		Type:    apiextensionsv1.Terminating,
		Status:  apiextensionsv1.ConditionFalse,
		Reason:  "InstanceDeletionCompleted",
		Message: "removed all instances",
	}, nil
}

// ListPageSize is the page size of the finalizer's lists and of each of
// its DeleteCollection requests: a page of 500 crdbench objects is about
// 0.8 MB of JSON as metadata.
const ListPageSize = 500

// maxListPages bounds the pages the finalizer reads in one try.
const maxListPages = 1_000_000

// countInstances pages through the instances and counts them.
func countInstances(ctx context.Context, crClient ListerCollectionDeleter) (int, error) {
	n := 0
	opts := metav1.ListOptions{Limit: ListPageSize}
	for range maxListPages {
		page, err := crClient.List(ctx, opts)
		if err != nil {
			return 0, err
		}
		n += len(page.Items)
		if page.Continue == "" {
			return n, nil
		}
		opts.Continue = page.Continue
	}
	return 0, fmt.Errorf("more than %d pages of %d", maxListPages, ListPageSize)
}

// addCustomResourceDefinition queues a CRD that is being deleted (seen at
// start-up, or created and deleted while nobody watched).
//
// Mirrors (*CRDFinalizer).addCustomResourceDefinition.
func (c *CRDFinalizer) addCustomResourceDefinition(obj any) {
	crd, ok := controller.CRDFromObject(obj)
	if !ok {
		return
	}
	if crd.DeletionTimestamp != nil && helpers.CRDHasFinalizer(crd, apiextensionsv1.CustomResourceCleanupFinalizer) {
		c.queue.Add(crd.Name)
	}
}

// updateCustomResourceDefinition queues a CRD being deleted that still
// carries our finalizer — unless the only change is the Terminating
// condition, which we most likely wrote ourselves: requeueing then would
// make us hot-loop. Failures are retried by the queue, not by events.
//
// Mirrors (*CRDFinalizer).updateCustomResourceDefinition.
func (c *CRDFinalizer) updateCustomResourceDefinition(oldObj, newObj any) {
	oldCRD, ok1 := controller.CRDFromObject(oldObj)
	newCRD, ok2 := controller.CRDFromObject(newObj)
	if !ok1 || !ok2 {
		return
	}
	if newCRD.DeletionTimestamp == nil || !helpers.CRDHasFinalizer(newCRD, apiextensionsv1.CustomResourceCleanupFinalizer) {
		return
	}
	// Resyncs (same resourceVersion) are always requeued, just in case.
	if oldCRD.ResourceVersion == newCRD.ResourceVersion {
		c.queue.Add(newCRD.Name)
		return
	}
	oldCopy, newCopy := oldCRD.DeepCopy(), newCRD.DeepCopy()
	oldCopy.ResourceVersion, newCopy.ResourceVersion = "", ""
	helpers.RemoveCRDCondition(oldCopy, apiextensionsv1.Terminating)
	helpers.RemoveCRDCondition(newCopy, apiextensionsv1.Terminating)
	if !reflect.DeepEqual(oldCopy, newCopy) {
		c.queue.Add(newCRD.Name)
	}
}
