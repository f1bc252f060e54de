//go:build ignore

// Mistake: leaves out CRDs whose names are not accepted, which a fixture with the naming controller's conditions has.
// Check says: one whose names conflict, or one being deleted, still claims its names
package wrong

// crdsByGroup files a CRD under its API group (spec.group).
func crdsByGroup(obj any) ([]string, error) {
	crd, ok := obj.(*apiextensionsv1.CustomResourceDefinition)
	if !ok {
		return nil, fmt.Errorf("crdsByGroup: %T is not a CRD", obj)
	}
	if !helpers.IsCRDConditionTrue(crd, apiextensionsv1.NamesAccepted) {
		return nil, nil // "not a real member of the group yet"
	}
	return []string{crd.Spec.Group}, nil
}
