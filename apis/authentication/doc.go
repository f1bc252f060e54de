// Package authentication is the internal (hub) version of the
// authentication.k8s.io API group, reduced to SelfSubjectReview: "who am
// I?" (kubectl auth whoami). It is never stored; a create is answered with
// the user the authenticator saw.
//
// Upstream:
//   - k8s.io/kubernetes/pkg/apis/authentication: types.go, register.go
//
// Differences from upstream: no TokenReview or TokenRequest.
package authentication
