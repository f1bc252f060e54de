// Package v1 is coordination.k8s.io/v1: Lease on the wire.
//
// Upstream:
//   - k8s.io/api/coordination/v1/types.go
//   - k8s.io/kubernetes/pkg/apis/coordination/v1 (generated conversions;
//     no defaults)
package v1
