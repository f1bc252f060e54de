// Package validation holds the checks every API object shares: object
// metadata (name, namespace, labels, annotations, owner references,
// finalizers) and immutable fields. Kind-specific validation (a CRD's, a
// Deployment's) lives beside its types and builds on these; the name rules
// themselves (IsDNS1123Label, IsQualifiedName, …) are machinery/validation's.
//
// Vocabulary: a ValidateNameFunc checks an object name, with a prefix mode
// for generateName; Validate* functions return a field.ErrorList tied to
// field paths. Messages are upstream's word for word, so that clients (and
// people comparing with a real cluster) see the same text.
//
// Upstream:
//   - k8s.io/apimachinery/pkg/api/validation: objectmeta.go, generic.go
//   - k8s.io/apimachinery/pkg/apis/meta/v1/validation (ValidateLabels,
//     ValidateFieldManager, ValidateManagedFields)
//
// Differences from upstream:
//   - no banned owner kinds, no orphan/foreground finalizer clash check.
//   - ValidateObjectMeta takes a metav1.Object (upstream's
//     ValidateObjectMetaAccessor); map keys are visited in sorted order so the
//     error list is stable.
package validation
