package clock

import "time"

// Clock is where code reads time and makes timers. Production code uses
// RealClock; tests use a FakeClock and Step it.
//
// Clock mirrors the part of k8s.io/utils/clock.Clock that crdlab uses: Now
// and NewTimer.
type Clock interface {
	// Now returns the current time.
	Now() time.Time
	// NewTimer returns a Timer that sends the then-current time on its
	// channel once, d after now. A d <= 0 fires at once.
	NewTimer(d time.Duration) Timer
}

// Timer is a one-shot timer made by a Clock.
//
// Timer mirrors k8s.io/utils/clock.Timer without Reset.
type Timer interface {
	// C returns the channel the timer fires on. It is the same channel on
	// every call.
	C() <-chan time.Time
	// Stop prevents the timer from firing. It reports whether the call
	// stopped the timer, false if it had already fired or been stopped.
	Stop() bool
}

// RealClock is the wall clock: time.Now and time.NewTimer.
//
// RealClock mirrors k8s.io/utils/clock.RealClock.
type RealClock struct{}

var _ Clock = RealClock{}

// Now returns time.Now().
func (RealClock) Now() time.Time { return time.Now() }

// NewTimer returns a Timer backed by time.NewTimer.
func (RealClock) NewTimer(d time.Duration) Timer { return realTimer{time.NewTimer(d)} }

// realTimer adapts *time.Timer, whose C is a field, to Timer.
type realTimer struct{ t *time.Timer }

func (r realTimer) C() <-chan time.Time { return r.t.C }
func (r realTimer) Stop() bool          { return r.t.Stop() }
