package controller

import (
	"context"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"time"

	"github.com/crdlab/crdlab/apis/apiextensions/helpers"
	apiextensionsv1 "github.com/crdlab/crdlab/apis/apiextensions/v1"
	metav1 "github.com/crdlab/crdlab/apis/meta/v1"
	"github.com/crdlab/crdlab/informer"
	"github.com/crdlab/crdlab/informer/workqueue"
	"github.com/crdlab/crdlab/machinery/clock"
	"github.com/crdlab/crdlab/trace"
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

// GroupIndex is the index of the shared CRD informer's cache by
// spec.group. The controllers that look at a whole group on every sync
// (naming, discovery, OpenAPI) read it instead of listing every CRD: with
// thousands of CRDs a full list per event made the work per CRD grow with
// the number of CRDs (docs/crd-memory.md, "What grows with the number of
// CRDs"). Upstream lists every CRD and filters by group in each of them.
const GroupIndex = "group"

// AddGroupIndex adds GroupIndex to crdInformer unless it has it already
// (every controller that reads it calls this in its constructor, before
// the informer starts).
func AddGroupIndex(crdInformer informer.SharedIndexInformer) error {
	if _, ok := crdInformer.GetIndexer().GetIndexers()[GroupIndex]; ok {
		return nil
	}
	return crdInformer.AddIndexers(informer.Indexers{GroupIndex: GroupIndexFunc})
}

// GroupIndexFunc is GroupIndex's function: a CRD's spec.group.
func GroupIndexFunc(obj any) ([]string, error) {
	crd, ok := obj.(*apiextensionsv1.CustomResourceDefinition)
	if !ok {
		return nil, fmt.Errorf("group index: %T is not a CustomResourceDefinition", obj)
	}
	return []string{crd.Spec.Group}, nil
}

// CRDsOfGroup returns the cached CRDs of group (shared: DeepCopy before
// changing anything), in no particular order. The indexer must have
// GroupIndex (AddGroupIndex).
func CRDsOfGroup(indexer informer.Indexer, group string) ([]*apiextensionsv1.CustomResourceDefinition, error) {
	objs, err := indexer.ByIndex(GroupIndex, group)
	if err != nil {
		return nil, err
	}
	out := make([]*apiextensionsv1.CustomResourceDefinition, 0, len(objs))
	for _, obj := range objs {
		crd, ok := obj.(*apiextensionsv1.CustomResourceDefinition)
		if !ok {
			return nil, fmt.Errorf("cached object is a %T, not a CustomResourceDefinition", obj)
		}
		out = append(out, crd)
	}
	return out, nil
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
	// clock. Tests pass a clock.FakeClock.
	Clock clock.Clock
	// Tracer, if not nil, gets the controller's events (component
	// trace.Controller, actor: the controller's name) and its workqueue's
	// (trace.Workqueue, actor: the queue's name). Nil is tracing off.
	Tracer *trace.Tracer
	// MetricsProvider makes the metrics of the controller's workqueue
	// (depth, adds, retries, …); nil drops them.
	MetricsProvider workqueue.MetricsProvider

	// name is the controller's name, set by WithDefaults.
	name string
}

// WithDefaults returns o with nil fields filled in; name is the
// controller's name in logs and traces.
func (o Options) WithDefaults(name string) Options {
	if o.Logger == nil {
		o.Logger = slog.Default()
	}
	o.Logger = o.Logger.With("controller", name)
	if o.Clock == nil {
		o.Clock = clock.RealClock{}
	}
	o.name = name
	return o
}

// Name is the name given to WithDefaults: "naming", "establishing", …
func (o Options) Name() string { return o.name }

// QueueConfig is the workqueue.Config of a controller's queue called
// name: o's clock, metrics provider and tracer.
func (o Options) QueueConfig(name string) workqueue.Config {
	return workqueue.Config{Name: name, Clock: o.Clock, MetricsProvider: o.MetricsProvider, Tracer: o.Tracer}
}

// NewQueue returns the rate-limited queue every CRD controller uses: the
// default controller rate limiter (per-item exponential backoff from 5ms
// to 1000s, and an overall 10 qps bucket), on o's clock.
//
// Mirrors workqueue.NewTypedRateLimitingQueueWithConfig(
// workqueue.DefaultTypedControllerRateLimiter[T](), ...) in each upstream
// controller's constructor.
func NewQueue[T comparable](name string, o Options) workqueue.RateLimitingInterface[T] {
	return workqueue.NewRateLimiting(workqueue.DefaultControllerRateLimiter[T](), o.QueueConfig(name))
}

// Trace records e, an event of the controller, with Component
// trace.Controller and Actor the controller's name. Build e only when
// o.Tracer.Enabled().
func (o Options) Trace(e trace.Event) {
	e.Component, e.Actor = trace.Controller, o.name
	o.Tracer.Emit(e)
}

// TraceStatus records, if tracing is on, that the controller wrote the
// status of crd (as the server returned it), setting the conditions of
// types: a "status" event whose message is each condition as
// "Type=Status (Reason)", or "Type removed", then note if not empty.
// upstream is the upstream function that writes it.
func (o Options) TraceStatus(crd *apiextensionsv1.CustomResourceDefinition, upstream, note string, types ...apiextensionsv1.CustomResourceDefinitionConditionType) {
	if !o.Tracer.Enabled() || crd == nil {
		return
	}
	parts := make([]string, 0, len(types)+1)
	for _, t := range types {
		if c := helpers.FindCRDCondition(crd, t); c != nil {
			parts = append(parts, fmt.Sprintf("%s=%s (%s)", c.Type, c.Status, c.Reason))
		} else {
			parts = append(parts, string(t)+" removed")
		}
	}
	if note != "" {
		parts = append(parts, note)
	}
	o.Trace(trace.Event{
		Step: "status", Resource: crdResource, Key: crd.Name, ResourceVersion: crd.ResourceVersion,
		Message: strings.Join(parts, ", "), Upstream: upstream,
	})
}

// crdResource is the group resource of CRDs, in traces.
const crdResource = "customresourcedefinitions.apiextensions.k8s.io"

// RunWorkers runs workers goroutines of processNextWorkItem (at least
// one) until ctx ends, then shuts queue down — which wakes the workers
// blocked in Get and makes processNextWorkItem return false — and returns
// once every worker has returned. Call it from Run after the informer
// caches have synced.
//
// Mirrors the end of every upstream controller's Run: a
// `go wait.UntilWithContext(ctx, c.runWorker, time.Second)` per worker, then
// <-ctx.Done(). The workers are not restarted: processNextWorkItem returns
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
// when the queue is shut down. o is the controller's Options as
// WithDefaults returned them: failures go to its Logger, and, if its
// Tracer is set, every sync is a "sync" event (key, duration, error)
// naming upstream, the upstream sync function that sync mirrors.
//
// Mirrors processNextWorkItem of kubernetes/sample-controller and of each
// upstream CRD controller.
func ProcessNextWorkItem[T comparable](ctx context.Context, queue workqueue.RateLimitingInterface[T], sync func(context.Context, T) error, o Options, upstream string) bool {
	key, quit := queue.Get()
	if quit {
		return false
	}
	// Done, always: until then the queue holds back new Adds of key (they
	// wait in its dirty set), so no two workers ever sync one key at once,
	// and a key changed during the sync is synced again after it.
	defer queue.Done(key)

	start := time.Now() // real time, even with a fake Clock: for the trace only
	err := sync(ctx, key)
	o.TraceSync(key, start, err, upstream)
	if err != nil {
		// Retry later, backing off per key (5ms, 10ms, … up to the
		// limiter's maximum).
		queue.AddRateLimited(key)
		o.Logger.Warn("sync failed; requeued with backoff", "key", key, "err", err, "requeues", queue.NumRequeues(key))
		return true
	}
	// Success: forget the key's failures, so that its next failure starts
	// again from the shortest wait.
	queue.Forget(key)
	return true
}

// TraceSync records, if tracing is on, a "sync" event: the controller
// synced key, starting at start, with result err; upstream is the
// upstream sync function.
func (o Options) TraceSync(key any, start time.Time, err error, upstream string) {
	if !o.Tracer.Enabled() {
		return
	}
	e := trace.Event{Step: "sync", Key: fmt.Sprint(key), Duration: time.Since(start), Message: "synced", Upstream: upstream}
	if err != nil {
		e.Message, e.Err = "sync failed: retried with backoff", err.Error()
	}
	o.Trace(e)
}
