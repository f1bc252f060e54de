package workqueue

// RateLimitingInterface is a DelayingInterface that asks a RateLimiter how
// long a failed item should wait.
//
// RateLimitingInterface mirrors TypedRateLimitingInterface[T] in client-go
// util/workqueue/rate_limiting_queue.go.
type RateLimitingInterface[T comparable] interface {
	DelayingInterface[T]
	// AddRateLimited Adds item after the rate limiter says it may; it
	// counts as one failure of item.
	AddRateLimited(item T)
	// Forget tells the rate limiter to clear item's failures. It does not
	// remove item from the queue; call it when item succeeds (or is dropped)
	// so its next failure starts from the base delay.
	Forget(item T)
	// NumRequeues returns how many failures the rate limiter remembers for
	// item.
	NumRequeues(item T) int
}

// rateLimitingType is a delaying queue plus a RateLimiter.
//
// rateLimitingType mirrors rateLimitingType[T] in client-go
// util/workqueue/rate_limiting_queue.go.
type rateLimitingType[T comparable] struct {
	*delayingType[T]
	// rateLimiter is set at construction and never changes.
	rateLimiter RateLimiter[T]
}

var _ RateLimitingInterface[string] = (*rateLimitingType[string])(nil)

// NewRateLimiting returns an empty RateLimitingInterface using rl. It starts
// the delaying queue's goroutine, which ShutDown stops. It panics if rl is
// nil.
//
// NewRateLimiting mirrors NewTypedRateLimitingQueueWithConfig in client-go
// util/workqueue/rate_limiting_queue.go.
func NewRateLimiting[T comparable](rl RateLimiter[T], cfg Config) RateLimitingInterface[T] {
	if rl == nil {
		panic("workqueue: NewRateLimiting needs a RateLimiter")
	}
	return &rateLimitingType[T]{delayingType: newDelaying[T](cfg), rateLimiter: rl}
}

// AddRateLimited Adds item after rateLimiter.When(item).
func (q *rateLimitingType[T]) AddRateLimited(item T) {
	q.addAfter(item, q.rateLimiter.When(item), true)
}

// NumRequeues returns rateLimiter.NumRequeues(item).
func (q *rateLimitingType[T]) NumRequeues(item T) int {
	return q.rateLimiter.NumRequeues(item)
}

// Forget calls rateLimiter.Forget(item).
func (q *rateLimitingType[T]) Forget(item T) {
	q.rateLimiter.Forget(item)
}
