package flowcontrol

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/crdlab/crdlab/machinery/clock"
)

// RateLimiter decides when a request may be sent.
//
// Mirrors k8s.io/client-go/util/flowcontrol.RateLimiter.
type RateLimiter interface {
	// TryAccept takes a token if one is there now, without waiting.
	TryAccept() bool
	// Accept waits, without a way to give up, until a token is taken.
	Accept()
	// Wait waits until a token is taken, or returns an error when ctx ends
	// first or would end before the token is due.
	Wait(ctx context.Context) error
	// Stop releases the limiter's resources. The token bucket has none.
	Stop()
	// QPS returns the refill rate in tokens per second.
	QPS() float32
}

// ErrWouldExceedDeadline says Wait did not wait because the token would be
// due only after the context's deadline.
var ErrWouldExceedDeadline = errors.New("rate: Wait(n=1) would exceed context deadline")

// tokenBucket is a token bucket with x/time/rate's reservation semantics.
//
// Mirrors k8s.io/client-go/util/flowcontrol.tokenBucketRateLimiter over
// golang.org/x/time/rate.Limiter.
type tokenBucket struct {
	qps   float64
	burst float64
	clock clock.Clock

	// mu guards tokens, last and seq.
	mu sync.Mutex
	// tokens is the number of tokens at time last. It is at most burst and
	// goes below zero when reservations wait for tokens not yet refilled.
	tokens float64
	// last is when tokens was last brought up to date.
	last time.Time
	// seq numbers reservations; it is the number of the latest one.
	seq uint64
}

var _ RateLimiter = (*tokenBucket)(nil)

// NewTokenBucketRateLimiter returns a limiter that allows qps requests per
// second on average and bursts of up to burst. The bucket starts full.
// qps must be > 0 and burst >= 1: anything else is a programmer error and
// panics.
func NewTokenBucketRateLimiter(qps float32, burst int) RateLimiter {
	return NewTokenBucketRateLimiterWithClock(qps, burst, clock.RealClock{})
}

// NewTokenBucketRateLimiterWithClock is NewTokenBucketRateLimiter reading
// time from c.
func NewTokenBucketRateLimiterWithClock(qps float32, burst int, c clock.Clock) RateLimiter {
	if qps <= 0 || burst < 1 {
		panic(fmt.Sprintf("flowcontrol: token bucket needs qps > 0 and burst >= 1, got qps=%v burst=%d", qps, burst))
	}
	return &tokenBucket{
		qps:    float64(qps),
		burst:  float64(burst),
		clock:  c,
		tokens: float64(burst),
		last:   c.Now(),
	}
}

// advanceLocked refills the bucket for the time passed since last.
func (b *tokenBucket) advanceLocked(now time.Time) {
	if elapsed := now.Sub(b.last); elapsed > 0 {
		b.tokens = min(b.burst, b.tokens+elapsed.Seconds()*b.qps)
	}
	b.last = now
}

func (b *tokenBucket) TryAccept() bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.advanceLocked(b.clock.Now())
	if b.tokens < 1 {
		return false
	}
	b.tokens--
	b.seq++
	return true
}

func (b *tokenBucket) Accept() { _ = b.Wait(context.Background()) }

// Wait reserves a token and sleeps until it is due.
//
// Mirrors golang.org/x/time/rate.(*Limiter).Wait.
func (b *tokenBucket) Wait(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	b.mu.Lock()
	now := b.clock.Now()
	b.advanceLocked(now)
	var delay time.Duration
	if left := b.tokens - 1; left < 0 {
		delay = time.Duration(-left / b.qps * float64(time.Second))
	}
	// The deadline is wall-clock time whatever the Clock, so compare the
	// delay with the wall time left.
	if deadline, ok := ctx.Deadline(); ok && delay > time.Until(deadline) {
		b.mu.Unlock()
		return ErrWouldExceedDeadline
	}
	b.tokens--
	b.seq++
	mine := b.seq
	b.mu.Unlock()

	if delay == 0 {
		return nil
	}
	t := b.clock.NewTimer(delay)
	defer t.Stop()
	select {
	case <-t.C():
		return nil
	case <-ctx.Done():
		b.cancel(mine)
		return ctx.Err()
	}
}

// cancel gives back the token of reservation n if no reservation came after
// it; later reservations computed their delay counting on it being spent.
func (b *tokenBucket) cancel(n uint64) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if n != b.seq {
		return
	}
	b.advanceLocked(b.clock.Now())
	b.tokens = min(b.burst, b.tokens+1)
}

func (b *tokenBucket) Stop() {}

func (b *tokenBucket) QPS() float32 { return float32(b.qps) }
