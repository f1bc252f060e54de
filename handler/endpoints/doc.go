// Package endpoints holds the generic verb handlers: given a RequestScope —
// one resource or subresource in one version — and a request's
// RequestInfo, they read the request, call the scope's REST storage
// (package registry) and write the answer, whatever the resource: a
// custom resource, a CRD, a built-in kind.
//
// Vocabulary and layout:
//   - RequestScope (scope.go): the REST storage, Decode (body → the object
//     storage wants, with what strict decoding found) and Encode (stored
//     object → the URL's version), a registry.TableConvertor, Admit (the
//     admission chain), FieldLabel (field selector keys of the version), a
//     FieldManager, and the server's settings.
//   - Admission (admit.go): a create is admitted once its body is
//     decoded; updates and deletes hand the registry validation functions
//     it calls with the objects about to be written.
//   - Serve (rest.go): RequestInfo's verb, namespace and name to one
//     handler. rest.go: get, list (a plain JSON list streams a chunk at a
//     time: streamList), create, update, delete, deletecollection, and
//     decodeWrite, the step create and update share. patch.go: JSON,
//     merge and strategic merge patches, server-side apply. watch.go:
//     watches, encoded once for every watcher (WatchLines, watchcache.go),
//     as objects, Tables or PartialObjectMetadata (the metadata client's).
//     table.go: Table and PartialObjectMetadata answers.
//   - FieldManager (fieldmanager.go): server-side apply's bookkeeping
//     (machinery/managedfields) on a scope.
//   - Field validation: Strict (400), Warn (a Warning header per field)
//     or Ignore, for what scheme.StrictErrors finds.
//
// Errors are API errors (apis/errors) written by responsewriters.WriteError;
// the registry has turned storage's into them.
//
// Upstream:
//   - k8s.io/apiserver/pkg/endpoints/handlers: rest.go (RequestScope),
//     get.go, create.go, update.go, patch.go (patcher, applyPatcher),
//     delete.go, watch.go (WatchServer), response.go (asTable);
//     installer.go (the verbs a storage serves)
//   - k8s.io/apiserver/pkg/registry/rest: create.go, update.go
//     (AdmissionToValidateObjectFunc, AdmissionToValidateObjectUpdateFunc)
//   - k8s.io/apiserver/pkg/storage/cacher/caching_object.go (WatchLines)
//   - k8s.io/apimachinery/pkg/runtime/serializer/json/collections.go
//     (streamEncodeCollections: streamList)
//
// Differences from upstream (in full in docs/handler.md, "The verb
// handlers"):
//   - Functions of a scope and a ResponseWriter, not http.HandlerFuncs
//     built per route; the name and namespace come from RequestInfo.
//   - A strategic merge patch that cannot apply is a 422 (upstream: 500);
//     an apply in CBOR is a 415; a PUT or PATCH of a collection is a 405.
//   - Watches of a Table send column definitions with every event; each
//     write of a watch is bounded (WatchWriteTimeout).
//   - Errors are always JSON; only plain JSON lists stream.
package endpoints
