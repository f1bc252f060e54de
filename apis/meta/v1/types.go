package v1

import (
	"encoding/json"

	"github.com/crdlab/crdlab/scheme"
)

// GroupName is the group of the meta types when they travel as objects
// (Table, PartialObjectMetadata, WatchEvent).
const GroupName = "meta.k8s.io"

// SchemeGroupVersion is meta.k8s.io/v1.
var SchemeGroupVersion = scheme.GroupVersion{Group: GroupName, Version: "v1"}

// TypeMeta is the apiVersion and kind of an object, inlined at its top.
type TypeMeta struct {
	Kind       string `json:"kind,omitempty"`
	APIVersion string `json:"apiVersion,omitempty"`
}

// GetObjectKind lets every type that embeds TypeMeta satisfy scheme.Object.
func (t *TypeMeta) GetObjectKind() scheme.ObjectKind { return t }

// SetGroupVersionKind sets apiVersion and kind.
func (t *TypeMeta) SetGroupVersionKind(gvk scheme.GroupVersionKind) {
	t.APIVersion, t.Kind = gvk.ToAPIVersionAndKind()
}

// GroupVersionKind parses apiVersion and kind.
func (t *TypeMeta) GroupVersionKind() scheme.GroupVersionKind {
	return scheme.FromAPIVersionAndKind(t.APIVersion, t.Kind)
}

// UID is a unique identifier of an object across space and time.
type UID string

// ObjectMeta is the metadata every persisted object has.
type ObjectMeta struct {
	Name                       string            `json:"name,omitempty"`
	GenerateName               string            `json:"generateName,omitempty"`
	Namespace                  string            `json:"namespace,omitempty"`
	SelfLink                   string            `json:"selfLink,omitempty"`
	UID                        UID               `json:"uid,omitempty"`
	ResourceVersion            string            `json:"resourceVersion,omitempty"`
	Generation                 int64             `json:"generation,omitempty"`
	CreationTimestamp          Time              `json:"creationTimestamp,omitempty"`
	DeletionTimestamp          *Time             `json:"deletionTimestamp,omitempty"`
	DeletionGracePeriodSeconds *int64            `json:"deletionGracePeriodSeconds,omitempty"`
	Labels                     map[string]string `json:"labels,omitempty"`
	Annotations                map[string]string `json:"annotations,omitempty"`
	// A strategic merge patch merges ownerReferences by uid and
	// finalizers as a set (the tags upstream's ObjectMeta has).
	OwnerReferences []OwnerReference `json:"ownerReferences,omitempty" patchStrategy:"merge" patchMergeKey:"uid"`
	Finalizers      []string         `json:"finalizers,omitempty" patchStrategy:"merge"`
	// ManagedFields says which manager owns which fields (package
	// machinery/managedfields keeps it).
	ManagedFields []ManagedFieldsEntry `json:"managedFields,omitempty"`
}

// OwnerReference points at the object that owns this one.
type OwnerReference struct {
	APIVersion         string `json:"apiVersion"`
	Kind               string `json:"kind"`
	Name               string `json:"name"`
	UID                UID    `json:"uid"`
	Controller         *bool  `json:"controller,omitempty"`
	BlockOwnerDeletion *bool  `json:"blockOwnerDeletion,omitempty"`
}

// ListMeta is the metadata of a list: the resourceVersion it was read at,
// and the continue token of the next page.
type ListMeta struct {
	SelfLink           string `json:"selfLink,omitempty"`
	ResourceVersion    string `json:"resourceVersion,omitempty"`
	Continue           string `json:"continue,omitempty"`
	RemainingItemCount *int64 `json:"remainingItemCount,omitempty"`
}

