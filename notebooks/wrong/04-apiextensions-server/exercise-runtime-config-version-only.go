//go:build ignore

// Mistake: names the version without its group.
// Check says: a key names a group version as <group>/<version>
package wrong

// runtimeConfig serves apiextensions.k8s.io/v1beta1 besides v1.
func runtimeConfig() map[string]bool {
	return map[string]bool{"v1beta1": true}
}
