// Package handler is the HTTP face of crdlab: the links of seed 002's
// server chain. A link serves discovery, OpenAPI, its compiled-in API
// groups (the built-in kinds, apiextensions.k8s.io's
// customresourcedefinitions) and, in the apiextensions link, the custom
// resources of every CRD, all through the generic verb handlers of
// subpackage endpoints; what it does not serve goes to its delegate.
//
// Vocabulary:
//   - GenericAPIServer (handler.go): one link
//     (Config.Complete().New(name, delegate)); a filter chain (filters)
//     before a router that routes discovery and OpenAPI by path and every
//     other resource path by its RequestInfo — the one parse of the URL,
//     which the authorizer read too (docs/access.md). Its NotFoundHandler
//     is the delegate: the next link's UnprotectedHandler, or
//     NotFoundHandler at the end (notfound.go).
//   - APIGroupInfo, InstallAPIGroup, InstallLegacyAPIGroup (apigroup.go):
//     a compiled-in group's REST storages by version and resource, turned
//     into endpoints.RequestScopes (decode in the URL's version, convert
//     to the hub through the scheme; encode back), discovery, OpenAPI.
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
//   - OpenAPI (openapi.go, openapiv2.go): /openapi/v3, one document per
//     group version (machinery/openapi, from the Go types or from the CRDs
//     the OpenAPI controller hands to UpdateGroupVersion), and /openapi/v2
//     derived from them.
//
// Subpackages: endpoints (RequestScope and the verb handlers: get, list,
// watch, create, update, patch and apply, delete; the admission calls),
// request (RequestInfo), filters, negotiation (Accept), responsewriters
// (objects, and errors as metav1.Status), discovery, protobuf (request
// bodies), admission (NamespaceLifecycle).
//
// Upstream:
//   - k8s.io/apiserver/pkg/server: config.go (Config, completedConfig.New,
//     DefaultBuildHandlerChain), genericapiserver.go (GenericAPIServer,
//     APIGroupInfo, InstallAPIGroup, InstallLegacyAPIGroup,
//     DelegationTarget), handler.go (the director), util/notfoundhandler;
//     endpoints/installer.go (routes and verbs per resource)
//   - k8s.io/apiextensions-apiserver/pkg/apiserver: customresource_handler.go
//     (crdHandler, crdInfo, ServeHTTP, serveResource/Status/Scale,
//     forbidCreateAdmission)
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
//   - Protobuf is read, never written; not supported: CBOR, gzip (except
//     the /openapi/v3 group-version documents, kept compressed: upstream
//     compresses every response a client takes gzip for).
//   - One chain of links in one process, without the aggregator; the
//     links share one discovery and one OpenAPI service.
//   - A CRD's server-side apply type converter is built on the first
//     write of one of its objects, not with the serving info; /status
//     writes leave spec (their reset field) out of the managedFields
//     bookkeeping (docs/crd-memory.md).
package handler
