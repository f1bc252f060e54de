package v1

import (
	"bytes"
	"errors"
)

// ManagedFieldsEntry says which fields one manager owns, as of which
// apiVersion: one entry of metadata.managedFields. Package
// machinery/managedfields reads and writes them.
//
// Mirrors k8s.io/apimachinery/pkg/apis/meta/v1.ManagedFieldsEntry.
type ManagedFieldsEntry struct {
	// Manager names the workflow managing the fields ("kubectl",
	// "helm").
	Manager string `json:"manager,omitempty"`
	// Operation is Apply or Update.
	Operation ManagedFieldsOperationType `json:"operation,omitempty"`
	// APIVersion is the version of the resource the field set is
	// written in.
	APIVersion string `json:"apiVersion,omitempty"`
	// Time is when the entry last changed.
	Time *Time `json:"time,omitempty"`
	// FieldsType is "FieldsV1", the only format.
	FieldsType string `json:"fieldsType,omitempty"`
	// FieldsV1 is the field set.
	FieldsV1 *FieldsV1 `json:"fieldsV1,omitempty"`
	// Subresource is "", "status" or "scale": where the write went.
	Subresource string `json:"subresource,omitempty"`
}

// ManagedFieldsOperationType is the kind of write that recorded an entry.
type ManagedFieldsOperationType string

const (
	// ManagedFieldsOperationApply is a server-side apply.
	ManagedFieldsOperationApply ManagedFieldsOperationType = "Apply"
	// ManagedFieldsOperationUpdate is any other write: create, update,
	// a JSON or merge patch.
	ManagedFieldsOperationUpdate ManagedFieldsOperationType = "Update"
)

// FieldsV1 is a field set in its JSON trie form, kept as raw JSON:
// {"f:spec":{"f:replicas":{}}, "k:{\"name\":\"a\"}":{".":{}}}.
//
// Mirrors k8s.io/apimachinery/pkg/apis/meta/v1.FieldsV1.
type FieldsV1 struct {
	Raw []byte `json:"-"`
}

// MarshalJSON writes Raw as it is ("null" if empty).
func (f FieldsV1) MarshalJSON() ([]byte, error) {
	if f.Raw == nil {
		return []byte("null"), nil
	}
	return f.Raw, nil
}

// UnmarshalJSON keeps a copy of b.
func (f *FieldsV1) UnmarshalJSON(b []byte) error {
	if f == nil {
		return errors.New("metav1.FieldsV1: UnmarshalJSON on nil pointer")
	}
	if !bytes.Equal(b, []byte("null")) {
		f.Raw = append(f.Raw[:0], b...)
	}
	return nil
}

// GetManagedFields and SetManagedFields give typed objects the
// managedFields accessors Unstructured has.
func (m *ObjectMeta) GetManagedFields() []ManagedFieldsEntry  { return m.ManagedFields }
func (m *ObjectMeta) SetManagedFields(v []ManagedFieldsEntry) { m.ManagedFields = v }
