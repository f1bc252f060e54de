package v1beta1

import (
	"github.com/crdlab/crdlab/apis/apps"
	metav1 "github.com/crdlab/crdlab/apis/meta/v1"
)

// Deployment is apps/v1beta1's Deployment (deprecated since Kubernetes 1.9,
// removed from serving in 1.16).
//
// Mirrors k8s.io/api/apps/v1beta1.Deployment.
type Deployment struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              DeploymentSpec   `json:"spec,omitempty"`
	Status            DeploymentStatus `json:"status,omitempty"`
}

// DeploymentSpec is the desired state of a Deployment.
type DeploymentSpec struct {
	Replicas *int32 `json:"replicas,omitempty"`
	// Selector defaults to the template's labels in v1beta1.
	Selector        *apps.LabelSelector  `json:"selector,omitempty"`
	Template        apps.PodTemplateSpec `json:"template"`
	Strategy        DeploymentStrategy   `json:"strategy,omitempty"`
	MinReadySeconds int32                `json:"minReadySeconds,omitempty"`
	// RevisionHistoryLimit defaults to 2 in v1beta1.
	RevisionHistoryLimit *int32 `json:"revisionHistoryLimit,omitempty"`
	Paused               bool   `json:"paused,omitempty"`
	// RollbackTo asks the controller to roll back (v1beta1 only).
	RollbackTo              *RollbackConfig `json:"rollbackTo,omitempty"`
	ProgressDeadlineSeconds *int32          `json:"progressDeadlineSeconds,omitempty"`
}

// RollbackConfig names the revision to roll back to.
type RollbackConfig struct {
	Revision int64 `json:"revision,omitempty"`
}

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
