package flowcontrol_test

import (
	"context"
	"fmt"
	"runtime"
	"time"

	"github.com/crdlab/crdlab/client/flowcontrol"
	"github.com/crdlab/crdlab/machinery/clock"
)

// A bucket of 2 at 1 QPS lets two requests through at once; the third waits
// for the refill.
func ExampleNewTokenBucketRateLimiterWithClock() {
	fakeClock := clock.NewFakeClock(time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC))
	limiter := flowcontrol.NewTokenBucketRateLimiterWithClock(1, 2, fakeClock)

	fmt.Println(limiter.TryAccept(), limiter.TryAccept(), limiter.TryAccept())

	done := make(chan error)
	go func() { done <- limiter.Wait(context.Background()) }()
	for fakeClock.Waiters() == 0 { // until Wait sleeps on the clock
		runtime.Gosched()
	}
	fakeClock.Step(time.Second)
	fmt.Println("waited:", <-done == nil)
	// Output:
	// true true false
	// waited: true
}
