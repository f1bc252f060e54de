// Package helpers answers the questions controllers and the server ask of
// a CRD (v1 types): is a condition true, set a condition, which version is
// stored, what is the schema or the printer columns of a version, does it
// carry a finalizer.
//
// Vocabulary: a condition is one entry of status.conditions (Established,
// NamesAccepted, Terminating …); its LastTransitionTime moves only when its
// status changes. The storage version is the one version with storage:
// true; stored versions (status.storedVersions) are every version objects
// may still be persisted in.
//
// Upstream:
//   - k8s.io/apiextensions-apiserver/pkg/apihelpers/helpers.go
//
// Differences from upstream:
//   - SetCRDConditionAt takes the clock as an argument (SetCRDCondition
//     uses time.Now, as upstream).
//   - no API-approval helpers (GetAPIApprovalState, IsProtectedCommunityGroup).
//   - GetDeprecationWarning's default text is upstream's format without the
//     "; use <newer version>" suggestion.
package helpers
