package v1

import (
	metav1 "github.com/crdlab/crdlab/apis/meta/v1"
	"github.com/crdlab/crdlab/internal/deepcopy"
	"github.com/crdlab/crdlab/scheme"
)

// GroupName is the API group of Scale.
const GroupName = "autoscaling"

// SchemeGroupVersion is autoscaling/v1.
var SchemeGroupVersion = scheme.GroupVersion{Group: GroupName, Version: "v1"}

// Scale is the scaling view of an object: how many replicas it wants and
// has.
//
// Mirrors k8s.io/api/autoscaling/v1.Scale.
type Scale struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	// Spec is the desired state.
	Spec ScaleSpec `json:"spec,omitempty"`
	// Status is the observed state; read-only.
	Status ScaleStatus `json:"status,omitempty"`
}

// ScaleSpec is the desired scale.
type ScaleSpec struct {
	// Replicas is the desired number of instances.
	Replicas int32 `json:"replicas,omitempty"`
}

// ScaleStatus is the observed scale.
type ScaleStatus struct {
	// Replicas is the actual number of instances.
	Replicas int32 `json:"replicas"`
	// Selector is the label query over the counted pods, in string form
	// ("app=web,tier in (fe)").
	Selector string `json:"selector,omitempty"`
}

// DeepCopyObject returns a copy sharing no memory with s.
func (s *Scale) DeepCopyObject() scheme.Object { return deepcopy.Copy(s) }

var _ metav1.RuntimeObject = (*Scale)(nil)
