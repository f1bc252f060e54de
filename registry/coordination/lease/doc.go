// Package lease is the REST storage of Leases (coordination.k8s.io), kept
// under /registry/leases. Leader election works because an update must
// carry the resourceVersion it read (AllowUnconditionalUpdate is false):
// of two candidates that saw the same expired Lease, one update wins and
// the other gets 409 Conflict.
//
// Upstream:
//   - k8s.io/kubernetes/pkg/registry/coordination/lease/strategy.go
//   - k8s.io/kubernetes/pkg/registry/coordination/lease/storage/storage.go
//
// Differences from upstream: spec.strategy and spec.preferredHolder are
// kept (upstream drops them while the CoordinatedLeaderElection feature
// gate is off, its default).
package lease
