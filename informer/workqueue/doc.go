// Package workqueue is the queue a controller puts keys on between its
// informer's event handlers and its sync function. A key is never handled
// by two workers at once; a key added many times while it waits is handled
// once; a key added while it is being handled is handled again afterwards.
//
// Vocabulary:
//
//   - An item is a comparable value, almost always a "namespace/name" key;
//     two Adds of equal items are one item.
//   - An item is dirty from its Add until Get hands it out, and processing
//     from that Get until the worker's Done. A dirty item that is also
//     processing waits in the dirty set, not in the queue, until Done.
//   - The queue is the FIFO order of dirty, non-processing items.
//   - A delay is how long AddAfter holds an item (in a min-heap by ready
//     time) before Adding it.
//   - A rate limiter answers "how long should this item wait before its
//     next try?" (When), counts failures per item (NumRequeues), and is
//     told to Forget them once the item succeeds.
//   - Shut down: after ShutDown, Add is ignored and Get hands out what is
//     left, then returns shutdown=true; ShutDownWithDrain also waits for
//     every processing item to be Done.
//
// Layout: three interfaces, each adding one idea, one file each:
//
//	Interface[T]             Add, Get, Done, Len, ShutDown...   queue.go
//	DelayingInterface[T]     + AddAfter                          delaying_queue.go
//	RateLimitingInterface[T] + AddRateLimited, Forget, NumRequeues rate_limiting_queue.go
//
// plus default_rate_limiters.go (exponential backoff, token bucket, max
// of) and metrics.go. Time comes from a machinery/clock Clock, so tests
// Step a FakeClock; with Config.Tracer set the queue emits "add", "get",
// "requeue" and "done" trace events. example_test.go is a controller's
// worker loop in sample-controller's shape; the establishing controller
// (controller/establish) tells the same story on a real CRD. Maintainer notes (the FakeClock race, tracing, metrics) are in
// docs/informer.md.
//
// Upstream: k8s.io/client-go/util/workqueue: queue.go (TypedInterface,
// Typed, QueueConfig), delaying_queue.go (TypedDelayingInterface,
// delayingType), rate_limiting_queue.go (TypedRateLimitingInterface),
// default_rate_limiters.go (TypedItemExponentialFailureRateLimiter,
// TypedBucketRateLimiter, TypedMaxOfRateLimiter,
// DefaultTypedControllerRateLimiter), metrics.go; golang.org/x/time/rate.
//
// Differences from upstream:
//   - Only the generic shapes, named plainly (Interface[T] is
//     TypedInterface[T], Queue[T] is Typed[T]); one constructor per layer,
//     taking Config. No pluggable Queue ordering.
//   - AddAfter arms the timer itself instead of sending on a channel to
//     the waiting loop, and there is no 10 s heartbeat.
//   - BucketRateLimiter is a token bucket written here (x/time/rate's
//     reservation semantics), so the module needs no golang.org/x/time.
//   - Metrics: depth, adds, latency, work duration and retries only.
//   - Lifetime is ShutDown, not a stop channel: context.AfterFunc(ctx,
//     q.ShutDown). Tracing is crdlab's.
package workqueue
