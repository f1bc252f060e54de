// Package cel runs a CRD's x-kubernetes-validations rules: the schema
// becomes CEL types, each rule is compiled once per CRD version, and every
// custom resource written is checked against the rules at every node that
// declares some.
//
// Vocabulary:
//   - A Rule is one x-kubernetes-validations entry: rule (a CEL boolean
//     expression over self, and oldSelf on update), message or
//     messageExpression, reason, fieldPath, optionalOldSelf.
//   - A DeclType is the CEL type of a schema node (SchemaDeclType):
//     objects, maps (additionalProperties), lists, int-or-string (dyn),
//     durations and timestamps for those string formats; with the sizes
//     maxLength/maxItems/maxProperties allow, for the cost estimate.
//   - UnstructuredToVal wraps a decoded object as a CEL value lazily; lists
//     keep their list type ("set" and "map" lists compare without order).
//   - Compile turns a node's rules into programs with a worst-case cost;
//     NewValidator does it for a whole schema into a Validator tree, built
//     once per CRD version and shared by all requests.
//   - A transition rule reads oldSelf: it runs only on update where an old
//     value exists (optionalOldSelf: always, with oldSelf optional).
//   - Ratcheting: on update, a rule that fails on a part of the object
//     that did not change (CorrelatedObject) gives a warning, not an error.
//   - Cost: a rule's estimated cost times how often it can run must stay
//     under StaticEstimatedCostLimit, and the schema's total under
//     StaticEstimatedCRDCostLimit (checked by ValidateSchemaRules when the
//     CRD is written); at run time all rules of an object share
//     RuntimeCELCostBudget.
//
// Layout: types.go, escaping.go (schema → CEL types), values.go,
// listops.go, strfmt.go (objects → CEL values), compile.go, validator.go,
// ratchet.go, fieldpath.go (custom resources), crd.go (the CRD's own
// checks). The functions rules may call are in the library subpackage:
// upstream splits them the same way (apiextensions-apiserver for the
// schema side, k8s.io/apiserver/pkg/cel for the language side).
//
// Upstream:
//   - k8s.io/apiextensions-apiserver/pkg/apiserver/schema/cel:
//     compilation.go, validation.go, values.go, maplist.go, model/
//   - k8s.io/apiserver/pkg/cel: types.go (DeclType), escaping.go,
//     common/schemas.go, common/valuesunstructured.go,
//     common/valuesreflect.go (set and map list +), common/equality.go
//     (CorrelatedObject), common/maplist.go
//   - k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/validation:
//     validation.go (the x-kubernetes-validations checks, cost limits),
//     cel_validation.go (CELSchemaContext)
//
// Differences from upstream:
//   - Rules in allOf are not run (upstream can, but forbids
//     x-kubernetes-validations in junctors anyway).
//   - When the schema has other errors, no rule is compiled (upstream
//     still compiles rules beside, not below, a non-structural error).
//   - Ratcheted errors reach the caller through Options.Warn, not the
//     request context.
//   - No metrics.
package cel
