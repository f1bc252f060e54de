// Package validation checks the core group's objects as kube-apiserver
// does: names, keys and sizes of Secrets and ConfigMaps (1 MiB of data in
// all), what an immutable one may not change, a Secret's type that never
// changes, the required keys of typed Secrets, namespace finalizer names,
// and Events (more strictly when written through events.k8s.io/v1).
//
// Upstream:
//   - k8s.io/kubernetes/pkg/apis/core/validation/validation.go
//     (ValidateNamespace*, ValidateSecret*, ValidateConfigMap*)
//   - k8s.io/kubernetes/pkg/apis/core/validation/events.go
//     (ValidateEventCreate, ValidateEventUpdate)
//
// Differences from upstream: only these kinds.
package validation
