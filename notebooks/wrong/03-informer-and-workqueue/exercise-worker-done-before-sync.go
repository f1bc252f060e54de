//go:build ignore

// Mistake: calls Done before sync, so a concurrent Add hands the key to a second worker mid-sync.
// Check says: tell the queue you are done with a key only after its sync returned
package wrong

// processNextWorkItem handles one key from q with sync; it returns false
// when q is shut down and the worker should stop.
func processNextWorkItem(q workqueue.RateLimitingInterface[string], sync func(key string) error) bool {
	key, shutdown := q.Get()
	if shutdown {
		return false
	}
	q.Done(key) // "the queue has given it to us"
	if err := sync(key); err != nil {
		q.AddRateLimited(key)
		return true
	}
	q.Forget(key)
	return true
}
