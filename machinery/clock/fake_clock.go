package clock

import (
	"slices"
	"sync"
	"time"
)

// FakeClock is a Clock whose time only moves when a test calls Step or
// SetTime. Timers made by NewTimer fire, in the goroutine calling Step or
// SetTime, when the time reaches their target. It is safe for concurrent use.
//
// FakeClock mirrors k8s.io/utils/clock/testing.FakeClock (without tickers,
// Sleep, After or AfterFunc).
type FakeClock struct {
	// mu guards now and waiters.
	mu sync.Mutex
	// now is the fake time. It changes only in Step and SetTime.
	now time.Time
	// waiters holds exactly the timers that have neither fired nor been
	// stopped. Every target in waiters is after now.
	waiters []*fakeTimer
}

var _ Clock = (*FakeClock)(nil)

// NewFakeClock returns a FakeClock whose time is t.
func NewFakeClock(t time.Time) *FakeClock {
	return &FakeClock{now: t}
}

// Now returns the fake time.
func (f *FakeClock) Now() time.Time {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.now
}

// NewTimer returns a Timer that fires once the fake time reaches Now()+d. A
// d <= 0 fires before NewTimer returns.
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

// Step moves the fake time forward by d and fires the timers that are due.
func (f *FakeClock) Step(d time.Duration) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.setTimeLocked(f.now.Add(d))
}

// SetTime sets the fake time to t, which may be in the past, and fires the
// timers that are due.
func (f *FakeClock) SetTime(t time.Time) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.setTimeLocked(t)
}

// HasWaiters reports whether any timer is waiting to fire. A test polls it
// to know that the goroutine under test has started waiting before it
// Steps.
func (f *FakeClock) HasWaiters() bool {
	return f.Waiters() > 0
}

// Waiters returns how many timers are waiting to fire.
func (f *FakeClock) Waiters() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.waiters)
}

// setTimeLocked sets now and fires due timers. f.mu must be held.
func (f *FakeClock) setTimeLocked(t time.Time) {
	f.now = t
	kept := f.waiters[:0]
	for _, w := range f.waiters {
		if w.target.After(t) {
			kept = append(kept, w)
			continue
		}
		// c has room: a timer fires at most once and only here or in
		// NewTimer, and it leaves waiters when it does.
		w.c <- t
	}
	clear(f.waiters[len(kept):])
	f.waiters = kept
}

// fakeTimer is a Timer of a FakeClock.
type fakeTimer struct {
	clock  *FakeClock
	target time.Time
	// c is buffered so that Step never blocks on a reader.
	c chan time.Time
}

func (t *fakeTimer) C() <-chan time.Time { return t.c }

func (t *fakeTimer) Stop() bool {
	f := t.clock
	f.mu.Lock()
	defer f.mu.Unlock()
	for i, w := range f.waiters {
		if w == t {
			f.waiters = slices.Delete(f.waiters, i, i+1)
			return true
		}
	}
	return false
}
