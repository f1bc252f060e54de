package workqueue

import (
	"testing"
	"time"

	"github.com/crdlab/crdlab/machinery/clock"
)

func TestRateLimiting_AddRateLimited(t *testing.T) {
	fakeClock := clock.NewFakeClock(epoch)
	q := NewRateLimiting[string](
		NewItemExponentialFailureRateLimiter[string](time.Millisecond, time.Second),
		Config{Clock: fakeClock},
	)
	defer q.ShutDown()

	q.AddRateLimited("a") // 1ms
	if n := q.NumRequeues("a"); n != 1 {
		t.Fatalf("NumRequeues = %d, want 1", n)
	}
	wantLen(t, q, 0)
	fakeClock.Step(time.Millisecond)
	mustGet(t, q, "a")

	q.AddRateLimited("a") // 2ms, while a is processing
	q.Done("a")
	fakeClock.Step(time.Millisecond)
	wantLen(t, q, 0) // the 2ms timer is not due
	fakeClock.Step(time.Millisecond)
	mustGet(t, q, "a")
	q.Done("a")
	if n := q.NumRequeues("a"); n != 2 {
		t.Fatalf("NumRequeues = %d, want 2", n)
	}

	t.Run("ForgetResets", func(t *testing.T) {
		q.Forget("a")
		if n := q.NumRequeues("a"); n != 0 {
			t.Fatalf("NumRequeues after Forget = %d, want 0", n)
		}
		q.AddRateLimited("a") // back to 1ms
		fakeClock.Step(time.Millisecond)
		mustGet(t, q, "a")
		q.Done("a")
	})
}

func TestNewRateLimiting_NilLimiterPanics(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Fatal("NewRateLimiting(nil, ...) did not panic")
		}
	}()
	NewRateLimiting[string](nil, Config{})
}
