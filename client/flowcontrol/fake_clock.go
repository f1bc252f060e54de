package flowcontrol

import (
	"sync"
	"time"
)

// FakeClock is a Clock whose time moves only when a test calls Step. Timers
// fire, in the goroutine calling Step, once the time reaches their target.
// It is safe for concurrent use.
//
// It is exported (not in a _test file) so that the client's and the
// controllers' tests can drive rate limiters with it.
//
// FakeClock mirrors k8s.io/utils/clock/testing.FakeClock (without tickers,
// Sleep or After).
type FakeClock struct {
	// mu guards now and waiters.
	mu sync.Mutex
	// now is the fake time; it changes only in Step.
	now time.Time
	// waiters holds exactly the timers that have neither fired nor been
	// stopped; each target is after now.
	waiters []*fakeTimer
}

var _ Clock = (*FakeClock)(nil)

// NewFakeClock returns a FakeClock whose time is t.
func NewFakeClock(t time.Time) *FakeClock { return &FakeClock{now: t} }

// Now returns the fake time.
func (f *FakeClock) Now() time.Time {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.now
}

// NewTimer returns a Timer that fires once the fake time reaches Now()+d.
// A d <= 0 fires before NewTimer returns.
func (f *FakeClock) NewTimer(d time.Duration) Timer {
	f.mu.Lock()
	defer f.mu.Unlock()
	t := &fakeTimer{clock: f, target: f.now.Add(d), c: make(chan time.Time, 1)}
	if d <= 0 {
		t.c <- f.now
		return t
	}
	f.waiters = append(f.waiters, t)
	return t
}

// Step moves the fake time forward by d and fires the timers now due.
func (f *FakeClock) Step(d time.Duration) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.now = f.now.Add(d)
	kept := f.waiters[:0]
	for _, w := range f.waiters {
		if w.target.After(f.now) {
			kept = append(kept, w)
			continue
		}
		w.c <- f.now // buffered, and each timer fires once: never blocks
	}
	clear(f.waiters[len(kept):])
	f.waiters = kept
}

// Waiters returns how many timers wait to fire. Tests poll it to know that a
// goroutine has started waiting before they Step.
func (f *FakeClock) Waiters() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.waiters)
}

type fakeTimer struct {
	clock  *FakeClock
	target time.Time
	c      chan time.Time
}

func (t *fakeTimer) C() <-chan time.Time { return t.c }

func (t *fakeTimer) Stop() bool {
	f := t.clock
	f.mu.Lock()
	defer f.mu.Unlock()
	for i, w := range f.waiters {
		if w == t {
			f.waiters = append(f.waiters[:i], f.waiters[i+1:]...)
			return true
		}
	}
	return false
}
