// Package v1 is apps/v1, reduced to Deployment: the target side of seed
// 002's walkthrough. It differs from v1beta1 in three ways the walkthrough
// shows: the selector is required (not taken from the template), there is
// no spec.rollbackTo (it travels in the deprecated.deployment.rollback.to
// annotation), and revisionHistoryLimit defaults to 10.
//
// Layout: types.go, conversion.go and defaults.go (the rules of the
// walkthrough), register.go; zz_*.go hold what upstream generates (list and
// status conversions, defaulting and deep-copy plumbing). Skip them.
//
// Upstream:
//   - k8s.io/api/apps/v1/types.go (Deployment)
//   - k8s.io/kubernetes/pkg/apis/apps/v1: defaults.go, conversion.go
//     (Convert_apps_Deployment_To_v1_Deployment and back), register.go
//
// Differences from upstream: only Deployment; conversions are written out;
// the pod template is the subset described in package apps; no
// terminatingReplicas in the status.
package v1
