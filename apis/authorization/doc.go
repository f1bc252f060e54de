// Package authorization is the internal (hub) version of the
// authorization.k8s.io API group, reduced to the two reviews a client asks
// about itself: SelfSubjectAccessReview ("may I do this?", kubectl auth
// can-i, k9s before each view) and SelfSubjectRulesReview ("what may I do
// in this namespace?", kubectl auth can-i --list). Neither is stored: a
// create is answered by the server's authorizer and returned with its
// status filled in.
//
// Layout: types.go, register.go, validation.go, zz_deepcopy.go.
//
// Upstream:
//   - k8s.io/kubernetes/pkg/apis/authorization: types.go, register.go
//   - k8s.io/kubernetes/pkg/apis/authorization/validation
//     (ValidateSelfSubjectAccessReview)
//
// Differences from upstream: no SubjectAccessReview or
// LocalSubjectAccessReview (asking about other users); validation.go sits
// in this package.
package authorization
