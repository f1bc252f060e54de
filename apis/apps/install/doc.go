// Package install registers the apps group — the internal hub, v1 and
// v1beta1 (Deployment only) — into a scheme, preferring v1.
//
// Upstream:
//   - k8s.io/kubernetes/pkg/apis/apps/install/install.go
//
// Differences from upstream: extensions/v1beta1 and apps/v1beta2 are not
// registered; the scheme is an argument, not a global.
package install
