package workqueue

import (
	"math"
	"sync"
	"time"

	"github.com/crdlab/crdlab/machinery/clock"
)

// RateLimiter decides how long an item waits before its next try.
//
// RateLimiter mirrors TypedRateLimiter[T] in client-go
// util/workqueue/default_rate_limiters.go.
type RateLimiter[T comparable] interface {
	// When records a failure of item and returns how long it should wait
	// before its next try.
	When(item T) time.Duration
	// Forget clears item's failures: call it when item succeeds, or is
	// given up on, so that its next failure starts from the base delay.
	Forget(item T)
	// NumRequeues returns how many failures of item are remembered.
	NumRequeues(item T) int
}

// DefaultControllerRateLimiter is the limiter controllers use: per-item
// exponential backoff from 5ms doubling to 1000s, and an overall token
// bucket of 10 qps with a burst of 100, whichever wait is longer. The bucket
// only bites when many distinct items fail at once.
//
// DefaultControllerRateLimiter mirrors DefaultTypedControllerRateLimiter in
// client-go util/workqueue/default_rate_limiters.go.
func DefaultControllerRateLimiter[T comparable]() RateLimiter[T] {
	return NewMaxOfRateLimiter(
		NewItemExponentialFailureRateLimiter[T](5*time.Millisecond, 1000*time.Second),
		NewBucketRateLimiter[T](10, 100, nil),
	)
}

// ItemExponentialFailureRateLimiter waits base*2^n for an item that has
// failed n times before, capped at max.
//
// ItemExponentialFailureRateLimiter mirrors
// TypedItemExponentialFailureRateLimiter[T] in client-go
// util/workqueue/default_rate_limiters.go.
type ItemExponentialFailureRateLimiter[T comparable] struct {
	// mu guards failures.
	mu sync.Mutex
	// failures counts When calls per item since its last Forget. An item is
	// a key if and only if it has failed at least once since then.
	failures map[T]int

	baseDelay time.Duration
	maxDelay  time.Duration
}

var _ RateLimiter[string] = (*ItemExponentialFailureRateLimiter[string])(nil)

// NewItemExponentialFailureRateLimiter returns a limiter whose delays are
// baseDelay, 2*baseDelay, 4*baseDelay, ... up to maxDelay.
func NewItemExponentialFailureRateLimiter[T comparable](baseDelay, maxDelay time.Duration) *ItemExponentialFailureRateLimiter[T] {
	return &ItemExponentialFailureRateLimiter[T]{
		failures:  map[T]int{},
		baseDelay: baseDelay,
		maxDelay:  maxDelay,
	}
}

// When returns base*2^n, capped at max, where n is the number of earlier
// failures of item, and counts this failure.
func (r *ItemExponentialFailureRateLimiter[T]) When(item T) time.Duration {
	r.mu.Lock()
	defer r.mu.Unlock()
	exp := r.failures[item]
	r.failures[item] = exp + 1

	// Compute in float64 so that a large exp cannot overflow int64. The
	// comparison is >=: float64(math.MaxInt64) rounds up to 2^63, which does
	// not fit in a Duration (upstream's > lets a base that is a power of two
	// nanoseconds wrap negative).
	backoff := float64(r.baseDelay.Nanoseconds()) * math.Pow(2, float64(exp))
	if backoff >= math.MaxInt64 {
		return r.maxDelay
	}
	if d := time.Duration(backoff); d < r.maxDelay {
		return d
	}
	return r.maxDelay
}

// NumRequeues returns how many times When was called for item since its
// last Forget.
func (r *ItemExponentialFailureRateLimiter[T]) NumRequeues(item T) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.failures[item]
}

// Forget clears item's failures.
func (r *ItemExponentialFailureRateLimiter[T]) Forget(item T) {
	r.mu.Lock()
	defer r.mu.Unlock()
	delete(r.failures, item)
}

