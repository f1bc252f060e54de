//go:build ignore

// Mistake: requires storageClass to be set on both sides or neither, so it can never be added later.
// Check says: setting storageClass later must be allowed
package wrong

// volumeRules are the x-kubernetes-validations of a Volume's spec.
func volumeRules() []apiextensionsv1.ValidationRule {
	return []apiextensionsv1.ValidationRule{{Rule: "has(self.storageClass) == has(oldSelf.storageClass) && (!has(self.storageClass) || self.storageClass == oldSelf.storageClass)", Message: "storageClass is immutable once set"}}
}
