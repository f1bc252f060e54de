package v1beta1

import "github.com/crdlab/crdlab/apis/apps"

// SetDefaults_Deployment applies the apps/v1beta1 defaults.
//
// Mirrors SetDefaults_Deployment in k8s.io/kubernetes/pkg/apis/apps/v1beta1/defaults.go
// (plus the core/v1 pod template defaults):
//   - selector = {matchLabels: template labels} and, if the Deployment has
//     no labels, labels = template labels (v1 does neither: its selector is
//     required);
//   - replicas = 1; strategy = RollingUpdate with maxUnavailable and
//     maxSurge 25%;
//   - revisionHistoryLimit = 2 (v1: 10); progressDeadlineSeconds = 600.
func SetDefaults_Deployment(obj *Deployment) {
	labels := obj.Spec.Template.Labels
	if labels != nil {
		if obj.Spec.Selector == nil {
			obj.Spec.Selector = &apps.LabelSelector{MatchLabels: copyMap(labels)}
		}
		if len(obj.Labels) == 0 {
			obj.Labels = copyMap(labels)
		}
	}
	if obj.Spec.Replicas == nil {
		one := int32(1)
		obj.Spec.Replicas = &one
	}
	strategy := &obj.Spec.Strategy
	if strategy.Type == "" {
		strategy.Type = RollingUpdateDeploymentStrategyType
	}
	if strategy.Type == RollingUpdateDeploymentStrategyType {
		if strategy.RollingUpdate == nil {
			strategy.RollingUpdate = &RollingUpdateDeployment{}
		}
		if strategy.RollingUpdate.MaxUnavailable == nil {
			v := apps.FromString("25%")
			strategy.RollingUpdate.MaxUnavailable = &v
		}
		if strategy.RollingUpdate.MaxSurge == nil {
			v := apps.FromString("25%")
			strategy.RollingUpdate.MaxSurge = &v
		}
	}
	if obj.Spec.RevisionHistoryLimit == nil {
		limit := int32(2)
		obj.Spec.RevisionHistoryLimit = &limit
	}
	if obj.Spec.ProgressDeadlineSeconds == nil {
		deadline := int32(600)
		obj.Spec.ProgressDeadlineSeconds = &deadline
	}
	apps.SetDefaults_PodTemplateSpec(&obj.Spec.Template)
}

func copyMap(m map[string]string) map[string]string {
	out := make(map[string]string, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}
