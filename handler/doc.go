// Package handler is the HTTP face of crdlab: it turns requests from real
// kubectl and client-go into calls on the REST storages of package
// registry, and their results (or errors) into the JSON those clients
// expect. It serves discovery, the apiextensions.k8s.io
// customresourcedefinitions API, the custom resources of every CRD, and
// OpenAPI v3.
//
// Vocabulary:
//   - Handler: the whole server side (New(Config)); a filter chain
//     (subpackage filters: panic recovery, request log, RequestInfo, body
//     limit, timeout) in front of a gorilla/mux router.
//   - RequestInfo (subpackage request): what a request asks — verb, group,
//     version, namespace, resource, subresource, name.
//   - requestScope: what the generic verb handlers (rest.go, patch.go,
//     watch.go) need to serve one resource in one version — the REST
//     storage, a decode (body → stored object: type check, prune, default,
//     validate, convert to the storage version) and an encode (stored
//     object → the URL's version), a table convertor.
//   - CRDHandler: serves /apis/<group>/<version>/[namespaces/<ns>/]<plural>…;
//     its hooks OnAdd/OnUpdate/OnDelete keep the latest CRDs (a lister) and
//     drop a CRD's crdInfo — the scopes of its served versions — when the
//     CRD changes. A CRD is served iff NamesAccepted or Established is
//     True; anything unknown goes to the delegate (404). The hooks decide
//     serving only: discovery and OpenAPI have their own controllers.
//   - Discovery (subpackage discovery): the Manager behind /apis,
//     /apis/<g>, /apis/<g>/<v> and aggregated discovery
//     (apidiscovery.k8s.io/v2). New sets apiextensions.k8s.io's; the
//     DiscoveryController (controller/discovery) is the only writer of CRD
//     groups', as upstream.
//   - OpenAPI (openapi.go): /openapi/v3 and one document per group
//     version, written by package openapi. apiextensions.k8s.io's
//     CustomResourceDefinition schema is read from the Go types
//     (openapi.GoTypes, with the SwaggerDoc descriptions of
//     apis/apiextensions/v1); a CRD group version's document describes
//     the CRDs the OpenAPI controller (controller/openapi) last handed to
//     UpdateGroupVersion, and is built on its next request.
//   - Field manager (fieldmanager.go): a scope's scopeFieldManager keeps
//     metadata.managedFields through package machinery/managedfields —
//     create, update and JSON or merge patch record an Update entry of
//     their manager (?fieldManager=, or the User-Agent's product); an
//     application/apply-patch+yaml merges through it, with conflicts,
//     force and creation (applyPatch in patch.go). Custom resources get
//     one per version and subresource from their CRD's schemas; a
//     built-in kind gets one from newTypedFieldManager.
//   - Negotiation (subpackage negotiation): Accept → JSON, YAML, a Table
//     (meta.k8s.io v1/v1beta1), PartialObjectMetadata(List) or the
//     aggregated discovery document; 406 otherwise.
//   - Protobuf (subpackage protobuf): request bodies in Kubernetes'
//     protobuf wire format, turned into JSON before decoding.
//   - Errors (subpackage responsewriters): every error answer is a
//     metav1.Status. The registry answers API errors only (it turns storage
//     errors into them); ErrorToStatus writes them, and the few errors of
//     the request itself (body too large, deadline).
//
// Upstream:
//   - k8s.io/apiserver/pkg/endpoints/handlers: get.go, create.go,
//     update.go, patch.go (applyPatcher), delete.go, watch.go, response.go
//     (Table, PartialObjectMetadata), rest.go (checkName, RequestScope),
//     fieldmanager/ (managed fields around admission)
//   - k8s.io/apiserver/pkg/endpoints/handlers/responsewriters,
//     handlers/negotiation, endpoints/request, endpoints/filters,
//     server/filters, endpoints/discovery (+ aggregated)
//   - k8s.io/apiserver/pkg/registry/rest: table.go (default Table),
//     meta.go (EnsureObjectNamespaceMatchesRequestNamespace)
//   - k8s.io/apiextensions-apiserver/pkg/apiserver: customresource_handler.go
//     (crdHandler, crdInfo, serveResource/Status/Scale),
//     customresource_discovery.go, customresource_discovery_controller.go
//   - k8s.io/apiextensions-apiserver/pkg/registry/customresource/tableconvertor
//   - k8s.io/kube-openapi/pkg/handler3 (/openapi/v3: OpenAPIService,
//     UpdateGroupVersion, DeleteGroupVersion)
//
// Differences from upstream:
//   - strategic merge patch is a 415 for every resource (upstream too for
//     custom resources, but applies it to built-in types); so is an apply
//     in CBOR (upstream: behind a feature gate, off by default).
//   - A CRD whose schemas do not convert to a typed schema is merged with
//     deduced types (upstream answers its requests with an error).
//   - Protobuf is read, never written: request bodies of CRDs and
//     DeleteOptions in application/vnd.kubernetes.protobuf (what client-go's
//     typed apiextensions clientset sends; subpackage protobuf) are turned
//     into JSON; answers are JSON or YAML, and an Accept of only protobuf
//     is a 406. not supported: CBOR (upstream serves it).
//   - not supported: /openapi/v2 (upstream serves it; client-go asks it only
//     for protobuf); /api answers 404 (crdlab has no core group).
//   - not supported: conversion webhooks (strategy Webhook); only None,
//     which rewrites apiVersion, as upstream's nopConverter.
//   - One storage per CRD, in its storage version; the handler converts
//     bodies to it and answers back to the URL's version (upstream builds
//     one storage per served version whose codec converts).
//   - Schema validation, defaulting and pruning run in the handler's decode
//     (through Config.SchemaFor) rather than in the registry strategy; on a
//     PUT of the main resource the body's status is validated too.
//   - OpenAPI v3 documents are served for CRD group versions and
//     apiextensions.k8s.io only (upstream: every built-in group too). The
//     CustomResourceDefinition kind's schema is named
//     io.k8s.apiextensions.v1.CustomResourceDefinition, as package openapi
//     names kinds (upstream: io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.…;
//     the types it refers to have upstream's names); apiextensions.k8s.io/v1beta1's
//     has the fields but no descriptions. See package openapi for the rest.
//   - Watches of a Table send column definitions with every event; upstream
//     sends them with the first only.
//   - Errors are always JSON; no gzip; no authentication or authorization.
package handler
