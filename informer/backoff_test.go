package informer

import (
	"testing"
	"time"

	"github.com/crdlab/crdlab/informer/workqueue"
)

// fired reports whether t has fired.
func fired(t workqueue.Timer) bool {
	select {
	case <-t.C():
		return true
	default:
		return false
	}
}

// expectWait checks that t fires after exactly d of fake time.
func expectWait(t *testing.T, clock *workqueue.FakeClock, timer workqueue.Timer, d time.Duration) {
	t.Helper()
	clock.Step(d - time.Millisecond)
	if fired(timer) {
		t.Fatalf("backoff fired before %v", d)
	}
	clock.Step(time.Millisecond)
	if !fired(timer) {
		t.Fatalf("backoff did not fire after %v", d)
	}
}

func TestExponentialBackoffManager(t *testing.T) {
	t.Run("GrowsToCap", func(t *testing.T) {
		clock := workqueue.NewFakeClock(epoch)
		b := NewExponentialBackoffManager(time.Second, 4*time.Second, time.Hour, 2, 0, clock)
		for _, d := range []time.Duration{time.Second, 2 * time.Second, 4 * time.Second, 4 * time.Second} {
			expectWait(t, clock, b.Backoff(), d)
		}
	})

	t.Run("ResetsAfterQuietPeriod", func(t *testing.T) {
		clock := workqueue.NewFakeClock(epoch)
		b := NewExponentialBackoffManager(time.Second, time.Minute, 2*time.Minute, 2, 0, clock)
		expectWait(t, clock, b.Backoff(), time.Second)
		expectWait(t, clock, b.Backoff(), 2*time.Second)
		clock.Step(3 * time.Minute) // healthy for a while
		expectWait(t, clock, b.Backoff(), time.Second)
	})

	t.Run("JitterStretchesUpToFactor", func(t *testing.T) {
		clock := workqueue.NewFakeClock(epoch)
		b := NewExponentialBackoffManager(time.Second, time.Minute, time.Hour, 2, 1.0, clock)
		timer := b.Backoff()
		clock.Step(time.Second - time.Millisecond)
		if fired(timer) {
			t.Fatal("jittered backoff shorter than its base")
		}
		clock.Step(time.Second + time.Millisecond)
		if !fired(timer) {
			t.Fatal("jittered backoff longer than twice its base")
		}
	})
}
