//go:build ignore

// Mistake: never calls Forget, so a key that failed once keeps its long backoff forever.
// Check says: the next failure must start from the shortest delay again
package wrong

// processNextWorkItem handles one key from q with sync; it returns false
// when q is shut down and the worker should stop.
func processNextWorkItem(q workqueue.RateLimitingInterface[string], sync func(key string) error) bool {
	key, shutdown := q.Get()
	if shutdown {
		return false
	}
	defer q.Done(key)
	if err := sync(key); err != nil {
		q.AddRateLimited(key)
	}
	return true
}
