//go:build ignore

// Solution to exercise 2 of 02-storage-and-watch.ipynb: an increment that
// no concurrent writer can lose.
package solutions

// scale adds delta to spec.replicas of CronTab name.
func scale(ctx context.Context, s storage.Interface, name string, delta int64) error {
	out := &unstructured.Unstructured{}
	return s.GuaranteedUpdate(ctx, key(name), out, false, nil, func(cur storage.Object) (storage.Object, error) {
		// cur is the current object (a copy we may change). If another
		// write lands before ours, GuaranteedUpdate calls us again with
		// the newer object, so no increment is lost.
		u := cur.(*unstructured.Unstructured)
		replicas, _, err := unstructured.NestedInt64(u.Object, "spec", "replicas")
		if err != nil {
			return nil, err
		}
		return u, unstructured.SetNestedField(u.Object, replicas+delta, "spec", "replicas")
	})
}
