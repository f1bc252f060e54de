// Package request resolves what an HTTP request asks of the API — its
// RequestInfo — and carries it in the request's context, so that every
// later step (filters, handlers, logs) reads the same answer.
//
// Vocabulary: a RequestInfo says whether a request is a resource request
// (/apis/<group>/<version>/...) and, if so, its Verb (get, list, watch,
// create, update, patch, delete, deletecollection), APIGroup, APIVersion,
// Namespace, Resource, Subresource and Name. Parts are the path segments
// after the namespace, as upstream keeps them. A RequestInfoFactory knows
// which path prefixes hold resources ("apis", and the group-less "api").
//
// Upstream:
//   - k8s.io/apiserver/pkg/endpoints/request: requestinfo.go
//     (RequestInfoFactory.NewRequestInfo), context.go (WithRequestInfo,
//     RequestInfoFrom)
//
// Differences from upstream: no impersonation, user or audit values in the
// context; the legacy /api/v1/watch/... prefix is resolved but nothing
// serves it (crdlab serves no core group).
package request
