package apps

import (
	metav1 "github.com/crdlab/crdlab/apis/meta/v1"
	"github.com/crdlab/crdlab/scheme"
)

// Deployment is the hub (internal) Deployment: it holds every field any
// version has, including v1beta1's rollbackTo, so that no version loses
// data on its way through.
//
// Mirrors k8s.io/kubernetes/pkg/apis/apps.Deployment.
type Deployment struct {
	metav1.TypeMeta
	metav1.ObjectMeta
	Spec   DeploymentSpec
	Status DeploymentStatus
}

// DeploymentSpec is the desired state of a Deployment.
type DeploymentSpec struct {
	// Replicas is a plain int32 here: every version defaults it, so the hub
	// need not tell "unset" from 0.
	Replicas int32
	Selector *LabelSelector
	Template PodTemplateSpec
	Strategy DeploymentStrategy
	// MinReadySeconds a new pod must be ready before it counts as available.
	MinReadySeconds int32
	// RevisionHistoryLimit is how many old ReplicaSets to keep; its default
	// differs by version (v1beta1: 2, v1: 10).
	RevisionHistoryLimit *int32
	Paused               bool
	// RollbackTo is v1beta1's deprecated rollback request; v1 carries it in
	// the deprecated.deployment.rollback.to annotation.
	RollbackTo              *RollbackConfig
	ProgressDeadlineSeconds *int32
}

// RollbackConfig names the revision to roll back to (0: the previous one).
type RollbackConfig struct {
	Revision int64
}

// DeploymentStrategyType is Recreate or RollingUpdate.
type DeploymentStrategyType string

const (
	RecreateDeploymentStrategyType      DeploymentStrategyType = "Recreate"
	RollingUpdateDeploymentStrategyType DeploymentStrategyType = "RollingUpdate"
)

// DeploymentStrategy says how pods are replaced.
type DeploymentStrategy struct {
	Type          DeploymentStrategyType
	RollingUpdate *RollingUpdateDeployment
}

// RollingUpdateDeployment bounds a rolling update.
type RollingUpdateDeployment struct {
	MaxUnavailable IntOrString
	MaxSurge       IntOrString
}

// DeploymentStatus is the observed state of a Deployment.
type DeploymentStatus struct {
	ObservedGeneration  int64
	Replicas            int32
	UpdatedReplicas     int32
	ReadyReplicas       int32
	AvailableReplicas   int32
	UnavailableReplicas int32
	Conditions          []DeploymentCondition
	CollisionCount      *int32
}

// DeploymentCondition is one condition of a Deployment (Available, Progressing …).
type DeploymentCondition struct {
	Type               string
	Status             metav1.ConditionStatus
	LastUpdateTime     metav1.Time
	LastTransitionTime metav1.Time
	Reason             string
	Message            string
}

// DeploymentList is a list of Deployments.
type DeploymentList struct {
	metav1.TypeMeta
	metav1.ListMeta
	Items []Deployment
}

var _ metav1.RuntimeObject = (*Deployment)(nil)

// GroupName is the API group of Deployments.
const GroupName = "apps"

// SchemeGroupVersion is the internal version of the apps group.
var SchemeGroupVersion = scheme.GroupVersion{Group: GroupName, Version: scheme.APIVersionInternal}

// AddToScheme registers the internal types.
func AddToScheme(s *scheme.Scheme) error {
	s.AddKnownTypes(SchemeGroupVersion, &Deployment{}, &DeploymentList{})
	return nil
}
