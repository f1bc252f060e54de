// Package errors holds the API errors of crdlab: each is a StatusError
// carrying the metav1.Status the server answers with — the same reason
// strings and HTTP codes as upstream, so real clients recognise them — and
// Is* helpers that work on wrapped errors, for server and client alike.
//
// Upstream:
//   - k8s.io/apimachinery/pkg/api/errors: errors.go
//
// Differences from upstream:
//   - NewInvalid takes ready StatusCauses rather than a field.ErrorList, so
//     this package needs no validation package.
//   - NewInvalid lists at most MaxInvalidCauses causes and
//     MaxInvalidCauseBytes of their messages, and says how many it left
//     out; upstream lists every error, each value echoed in full.
package errors
