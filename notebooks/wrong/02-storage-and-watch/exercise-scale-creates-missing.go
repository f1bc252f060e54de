//go:build ignore

// Mistake: passes ignoreNotFound, so scaling a CronTab that does not exist writes one.
// Check says: scaling what does not exist must not create it
package wrong

// scale adds delta to spec.replicas of CronTab name.
func scale(ctx context.Context, s storage.Interface, name string, delta int64) error {
	return s.GuaranteedUpdate(ctx, key(name), &unstructured.Unstructured{}, true, nil, func(obj storage.Object) (storage.Object, error) {
		u := obj.(*unstructured.Unstructured)
		if u.Object == nil {
			u.Object = map[string]any{}
		}
		replicas, _, err := unstructured.NestedInt64(u.Object, "spec", "replicas")
		if err != nil {
			return nil, err
		}
		return u, unstructured.SetNestedField(u.Object, replicas+delta, "spec", "replicas")
	})
}
