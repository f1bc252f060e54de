//go:build ignore

// Mistake: leaves out CRDs being deleted, whose names stay claimed until they are gone.
// Check says: one whose names conflict, or one being deleted, still claims its names
package wrong

// crdsByGroup files a CRD under its API group (spec.group).
func crdsByGroup(obj any) ([]string, error) {
	crd, ok := obj.(*apiextensionsv1.CustomResourceDefinition)
	if !ok {
		return nil, fmt.Errorf("crdsByGroup: %T is not a CRD", obj)
	}
	if crd.DeletionTimestamp != nil {
		return nil, nil // "on its way out"
	}
	return []string{crd.Spec.Group}, nil
}
