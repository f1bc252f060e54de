//go:build ignore

// Mistake: watches the prefix as one key instead of every key under it.
// Check says: every key under the prefix
package wrong

// watchFrom watches every CronTab (every key under prefix) for the changes
// made after revision rv.
func watchFrom(ctx context.Context, s storage.Interface, rv string) (watch.Interface, error) {
	return s.Watch(ctx, prefix, storage.ListOptions{ResourceVersion: rv})
}
