//go:build ignore

// Mistake: never calls Done, so the queue thinks a worker still holds the key.
// Check says: handed out again only once the worker says it is Done
package wrong

// processNextWorkItem handles one key from q with sync; it returns false
// when q is shut down and the worker should stop.
func processNextWorkItem(q workqueue.RateLimitingInterface[string], sync func(key string) error) bool {
	key, shutdown := q.Get()
	if shutdown {
		return false
	}
	if err := sync(key); err != nil {
		q.AddRateLimited(key)
		return true
	}
	q.Forget(key)
	return true
}
