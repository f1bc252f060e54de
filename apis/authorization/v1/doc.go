// Package v1 is authorization.k8s.io/v1: SelfSubjectAccessReview and
// SelfSubjectRulesReview on the wire.
//
// Upstream:
//   - k8s.io/api/authorization/v1/types.go
//   - k8s.io/kubernetes/pkg/apis/authorization/v1 (generated conversions)
package v1
