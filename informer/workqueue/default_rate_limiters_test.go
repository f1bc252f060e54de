package workqueue

import (
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/crdlab/crdlab/machinery/clock"
)

func TestItemExponentialFailureRateLimiter_When(t *testing.T) {
	t.Run("DoublesUpToMax", func(t *testing.T) {
		r := NewItemExponentialFailureRateLimiter[string](time.Millisecond, time.Second)
		want := []time.Duration{
			1 * time.Millisecond, 2 * time.Millisecond, 4 * time.Millisecond,
			8 * time.Millisecond, 16 * time.Millisecond, 32 * time.Millisecond,
			64 * time.Millisecond, 128 * time.Millisecond, 256 * time.Millisecond,
			512 * time.Millisecond, time.Second, time.Second,
		}
		for i, w := range want {
			if got := r.When("a"); got != w {
				t.Fatalf("When #%d = %v, want %v", i+1, got, w)
			}
			if n := r.NumRequeues("a"); n != i+1 {
				t.Fatalf("NumRequeues after %d Whens = %d", i+1, n)
			}
		}
	})

	t.Run("ItemsAreIndependent", func(t *testing.T) {
		r := NewItemExponentialFailureRateLimiter[string](time.Millisecond, time.Second)
		r.When("a")
		r.When("a")
		if got := r.When("b"); got != time.Millisecond {
			t.Fatalf("first When of b = %v, want 1ms", got)
		}
		if n := r.NumRequeues("a"); n != 2 {
			t.Fatalf("NumRequeues(a) = %d, want 2", n)
		}
	})

	t.Run("NoOverflow", func(t *testing.T) {
		r := NewItemExponentialFailureRateLimiter[string](time.Nanosecond, 1000*time.Second)
		var got time.Duration
		for range 2000 { // 2^1999 ns does not fit in any integer
			got = r.When("a")
			if got <= 0 {
				t.Fatalf("When = %v, want positive", got)
			}
		}
		if got != 1000*time.Second {
			t.Fatalf("When after 2000 failures = %v, want the 1000s cap", got)
		}
	})

	t.Run("Concurrent", func(t *testing.T) {
		r := NewItemExponentialFailureRateLimiter[string](time.Millisecond, time.Second)
		var wg sync.WaitGroup
		for range 8 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for range 100 {
					r.When("a")
					r.NumRequeues("a")
				}
			}()
		}
		wg.Wait()
		if n := r.NumRequeues("a"); n != 800 {
			t.Fatalf("NumRequeues = %d, want 800", n)
		}
	})
}

func TestItemExponentialFailureRateLimiter_Forget(t *testing.T) {
	r := NewItemExponentialFailureRateLimiter[string](time.Millisecond, time.Second)
	r.When("a")
	r.When("a")
	r.When("b")
	r.Forget("a")
	if n := r.NumRequeues("a"); n != 0 {
		t.Fatalf("NumRequeues after Forget = %d, want 0", n)
	}
	if got := r.When("a"); got != time.Millisecond {
		t.Fatalf("When after Forget = %v, want the 1ms base", got)
	}
	if n := r.NumRequeues("b"); n != 1 {
		t.Fatalf("Forget(a) changed b: NumRequeues(b) = %d, want 1", n)
	}
}

