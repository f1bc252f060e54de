// Package responsewriters writes API answers: objects in the negotiated
// representation and errors as metav1.Status.
//
// Vocabulary: a Status is the body of every error answer. An API error
// (apis/errors.StatusError, any APIStatus) carries its own; ErrorToStatus
// passes it through, fills the few errors of the request itself that are
// not API errors (a body over the limit, a passed deadline), and answers
// anything else as a 500 InternalError. Errors of the storage never get
// here: the registry turns them into API errors (registry/errors.go), as
// upstream's REST stores do with k8s.io/apiserver/pkg/storage/errors.
//
// Upstream:
//   - k8s.io/apiserver/pkg/endpoints/handlers/responsewriters: status.go
//     (ErrorToAPIStatus), writers.go (WriteObjectNegotiated,
//     ErrorNegotiated, deferredResponseWriter), compression.go
//     (ContentEncodingSupported, gzipContentEncodingLevel)
//
// Gzip (gzip.go): the rules of compressed answers (AcceptsGzip,
// GzipThreshold, level 1), used by filters.WithCompression for every
// answer and by documents kept between requests: a caller compresses one
// once (Gzip) and sends it to each client that accepts gzip
// (WriteGzipped) while it lasts.
//
// Differences from upstream: errors are always written as JSON (upstream
// writes them in the negotiated format); no protobuf. Compression is a
// filter around the handler (filters.WithCompression), not part of the
// writer as upstream's deferredResponseWriter. Upstream's
// ErrorToAPIStatus also answers a storage conflict that escaped its
// registry as a 409; crdlab's registry lets none escape.
package responsewriters
