// Package install registers the apiextensions.k8s.io group — the internal
// hub, v1 and v1beta1 — into a scheme, preferring v1.
//
// Upstream:
//   - k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/install/install.go
//
// Differences from upstream: Install panics on a registration error, as
// upstream's utilruntime.Must does, and takes the scheme as an argument
// (there is no package-level Scheme in crdlab).
package install
