//go:build ignore

// Solution to exercise 2 of 04-apiextensions-server.ipynb: a runtime
// config that serves the CRD API as v1beta1 as well as v1.
package solutions

// runtimeConfig serves apiextensions.k8s.io/v1beta1 besides v1.
func runtimeConfig() map[string]bool {
	// The same as --runtime-config=apiextensions.k8s.io/v1beta1=true; v1
	// stays on by default.
	return map[string]bool{"apiextensions.k8s.io/v1beta1": true}
}