// BucketRateLimiter limits the overall rate of retries, whatever the item,
// with a token bucket: the bucket holds at most burst tokens and refills at
// qps tokens per second. Each When takes one token, borrowing against the
// future if the bucket is empty, and returns how long until that token
// exists. It keeps no per-item state.
//
// BucketRateLimiter mirrors TypedBucketRateLimiter[T] in client-go
// util/workqueue/default_rate_limiters.go, with the bucket of
// golang.org/x/time/rate.Limiter (When is Reserve().Delay()) written here.
type BucketRateLimiter[T comparable] struct {
	qps   float64
	burst float64
	clock clock.Clock

	// mu guards tokens and last.
	mu sync.Mutex
	// tokens is the bucket's content at time last. It is at most burst and
	// is negative when When calls have reserved tokens not yet refilled.
	tokens float64
	// last is when tokens was computed.
	last time.Time
}

var _ RateLimiter[string] = (*BucketRateLimiter[string])(nil)

// NewBucketRateLimiter returns a full bucket of burst tokens refilling at
// qps per second, reading time from c (nil means clock.RealClock{}). It
// panics if qps <= 0 or burst < 1, which would make every wait infinite.
func NewBucketRateLimiter[T comparable](qps float64, burst int, c clock.Clock) *BucketRateLimiter[T] {
	if qps <= 0 || burst < 1 {
		panic("workqueue: NewBucketRateLimiter needs qps > 0 and burst >= 1")
	}
	if c == nil {
		c = clock.RealClock{}
	}
	return &BucketRateLimiter[T]{
		qps:    qps,
		burst:  float64(burst),
		clock:  c,
		tokens: float64(burst),
		last:   c.Now(),
	}
}

// When takes one token and returns how long until it is refilled: zero while
// the bucket is not empty.
func (r *BucketRateLimiter[T]) When(T) time.Duration {
	r.mu.Lock()
	defer r.mu.Unlock()
	now := r.clock.Now()
	if elapsed := now.Sub(r.last); elapsed > 0 {
		r.tokens = math.Min(r.burst, r.tokens+elapsed.Seconds()*r.qps)
		r.last = now
	}
	r.tokens--
	if r.tokens >= 0 {
		return 0
	}
	// Round to the nanosecond: x/time/rate truncates, which turns 4.1s
	// into 4.099999999s.
	return time.Duration(math.Round(-r.tokens / r.qps * float64(time.Second)))
}

// NumRequeues returns 0: the bucket does not track items.
func (r *BucketRateLimiter[T]) NumRequeues(T) int { return 0 }

// Forget does nothing: the bucket does not track items.
func (r *BucketRateLimiter[T]) Forget(T) {}

// MaxOfRateLimiter asks every limiter and obeys the longest wait.
//
// MaxOfRateLimiter mirrors TypedMaxOfRateLimiter[T] in client-go
// util/workqueue/default_rate_limiters.go.
type MaxOfRateLimiter[T comparable] struct {
	// limiters is set at construction and never changes.
	limiters []RateLimiter[T]
}

var _ RateLimiter[string] = (*MaxOfRateLimiter[string])(nil)

// NewMaxOfRateLimiter returns a limiter over limiters.
func NewMaxOfRateLimiter[T comparable](limiters ...RateLimiter[T]) *MaxOfRateLimiter[T] {
	return &MaxOfRateLimiter[T]{limiters: limiters}
}

// When calls When on every limiter, so each records the failure, and
// returns the longest wait.
func (r *MaxOfRateLimiter[T]) When(item T) time.Duration {
	var longest time.Duration
	for _, l := range r.limiters {
		longest = max(longest, l.When(item))
	}
	return longest
}

// NumRequeues returns the largest NumRequeues of the limiters.
func (r *MaxOfRateLimiter[T]) NumRequeues(item T) int {
	var n int
	for _, l := range r.limiters {
		n = max(n, l.NumRequeues(item))
	}
	return n
}

// Forget calls Forget on every limiter.
func (r *MaxOfRateLimiter[T]) Forget(item T) {
	for _, l := range r.limiters {
		l.Forget(item)
	}
}
