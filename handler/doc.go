// Package handler is the HTTP face of crdlab: what upstream's
// apiextensions-apiserver serves. It routes a request to discovery,
// OpenAPI, the customresourcedefinitions API or the crdHandler, which
// serves the custom resources of every CRD through the generic verb
// handlers of subpackage endpoints.
//
// Vocabulary:
//   - Handler (handler.go): the whole (New(Config)); a filter chain
//     (filters) before a router that routes discovery and OpenAPI by path,
//     and every other /apis/ path by its RequestInfo — the one parse of
//     the URL, which the authorizer read too (docs/access.md).
//   - CRDHandler (crdhandler.go): ServeHTTP looks up the CRD
//     <resource>.<group> that RequestInfo names and serves it iff
//     NamesAccepted or Established; its hooks OnAdd/OnUpdate/OnDelete keep
//     the latest CRDs (a lister), drop a CRD's crdInfo when it changes, and
//     hand CRDs to the Establisher (QueueCRD). A terminating CRD's creates
//     meet forbidCreateAdmission (403).
//   - crdInfo (crdinfo.go): what serving one CRD needs — per served
//     version, the endpoints.RequestScope of the resource, /status and
//     /scale, with a crCodec (decode: type check, prune, default, validate,
//     convert to the storage version; encode back) and a field manager
//     (fieldmanager.go).
//   - The CRD API (crd.go): apiextensions.k8s.io's own scopes.
//   - OpenAPI (openapi.go): /openapi/v3, one document per group version,
//     written by machinery/openapi from the Go types or from the CRDs the
//     OpenAPI controller hands to UpdateGroupVersion.
//
// Subpackages: endpoints (RequestScope and the verb handlers: get, list,
// watch, create, update, patch and apply, delete), request (RequestInfo),
// filters, negotiation (Accept), responsewriters (objects, and errors as
// metav1.Status), discovery, protobuf (request bodies), admission.
//
// Upstream:
//   - k8s.io/apiextensions-apiserver/pkg/apiserver: customresource_handler.go
//     (crdHandler, crdInfo, ServeHTTP, serveResource/Status/Scale,
//     forbidCreateAdmission), apiserver.go (the CRD API's install)
//   - k8s.io/apiserver/pkg/server: config.go (DefaultBuildHandlerChain),
//     mux (NonGoRestfulMux: /apis/ to the crdHandler)
//   - k8s.io/kube-openapi/pkg/handler3 (/openapi/v3: OpenAPIService,
//     UpdateGroupVersion, DeleteGroupVersion)
//
// Differences from upstream (more in docs/handler.md):
//   - One storage per CRD, in its storage version; scopes convert bodies
//     to it and answers back (upstream: one storage per served version).
//     Only the None conversion strategy: not supported: webhooks.
//   - Pruning and defaulting run in the scope's decode (Config.SchemaFor);
//     schema validation (OpenAPI, then CEL rules) in the storage's strategy
//     (Config.CustomResourceStorage's validate), as upstream.
//   - A CRD whose schemas do not convert to a typed schema is merged by
//     server-side apply with deduced types (upstream answers its requests
//     with an error).
//   - Protobuf is read, never written; not supported: CBOR, gzip
//     (except the /openapi/v3 group-version documents, kept compressed:
//     upstream compresses every response a client takes gzip for),
//     /openapi/v2; /api is 404 (no core group). OpenAPI documents only
//     for CRD group versions and apiextensions.k8s.io.
//   - Discovery of /apis/<g>/<v> is the router's, not the crdHandler's.
package handler