func TestBucketRateLimiter_When(t *testing.T) {
	t.Run("BurstThenQPS", func(t *testing.T) {
		fakeClock := clock.NewFakeClock(epoch)
		r := NewBucketRateLimiter[string](10, 3, fakeClock)
		want := []time.Duration{0, 0, 0, 100 * time.Millisecond, 200 * time.Millisecond, 300 * time.Millisecond}
		for i, w := range want {
			// The bucket ignores the item: distinct items share it.
			if got := r.When(string(rune('a' + i))); got != w {
				t.Fatalf("When #%d = %v, want %v", i+1, got, w)
			}
		}
		if n := r.NumRequeues("a"); n != 0 {
			t.Fatalf("NumRequeues = %d, want 0", n)
		}
	})

	t.Run("RefillsOverTime", func(t *testing.T) {
		fakeClock := clock.NewFakeClock(epoch)
		r := NewBucketRateLimiter[string](10, 3, fakeClock)
		for range 5 {
			r.When("a") // tokens: 3 -> -2
		}
		fakeClock.Step(250 * time.Millisecond) // +2.5 tokens -> 0.5
		if got := r.When("a"); got != 50*time.Millisecond {
			t.Fatalf("When = %v, want 50ms (half a token short)", got)
		}
		fakeClock.Step(time.Hour) // refill caps at burst
		for i := range 3 {
			if got := r.When("a"); got != 0 {
				t.Fatalf("When #%d after a full refill = %v, want 0", i+1, got)
			}
		}
		if got := r.When("a"); got != 100*time.Millisecond {
			t.Fatalf("When past the burst = %v, want 100ms", got)
		}
	})

	t.Run("Concurrent", func(t *testing.T) {
		fakeClock := clock.NewFakeClock(epoch)
		r := NewBucketRateLimiter[string](10, 5, fakeClock)
		const callers, calls = 5, 20
		var mu sync.Mutex
		var got []time.Duration
		var wg sync.WaitGroup
		for range callers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for range calls {
					d := r.When("a")
					mu.Lock()
					got = append(got, d)
					mu.Unlock()
				}
			}()
		}
		wg.Wait()
		// Whatever the interleaving, the reservations are 5 free tokens
		// and then one every 100ms.
		slices.Sort(got)
		for i, d := range got {
			want := time.Duration(max(0, i-4)) * 100 * time.Millisecond
			if d != want {
				t.Fatalf("sorted delay #%d = %v, want %v", i, d, want)
			}
		}
	})

	t.Run("BadParametersPanic", func(t *testing.T) {
		for _, tc := range []struct {
			qps   float64
			burst int
		}{{0, 1}, {-1, 1}, {1, 0}} {
			func() {
				defer func() {
					if recover() == nil {
						t.Errorf("NewBucketRateLimiter(%v, %d) did not panic", tc.qps, tc.burst)
					}
				}()
				NewBucketRateLimiter[string](tc.qps, tc.burst, nil)
			}()
		}
	})
}

func TestMaxOfRateLimiter(t *testing.T) {
	fakeClock := clock.NewFakeClock(epoch)
	r := NewMaxOfRateLimiter[string](
		NewItemExponentialFailureRateLimiter[string](time.Millisecond, time.Second),
		NewBucketRateLimiter[string](1, 1, fakeClock),
	)
	if got := r.When("a"); got != time.Millisecond {
		t.Fatalf("When #1 = %v, want 1ms (exponential; the bucket had a token)", got)
	}
	if got := r.When("a"); got != time.Second {
		t.Fatalf("When #2 = %v, want 1s (bucket empty at 1 qps)", got)
	}
	if n := r.NumRequeues("a"); n != 2 {
		t.Fatalf("NumRequeues = %d, want 2", n)
	}
	r.Forget("a")
	if n := r.NumRequeues("a"); n != 0 {
		t.Fatalf("NumRequeues after Forget = %d, want 0", n)
	}
	fakeClock.Step(time.Hour)
	if got := r.When("a"); got != time.Millisecond {
		t.Fatalf("When after Forget = %v, want 1ms", got)
	}
}

func TestDefaultControllerRateLimiter(t *testing.T) {
	r := DefaultControllerRateLimiter[string]()
	for i, want := range []time.Duration{5 * time.Millisecond, 10 * time.Millisecond, 20 * time.Millisecond} {
		if got := r.When("a"); got != want {
			t.Fatalf("When #%d = %v, want %v", i+1, got, want)
		}
	}
	r.Forget("a")
	if got := r.When("a"); got != 5*time.Millisecond {
		t.Fatalf("When after Forget = %v, want 5ms", got)
	}

	// 4 tokens are gone; 96 more distinct items drain the 100-token burst.
	for i := range 96 {
		r.When(string(rune(0x100 + i)))
	}
	// The next item is the bucket's: about 100ms at 10 qps (less whatever
	// refilled on the real clock since the limiter was made).
	if got := r.When("last"); got <= 50*time.Millisecond || got > 100*time.Millisecond {
		t.Fatalf("When past the burst = %v, want just under 100ms", got)
	}
}
