// Package apiapproval holds the controller behind the
// KubernetesAPIApprovalPolicyConformant condition. API groups ending in
// k8s.io or kubernetes.io belong to the Kubernetes project, and a CRD may
// use one only with the api-approved.kubernetes.io annotation pointing at
// the pull request that approved the API (or a value starting with
// "unapproved", an explicit opt-out). The condition tells which.
//
// Vocabulary: a protected community group is k8s.io, kubernetes.io or a
// subdomain of either. The annotation's approval state is Missing,
// Approved (a URL with scheme and host), Bypassed ("unapproved…") or
// Invalid (anything else); the condition is, in that order, False
// MissingAnnotation, True ApprovedAnnotation, False UnapprovedAnnotation or
// False InvalidAnnotation, with upstream's messages. CRDs of other groups
// get no condition (and, since the group is immutable, never will).
//
// Tracing: with controller.Options.Tracer set, the controller's queue
// emits workqueue events and each sync a "sync" event (actor
// "apiapproval"); a write of the condition is a "status" event, such as
// "KubernetesAPIApprovalPolicyConformant=False (MissingAnnotation)".
//
// Upstream:
//   - k8s.io/apiextensions-apiserver/pkg/controller/apiapproval/apiapproval_controller.go
//     (KubernetesAPIApprovalPolicyConformantConditionController,
//     calculateCondition, sync)
//   - (the approval helpers, IsProtectedCommunityGroup and
//     GetAPIApprovalState, are apis/apiextensions/helpers', shared with the
//     CRD validation, which refuses a missing or invalid annotation)
//
// Differences from upstream:
//   - The loop (handlers, queue, sync, Run) is controller.ConditionController,
//     shared with the nonstructuralschema controller; this package gives it
//     the condition (calculateCondition) and the annotation as its input.
package apiapproval
