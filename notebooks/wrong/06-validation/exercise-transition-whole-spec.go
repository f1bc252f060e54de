//go:build ignore

// Mistake: makes the whole spec immutable, not just storageClass.
// Check says: an update that leaves storageClass unset must be allowed
package wrong

// volumeRules are the x-kubernetes-validations of a Volume's spec.
func volumeRules() []apiextensionsv1.ValidationRule {
	return []apiextensionsv1.ValidationRule{{Rule: "self == oldSelf", Message: "storageClass is immutable once set"}}
}
