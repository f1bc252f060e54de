//go:build ignore

// Mistake: compares only when both sides have storageClass, so removing it goes through (what a rule on the field itself does too).
// Check says: removing storageClass must be refused
package wrong

// volumeRules are the x-kubernetes-validations of a Volume's spec.
func volumeRules() []apiextensionsv1.ValidationRule {
	return []apiextensionsv1.ValidationRule{{Rule: "!has(self.storageClass) || !has(oldSelf.storageClass) || self.storageClass == oldSelf.storageClass", Message: "storageClass is immutable once set"}}
}
