//go:build ignore

// Mistake: files a CRD under group/version, a value no caller asks for.
// Check says: file each CRD under exactly the value a caller will ask for
package wrong

// crdsByGroup files a CRD under its API group (spec.group).
func crdsByGroup(obj any) ([]string, error) {
	crd, ok := obj.(*apiextensionsv1.CustomResourceDefinition)
	if !ok {
		return nil, fmt.Errorf("crdsByGroup: %T is not a CRD", obj)
	}
	var keys []string
	for _, v := range crd.Spec.Versions {
		keys = append(keys, crd.Spec.Group+"/"+v.Name)
	}
	return keys, nil
}
