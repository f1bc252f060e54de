package controller

import (
	"context"
	"log/slog"
	"sync"

	apiextensionsv1 "github.com/crdlab/crdlab/apis/apiextensions/v1"
	metav1 "github.com/crdlab/crdlab/apis/meta/v1"
	"github.com/crdlab/crdlab/informer"
	"github.com/crdlab/crdlab/informer/workqueue"
)

// CRDClient is what the controllers write CRDs through: the /status
// subresource of customresourcedefinitions. The typed client's
// ApiextensionsV1().CustomResourceDefinitions() satisfies it.
//
// Mirrors the UpdateStatus method of upstream's
// CustomResourceDefinitionInterface (clientset/typed/apiextensions/v1).
type CRDClient interface {
	UpdateStatus(ctx context.Context, crd *apiextensionsv1.CustomResourceDefinition, opts metav1.UpdateOptions) (*apiextensionsv1.CustomResourceDefinition, error)
}

// CRDLister reads CRDs from the shared informer's cache. What it returns
// is shared: DeepCopy before changing anything.
//
// Mirrors upstream's listers/apiextensions/v1.CustomResourceDefinitionLister.
type CRDLister = informer.Lister[*apiextensionsv1.CustomResourceDefinition]

// NewCRDLister returns a Lister over the informer's cache.
func NewCRDLister(crdInformer informer.SharedIndexInformer) *CRDLister {
	return informer.NewLister[*apiextensionsv1.CustomResourceDefinition](
		crdInformer.GetIndexer(), apiextensionsv1.Resource("customresourcedefinitions"))
}

// CRDFromObject returns the CRD an event handler was given, unwrapping a
// tombstone (informer.DeletedFinalStateUnknown); ok is false for anything
// else.
//
// Mirrors the tombstone dance of upstream's deleteCustomResourceDefinition
// handlers.
func CRDFromObject(obj any) (crd *apiextensionsv1.CustomResourceDefinition, ok bool) {
	if t, isTombstone := obj.(informer.DeletedFinalStateUnknown); isTombstone {
		obj = t.Obj
	}
	crd, ok = obj.(*apiextensionsv1.CustomResourceDefinition)
	return crd, ok && crd != nil
}

// Options are what every controller constructor takes besides its
// informer and client. The zero value works.
type Options struct {
	// Logger gets the controller's logs; nil means slog.Default().
	Logger *slog.Logger
	// Clock drives the controller's workqueue (delays, backoff) and the
	// LastTransitionTime of the conditions it writes; nil means the real
	// clock. Tests pass a workqueue.FakeClock.
	Clock workqueue.Clock
}

// WithDefaults returns o with nil fields filled in; name is the
// controller's name in logs.
func (o Options) WithDefaults(name string) Options {
	if o.Logger == nil {
		o.Logger = slog.Default()
	}
	o.Logger = o.Logger.With("controller", name)
	if o.Clock == nil {
		o.Clock = workqueue.RealClock{}
	}
	return o
}

// NewQueue returns the rate-limited queue every CRD controller uses: the
// default controller rate limiter (per-item exponential backoff from 5ms
// to 1000s, and an overall 10 qps bucket), on o's clock.
//
// Mirrors workqueue.NewTypedRateLimitingQueueWithConfig(
// workqueue.DefaultTypedControllerRateLimiter[T](), ...) in each upstream
// controller's constructor.
func NewQueue[T comparable](name string, o Options) workqueue.RateLimitingInterface[T] {
	return workqueue.NewRateLimiting(workqueue.DefaultControllerRateLimiter[T](),
		workqueue.Config{Name: name, Clock: o.Clock})
}

// RunWorkers runs workers goroutines of processNextWorkItem (at least
// one) until ctx ends, then shuts queue down — which wakes the workers
// blocked in Get and makes processNextWorkItem return false — and returns
// once every worker has returned. Call it from Run after the informer
// caches have synced.
//
// Mirrors the end of every upstream controller's Run: a
// `go wait.Until(c.runWorker, time.Second, stopCh)` per worker, then
// <-stopCh. The workers are not restarted: processNextWorkItem returns
// false only when the queue is shut down.
func RunWorkers(ctx context.Context, queue interface{ ShutDown() }, workers int, processNextWorkItem func(context.Context) bool) {
	stop := context.AfterFunc(ctx, queue.ShutDown)
	defer stop()
	var wg sync.WaitGroup
	for range max(workers, 1) {
		wg.Go(func() {
			for processNextWorkItem(ctx) {
			}
		})
	}
	wg.Wait()
}

// ProcessNextWorkItem is one step of a controller's worker: take a key off
// the queue, sync it, and tell the queue how it went. It returns false
// when the queue is shut down.
//
// Mirrors processNextWorkItem of kubernetes/sample-controller and of each
// upstream CRD controller.
func ProcessNextWorkItem[T comparable](ctx context.Context, queue workqueue.RateLimitingInterface[T], sync func(context.Context, T) error, log *slog.Logger) bool {
	key, quit := queue.Get()
	if quit {
		return false
	}
	// Done, always: until then the queue holds back new Adds of key (they
	// wait in its dirty set), so no two workers ever sync one key at once,
	// and a key changed during the sync is synced again after it.
	defer queue.Done(key)

	if err := sync(ctx, key); err != nil {
		// Retry later, backing off per key (5ms, 10ms, … up to the
		// limiter's maximum).
		queue.AddRateLimited(key)
		log.Warn("sync failed; requeued with backoff", "key", key, "err", err, "requeues", queue.NumRequeues(key))
		return true
	}
	// Success: forget the key's failures, so that its next failure starts
	// again from the shortest wait.
	queue.Forget(key)
	return true
}
