//go:build ignore

// Mistake: takes every /apis/ path for the apiextensions link's, though events.k8s.io and coordination.k8s.io are built-in groups of the kube-apiserver link.
// Check says: which groups did the kube-apiserver link install
package wrong

import "strings"

// linksOf returns the links of the server chain that a GET of path meets,
// front first: the last one answers it.
func linksOf(path string) []string {
	if strings.HasPrefix(path, "/api/") {
		return []string{kubeLink}
	}
	if strings.HasPrefix(path, "/apis/apiextensions.k8s.io/v1/") ||
		strings.HasPrefix(path, "/apis/stable.example.com/v1/") && strings.Contains(path, "/crontabs") {
		return []string{kubeLink, extensionsLink}
	}
	return []string{kubeLink, extensionsLink, endOfChain}
}
