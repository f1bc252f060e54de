package flowcontrol

import (
	"context"
	"errors"
	"runtime"
	"testing"
	"time"

	"github.com/crdlab/crdlab/machinery/clock"
)

var epoch = time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)

// waitForWaiters returns once n timers wait on c, so that a Step reaches
// them. It yields instead of sleeping.
func waitForWaiters(t *testing.T, c *clock.FakeClock, n int) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for c.Waiters() != n {
		if time.Now().After(deadline) {
			t.Fatalf("waiters = %d, want %d", c.Waiters(), n)
		}
		runtime.Gosched()
	}
}

func TestTokenBucket_TryAccept(t *testing.T) {
	t.Run("BurstThenRefill", func(t *testing.T) {
		c := clock.NewFakeClock(epoch)
		l := NewTokenBucketRateLimiterWithClock(1, 3, c)
		for i := range 3 {
			if !l.TryAccept() {
				t.Fatalf("TryAccept #%d = false, want true (bucket starts full)", i)
			}
		}
		if l.TryAccept() {
			t.Fatal("TryAccept on an empty bucket = true")
		}
		c.Step(time.Second)
		if !l.TryAccept() {
			t.Fatal("TryAccept after 1s at 1 qps = false")
		}
		if l.TryAccept() {
			t.Fatal("second TryAccept after 1s = true")
		}
	})
	t.Run("RefillCappedAtBurst", func(t *testing.T) {
		c := clock.NewFakeClock(epoch)
		l := NewTokenBucketRateLimiterWithClock(10, 2, c)
		l.TryAccept()
		l.TryAccept()
		c.Step(time.Hour)
		n := 0
		for l.TryAccept() {
			n++
		}
		if n != 2 {
			t.Fatalf("accepted %d after a long pause, want burst 2", n)
		}
	})
}

func TestTokenBucket_Wait(t *testing.T) {
	t.Run("OK", func(t *testing.T) {
		c := clock.NewFakeClock(epoch)
		l := NewTokenBucketRateLimiterWithClock(2, 1, c)
		if err := l.Wait(context.Background()); err != nil {
			t.Fatal(err)
		}
		done := make(chan error, 1)
		go func() { done <- l.Wait(context.Background()) }()
		waitForWaiters(t, c, 1)
		c.Step(499 * time.Millisecond)
		select {
		case <-done:
			t.Fatal("Wait returned before its token was due")
		default:
		}
		c.Step(time.Millisecond)
		if err := <-done; err != nil {
			t.Fatal(err)
		}
	})
	t.Run("ErrWouldExceedDeadline", func(t *testing.T) {
		c := clock.NewFakeClock(epoch)
		l := NewTokenBucketRateLimiterWithClock(1, 1, c)
		l.Accept()
		// The next token is due in 1s; the context ends well before.
		ctx, cancel := context.WithTimeout(context.Background(), 500*time.Millisecond)
		defer cancel()
		if err := l.Wait(ctx); !errors.Is(err, ErrWouldExceedDeadline) {
			t.Fatalf("Wait = %v, want ErrWouldExceedDeadline", err)
		}
		c.Step(time.Second)
		if !l.TryAccept() {
			t.Fatal("the refused Wait took a token")
		}
	})
	t.Run("CancelGivesTokenBack", func(t *testing.T) {
		c := clock.NewFakeClock(epoch)
		l := NewTokenBucketRateLimiterWithClock(1, 1, c)
		l.Accept()
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan error, 1)
		go func() { done <- l.Wait(ctx) }()
		waitForWaiters(t, c, 1)
		cancel()
		if err := <-done; !errors.Is(err, context.Canceled) {
			t.Fatalf("Wait = %v, want context.Canceled", err)
		}
		c.Step(time.Second)
		if !l.TryAccept() {
			t.Fatal("the cancelled reservation kept its token")
		}
		if l.TryAccept() {
			t.Fatal("two tokens after 1s at 1 qps")
		}
	})
	t.Run("CancelledContext", func(t *testing.T) {
		l := NewTokenBucketRateLimiterWithClock(1, 1, clock.NewFakeClock(epoch))
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		if err := l.Wait(ctx); !errors.Is(err, context.Canceled) {
			t.Fatalf("Wait = %v, want context.Canceled", err)
		}
		if !l.TryAccept() {
			t.Fatal("a Wait on a cancelled context took a token")
		}
	})
}

// TestTokenBucket_Concurrent has many goroutines wait at once: the burst goes
// at once, then exactly one more per 1/QPS.
func TestTokenBucket_Concurrent(t *testing.T) {
	const waiters, burst = 10, 2
	c := clock.NewFakeClock(epoch)
	l := NewTokenBucketRateLimiterWithClock(10, burst, c) // one token per 100ms
	done := make(chan struct{}, waiters)
	for range waiters {
		go func() {
			if err := l.Wait(context.Background()); err != nil {
				t.Error(err)
			}
			done <- struct{}{}
		}()
	}
	for range burst {
		<-done
	}
	waitForWaiters(t, c, waiters-burst)
	for left := waiters - burst; left > 0; left-- {
		c.Step(100 * time.Millisecond)
		<-done
		if got := c.Waiters(); got != left-1 {
			t.Fatalf("after one refill %d still wait, want %d", got, left-1)
		}
	}
	select {
	case <-done:
		t.Fatal("more Waits returned than tokens were made")
	default:
	}
}

func TestNewTokenBucketRateLimiter_Panics(t *testing.T) {
	for _, tc := range []struct {
		name  string
		qps   float32
		burst int
	}{{"ZeroQPS", 0, 1}, {"ZeroBurst", 1, 0}} {
		t.Run(tc.name, func(t *testing.T) {
			defer func() {
				if recover() == nil {
					t.Fatal("no panic")
				}
			}()
			NewTokenBucketRateLimiter(tc.qps, tc.burst)
		})
	}
}
