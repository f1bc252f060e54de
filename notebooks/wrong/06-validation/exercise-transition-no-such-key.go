//go:build ignore

// Mistake: reads oldSelf.storageClass when the old spec has none: the rule fails with "no such key" on any update of a volume without one.
// Check says: an update that leaves storageClass unset must be allowed
package wrong

// volumeRules are the x-kubernetes-validations of a Volume's spec.
func volumeRules() []apiextensionsv1.ValidationRule {
	return []apiextensionsv1.ValidationRule{{Rule: "self.storageClass == oldSelf.storageClass", Message: "storageClass is immutable once set"}}
}
