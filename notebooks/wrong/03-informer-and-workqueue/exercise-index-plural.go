//go:build ignore

// Mistake: files a CRD under the first part of its name (the plural), not its group.
// Check says: file each CRD under exactly the value a caller will ask for
package wrong

// crdsByGroup files a CRD under its API group (spec.group).
func crdsByGroup(obj any) ([]string, error) {
	crd, ok := obj.(*apiextensionsv1.CustomResourceDefinition)
	if !ok {
		return nil, fmt.Errorf("crdsByGroup: %T is not a CRD", obj)
	}
	plural, _, _ := strings.Cut(crd.Name, ".")
	return []string{plural}, nil
}
