package workqueue_test

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/crdlab/crdlab/informer/workqueue"
	"github.com/crdlab/crdlab/machinery/clock"
)

// A controller's worker loop, in the shape of kubernetes/sample-controller:
// Get a key, sync it, retry with backoff on error, Forget on success, and
// always Done. A FakeClock stands in for time so the retries are
// deterministic.
func Example() {
	fakeClock := clock.NewFakeClock(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	q := workqueue.NewRateLimiting(
		workqueue.NewItemExponentialFailureRateLimiter[string](5*time.Millisecond, 1000*time.Second),
		workqueue.Config{Name: "crds", Clock: fakeClock},
	)
	ctx, cancel := context.WithCancel(context.Background())
	context.AfterFunc(ctx, q.ShutDown) // the queue lives as long as ctx

	conflicts := map[string]int{"widgets.example.com": 2}
	sync := func(key string) error {
		if conflicts[key] > 0 {
			conflicts[key]--
			return errors.New("conflict")
		}
		return nil
	}

	processNextWorkItem := func() bool {
		key, shutdown := q.Get()
		if shutdown {
			return false
		}
		// Done lets the queue hand key out again: an Add of key during sync
		// waited for this.
		defer q.Done(key)
		if err := sync(key); err != nil {
			q.AddRateLimited(key)
			fmt.Printf("sync %s: %v; retry #%d\n", key, err, q.NumRequeues(key))
			return true
		}
		// Forget resets the backoff, so the next failure waits 5ms again.
		q.Forget(key)
		fmt.Printf("synced %s\n", key)
		return true
	}

	// Event handlers Add keys; duplicates coalesce.
	q.Add("widgets.example.com")
	q.Add("gadgets.example.com")
	q.Add("widgets.example.com")
	fmt.Println("queued:", q.Len())

	processNextWorkItem()                 // widgets fails: back in 5ms
	processNextWorkItem()                 // gadgets
	fakeClock.Step(5 * time.Millisecond)  //
	processNextWorkItem()                 // widgets fails: back in 10ms
	fakeClock.Step(10 * time.Millisecond) //
	processNextWorkItem()                 // widgets

	cancel()
	fmt.Println("worker continues:", processNextWorkItem())

	// Output:
	// queued: 2
	// sync widgets.example.com: conflict; retry #1
	// synced gadgets.example.com
	// sync widgets.example.com: conflict; retry #2
	// synced widgets.example.com
	// worker continues: false
}

// An item Added while a worker holds it is not handed to a second worker; it
// comes back after Done.
func ExampleQueue_Done() {
	q := workqueue.New[string](workqueue.Config{})
	q.Add("a")

	item, _ := q.Get()
	q.Add("a") // a is processing: it waits
	fmt.Println("got", item, "then queued:", q.Len())

	q.Done(item)
	fmt.Println("after Done, queued:", q.Len())

	item, _ = q.Get()
	fmt.Println("got", item, "again")
	q.Done(item)

	// Output:
	// got a then queued: 0
	// after Done, queued: 1
	// got a again
}

// AddAfter holds items until their time on the queue's Clock; a second
// AddAfter of the same item keeps the earlier time.
func ExampleDelayingInterface() {
	fakeClock := clock.NewFakeClock(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	q := workqueue.NewDelaying[string](workqueue.Config{Clock: fakeClock})
	defer q.ShutDown()

	q.AddAfter("later", 2*time.Second)
	q.AddAfter("sooner", time.Second)
	q.AddAfter("sooner", time.Hour) // ignored: 1s is earlier
	fmt.Println("queued:", q.Len())

	fakeClock.Step(time.Second)
	item, _ := q.Get()
	fmt.Println(item)
	q.Done(item)

	fakeClock.Step(time.Second)
	item, _ = q.Get()
	fmt.Println(item)
	q.Done(item)

	// Output:
	// queued: 0
	// sooner
	// later
}
