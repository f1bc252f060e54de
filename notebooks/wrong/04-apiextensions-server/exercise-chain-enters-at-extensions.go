//go:build ignore

// Mistake: lets the requests for CRDs and custom resources enter the chain at the apiextensions link, though every request enters at the front.
// Check says: every request enters the chain at its front
package wrong

import "strings"

// linksOf returns the links of the server chain that a GET of path meets,
// front first: the last one answers it.
func linksOf(path string) []string {
	for _, gv := range []string{"/api/v1", "/apis/events.k8s.io/v1", "/apis/coordination.k8s.io/v1",
		"/apis/authorization.k8s.io/v1", "/apis/authentication.k8s.io/v1"} {
		if strings.HasPrefix(path, gv+"/") {
			return []string{kubeLink}
		}
	}
	if strings.HasPrefix(path, "/apis/apiextensions.k8s.io/v1/") ||
		strings.HasPrefix(path, "/apis/stable.example.com/v1/") && strings.Contains(path, "/crontabs") {
		return []string{extensionsLink}
	}
	return []string{kubeLink, extensionsLink, endOfChain}
}
