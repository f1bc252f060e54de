// Package apiextensions is the internal (hub) version of the
// apiextensions.k8s.io API group: CustomResourceDefinition and the types it
// is made of. External versions (v1, v1beta1) convert to and from it, and
// validation runs on it; it is never written to the wire or to storage.
//
// Vocabulary: a CustomResourceDefinition (CRD) teaches the server a new
// resource; its spec names a group, the names (plural, kind, …), a scope
// (Cluster or Namespaced) and versions, each with a schema
// (JSONSchemaProps), subresources (status, scale), printer columns and
// selectable fields. Its status carries conditions (NamesAccepted,
// Established, Terminating …), the accepted names and the stored versions.
// The hub keeps v1beta1's top-level Version, Validation, Subresources,
// AdditionalPrinterColumns and SelectableFields beside Versions: a field
// shared by every version lives at the top level, never in both places.
//
// Upstream:
//   - k8s.io/apiextensions-apiserver/pkg/apis/apiextensions: types.go,
//     types_jsonschema.go, register.go, helpers.go
//
// Differences from upstream:
//   - DeepCopy is reflective (internal/deepcopy), not generated.
//   - JSON values are decoded by JSONFromBytes (whole numbers as int64), as
//     upstream's util/json does, rather than through the json-iterator.
//   - no CustomResourceDefinition for the k8s.io API-approval annotation
//     logic, no ConversionReview types (webhook conversion is not served).
package apiextensions
