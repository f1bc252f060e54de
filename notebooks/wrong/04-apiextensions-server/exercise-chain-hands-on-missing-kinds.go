//go:build ignore

// Mistake: has the kube-apiserver link hand on a kind it does not have (pods), though a link answers every path under a group version it installed.
// Check says: a kind it lacks included
package wrong

import "strings"

// linksOf returns the links of the server chain that a GET of path meets,
// front first: the last one answers it.
func linksOf(path string) []string {
	for _, gv := range []string{"/api/v1/", "/apis/events.k8s.io/v1/", "/apis/coordination.k8s.io/v1/"} {
		rest, ok := strings.CutPrefix(path, gv)
		if !ok {
			continue
		}
		parts := strings.Split(rest, "/")
		if parts[0] == "namespaces" && len(parts) > 2 {
			parts = parts[2:]
		}
		switch parts[0] {
		case "namespaces", "configmaps", "secrets", "events", "leases":
			return []string{kubeLink}
		}
	}
	if strings.HasPrefix(path, "/apis/apiextensions.k8s.io/v1/") ||
		strings.HasPrefix(path, "/apis/stable.example.com/v1/") && strings.Contains(path, "/crontabs") {
		return []string{kubeLink, extensionsLink}
	}
	return []string{kubeLink, extensionsLink, endOfChain}
}
