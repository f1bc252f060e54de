package informer

import (
	"testing"
	"time"

	"github.com/crdlab/crdlab/machinery/clock"
)

// fired reports whether t has fired.
func fired(t clock.Timer) bool {
	select {
	case <-t.C():
		return true
	default:
		return false
	}
}

// expectWait checks that t fires after exactly d of fake time.
func expectWait(t *testing.T, fakeClock *clock.FakeClock, timer clock.Timer, d time.Duration) {
	t.Helper()
	fakeClock.Step(d - time.Millisecond)
	if fired(timer) {
		t.Fatalf("backoff fired before %v", d)
	}
	fakeClock.Step(time.Millisecond)
	if !fired(timer) {
		t.Fatalf("backoff did not fire after %v", d)
	}
}

func TestExponentialBackoffManager(t *testing.T) {
	t.Run("GrowsToCap", func(t *testing.T) {
		fakeClock := clock.NewFakeClock(epoch)
		b := NewExponentialBackoffManager(time.Second, 4*time.Second, time.Hour, 2, 0, fakeClock)
		for _, d := range []time.Duration{time.Second, 2 * time.Second, 4 * time.Second, 4 * time.Second} {
			expectWait(t, fakeClock, b.Backoff(), d)
		}
	})

	t.Run("ResetsAfterQuietPeriod", func(t *testing.T) {
		fakeClock := clock.NewFakeClock(epoch)
		b := NewExponentialBackoffManager(time.Second, time.Minute, 2*time.Minute, 2, 0, fakeClock)
		expectWait(t, fakeClock, b.Backoff(), time.Second)
		expectWait(t, fakeClock, b.Backoff(), 2*time.Second)
		fakeClock.Step(3 * time.Minute) // healthy for a while
		expectWait(t, fakeClock, b.Backoff(), time.Second)
	})

	t.Run("JitterStretchesUpToFactor", func(t *testing.T) {
		fakeClock := clock.NewFakeClock(epoch)
		b := NewExponentialBackoffManager(time.Second, time.Minute, time.Hour, 2, 1.0, fakeClock)
		timer := b.Backoff()
		fakeClock.Step(time.Second - time.Millisecond)
		if fired(timer) {
			t.Fatal("jittered backoff shorter than its base")
		}
		fakeClock.Step(time.Second + time.Millisecond)
		if !fired(timer) {
			t.Fatal("jittered backoff longer than twice its base")
		}
	})
}
