//go:build ignore

// Solution to exercise 1 of 02-storage-and-watch.ipynb: resume a watch
// from the last resourceVersion seen.
package solutions

// watchFrom watches every CronTab (every key under prefix) for the changes
// made after revision rv.
func watchFrom(ctx context.Context, s storage.Interface, rv string) (watch.Interface, error) {
	// A resourceVersion N means "every change after revision N": the store
	// replays them from its history, then goes live.
	return s.Watch(ctx, prefix, storage.ListOptions{Recursive: true, ResourceVersion: rv})
}
