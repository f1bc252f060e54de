//go:build ignore

// Mistake: resumes from the revision before the last one seen, so that event comes again.
// Check says: the first event is the one the watcher already saw
package wrong

import "strconv"

// watchFrom watches every CronTab (every key under prefix) for the changes
// made after revision rv.
func watchFrom(ctx context.Context, s storage.Interface, rv string) (watch.Interface, error) {
	n, err := strconv.ParseInt(rv, 10, 64)
	if err != nil {
		return nil, err
	}
	// "To be safe", start one revision earlier.
	return s.Watch(ctx, prefix, storage.ListOptions{Recursive: true, ResourceVersion: strconv.FormatInt(n-1, 10)})
}
