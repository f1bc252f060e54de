// Package apps is the internal (hub) version of the apps API group, reduced
// to Deployment: just enough to replay the walkthrough of seed 002, "convert
// an apps/v1beta1 Deployment to apps/v1 through the internal version"
// (kubectl convert), which shows every moving part of a scheme — decoding
// into the written version, defaulting in that version, conversion to the
// hub, conversion out of it, encoding.
//
// Vocabulary: a Deployment keeps Replicas copies of a pod Template running,
// picked by Selector, replaced by a Strategy (RollingUpdate bounded by
// maxUnavailable/maxSurge, or Recreate). The hub holds the union of the
// versions' fields (v1beta1's RollbackTo included). LabelSelector,
// IntOrString and PodTemplateSpec stand in for their core/meta originals
// and are shared by every version.
//
// Upstream:
//   - k8s.io/kubernetes/pkg/apis/apps: types.go, register.go
//   - k8s.io/api/core/v1 (PodTemplateSpec), k8s.io/apimachinery metav1.LabelSelector, intstr.IntOrString
//   - k8s.io/kubernetes/pkg/apis/core/v1/defaults.go (pod template defaults)
//
// Differences from upstream:
//   - only Deployment; no ReplicaSet, StatefulSet, DaemonSet.
//   - the pod spec is a small subset (containers with image, ports, env,
//     resources as strings …); fields outside it are rejected by strict
//     decoding rather than kept.
//   - no validation of Deployments (crdlab does not serve them).
package apps
