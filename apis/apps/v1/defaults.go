package v1

import "github.com/crdlab/crdlab/apis/apps"

// SetDefaults_Deployment applies the apps/v1 defaults.
//
// Mirrors SetDefaults_Deployment in k8s.io/kubernetes/pkg/apis/apps/v1/defaults.go
// (plus the core/v1 pod template defaults): replicas = 1; strategy =
// RollingUpdate with maxUnavailable and maxSurge 25%; revisionHistoryLimit =
// 10; progressDeadlineSeconds = 600. Unlike v1beta1, neither the selector nor
// the labels are taken from the template.
func SetDefaults_Deployment(obj *Deployment) {
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
		limit := int32(10)
		obj.Spec.RevisionHistoryLimit = &limit
	}
	if obj.Spec.ProgressDeadlineSeconds == nil {
		deadline := int32(600)
		obj.Spec.ProgressDeadlineSeconds = &deadline
	}
	apps.SetDefaults_PodTemplateSpec(&obj.Spec.Template)
}
