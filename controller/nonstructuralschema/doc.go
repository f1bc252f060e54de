// Package nonstructuralschema holds the controller behind the
// NonStructuralSchema condition: True (reason Violations, the violations
// as message) on a CRD some of whose version schemas are not structural,
// absent otherwise.
//
// Vocabulary: a structural schema says the type of every field it
// specifies and keeps logical junctors (allOf, anyOf, oneOf, not) to value
// validations of fields it declares elsewhere; see package
// apis/apiextensions/structural. apiextensions.k8s.io/v1 refuses a
// non-structural schema at create time, so the condition mostly concerns
// CRDs created through v1beta1 (or stored before that rule), which are
// served but cannot be pruned or defaulted properly. spec.preserveUnknownFields
// true counts as a violation too ("must be false").
//
// The controller looks at each generation once: it remembers the last
// generation it wrote a condition for, and skips a CRD whose spec has not
// changed since.
//
// Tracing: with controller.Options.Tracer set, the controller's queue
// emits workqueue events and each sync a "sync" event (actor
// "nonstructuralschema"); a write of the condition is a "status" event,
// "NonStructuralSchema=True (Violations)" or "NonStructuralSchema
// removed".
//
// Upstream:
//   - k8s.io/apiextensions-apiserver/pkg/controller/nonstructuralschema/nonstructuralschema_controller.go
//     (ConditionController, calculateCondition, sync)
//
// Differences from upstream:
//   - The loop (handlers, queue, sync, Run) is controller.ConditionController,
//     shared with the apiapproval controller; this package gives it the
//     condition (calculateCondition) and the generation as its input.
//   - A schema is converted to the internal type and read from it
//     (structural.FromProps), as upstream; one it refuses is read through
//     its JSON (structural.FromJSON), whose error gives reason
//     StructuralError, as upstream's NewStructural failure.
//   - A schema several versions share (equal: the loopback client makes
//     them one, controller.ShareSpecSchemas) is converted and read once,
//     then checked under each version's path; upstream reads each
//     version's.
package nonstructuralschema
