//go:build ignore

// Solution to exercise 1 of 03-informer-and-workqueue.ipynb: an index of
// CRDs by API group.
package solutions

// crdsByGroup files a CRD under its API group (spec.group).
func crdsByGroup(obj any) ([]string, error) {
	crd, ok := obj.(*apiextensionsv1.CustomResourceDefinition)
	if !ok {
		return nil, fmt.Errorf("crdsByGroup: %T is not a CRD", obj)
	}
	return []string{crd.Spec.Group}, nil
}
