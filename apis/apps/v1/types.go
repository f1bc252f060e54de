package v1

import (
	"github.com/crdlab/crdlab/apis/apps"
	metav1 "github.com/crdlab/crdlab/apis/meta/v1"
)

// Deployment is apps/v1's Deployment.
//
// Mirrors k8s.io/api/apps/v1.Deployment.
type Deployment struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              DeploymentSpec   `json:"spec,omitempty"`
	Status            DeploymentStatus `json:"status,omitempty"`
}

// DeploymentSpec is the desired state of a Deployment.
type DeploymentSpec struct {
	Replicas *int32 `json:"replicas,omitempty"`
	// Selector is required in v1 (v1beta1 defaulted it from the template).
	Selector        *apps.LabelSelector  `json:"selector"`
	Template        apps.PodTemplateSpec `json:"template"`
	Strategy        DeploymentStrategy   `json:"strategy,omitempty"`
	MinReadySeconds int32                `json:"minReadySeconds,omitempty"`
	// RevisionHistoryLimit defaults to 10 in v1.
	RevisionHistoryLimit *int32 `json:"revisionHistoryLimit,omitempty"`
	Paused               bool   `json:"paused,omitempty"`
	// ProgressDeadlineSeconds after which a stuck rollout is reported.
	ProgressDeadlineSeconds *int32 `json:"progressDeadlineSeconds,omitempty"`
}

// DeprecatedRollbackTo is the annotation that carries v1beta1's
// spec.rollbackTo.revision through v1, which has no such field.
const DeprecatedRollbackTo = "deprecated.deployment.rollback.to"

// DeploymentStrategyType is Recreate or RollingUpdate.
type DeploymentStrategyType string

const (
	RecreateDeploymentStrategyType      DeploymentStrategyType = "Recreate"
	RollingUpdateDeploymentStrategyType DeploymentStrategyType = "RollingUpdate"
)

// DeploymentStrategy says how pods are replaced.
type DeploymentStrategy struct {
	Type          DeploymentStrategyType   `json:"type,omitempty"`
	RollingUpdate *RollingUpdateDeployment `json:"rollingUpdate,omitempty"`
}

// RollingUpdateDeployment bounds a rolling update.
type RollingUpdateDeployment struct {
	MaxUnavailable *apps.IntOrString `json:"maxUnavailable,omitempty"`
	MaxSurge       *apps.IntOrString `json:"maxSurge,omitempty"`
}

// DeploymentStatus is the observed state of a Deployment.
type DeploymentStatus struct {
	ObservedGeneration  int64                 `json:"observedGeneration,omitempty"`
	Replicas            int32                 `json:"replicas,omitempty"`
	UpdatedReplicas     int32                 `json:"updatedReplicas,omitempty"`
	ReadyReplicas       int32                 `json:"readyReplicas,omitempty"`
	AvailableReplicas   int32                 `json:"availableReplicas,omitempty"`
	UnavailableReplicas int32                 `json:"unavailableReplicas,omitempty"`
	Conditions          []DeploymentCondition `json:"conditions,omitempty"`
	CollisionCount      *int32                `json:"collisionCount,omitempty"`
}

// DeploymentCondition is one condition of a Deployment.
type DeploymentCondition struct {
	Type               string                 `json:"type"`
	Status             metav1.ConditionStatus `json:"status"`
	LastUpdateTime     metav1.Time            `json:"lastUpdateTime,omitempty"`
	LastTransitionTime metav1.Time            `json:"lastTransitionTime,omitempty"`
	Reason             string                 `json:"reason,omitempty"`
	Message            string                 `json:"message,omitempty"`
}

// DeploymentList is a list of Deployments.
type DeploymentList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Deployment `json:"items"`
}

var _ metav1.RuntimeObject = (*Deployment)(nil)
