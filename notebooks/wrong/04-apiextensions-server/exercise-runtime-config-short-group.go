//go:build ignore

// Mistake: shortens the group to "apiextensions", which the server does not know.
// Check says: with the group's full name
package wrong

// runtimeConfig serves apiextensions.k8s.io/v1beta1 besides v1.
func runtimeConfig() map[string]bool {
	return map[string]bool{"apiextensions/v1beta1": true}
}
