package namespace

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/crdlab/crdlab/apis/core"
	corev1 "github.com/crdlab/crdlab/apis/core/v1"
	apierrors "github.com/crdlab/crdlab/apis/errors"
	"github.com/crdlab/crdlab/client/metadata"
	"github.com/crdlab/crdlab/controller"
	"github.com/crdlab/crdlab/informer"
	"github.com/crdlab/crdlab/informer/workqueue"
)

// upstreamSync is the upstream function a sync mirrors, named in traces.
const upstreamSync = "k8s.io/kubernetes/pkg/controller/namespace.(*NamespaceController).syncNamespaceFromKey"

// MaxRetryDelay caps the backoff between tries of a namespace whose
// deletion fails: upstream retries a namespace at least every minute.
const MaxRetryDelay = 60 * time.Second

// HADeletionGracePeriod is the wait upstream puts between seeing a
// namespace deleted and emptying it, for several apiservers on one etcd
// (see doc.go).
const HADeletionGracePeriod = 5 * time.Second

// NamespaceController empties deleted namespaces and then lets them go.
//
// Mirrors NamespaceController in
// k8s.io/kubernetes/pkg/controller/namespace/namespace_controller.go.
type NamespaceController struct {
	// DeletionGracePeriod is how long a deleted namespace waits in the
	// queue before it is emptied: 0 for one server (see doc.go),
	// HADeletionGracePeriod when several share storage. Set it before the
	// informer starts.
	DeletionGracePeriod time.Duration

	lister       *informer.Lister[*corev1.Namespace]
	listerSynced informer.InformerSynced
	// queue holds namespace names.
	queue   workqueue.RateLimitingInterface[string]
	deleter *NamespacedResourcesDeleter
	log     *slog.Logger
	// opts are the defaulted Options; the traces read them.
	opts controller.Options
}

// NewNamespaceController returns a controller fed by nsInformer's events
// (it registers its handler now: call it before the informer starts). It
// reads namespaces and clears their finalizer through nsClient, finds
// what a namespace may hold with discover, and lists and deletes its
// objects as metadata through metadataClient.
//
// Mirrors NewNamespaceController.
func NewNamespaceController(nsInformer informer.SharedIndexInformer, nsClient NamespaceClient, metadataClient metadata.Interface,
	discover DiscoverResourcesFunc, opts controller.Options) (*NamespaceController, error) {
	opts = opts.WithDefaults("namespace")
	c := &NamespaceController{
		lister:       informer.NewLister[*corev1.Namespace](nsInformer.GetIndexer(), core.Resource("namespaces")),
		listerSynced: nsInformer.HasSynced,
		// Upstream's nsControllerRateLimiter: per-namespace backoff from
		// 5ms to a minute, and 10 qps overall.
		queue: workqueue.NewRateLimiting(
			workqueue.NewMaxOfRateLimiter(
				workqueue.NewItemExponentialFailureRateLimiter[string](5*time.Millisecond, MaxRetryDelay),
				workqueue.NewBucketRateLimiter[string](10, 100, nil),
			),
			opts.QueueConfig("namespace")),
		deleter: NewNamespacedResourcesDeleter(nsClient, metadataClient, discover, corev1.FinalizerKubernetes, opts),
		log:     opts.Logger,
		opts:    opts,
	}
	if _, err := nsInformer.AddEventHandler(informer.ResourceEventHandlerFuncs{
		AddFunc:    func(obj any, _ bool) { c.enqueueNamespace(obj) },
		UpdateFunc: func(_, newObj any) { c.enqueueNamespace(newObj) },
	}); err != nil {
		return nil, fmt.Errorf("namespace controller: %w", err)
	}
	return c, nil
}

// enqueueNamespace queues a namespace that is being deleted; the others
// are no business of this controller.
//
// Mirrors (*NamespaceController).enqueueNamespace.
func (c *NamespaceController) enqueueNamespace(obj any) {
	ns, ok := obj.(*corev1.Namespace)
	if !ok || ns.DeletionTimestamp == nil {
		return
	}
	c.queue.AddAfter(ns.Name, c.DeletionGracePeriod)
}

// The rest of this file is the life of a key, as in the establishing
// controller: Run starts the workers; each takes a namespace off the
// queue, syncs it, and tells the queue how it went. Unlike the CRD
// controllers, a sync that deleted everything it could but must wait
// (objects with finalizers of their own) is not a failure: the namespace
// comes back after the deleter's estimate, not after backoff.

// Run waits for the namespace informer's cache, then runs workers
// workers until ctx ends, and returns once they have all stopped.
//
// Mirrors (*NamespaceController).Run.
func (c *NamespaceController) Run(ctx context.Context, workers int) {
	defer c.queue.ShutDown()
	c.log.Info("starting namespace controller")
	defer c.log.Info("shutting down namespace controller")

	if !informer.WaitForCacheSync(ctx, c.listerSynced) {
		return
	}
	stop := context.AfterFunc(ctx, c.queue.ShutDown)
	defer stop()
	var wg sync.WaitGroup
	for range max(workers, 1) {
		wg.Go(func() {
			for c.processNextWorkItem(ctx) {
			}
		})
	}
	wg.Wait()
}

// processNextWorkItem syncs one namespace off the queue. It returns false
// when the queue is shut down.
//
// Mirrors the workFunc of (*NamespaceController).worker.
func (c *NamespaceController) processNextWorkItem(ctx context.Context) bool {
	key, quit := c.queue.Get()
	if quit {
		return false
	}
	// Done, always: no two workers empty one namespace at once, and a
	// namespace changed meanwhile is synced again afterwards.
	defer c.queue.Done(key)

	start := time.Now() // real time: for the trace only
	err := c.syncNamespaceFromKey(ctx, key)
	c.opts.TraceSync(key, start, err, upstreamSync)
	var remaining *ResourcesRemainingError
	switch {
	case err == nil:
		// Forget the namespace's failures: its next one starts again from
		// the shortest backoff.
		c.queue.Forget(key)
	case errors.As(err, &remaining):
		// Everything was asked to go, and some objects wait on their own
		// finalizers: look again in about half the estimate.
		wait := time.Duration(remaining.Estimate/2+1) * time.Second
		c.log.Info("content remaining in namespace", "namespace", key, "wait", wait)
		c.queue.AddAfter(key, wait)
	default:
		c.queue.AddRateLimited(key)
		c.log.Warn("deletion of namespace failed; requeued with backoff", "namespace", key, "err", err, "requeues", c.queue.NumRequeues(key))
	}
	return true
}

// syncNamespaceFromKey empties the namespace key if it is being deleted.
//
// Mirrors (*NamespaceController).syncNamespaceFromKey.
func (c *NamespaceController) syncNamespaceFromKey(ctx context.Context, key string) error {
	ns, err := c.lister.Get(key)
	if apierrors.IsNotFound(err) {
		return nil // gone: nothing left to do
	}
	if err != nil {
		return err
	}
	return c.deleter.Delete(ctx, ns.Name)
}
