// Package validation holds the checks every API object shares: names (DNS
// labels and subdomains, qualified names, label values) and object
// metadata. Kind-specific validation (a CRD's, a Deployment's) lives beside
// its types and builds on these.
//
// Vocabulary: a name check (IsDNS1123Label, IsQualifiedName, …) returns the
// messages of what is wrong, nil when the value is fine; a ValidateNameFunc
// is such a check for object names, with a prefix mode for generateName;
// Validate* functions return a field.ErrorList tied to field paths.
// Messages are upstream's word for word, so that clients (and people
// comparing with a real cluster) see the same text.
//
// Upstream:
//   - k8s.io/apimachinery/pkg/util/validation/validation.go (IsDNS1123Label,
//     IsDNS1123Subdomain, IsDNS1035Label, IsQualifiedName, IsValidLabelValue)
//   - k8s.io/apimachinery/pkg/api/validation: objectmeta.go, generic.go
//   - k8s.io/apimachinery/pkg/apis/meta/v1/validation (ValidateLabels)
//
// Differences from upstream:
//   - managedFields are not validated (server-side apply is not implemented).
//   - no banned owner kinds, no orphan/foreground finalizer clash check.
//   - ValidateObjectMeta takes a metav1.Object (upstream's
//     ValidateObjectMetaAccessor); map keys are visited in sorted order so the
//     error list is stable.
package validation
