// Package v1 is apiextensions.k8s.io/v1, the served version of
// CustomResourceDefinition: every setting is per version
// (spec.versions[*].schema, subresources, additionalPrinterColumns,
// selectableFields) and JSON field names are exactly upstream's, so real
// kubectl and client-go read and write these objects.
//
// Vocabulary: see package apiextensions. Conversion to the hub folds a
// per-version field to the hub's top level when every version has the same
// value; conversion from the hub fans top-level fields out to every version.
// Defaulting (SetDefaults_CustomResourceDefinition) runs on decode.
// JSON holds raw bytes (default, example, enum values).
//
// Layout: types.go and types_jsonschema.go (the types), conversion.go and
// defaults.go (the rules worth reading), register.go, encode.go
// (JSONSchemaProps written in one pass, the bytes encoding/json writes),
// decode.go (SplitJSON: a CRD's schemas read in one pass, the object
// encoding/json makes, or left to it);
// zz_*.go hold what
// upstream generates, written by hand in its shape — field-for-field
// conversions, defaulting and deep-copy plumbing, and the SwaggerDoc
// descriptions the OpenAPI document and `kubectl explain crd` show
// (checked against the types by TestSwaggerDoc). Skip them.
//
// Upstream:
//   - k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1: types.go,
//     types_jsonschema.go, marshal.go, conversion.go, defaults.go, register.go,
//     zz_generated.conversion.go, zz_generated.defaults.go,
//     zz_generated.deepcopy.go; types_swagger_doc_generated.go
//
// Differences from upstream:
//   - conversion functions take no conversion.Scope; each is registered
//     once for the top-level types (CRD and list).
//   - fanned-out per-version values are copies, not one shared pointer.
//   - SetDefaults_JSONSchemaProps (list-map key defaulting) is not here.
//   - the nested JSONSchemaProps decoders are not strict: an unknown field
//     inside items or additionalProperties is dropped, not reported.
//   - no protobuf.
package v1
