//go:build ignore

// Mistake: writes with the read resourceVersion as a precondition and gives up on the first conflict.
// Check says: a write that lost a race is not a failure
package wrong

// scale adds delta to spec.replicas of CronTab name.
func scale(ctx context.Context, s storage.Interface, name string, delta int64) error {
	cur := &unstructured.Unstructured{}
	if err := s.Get(ctx, key(name), storage.GetOptions{}, cur); err != nil {
		return err
	}
	rv := cur.GetResourceVersion()
	return s.GuaranteedUpdate(ctx, key(name), &unstructured.Unstructured{}, false, &storage.Preconditions{ResourceVersion: &rv},
		func(obj storage.Object) (storage.Object, error) {
			u := obj.(*unstructured.Unstructured)
			replicas, _, err := unstructured.NestedInt64(u.Object, "spec", "replicas")
			if err != nil {
				return nil, err
			}
			return u, unstructured.SetNestedField(u.Object, replicas+delta, "spec", "replicas")
		})
}
