//go:build ignore

// Solution to exercise 3 of 04-apiextensions-server.ipynb: the links of
// the server chain a GET meets.
package solutions

import "strings"

// linksOf returns the links of the server chain that a GET of path meets,
// front first: the last one answers it.
func linksOf(path string) []string {
	under := func(prefix string) bool { return path == prefix || strings.HasPrefix(path, prefix+"/") }
	// The group versions the kube-apiserver link installed (GET /api/v1,
	// GET /apis): it answers every path under them, 404 for a kind it lacks
	// included.
	for _, gv := range []string{"/api/v1", "/apis/events.k8s.io/v1", "/apis/coordination.k8s.io/v1",
		"/apis/authorization.k8s.io/v1", "/apis/authentication.k8s.io/v1"} {
		if under(gv) {
			return []string{kubeLink}
		}
	}
	// Everything else is handed to the apiextensions link: it installed
	// the CRD API (v1 only, by default), and its crdHandler serves what the
	// CRDs define, resource by resource.
	if under("/apis/apiextensions.k8s.io/v1") {
		return []string{kubeLink, extensionsLink}
	}
	if rest, ok := strings.CutPrefix(path, "/apis/stable.example.com/v1/"); ok {
		parts := strings.Split(rest, "/")
		if parts[0] == "namespaces" && len(parts) > 2 {
			parts = parts[2:] // namespaces/<namespace>/<resource>/…
		}
		if parts[0] == "crontabs" {
			return []string{kubeLink, extensionsLink}
		}
	}
	// What no link installed and no CRD defines ends at the 404.
	return []string{kubeLink, extensionsLink, endOfChain}
}
