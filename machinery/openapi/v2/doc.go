// Package v2 writes the OpenAPI v2 (Swagger 2.0) document that
// kube-apiserver serves at /openapi/v2, from the OpenAPI v3 documents of
// every served group-version, in JSON and in the protobuf encoding that
// client-go asks for. Older clients read their schemas from it, and
// kubectl still does for one case: validating the items of a `kind: List`.
//
// Vocabulary and layout:
//   - FromV3 (convert.go) merges group-version v3 documents into one v2
//     document: components.schemas become definitions (refs rewritten),
//     paths keep their operations with v2's parameters, body parameter,
//     consumes and produces.
//   - Schema (convert.go) turns one v3 schema into v2 the way upstream
//     publishes CRD schemas to v2: no oneOf/anyOf/not, a nullable field
//     loses its type, a subtree that preserves unknown fields loses its
//     properties, a kind that preserves unknown fields at its root is just
//     an object; a Go type's allOf-wrapped $ref becomes a plain $ref.
//   - ToProto (proto.go) encodes a v2 JSON document as the protobuf
//     message openapi.v2.Document (gnostic's OpenAPIv2.proto), written by
//     hand: the main module imports neither gnostic nor protobuf.
//     Extensions, defaults and enums travel as YAML strings (here: JSON,
//     which is YAML), as gnostic's Any does.
//
// Upstream:
//   - k8s.io/apiextensions-apiserver/pkg/controller/openapi/v2/conversion.go
//     (ToStructuralOpenAPIV2) and builder/builder.go (buildKubeNative with
//     opts.V2)
//   - k8s.io/kube-openapi/pkg/handler/handler.go (/openapi/v2, JSON and
//     protobuf: MediaTypeProtobuf, MediaTypeProtobufDeprecated)
//   - github.com/google/gnostic-models/openapiv2/OpenAPIv2.proto
//
// Differences from upstream: upstream builds v2 from its Go definitions
// directly; here it is derived from the v3 documents, so the two cannot
// disagree. Only the parts of Swagger 2.0 kube-apiserver writes are
// encoded (no security definitions, no shared parameters or responses).
package v2
