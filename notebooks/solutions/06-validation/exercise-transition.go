//go:build ignore

// Solution to exercise 1 of 06-validation.ipynb: a transition rule on spec
// that lets storageClass be set later but never changed or removed.
package solutions

// volumeRules are the x-kubernetes-validations of a Volume's spec.
//
// The rule sits on spec, not on storageClass: a rule on the field runs only
// when both the old and the new object have it, so it cannot see the field
// go away. It reads oldSelf, so it runs on updates only; !has(oldSelf.storageClass)
// lets the first setting through, and the rest compares only when the old
// spec has the field (oldSelf.storageClass alone would fail with "no such key"
// on every update of a volume that never had one).
func volumeRules() []apiextensionsv1.ValidationRule {
	return []apiextensionsv1.ValidationRule{{
		Rule:    "!has(oldSelf.storageClass) || has(self.storageClass) && self.storageClass == oldSelf.storageClass",
		Message: "storageClass is immutable once set",
	}}
}
