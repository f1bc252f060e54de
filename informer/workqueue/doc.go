// Package workqueue is the queue a controller puts keys on between its
// informer's event handlers and its sync function. It guarantees that a key
// is never handled by two workers at once, that a key added many times while
// it waits is handled once, and that a key added while it is being handled is
// handled again afterwards.
//
// Vocabulary:
//
//   - An item is a comparable value, almost always a "namespace/name" key.
//     Items are compared with ==, so two Adds of equal items are one item.
//   - An item is dirty when it has been Added and not yet handed out by Get:
//     it needs processing.
//   - An item is processing between the Get that hands it to a worker and
//     that worker's Done. A dirty item that is also processing waits in the
//     dirty set, not in the queue, until Done.
//   - The queue is the FIFO order in which dirty, non-processing items are
//     handed out.
//   - A delay is how long AddAfter holds an item in a min-heap, ordered by
//     ready time, before Adding it. A waiting loop goroutine owns the timer.
//   - A rate limiter answers "how long should this item wait before its next
//     try?" (When), remembers failures per item (NumRequeues), and is told to
//     forget them once the item succeeds (Forget).
//   - Shut down: after ShutDown, Add is ignored and Get hands out what is left
//     in the queue, then returns shutdown=true. ShutDownWithDrain also waits
//     for every processing item to be Done.
//
// The three interfaces are layered, each adding one idea:
//
//	Interface[T]             Add, Get, Done, Len, ShutDown...
//	DelayingInterface[T]     + AddAfter
//	RateLimitingInterface[T] + AddRateLimited, Forget, NumRequeues
//
// A controller's loop, as in kubernetes/sample-controller, is:
//
//	key, shutdown := q.Get()
//	if shutdown { return false }
//	defer q.Done(key)          // lets a concurrent Add of key be re-queued
//	if err := sync(key); err != nil {
//		q.AddRateLimited(key)  // back off: 5ms, 10ms, 20ms, ... 1000s
//		return true
//	}
//	q.Forget(key)              // success: the next failure starts at 5ms again
//
// Time comes from a Clock so tests can drive it with a FakeClock. Metrics go
// to a MetricsProvider; the default drops them.
//
// Tracing: with Config.Tracer set, the queue emits trace.Workqueue events
// whose actor is Config.Name and whose key is fmt.Sprint(item): "add" when
// an item becomes dirty (a coalesced Add emits nothing), "get" when a
// worker takes it (Duration: how long it waited), "done" (Duration: how
// long the worker held it; the message says if it is queued again), and
// "requeue" when AddAfter or AddRateLimited makes it wait (the message
// gives the delay; the "add" follows when the wait is over). A nil Tracer
// costs one nil check per call; BenchmarkQueueTrace measures both.
//
// Upstream:
//   - k8s.io/client-go/util/workqueue/queue.go (TypedInterface, Typed,
//     QueueConfig)
//   - k8s.io/client-go/util/workqueue/delaying_queue.go
//     (TypedDelayingInterface, delayingType, waitFor, waitForPriorityQueue)
//   - k8s.io/client-go/util/workqueue/rate_limiting_queue.go
//     (TypedRateLimitingInterface, rateLimitingType)
//   - k8s.io/client-go/util/workqueue/default_rate_limiters.go
//     (TypedRateLimiter, TypedItemExponentialFailureRateLimiter,
//     TypedBucketRateLimiter, TypedMaxOfRateLimiter,
//     DefaultTypedControllerRateLimiter)
//   - k8s.io/client-go/util/workqueue/metrics.go (MetricsProvider,
//     queueMetrics)
//   - k8s.io/utils/clock (Clock, Timer, RealClock) and
//     k8s.io/utils/clock/testing (FakeClock)
//   - golang.org/x/time/rate (the token bucket behind BucketRateLimiter)
//
// Differences from upstream:
//   - Only the generic shapes exist, named plainly: Interface[T] is
//     TypedInterface[T], Queue[T] is Typed[T], RateLimiter[T] is
//     TypedRateLimiter[T]. There are no interface{} variants and no
//     deprecated constructors; each layer has one constructor taking Config.
//   - The base queue is a plain FIFO slice; the pluggable Queue[T] ordering
//     interface (Push/Pop/Touch) of newer client-go is not here.
//   - The delaying queue's AddAfter writes the heap under a mutex and arms the
//     timer itself instead of sending on a 1000-slot channel to the waiting
//     loop, so a FakeClock.Step made after AddAfter returns fires it. The
//     loop arms the next timer before it Adds the items a timer released, so
//     a Step made after Get returned those items is safe too. A Step racing
//     with the loop's re-arming can make that timer late by up to the step
//     (the clock is read, then the timer made); upstream has the same race
//     and its 10s heartbeat hides it for steps of 10s or more. There is no
//     heartbeat here: a real clock's lateness is the nanoseconds between
//     two calls. Items due at the same instant come out in AddAfter order.
//   - ShutDownWithDrain on the delaying queue also stops the waiting loop
//     (upstream only overrides ShutDown). Items still waiting in the heap are
//     dropped at shut down, as upstream.
//   - BucketRateLimiter implements its own token bucket (same reservation
//     semantics as golang.org/x/time/rate.Limiter.Reserve().Delay()) so the
//     module needs no golang.org/x/time; it reads time from a Clock.
//   - The Clock is the small part the queue uses (Now, NewTimer); Timer has
//     no Reset, and there is no Ticker, Sleep or After.
//   - Metrics: depth, adds, queue latency, work duration and retries only.
//     Not implemented: the unfinished-work and longest-running-processor
//     gauges (upstream updates them from a 500ms ticker goroutine), the
//     global metrics provider (SetProvider), and the ParallelizeUntil,
//     ItemFastSlowRateLimiter and WithMaxWaitRateLimiter helpers.
//   - Tracing (Config.Tracer) is crdlab's; upstream has none.
//   - Lifetime is ShutDown, not a stop channel: tie it to a context with
//     context.AfterFunc(ctx, q.ShutDown).
package workqueue
