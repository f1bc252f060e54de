package informer

import (
	"math/rand/v2"
	"sync"
	"time"

	"github.com/crdlab/crdlab/machinery/clock"
)

// BackoffManager hands out the wait before the next try of something that
// failed (or ended early): each call to Backoff returns a timer to wait on.
//
// Mirrors k8s.io/apimachinery/pkg/util/wait.BackoffManager.
type BackoffManager interface {
	Backoff() clock.Timer
}

// NewExponentialBackoffManager returns a BackoffManager whose waits start at
// initial and grow by factor up to maxBackoff. A call more than
// resetDuration after the previous one starts again from initial: a source
// that was healthy for a while is not punished for old failures. Each wait
// is stretched by a random fraction of up to jitter (0 for none; the
// Reflector uses 1.0, so waits vary between d and 2d).
//
// Mirrors k8s.io/apimachinery/pkg/util/wait.NewExponentialBackoffManager.
func NewExponentialBackoffManager(initial, maxBackoff, resetDuration time.Duration, factor, jitter float64, clock clock.Clock) BackoffManager {
	return &exponentialBackoff{
		initial: initial, max: maxBackoff, reset: resetDuration,
		factor: factor, jitter: jitter, clock: clock,
		next: initial,
	}
}

// exponentialBackoff implements BackoffManager.
//
// Mirrors wait.exponentialBackoffManagerImpl.
type exponentialBackoff struct {
	initial, max, reset time.Duration
	factor, jitter      float64
	clock               clock.Clock

	// mu guards next and last.
	mu sync.Mutex
	// next is the un-jittered wait the next Backoff returns.
	next time.Duration
	// last is when Backoff was last called (zero before the first call).
	last time.Time
}

func (b *exponentialBackoff) Backoff() clock.Timer {
	b.mu.Lock()
	now := b.clock.Now()
	if !b.last.IsZero() && now.Sub(b.last) > b.reset {
		b.next = b.initial
	}
	b.last = now
	d := b.next
	b.next = min(time.Duration(float64(b.next)*b.factor), b.max)
	b.mu.Unlock()
	if b.jitter > 0 {
		d += time.Duration(rand.Float64() * b.jitter * float64(d))
	}
	return b.clock.NewTimer(d)
}
