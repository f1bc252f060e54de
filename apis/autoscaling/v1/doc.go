// Package v1 holds autoscaling/v1 Scale, the object of the /scale
// subresource: a custom resource with a scale subresource answers GET and
// PUT on .../<plural>/<name>/scale with a Scale built from (and written
// back to) the JSON paths its CRD names, which is what `kubectl scale` and
// the HorizontalPodAutoscaler use.
//
// Vocabulary: Spec.Replicas is the desired count (read from and written to
// the CRD's specReplicasPath), Status.Replicas the observed one
// (statusReplicasPath), Status.Selector the label selector of the pods (or
// whatever is counted), in string form (labelSelectorPath).
//
// Upstream:
//   - k8s.io/api/autoscaling/v1: types.go (Scale, ScaleSpec, ScaleStatus),
//     register.go
//
// Differences from upstream: only Scale is here (no
// HorizontalPodAutoscaler); no internal version or conversions, since
// crdlab only serves autoscaling/v1 Scale; DeepCopy is reflective.
package v1