// GetResourceVersion, SetResourceVersion, GetContinue and SetContinue let
// every list type that embeds ListMeta satisfy ListInterface.
func (m *ListMeta) GetResourceVersion() string     { return m.ResourceVersion }
func (m *ListMeta) SetResourceVersion(v string)    { m.ResourceVersion = v }
func (m *ListMeta) GetContinue() string            { return m.Continue }
func (m *ListMeta) SetContinue(c string)           { m.Continue = c }
func (m *ListMeta) GetRemainingItemCount() *int64  { return m.RemainingItemCount }
func (m *ListMeta) SetRemainingItemCount(c *int64) { m.RemainingItemCount = c }

// ListInterface is the list half of meta.Accessor.
type ListInterface interface {
	GetResourceVersion() string
	SetResourceVersion(string)
	GetContinue() string
	SetContinue(string)
	GetRemainingItemCount() *int64
	SetRemainingItemCount(*int64)
}

// Condition is the standard condition shape (metav1.Condition).
type Condition struct {
	Type               string          `json:"type"`
	Status             ConditionStatus `json:"status"`
	ObservedGeneration int64           `json:"observedGeneration,omitempty"`
	LastTransitionTime Time            `json:"lastTransitionTime"`
	Reason             string          `json:"reason"`
	Message            string          `json:"message"`
}

// ConditionStatus is True, False or Unknown.
type ConditionStatus string

const (
	ConditionTrue    ConditionStatus = "True"
	ConditionFalse   ConditionStatus = "False"
	ConditionUnknown ConditionStatus = "Unknown"
)

// PartialObjectMetadata is an object of which only the metadata is known;
// Table rows carry it.
type PartialObjectMetadata struct {
	TypeMeta   `json:",inline"`
	ObjectMeta `json:"metadata,omitempty"`
}

// PartialObjectMetadataList is a list of PartialObjectMetadata.
type PartialObjectMetadataList struct {
	TypeMeta `json:",inline"`
	ListMeta `json:"metadata,omitempty"`
	Items    []PartialObjectMetadata `json:"items"`
}

// Table is the server-side printing of a list (kubectl get).
type Table struct {
	TypeMeta          `json:",inline"`
	ListMeta          `json:"metadata,omitempty"`
	ColumnDefinitions []TableColumnDefinition `json:"columnDefinitions"`
	Rows              []TableRow              `json:"rows"`
}

// TableColumnDefinition describes one column of a Table.
type TableColumnDefinition struct {
	Name        string `json:"name"`
	Type        string `json:"type"`
	Format      string `json:"format"`
	Description string `json:"description"`
	Priority    int32  `json:"priority"`
}

// TableRow is one printed object: its cells and, usually, its metadata.
type TableRow struct {
	Cells      []any               `json:"cells"`
	Conditions []TableRowCondition `json:"conditions,omitempty"`
	Object     json.RawMessage     `json:"object,omitempty"`
}

// TableRowCondition is a condition of a row (e.g. Completed).
type TableRowCondition struct {
	Type    string          `json:"type"`
	Status  ConditionStatus `json:"status"`
	Reason  string          `json:"reason,omitempty"`
	Message string          `json:"message,omitempty"`
}

// WatchEvent is one event of a watch stream on the wire.
type WatchEvent struct {
	Type   string          `json:"type"`
	Object json.RawMessage `json:"object"`
}

// InitialEventsAnnotationKey marks the bookmark that ends the initial events
// of a watch requested with sendInitialEvents=true.
const InitialEventsAnnotationKey = "k8s.io/initial-events-end"

// VersionInfo is what /version answers.
//
// Mirrors k8s.io/apimachinery/pkg/version.Info (kept here to avoid a package
// for one struct).
type VersionInfo struct {
	Major        string `json:"major"`
	Minor        string `json:"minor"`
	GitVersion   string `json:"gitVersion"`
	GitCommit    string `json:"gitCommit"`
	GitTreeState string `json:"gitTreeState"`
	BuildDate    string `json:"buildDate"`
	GoVersion    string `json:"goVersion"`
	Compiler     string `json:"compiler"`
	Platform     string `json:"platform"`
}
