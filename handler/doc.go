// Package handler is the HTTP face of crdlab: the links of seed 002's
// server chain. A link serves discovery, OpenAPI, its compiled-in API
// groups (the built-in kinds, apiextensions.k8s.io's
// customresourcedefinitions) and, in the apiextensions link, the custom
// resources of every CRD, all through the generic verb handlers of
// subpackage endpoints; what it does not serve goes to its delegate.
//
// Vocabulary:
//   - GenericAPIServer (handler.go): one link
//     (Config.Complete().New(name, delegate)); filters before a router
//     that routes discovery and OpenAPI by path and every other resource
//     path by its RequestInfo, the one parse of the URL (docs/access.md).
//     Its NotFoundHandler is the delegate: the next link, or
//     NotFoundHandler at the end (notfound.go).
//   - APIGroupInfo, InstallAPIGroup, InstallLegacyAPIGroup (apigroup.go):
//     a compiled-in group's REST storages by version and resource, turned
//     into endpoints.RequestScopes, discovery and OpenAPI.
//   - CRDHandler (crdhandler.go): ServeHTTP serves the CRD
//     <resource>.<group> that RequestInfo names iff NamesAccepted or
//     Established; OnAdd/OnUpdate/OnDelete keep the latest CRDs, drop a
//     changed CRD's crdInfo and hand CRDs to the Establisher (QueueCRD).
//     A terminating CRD's creates meet forbidCreateAdmission (403).
//   - crdInfo (crdinfo.go): what serving one CRD needs: per served
//     version, the RequestScope of the resource, /status and /scale, with
//     a crCodec (type check, prune, default, validate, convert to the
//     storage version; encode back) and a field manager (fieldmanager.go).
//   - OpenAPI (openapi.go, openapiv2.go): /openapi/v3, one document per
//     group version (from the Go types, or from the CRDs the OpenAPI
//     controller hands to UpdateGroupVersion), and /openapi/v2 from them.
//
// Subpackages: endpoints (RequestScope, the verb handlers, admission
// calls), request (RequestInfo), filters, negotiation (Accept),
// responsewriters (objects; errors as metav1.Status), discovery, protobuf
// (request bodies), admission (NamespaceLifecycle).
//
// Upstream:
//   - k8s.io/apiserver/pkg/server: config.go (Config, completedConfig.New,
//     DefaultBuildHandlerChain), genericapiserver.go (GenericAPIServer,
//     APIGroupInfo, InstallAPIGroup, InstallLegacyAPIGroup,
//     DelegationTarget), handler.go (the director), util/notfoundhandler;
//     endpoints/installer.go (routes and verbs per resource)
//   - k8s.io/apiextensions-apiserver/pkg/apiserver/customresource_handler.go
//     (crdHandler, crdInfo, serveResource/Status/Scale, forbidCreateAdmission)
//   - k8s.io/kube-openapi/pkg/handler3 (OpenAPIService, UpdateGroupVersion)
//
// Differences from upstream (in full in docs/handler.md, "Notes"):
//   - One storage per CRD, in its storage version; scopes convert bodies
//     to it and answers back (upstream: one per served version). Only the
//     None conversion strategy: not supported: webhooks.
//   - Pruning and defaulting run in the scope's decode (Config.SchemaFor);
//     OpenAPI and CEL validation in the storage's strategy, as upstream.
//     The schemas are compiled on the first object read or written
//     (crdschemas.go; upstream: with the serving info).
//   - Protobuf is read, never written; not supported: CBOR. Answers over
//     128 KiB go gzip-compressed to clients that accept gzip, as upstream
//     sends them (filters.WithCompression); the /apis and OpenAPI v3
//     documents are kept compressed between changes, and sent compressed
//     whatever their size.
//   - One chain of links in one process, without the aggregator; the
//     links share one discovery and one OpenAPI service.
//   - Server-side apply: a CRD whose schemas are not typed is merged with
//     deduced types (upstream: an error); the type converter is built on
//     the first write (docs/crd-memory.md).
package handler
