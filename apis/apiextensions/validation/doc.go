// Package validation checks CustomResourceDefinitions (internal types) and
// returns every problem as a field.Error tied to its path, which the server
// answers with a 422 Invalid Status.
//
// Vocabulary: a CRD is valid when its name is <plural>.<group>; its names
// are DNS-1035 labels (kind and listKind once lower-cased); its group is a
// DNS subdomain with a dot; exactly one version is the storage version and
// version names are unique; every stored version is still listed; a
// setting lives at the top level or per version, never both; and each
// schema is structural — every field has a type, the root is an object,
// value validations (allOf/anyOf/oneOf/not) only constrain values.
//
// Upstream:
//   - k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/validation/validation.go
//   - k8s.io/apiextensions-apiserver/pkg/apiserver/schema/validation.go (structural invariants)
//
// Differences from upstream:
//   - no CEL: x-kubernetes-validations are kept as data, neither compiled
//     nor cost-checked; no ratcheting of schemas on update.
//   - defaults in schemas are not checked against the schema, and
//     structural completeness (a property named in a value validation must
//     also be in the structural part) is not checked.
//   - webhook URL/service details and conversionReviewVersions contents are
//     not checked; a Webhook strategy only needs a client config.
//   - the root-schema field restriction with the status subresource is
//     reduced to "type must be object".
//   - selectable field paths are simple dotted paths through properties.
//   - error paths follow the hub: a schema shared by every version is
//     reported under spec.validation, as upstream does.
package validation
