//go:build ignore

// Mistake: turns everything off to turn v1beta1 on, and loses v1.
// Check says: v1 must stay on
package wrong

// runtimeConfig serves apiextensions.k8s.io/v1beta1 besides v1.
func runtimeConfig() map[string]bool {
	return map[string]bool{"api/all": false, "apiextensions.k8s.io/v1beta1": true}
}
