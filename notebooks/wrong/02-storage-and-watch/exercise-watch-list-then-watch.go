//go:build ignore

// Mistake: lists again and watches from the list's revision, skipping what changed while the watcher was away.
// Check says: or it skipped one made while it was away
package wrong

// watchFrom watches every CronTab (every key under prefix) for the changes
// made after revision rv.
func watchFrom(ctx context.Context, s storage.Interface, rv string) (watch.Interface, error) {
	list, err := s.GetList(ctx, prefix, storage.ListOptions{Recursive: true})
	if err != nil {
		return nil, err
	}
	return s.Watch(ctx, prefix, storage.ListOptions{Recursive: true, ResourceVersion: fmt.Sprint(list.ResourceVersion)})
}
