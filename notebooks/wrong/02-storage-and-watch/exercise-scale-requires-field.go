//go:build ignore

// Mistake: fails when the optional spec.replicas is absent instead of counting it as 0.
// Check says: spec.replicas is optional
package wrong

// scale adds delta to spec.replicas of CronTab name.
func scale(ctx context.Context, s storage.Interface, name string, delta int64) error {
	return s.GuaranteedUpdate(ctx, key(name), &unstructured.Unstructured{}, false, nil, func(obj storage.Object) (storage.Object, error) {
		u := obj.(*unstructured.Unstructured)
		replicas, found, err := unstructured.NestedInt64(u.Object, "spec", "replicas")
		if err != nil {
			return nil, err
		}
		if !found {
			return nil, fmt.Errorf("%s has no spec.replicas", name)
		}
		return u, unstructured.SetNestedField(u.Object, replicas+delta, "spec", "replicas")
	})
}
