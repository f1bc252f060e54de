package clock_test

import (
	"fmt"
	"runtime"
	"time"

	"github.com/crdlab/crdlab/machinery/clock"
)

// A test drives time by hand: the code under test waits on a timer of a
// FakeClock, and the test Steps the clock once it sees the waiter.
func ExampleFakeClock() {
	c := clock.NewFakeClock(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	done := make(chan time.Time)
	go func() {
		t := c.NewTimer(5 * time.Second) // e.g. a backoff
		done <- <-t.C()
	}()
	for !c.HasWaiters() { // until the goroutine waits on the clock
		runtime.Gosched()
	}
	c.Step(4 * time.Second)
	fmt.Println("waiting after 4s:", c.HasWaiters())
	c.Step(time.Second)
	fmt.Println("fired at", (<-done).Format(time.TimeOnly))
	// Output:
	// waiting after 4s: true
	// fired at 00:00:05
}
