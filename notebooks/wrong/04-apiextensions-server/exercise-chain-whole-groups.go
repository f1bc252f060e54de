//go:build ignore

// Mistake: has each link keep whole groups (events.k8s.io/v2, the CRD's v2), though a link installs group versions and the crdHandler serves only a CRD's served versions.
// Check says: not whole groups
package wrong

import "strings"

// linksOf returns the links of the server chain that a GET of path meets,
// front first: the last one answers it.
func linksOf(path string) []string {
	for _, group := range []string{"/api/", "/apis/events.k8s.io/", "/apis/coordination.k8s.io/",
		"/apis/authorization.k8s.io/", "/apis/authentication.k8s.io/"} {
		if strings.HasPrefix(path, group) {
			return []string{kubeLink}
		}
	}
	if strings.HasPrefix(path, "/apis/apiextensions.k8s.io/") || strings.HasPrefix(path, "/apis/stable.example.com/") {
		return []string{kubeLink, extensionsLink}
	}
	return []string{kubeLink, extensionsLink, endOfChain}
}
