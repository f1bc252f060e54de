// Package clock is where crdlab's machinery reads time: a Clock (Now and
// NewTimer), the RealClock of production and a FakeClock for tests. The
// workqueue, the informer's reflector and backoff, the controllers and the
// client's rate limiter all take a Clock, so that their tests move time by
// hand (Step) and never sleep.
//
// Vocabulary:
//
//   - A Clock tells the time (Now) and makes one-shot Timers (NewTimer).
//   - A Timer fires once on its channel C, unless Stop is called first.
//   - A FakeClock's time moves only when a test calls Step or SetTime;
//     that call fires the timers that are due. A waiter is a timer that
//     has neither fired nor been stopped: a test polls HasWaiters (or
//     Waiters) to know that the code under test is waiting on the clock
//     before it Steps.
//
// Layout: clock.go (Clock, Timer, RealClock), fake_clock.go (FakeClock).
//
// Why here: this is a leaf package that imports nothing of crdlab, like
// the other libraries under machinery/. Both the client (its rate
// limiter) and the informer (workqueue, reflector) need a clock; a clock
// in either would make the other import it for nothing else.
//
// Upstream:
//   - k8s.io/utils/clock/clock.go (Clock, Timer, RealClock)
//   - k8s.io/utils/clock/testing/fake_clock.go (FakeClock, Step, SetTime,
//     HasWaiters, Waiters)
//
// Differences from upstream:
//   - The Clock is the part crdlab uses: Now and NewTimer. Timer has no
//     Reset; there is no PassiveClock, Since, After, AfterFunc, Tick,
//     Ticker or Sleep.
//   - FakeClock lives in this package, not in a testing subpackage: it is
//     small, and the examples and notebooks drive it as well as tests.
package clock
