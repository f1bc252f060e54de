// Package openapi holds the OpenAPI controller: it decides which CRDs the
// /openapi/v3 documents describe, and hands them to the server that
// renders the documents, whenever a CRD changes.
//
// Vocabulary: the key is a group version (/openapi/v3/apis/<g>/<v> is one
// document). The sync of a group version collects the Established CRDs of
// the group that serve the version and calls Service.UpdateGroupVersion
// with them (an empty list removes the document). The Service — the
// handler's OpenAPI server — renders paths and schemas from exactly those
// CRDs, lazily, on the next request.
//
// Why push CRDs rather than just say "rebuild": the handler learns of CRD
// changes through its own informer handler, on another goroutine. A bare
// "rebuild gv" from here could arrive first, and a request in between
// would cache a document built from the handler's older view. Handing the
// CRDs over makes the controller's (informer-cache) view the one the
// document is built from, as upstream's controller hands over finished
// specs.
//
// Tracing: with controller.Options.Tracer set, the controller's queue
// ("crd_openapi_v3_controller", keyed by group version) emits workqueue
// events and each sync a "sync" event (actor "openapi") and a "publish"
// event: "published /openapi/v3/apis/stable.example.com/v1:
// crontabs.stable.example.com" or "removed /openapi/v3/apis/…".
//
// Upstream:
//   - k8s.io/apiextensions-apiserver/pkg/controller/openapiv3/controller.go
//     (Controller, sync, updateGroupVersion, the queue of CRD names)
//   - k8s.io/kube-openapi/pkg/handler3 (OpenAPIService.UpdateGroupVersion,
//     DeleteGroupVersion)
//
// Differences from upstream:
//   - Keyed by group version, not by CRD name, and no per-CRD spec cache:
//     the renderer builds a group version's document from its CRDs.
//   - The controller renders nothing itself (upstream builds each CRD's
//     spec with controller/openapi/builder and merges them).
//   - No OpenAPI v2 controller: crdlab serves no /openapi/v2 (client-go
//     asks it only for protobuf).
package openapi
