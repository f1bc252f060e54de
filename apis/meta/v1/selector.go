package v1

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
