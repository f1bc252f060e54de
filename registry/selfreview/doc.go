// Package selfreview is the REST storage of the three reviews a client
// asks about itself: SelfSubjectAccessReview ("may I?", kubectl auth
// can-i), SelfSubjectRulesReview ("what may I?", kubectl auth can-i
// --list) and SelfSubjectReview ("who am I?", kubectl auth whoami). They
// are create-only and never stored: Create answers with the review, its
// status filled in by the server's authorizer or authenticator.
//
// The registry knows neither: each REST holds one function that the
// assembly (package apiserver) wires to them, so that the answer is
// exactly what the authorizer decides for a real request.
//
// Upstream:
//   - k8s.io/kubernetes/pkg/registry/authorization/selfsubjectaccessreview/rest.go
//   - k8s.io/kubernetes/pkg/registry/authorization/selfsubjectrulesreview/rest.go
//   - k8s.io/kubernetes/pkg/registry/authentication/selfsubjectreview/rest.go
//
// Differences from upstream: one package for the three; the authorizer
// and the user come in as functions rather than through
// authorizer.Authorizer and request.UserFrom.
package selfreview
