// Package v1 is authentication.k8s.io/v1: SelfSubjectReview on the wire.
//
// Upstream:
//   - k8s.io/api/authentication/v1/types.go
//   - k8s.io/kubernetes/pkg/apis/authentication/v1 (generated conversions)
package v1
