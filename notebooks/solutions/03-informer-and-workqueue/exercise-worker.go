//go:build ignore

// Solution to exercise 2 of 03-informer-and-workqueue.ipynb: one turn of a
// controller's worker loop, with backoff.
package solutions

// processNextWorkItem handles one key from q with sync; it returns false
// when q is shut down and the worker should stop.
func processNextWorkItem(q workqueue.RateLimitingInterface[string], sync func(key string) error) bool {
	key, shutdown := q.Get()
	if shutdown {
		return false
	}
	// Done tells the queue no worker holds key any more: an Add made
	// while we worked is queued now, and the key can be handed out again.
	defer q.Done(key)
	if err := sync(key); err != nil {
		q.AddRateLimited(key) // 5ms, 10ms, 20ms … for a key that keeps failing
		return true
	}
	q.Forget(key) // success: the next failure starts at 5ms again
	return true
}
