package clock

import (
	"sync"
	"testing"
	"time"
)

var epoch = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

// fired reports whether tm has fired, without blocking.
func fired(tm Timer) bool {
	select {
	case <-tm.C():
		return true
	default:
		return false
	}
}

func TestFakeClock_NewTimer(t *testing.T) {
	t.Run("FiresWhenStepReachesTarget", func(t *testing.T) {
		c := NewFakeClock(epoch)
		tm := c.NewTimer(time.Second)
		if !c.HasWaiters() || c.Waiters() != 1 {
			t.Fatalf("HasWaiters = %v, Waiters = %d with one timer armed", c.HasWaiters(), c.Waiters())
		}
		c.Step(999 * time.Millisecond)
		if fired(tm) {
			t.Fatal("fired 1ms early")
		}
		c.Step(time.Millisecond)
		select {
		case got := <-tm.C():
			if want := epoch.Add(time.Second); !got.Equal(want) {
				t.Fatalf("fired with %v, want %v", got, want)
			}
		default:
			t.Fatal("did not fire at its target")
		}
		if c.HasWaiters() {
			t.Fatal("HasWaiters = true after the only timer fired")
		}
		if tm.Stop() {
			t.Fatal("Stop after firing = true, want false")
		}
	})

	t.Run("StopPreventsFiring", func(t *testing.T) {
		c := NewFakeClock(epoch)
		tm := c.NewTimer(time.Second)
		if !tm.Stop() {
			t.Fatal("Stop of an armed timer = false")
		}
		c.Step(time.Hour)
		if fired(tm) {
			t.Fatal("a stopped timer fired")
		}
		if tm.Stop() {
			t.Fatal("second Stop = true")
		}
	})

	t.Run("NonPositiveFiresAtOnce", func(t *testing.T) {
		c := NewFakeClock(epoch)
		if !fired(c.NewTimer(0)) {
			t.Fatal("NewTimer(0) did not fire")
		}
		if c.HasWaiters() {
			t.Fatal("NewTimer(0) left a waiter")
		}
	})

	t.Run("SetTime", func(t *testing.T) {
		c := NewFakeClock(epoch)
		early, late := c.NewTimer(time.Minute), c.NewTimer(time.Hour)
		c.SetTime(epoch.Add(30 * time.Minute))
		if !c.Now().Equal(epoch.Add(30 * time.Minute)) {
			t.Fatalf("Now = %v after SetTime", c.Now())
		}
		if !fired(early) || fired(late) {
			t.Fatal("SetTime fired the wrong timers")
		}
		c.SetTime(epoch) // backwards: nothing fires
		if fired(late) {
			t.Fatal("moving time back fired a timer")
		}
	})

	t.Run("Concurrent", func(t *testing.T) {
		c := NewFakeClock(epoch)
		var wg sync.WaitGroup
		timers := make(chan Timer, 400)
		for range 4 {
			wg.Add(2)
			go func() {
				defer wg.Done()
				for range 100 {
					tm := c.NewTimer(time.Millisecond)
					timers <- tm
				}
			}()
			go func() {
				defer wg.Done()
				for range 100 {
					c.Step(time.Millisecond)
					c.Now()
				}
			}()
		}
		wg.Wait()
		close(timers)
		c.Step(time.Millisecond) // every timer is now due
		for tm := range timers {
			if !fired(tm) {
				t.Fatal("a timer did not fire")
			}
		}
	})
}
