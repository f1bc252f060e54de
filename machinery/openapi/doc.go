// Package openapi builds the OpenAPI v3 documents kube-apiserver serves for
// custom resources under /openapi/v3: the root document listing one URL per
// group-version, and for each group-version a document with the REST paths
// of its resources and the schemas of their kinds.
//
// kubectl needs both. `kubectl create/apply` (with the default
// --validate=strict) looks for the fieldValidation query parameter on the
// PATCH operation tagged with the resource's x-kubernetes-group-version-kind,
// and only then lets the server validate fields. `kubectl explain` finds the
// schema whose x-kubernetes-group-version-kind lists the kind, in
// components.schemas, and follows its $refs (ObjectMeta and friends live
// in the same document).
//
// Vocabulary: a Resource describes one served version of a CRD (names,
// scope, schema, subresources), with no dependency on the apiextensions
// types. A schema name is the reversed group, the version and the kind:
// "com.example.stable.v1.CronTab". A document's Hash goes in the root's
// serverRelativeURL ("?hash=…"), so clients cache a document until it
// changes.
//
// The schema of a built-in kind (apiextensions.k8s.io's
// CustomResourceDefinition) is not hand-written: GoTypes.SchemaOf reads it
// from the Go type by reflection — what encoding/json writes, described by
// the types' SwaggerDoc methods — and returns the schemas of the named
// types it uses as Definitions, which BuildGroupVersion puts next to the
// kind's. The apiVersion, kind and metadata properties are added in one
// place, BuildGroupVersion, for CRDs and built-in kinds alike. Models
// returns the same schemas as a set of models for server-side apply
// (package managedfields types objects with them).
//
// Upstream:
//   - k8s.io/apiextensions-apiserver/pkg/controller/openapi/builder/builder.go
//     (BuildOpenAPIV3: paths via the endpoints installer, the CR schema
//     with apiVersion/kind/metadata added, the List schema)
//   - k8s.io/apiserver/pkg/endpoints/installer.go (which operations and
//     query parameters each path has, operation ids, x-kubernetes-action)
//   - k8s.io/kube-openapi/pkg/handler3/handler.go (the root document,
//     computeETag: upper-case hex SHA-512)
//   - k8s.io/kubectl/pkg/util/openapi and cli-runtime's
//     query_param_verifier_v3.go (what kubectl reads)
//   - k8s.io/kube-openapi/cmd/openapi-gen and the swagger-doc generator
//     (types_swagger_doc_generated.go), which GoTypes does at run time
//
// Differences from upstream:
//   - The meta schemas (ObjectMeta, ListMeta, ShardInfo, Status,
//     DeleteOptions, Patch, Scale…) are hand-written here with their main
//     fields and short descriptions, not generated from Go types; their
//     types, defaults and list types are upstream's, but DeleteOptions
//     lists only its v1 group-version-kind.
//   - No deprecated /watch/ paths, no protobuf or CBOR content types.
//   - The CRD's schema is copied as written (upstream rebuilds it through
//     its structural form, dropping unknown keywords).
//   - Built-in kinds' schemas come from reflection at run time, not from
//     code openapi-gen generates at build time. A field is required iff it
//     has no omitempty (or omitzero) and is not a pointer (upstream reads
//     +optional markers, so it calls a CRD's status.acceptedNames and
//     status.storedVersions optional). Built-in types' list and map
//     markers are declared beside them (GoTypes.Markers), not read from
//     comments.
package openapi
