package v1

import "github.com/crdlab/crdlab/scheme"

// Object is the metadata half of every persisted object: typed objects get it
// by embedding ObjectMeta, Unstructured implements it on its map.
//
// Mirrors k8s.io/apimachinery/pkg/apis/meta/v1.Object (what meta.Accessor returns).
type Object interface {
	GetNamespace() string
	SetNamespace(string)
	GetName() string
	SetName(string)
	GetGenerateName() string
	SetGenerateName(string)
	GetUID() UID
	SetUID(UID)
	GetResourceVersion() string
	SetResourceVersion(string)
	GetGeneration() int64
	SetGeneration(int64)
	GetCreationTimestamp() Time
	SetCreationTimestamp(Time)
	GetDeletionTimestamp() *Time
	SetDeletionTimestamp(*Time)
	GetDeletionGracePeriodSeconds() *int64
	SetDeletionGracePeriodSeconds(*int64)
	GetLabels() map[string]string
	SetLabels(map[string]string)
	GetAnnotations() map[string]string
	SetAnnotations(map[string]string)
	GetFinalizers() []string
	SetFinalizers([]string)
	GetOwnerReferences() []OwnerReference
	SetOwnerReferences([]OwnerReference)
	GetManagedFields() []ManagedFieldsEntry
	SetManagedFields([]ManagedFieldsEntry)
}

// RuntimeObject is what storage and registry handle: an API object with
// metadata.
type RuntimeObject interface {
	scheme.Object
	Object
}

// Accessor returns the metadata of obj, or false if obj has none.
//
// Mirrors k8s.io/apimachinery/pkg/api/meta.Accessor.
func Accessor(obj any) (Object, bool) {
	m, ok := obj.(Object)
	return m, ok
}

func (m *ObjectMeta) GetNamespace() string                  { return m.Namespace }
func (m *ObjectMeta) SetNamespace(v string)                 { m.Namespace = v }
func (m *ObjectMeta) GetName() string                       { return m.Name }
func (m *ObjectMeta) SetName(v string)                      { m.Name = v }
func (m *ObjectMeta) GetGenerateName() string               { return m.GenerateName }
func (m *ObjectMeta) SetGenerateName(v string)              { m.GenerateName = v }
func (m *ObjectMeta) GetUID() UID                           { return m.UID }
func (m *ObjectMeta) SetUID(v UID)                          { m.UID = v }
func (m *ObjectMeta) GetResourceVersion() string            { return m.ResourceVersion }
func (m *ObjectMeta) SetResourceVersion(v string)           { m.ResourceVersion = v }
func (m *ObjectMeta) GetGeneration() int64                  { return m.Generation }
func (m *ObjectMeta) SetGeneration(v int64)                 { m.Generation = v }
func (m *ObjectMeta) GetCreationTimestamp() Time            { return m.CreationTimestamp }
func (m *ObjectMeta) SetCreationTimestamp(v Time)           { m.CreationTimestamp = v }
func (m *ObjectMeta) GetDeletionTimestamp() *Time           { return m.DeletionTimestamp }
func (m *ObjectMeta) SetDeletionTimestamp(v *Time)          { m.DeletionTimestamp = v }
func (m *ObjectMeta) GetDeletionGracePeriodSeconds() *int64 { return m.DeletionGracePeriodSeconds }
func (m *ObjectMeta) SetDeletionGracePeriodSeconds(v *int64) {
	m.DeletionGracePeriodSeconds = v
}
func (m *ObjectMeta) GetLabels() map[string]string          { return m.Labels }
func (m *ObjectMeta) SetLabels(v map[string]string)         { m.Labels = v }
func (m *ObjectMeta) GetAnnotations() map[string]string     { return m.Annotations }
func (m *ObjectMeta) SetAnnotations(v map[string]string)    { m.Annotations = v }
func (m *ObjectMeta) GetFinalizers() []string               { return m.Finalizers }
func (m *ObjectMeta) SetFinalizers(v []string)              { m.Finalizers = v }
func (m *ObjectMeta) GetOwnerReferences() []OwnerReference  { return m.OwnerReferences }
func (m *ObjectMeta) SetOwnerReferences(v []OwnerReference) { m.OwnerReferences = v }
