// Package structural holds a CRD's openAPIV3Schema in the shape
// kube-apiserver works with — a structural schema — and what the server
// does with it: check that a schema is structural, and prune, default and
// validate custom resources.
//
// Vocabulary:
//   - A Structural is one node of the schema: its type, the value
//     validations (enum, minimum, pattern…), properties, items or
//     additionalProperties below, and the x-kubernetes-* extensions.
//   - A schema is structural when every node says its type (or
//     x-kubernetes-int-or-string / -preserve-unknown-fields stands in), and
//     the junctors (allOf, anyOf, oneOf, not) only add value validations to
//     fields the structural part declares.
//   - Pruning drops the fields a schema does not declare; defaulting fills
//     in missing ones; validation reports every violation as a field.Error
//     with upstream's path and wording.
//
// Layout (file: what, mirroring), in the order a request meets it:
//
//	structural.go       Structural, FromJSON         schema/structural.go, convert.go
//	props.go, json.go   FromProps; FromJSON's reader schema/convert.go
//	validate_schema.go  ValidateStructural           schema/validation.go, complete.go
//	prune.go            Prune, PruneObjectMeta       schema/pruning/algorithm.go,
//	                                                 schema/objectmeta/coerce.go
//	default.go          PruneNonNullableNulls…,      schema/defaulting/prunenulls.go,
//	                    Default, ValidateDefaults    algorithm.go, validation.go
//	validate.go         Validate, ValidateValue      apiserver/validation/validation.go
//	embedded.go         embedded apiVersion, kind    schema/objectmeta/validation.go
//	listtype.go         ValidateListSetsAndMaps      schema/listtype/validation.go
//	formats.go          string formats               kube-openapi strfmt
//
// Upstream: k8s.io/apiextensions-apiserver/pkg/apiserver/schema and
// pkg/apiserver/validation (files above); k8s.io/kube-openapi/pkg/validation
// (validate/*.go, errors/schema.go: the message texts).
//
// Differences from upstream:
//   - One flat Structural type instead of Generic / Extensions /
//     ValueValidation / NestedValueValidation; junctor schemas are
//     Structurals too, and ValidateStructural forbids in them what
//     NestedValueValidation cannot hold. FromJSON reads a schema's JSON
//     (the form the served CRD's schemas are kept in); FromProps reads the
//     apiextensions Go type, as upstream, for the CRD validation.
//   - x-kubernetes-validations (CEL) are read here, evaluated elsewhere.
//   - Formats: date-time, date, byte, uuid(3/4/5), ipv4, ipv6, cidr, mac,
//     email, hostname, uri, duration, hexcolor, rgbcolor and bsonobjectid
//     are checked (hostname approximately); other formats pass. As
//     upstream, int32/int64/float/double never range-check.
//   - When anyOf or oneOf fails, the errors of the alternative that ran
//     the most checks are reported, as kube-openapi's MatchCount picks
//     them; the count (matchCount) follows its validators, not their code.
//   - Metadata: only unknown top-level fields are dropped and reported (a
//     round trip through ObjectMeta also checks nested ones, in
//     ownerReferences say); a resource's own metadata keeps its empty
//     fields, which upstream drops.
//   - Error order is deterministic (keys in order); upstream's follows map
//     iteration. ValidateDefaults skips CEL rules and the ObjectMeta
//     coercion of defaults.
package structural
