//go:build ignore

// Mistake: calls Forget on every key, failed or not, so the backoff never grows.
// Check says: the delay grows with each failure in a row
package wrong

// processNextWorkItem handles one key from q with sync; it returns false
// when q is shut down and the worker should stop.
func processNextWorkItem(q workqueue.RateLimitingInterface[string], sync func(key string) error) bool {
	key, shutdown := q.Get()
	if shutdown {
		return false
	}
	defer q.Done(key)
	err := sync(key)
	q.Forget(key)
	if err != nil {
		q.AddRateLimited(key)
	}
	return true
}
