// Package responsewriters writes API answers: objects in the negotiated
// representation and errors as metav1.Status. It holds crdlab's one table
// from error to HTTP code and Status reason (ErrorToStatus), so every part
// of the server answers the same error the same way.
//
// Vocabulary: a Status is the body of every error answer; an APIStatus
// error (apis/errors.StatusError) carries its own; any other error is
// classified by ErrorToStatus (storage errors, timeouts, oversized bodies,
// strict decoding errors) and, failing all, answered as a 500 InternalError.
//
// Upstream:
//   - k8s.io/apiserver/pkg/endpoints/handlers/responsewriters: status.go
//     (ErrorToAPIStatus), writers.go (WriteObjectNegotiated,
//     ErrorNegotiated)
//   - k8s.io/apiserver/pkg/storage/errors: InterpretGetError and friends
//     (the storage rows of the table)
//
// Differences from upstream: errors are always written as JSON (upstream
// writes them in the negotiated format); no gzip; no protobuf.
package responsewriters
