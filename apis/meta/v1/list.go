package v1

import (
	"encoding/json"

	"github.com/crdlab/crdlab/internal/deepcopy"
	"github.com/crdlab/crdlab/scheme"
)

// List is a list of objects of any kinds, each kept as its raw JSON:
// `kubectl get -o yaml` of several objects prints one ("kind: List",
// "apiVersion: v1"), and kubectl flattens it into its items before it
// sends anything. core/v1 registers it as its List kind.
//
// Mirrors k8s.io/apimachinery/pkg/apis/meta/v1.List (items are
// runtime.RawExtension there).
type List struct {
	TypeMeta `json:",inline"`
	ListMeta `json:"metadata,omitempty"`
	Items    []json.RawMessage `json:"items"`
}

// DeepCopyObject copies the list.
func (in *List) DeepCopyObject() scheme.Object { return deepcopy.Copy(in) }

// LabelSelectorOperator is the operator of a label selector requirement.
type LabelSelectorOperator string

// The operators of a LabelSelectorRequirement.
const (
	LabelSelectorOpIn           LabelSelectorOperator = "In"
	LabelSelectorOpNotIn        LabelSelectorOperator = "NotIn"
	LabelSelectorOpExists       LabelSelectorOperator = "Exists"
	LabelSelectorOpDoesNotExist LabelSelectorOperator = "DoesNotExist"
)

// LabelSelectorRequirement is one requirement of a label selector: key,
// operator and values.
//
// Mirrors k8s.io/apimachinery/pkg/apis/meta/v1.LabelSelectorRequirement.
type LabelSelectorRequirement struct {
	Key      string                `json:"key"`
	Operator LabelSelectorOperator `json:"operator"`
	Values   []string              `json:"values,omitempty"`
}

// FieldSelectorOperator is the operator of a field selector requirement.
type FieldSelectorOperator string

// The operators of a FieldSelectorRequirement.
const (
	FieldSelectorOpIn           FieldSelectorOperator = "In"
	FieldSelectorOpNotIn        FieldSelectorOperator = "NotIn"
	FieldSelectorOpExists       FieldSelectorOperator = "Exists"
	FieldSelectorOpDoesNotExist FieldSelectorOperator = "DoesNotExist"
)

// FieldSelectorRequirement is one requirement of a field selector.
//
// Mirrors k8s.io/apimachinery/pkg/apis/meta/v1.FieldSelectorRequirement.
type FieldSelectorRequirement struct {
	Key      string                `json:"key"`
	Operator FieldSelectorOperator `json:"operator"`
	Values   []string              `json:"values,omitempty"`
}
