// Package filters holds the HTTP middleware every API request goes through
// before a handler sees it, innermost last:
//
//	WithPanicRecovery → WithRequestLog → WithRequestInfo → WithTrace → WithMaxRequestBody → WithTimeout → WithCompression → handler
//
// WithTrace is there only with a tracer (crdlab serve --trace, package
// trace): it reports each request coming in and going out, and hands the
// tracer to the registry in the context.
//
// Vocabulary: a filter is a func(http.Handler) http.Handler; a long-running
// request (a watch) is one the timeout filter leaves alone, decided from the
// RequestInfo the request-info filter stored in the context.
//
// Upstream:
//   - k8s.io/apiserver/pkg/server/filters: wrap.go (WithPanicRecovery),
//     timeout.go (WithTimeoutForNonLongRunningRequests), maxinflight.go (not
//     mirrored), longrunning.go
//   - k8s.io/apiserver/pkg/endpoints/filters: requestinfo.go
//     (WithRequestInfo), request_deadline.go (the per-request deadline)
//   - k8s.io/apiserver/pkg/server/httplog: httplog.go (the request log)
//   - k8s.io/apiserver/pkg/server/config.go: DefaultBuildHandlerChain (the
//     order)
//   - WithTrace: none; the nearest is WithTracing in
//     k8s.io/apiserver/pkg/endpoints/filters (OpenTelemetry spans)
//
// The timeout filter writes the answer through, as upstream's: a handler
// that has begun answering when its deadline passes gets AnswerGrace to
// finish, and else its answer is cut (the connection closed), never
// replaced by the 504 (upstream cuts it at once).
//
// The timeout filter runs each handler on a goroutine that outlives the
// request (workers.go: a few idle ones wait for the next), not on a new
// one per request as upstream does: an update's handler needs about
// 32 KiB of stack, and a new goroutine grew its stack to that by copying
// it up to four times, a tenth of an update's handler CPU.
//
// WithCompression (compression.go) sends answers over 128 KiB
// gzip-compressed to clients that accept gzip. Upstream compresses in the
// writer of each answer (responsewriters.deferredResponseWriter, which
// decides on the first write's size); here a filter holds an answer's
// writes until they pass the threshold, so a list streamed in chunks is
// compressed whole.
//
// Differences from upstream: no authentication, authorization, audit,
// impersonation, priority-and-fairness or max-in-flight filters; the body
// limit is a filter here (upstream checks it in each handler while reading
// the body).
package filters
