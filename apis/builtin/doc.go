// Package builtin installs every built-in API group of crdlab's
// kube-apiserver link in a scheme: core (v1), events.k8s.io (v1),
// coordination.k8s.io (v1), authorization.k8s.io (v1) and
// authentication.k8s.io (v1), each with its internal hub, its conversions
// and its defaults. This is the compiled-in half of the scheme: unlike a
// CRD's kinds, these are Go types known when the binary is built.
//
// Upstream:
//   - k8s.io/kubernetes/pkg/controlplane/import_known_versions.go (imports
//     each group's install package into the legacy scheme)
//   - k8s.io/kubernetes/pkg/apis/<group>/install (Install)
//
// Differences from upstream: one Install for the five groups instead of
// an install package per group; only the versions crdlab serves.
package builtin
