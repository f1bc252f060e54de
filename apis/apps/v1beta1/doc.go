// Package v1beta1 is apps/v1beta1, reduced to Deployment: the source side
// of seed 002's walkthrough. Its defaults are the interesting part: the
// selector and the object's labels come from the template's labels, and
// revisionHistoryLimit defaults to 2 — so a v1beta1 Deployment converted
// to v1 keeps 2, not v1's 10, because defaults are applied in the version
// an object was written in, before conversion.
//
// Layout: types.go, conversion.go and defaults.go (the rules of the
// walkthrough), register.go; zz_*.go hold what upstream generates (list and
// status conversions, defaulting and deep-copy plumbing). Skip them.
//
// Upstream:
//   - k8s.io/api/apps/v1beta1/types.go (Deployment)
//   - k8s.io/kubernetes/pkg/apis/apps/v1beta1: defaults.go, register.go,
//     zz_generated.conversion.go
//
// Differences from upstream: only Deployment (no StatefulSet, Scale,
// ControllerRevision); conversions are written out; the pod template is the
// subset described in package apps.
package v1beta1
