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
//   - Serve (rest.go): the dispatcher — RequestInfo's verb, namespace and
//     name to one handler. rest.go has get, list, create, update, delete
//     and deletecollection; decodeWrite is the step create and update
//     share (options, body, Decode, field validation, the URL's namespace
//     and name). patch.go has JSON, merge and strategic merge patches
//     (machinery/strategicpatch) and server-side apply;
//     watch.go watches, encoded once for every watcher (WatchLines,
//     watchcache.go); table.go the Table and PartialObjectMetadata answers.
//     A list in plain JSON streams, a chunk at a time (streamList).
//   - FieldManager (fieldmanager.go): server-side apply's bookkeeping
//     (machinery/managedfields) on a scope: Update entries for create,
//     update and patch; apply merges.
//   - Field validation: Strict (400), Warn (a Warning header per field)
//     or Ignore, for the unknown and repeated fields scheme.StrictErrors
//     finds.
//
// Errors are API errors (apis/errors) written by responsewriters.WriteError;
// the registry has turned storage's into them.
//
// Upstream:
//   - k8s.io/apiserver/pkg/endpoints/handlers: rest.go (RequestScope,
//     checkName), get.go (GetResource, ListResource), create.go,
//     update.go, patch.go (patcher, smpPatcher, applyPatcher), delete.go, watch.go
//     (WatchServer), response.go (transformObject, asTable),
//     fieldmanager usage; installer.go (the verbs a storage serves)
//   - k8s.io/apiserver/pkg/registry/rest: create.go, update.go
//     (AdmissionToValidateObjectFunc, AdmissionToValidateObjectUpdateFunc)
//   - k8s.io/apiserver/pkg/storage/cacher/caching_object.go (WatchLines)
//   - k8s.io/apimachinery/pkg/runtime/serializer/json/collections.go
//     (streamEncodeCollections: streamList)
//   - k8s.io/apiserver/pkg/registry/rest/meta.go
//     (EnsureObjectNamespaceMatchesRequestNamespace, through registry)
//
// Differences from upstream:
//   - Functions of a scope and a ResponseWriter, not http.HandlerFuncs
//     built per route; the name and namespace come from RequestInfo.
//   - A strategic merge patch applies to scopes with StrategicMerge (the
//     built-in kinds and CRDs, by their Go types' patch tags) and is a 415
//     for custom resources, as upstream; one that cannot apply (an element
//     without its merge key, an unknown $patch) is a 422 where upstream
//     answers 500. An apply in CBOR is a 415 (upstream: behind a feature
//     gate, off by default); a PUT or PATCH of a collection, or a POST
//     naming an object, is a 405.
//   - Watches of a Table send column definitions with every event;
//     upstream sends them with the first only. Each write of a watch is
//     bounded (WatchWriteTimeout), which upstream does not do.
//   - Errors are always JSON.
//   - Only plain JSON lists stream; YAML, pretty JSON, Tables and
//     metadata-only lists are built whole (upstream streams JSON and
//     protobuf lists, which crdlab never writes).
package endpoints
