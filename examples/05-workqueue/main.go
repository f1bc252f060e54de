// Command 05-workqueue walks through the queue between a controller's
// event handlers and its workers, in numbered steps: duplicate keys fold
// into one, a key changed while it is being handled is handled again
// after Done, AddAfter delays a key, AddRateLimited backs off a failing
// key (5ms, 10ms, 20ms …) and Forget resets it, and workers share one
// queue without ever handling one key twice at once. A fake clock stands
// in for time, so every run prints the same.
//
//	go run ./examples/05-workqueue
//
// Mirrors k8s.io/client-go/util/workqueue and the worker loop of
// kubernetes/sample-controller (processNextWorkItem).
package main

import (
	"fmt"
	"io"
	"os"
	"sort"
	"sync"
	"time"

	"github.com/crdlab/crdlab/informer/workqueue"
	"github.com/crdlab/crdlab/machinery/clock"
)

func main() {
	if err := run(os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "error:", err)
		os.Exit(1)
	}
}

// waitLen waits until q holds n ready keys: the delaying queue's own
// goroutine moves a key in after the fake clock fires.
func waitLen(q workqueue.Interface[string], n int) error {
	deadline := time.Now().Add(5 * time.Second)
	for q.Len() != n {
		if time.Now().After(deadline) {
			return fmt.Errorf("queue length %d, want %d", q.Len(), n)
		}
		time.Sleep(time.Millisecond)
	}
	return nil
}

func run(w io.Writer) error {
	step := 0
	say := func(format string, args ...any) {
		step++
		fmt.Fprintf(w, "%d. "+format+"\n", append([]any{step}, args...)...)
	}
	fakeClock := clock.NewFakeClock(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	q := workqueue.NewRateLimiting(
		workqueue.NewItemExponentialFailureRateLimiter[string](5*time.Millisecond, 1000*time.Second),
		workqueue.Config{Name: "crontabs", Clock: fakeClock},
	)
	defer q.ShutDown()

	// 1. Event handlers Add keys, not objects: three events about one
	// object are one piece of work.
	for range 3 {
		q.Add("default/a")
	}
	say("Add(default/a) three times: Len=%d (a key waits in the queue once)", q.Len())

	// 2. A key is never handed to two workers: Added while processing, it
	// waits in the dirty set until Done, then is queued again — so the
	// newest state is always synced.
	key, _ := q.Get()
	q.Add(key)
	during := q.Len()
	q.Done(key)
	say("Get(%s), Add(%s) while processing: Len=%d; after Done: Len=%d (handled again)", key, key, during, q.Len())
	key, _ = q.Get()
	q.Done(key)

	// 3. AddAfter holds a key back: how the establishing controller would
	// wait in an HA setup.
	q.AddAfter("default/b", 2*time.Second)
	before := q.Len()
	fakeClock.Step(2 * time.Second)
	if err := waitLen(q, 1); err != nil {
		return err
	}
	say("AddAfter(default/b, 2s): Len=%d; after 2s on the fake clock: Len=%d", before, q.Len())
	key, _ = q.Get()
	q.Done(key)

	// 4. A failing sync: AddRateLimited backs the key off exponentially;
	// Forget after a success starts the next failure from 5ms again.
	var waits []string
	for try := 1; try <= 3; try++ {
		q.AddRateLimited("default/c")
		wait := 5 * time.Millisecond << (try - 1)
		fakeClock.Step(wait - time.Millisecond)
		if q.Len() != 0 {
			return fmt.Errorf("retry %d came back early", try)
		}
		fakeClock.Step(time.Millisecond)
		if err := waitLen(q, 1); err != nil {
			return err
		}
		key, _ := q.Get()
		q.Done(key)
		waits = append(waits, wait.String())
	}
	requeues := q.NumRequeues("default/c")
	q.Forget("default/c")
	say("sync(default/c) fails 3 times: retried after %v (NumRequeues=%d); success, Forget: NumRequeues=%d",
		waits, requeues, q.NumRequeues("default/c"))

	// 5. Workers: each loops Get → sync → Done. Two workers, 6 keys, each
	// key Added twice: every key is synced, never by both at once.
	var mu sync.Mutex
	inFlight, synced := map[string]bool{}, map[string]int{}
	overlap := false
	var wg sync.WaitGroup
	for range 2 {
		wg.Go(func() {
			for {
				key, shutdown := q.Get()
				if shutdown {
					return
				}
				mu.Lock()
				overlap = overlap || inFlight[key]
				inFlight[key] = true
				mu.Unlock()
				time.Sleep(time.Millisecond) // the "sync"
				mu.Lock()
				inFlight[key] = false
				synced[key]++
				mu.Unlock()
				q.Forget(key)
				q.Done(key)
			}
		})
	}
	for _, k := range []string{"n/1", "n/2", "n/3", "n/4", "n/5", "n/6"} {
		q.Add(k)
		q.Add(k)
	}
	q.ShutDownWithDrain() // hands out what is queued, waits for every Done
	wg.Wait()
	keys := make([]string, 0, len(synced))
	for k := range synced {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	say("2 workers, 6 keys added twice each: synced %v, one key on two workers at once: %v", keys, overlap)
	say("ShutDownWithDrain: workers exited, Len=%d", q.Len())
	return nil
}
