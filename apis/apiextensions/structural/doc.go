// Package structural holds a CRD's openAPIV3Schema in the shape
// kube-apiserver works with — a structural schema — and the four things the
// server does with it to a custom resource: validate it, default it, prune
// it, and (for the CRD itself) check that the schema is structural at all.
//
// Vocabulary:
//   - A Structural is one node of the schema: its type and the value
//     validations (enum, minimum, pattern…) that apply to a value there,
//     its properties, items or additionalProperties below, and the
//     x-kubernetes-* extensions. FromJSON reads one from the JSON of a
//     JSONSchemaProps, without the apiextensions Go types.
//   - A schema is structural when every node says its type (except where
//     x-kubernetes-int-or-string or x-kubernetes-preserve-unknown-fields
//     stand in for it) and the logical junctors (allOf, anyOf, oneOf, not)
//     only add value validations to fields the structural part already
//     declares. ValidateStructural reports what stops a schema from being
//     structural, plus the CRD API's own rules on schemas that this package
//     can check alone.
//   - Validate checks a custom resource against the schema, collecting every
//     violation as a FieldError with upstream's path and wording.
//   - Default fills in missing fields from `default`, Prune drops fields the
//     schema does not declare (unless x-kubernetes-preserve-unknown-fields),
//     returning their paths for fieldValidation=Strict/Warn.
//
// Upstream:
//   - k8s.io/apiextensions-apiserver/pkg/apiserver/schema: structural.go
//     (Structural), convert.go (NewStructural), validation.go
//     (ValidateStructural, validateStructuralCompleteness),
//     defaulting/algorithm.go (Default), defaulting/validation.go,
//     pruning/algorithm.go (PruneWithOptions), listtype/validation.go
//     (ValidateListSetsAndMaps), objectmeta/validation.go (embedded
//     resources)
//   - k8s.io/apiextensions-apiserver/pkg/apiserver/validation/validation.go
//     (ValidateCustomResource, kubeOpenAPIResultToFieldErrors: how
//     kube-openapi errors become field errors)
//   - k8s.io/kube-openapi/pkg/validation/validate: schema.go, type.go,
//     object_validator.go, slice_validator.go, schema_props.go, and
//     errors/schema.go (the message texts)
//   - k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/validation:
//     the schema rules of ValidateCustomResourceDefinitionOpenAPISchema
//     that need only the schema (a subset)
//
// Differences from upstream:
//   - One flat Structural type instead of Generic / Extensions /
//     ValueValidation / NestedValueValidation; junctor schemas are
//     Structurals too, and ValidateStructural forbids in them what
//     NestedValueValidation cannot hold.
//   - x-kubernetes-validations (CEL) are read but not evaluated.
//   - Formats: date-time, date, byte, uuid(3/4/5), ipv4, ipv6, cidr, mac,
//     email, hostname, uri, duration, hexcolor, rgbcolor and bsonobjectid
//     are checked (hostname and duration approximately); other formats pass.
//     As upstream, int32/int64/float/double never range-check a number.
//   - When anyOf or oneOf fails, the errors of the first failing
//     alternative with the fewest errors are reported (kube-openapi picks
//     the one with the most passing checks).
//   - Embedded resources: apiVersion and kind are checked as upstream; their
//     metadata must be an object but its fields are not validated
//     (upstream runs ObjectMeta validation there).
//   - Error order is deterministic (properties in key order); upstream's
//     follows map iteration.
//   - Pruning an array whose schema is missing records element paths with
//     their index (upstream leaves the index out).
package structural
