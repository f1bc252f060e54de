//go:build ignore

// Mistake: computes the new value from a Get made before the write, so concurrent increments are lost.
// Check says: an increment computed from a value read before the write was lost
package wrong

// scale adds delta to spec.replicas of CronTab name.
func scale(ctx context.Context, s storage.Interface, name string, delta int64) error {
	cur := &unstructured.Unstructured{}
	if err := s.Get(ctx, key(name), storage.GetOptions{}, cur); err != nil {
		return err
	}
	replicas, _, err := unstructured.NestedInt64(cur.Object, "spec", "replicas")
	if err != nil {
		return err
	}
	return s.GuaranteedUpdate(ctx, key(name), &unstructured.Unstructured{}, false, nil, func(obj storage.Object) (storage.Object, error) {
		u := obj.(*unstructured.Unstructured)
		return u, unstructured.SetNestedField(u.Object, replicas+delta, "spec", "replicas")
	})
}
