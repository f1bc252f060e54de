package managedfields

import (
	"sigs.k8s.io/structured-merge-diff/v6/fieldpath"

	metav1 "github.com/crdlab/crdlab/apis/meta/v1"
)

// A /scale write changes one field of its parent (spec.replicas of a
// Deployment, a CRD's specReplicasPath of a custom resource) through
// another kind, autoscaling/v1 Scale. ScaleHandler moves ownership of
// that field between the parent's entries and the Scale's: the Scale is
// shown the parent's entries that own the replicas (as owning
// spec.replicas of the Scale), and what the Scale write decides goes back
// to the parent.

// replicasPathInScale is spec.replicas of autoscaling/v1 Scale.
var replicasPathInScale = fieldpath.MakePathOrDie("spec", "replicas")

// scaleAPIVersion is the version of Scale.
const scaleAPIVersion = "autoscaling/v1"

// ResourcePathMappings maps each version of the parent to its replicas
// field; nil for a version without a scale subresource.
type ResourcePathMappings map[string]fieldpath.Path

// ScaleHandler converts the managedFields of a parent to and from those
// of its Scale.
//
// Mirrors ScaleHandler in k8s.io/apimachinery/pkg/util/managedfields/scalehandler.go.
type ScaleHandler struct {
	parentEntries []metav1.ManagedFieldsEntry
	// groupVersion is the parent's version in the request ("stable.example.com/v1").
	groupVersion string
	mappings     ResourcePathMappings
}

// NewScaleHandler returns a ScaleHandler for a parent with parentEntries,
// served in groupVersion.
func NewScaleHandler(parentEntries []metav1.ManagedFieldsEntry, groupVersion string, mappings ResourcePathMappings) *ScaleHandler {
	return &ScaleHandler{parentEntries: parentEntries, groupVersion: groupVersion, mappings: mappings}
}

// ToSubresource returns the entries of the Scale: each parent entry that
// owns its version's replicas path becomes one owning the Scale's
// spec.replicas; the others are left out.
func (h *ScaleHandler) ToSubresource() ([]metav1.ManagedFieldsEntry, error) {
	managed, err := DecodeManagedFields(h.parentEntries)
	if err != nil {
		return nil, err
	}
	out := newEmptyManaged()
	for id, vs := range managed.Fields {
		p, ok := h.mappings[string(vs.APIVersion())]
		if !ok || p == nil || !vs.Set().Has(p) {
			continue
		}
		out.Fields[id] = fieldpath.NewVersionedSet(fieldpath.NewSet(replicasPathInScale), scaleAPIVersion, vs.Applied())
		out.Times[id] = managed.Times[id]
	}
	return EncodeManagedFields(out)
}

// ToParent returns the parent's entries after a Scale write whose result
// has scaleEntries: a parent entry that lost the Scale's replicas loses
// the parent's replicas path; a manager new to them (the Scale writer)
// gets an entry owning the replicas path of groupVersion. Entries of
// versions the mappings do not know are dropped.
func (h *ScaleHandler) ToParent(scaleEntries []metav1.ManagedFieldsEntry) ([]metav1.ManagedFieldsEntry, error) {
	parent, err := DecodeManagedFields(h.parentEntries)
	if err != nil {
		return nil, err
	}
	scale, err := DecodeManagedFields(scaleEntries)
	if err != nil {
		return nil, err
	}
	out := newEmptyManaged()
	for id, vs := range parent.Fields {
		p, ok := h.mappings[string(vs.APIVersion())]
		if !ok {
			continue
		}
		if p == nil || !vs.Set().Has(p) {
			out.Fields[id] = vs
			out.Times[id] = parent.Times[id]
			continue
		}
		if _, stillOwns := scale.Fields[id]; stillOwns {
			out.Fields[id] = vs
			out.Times[id] = parent.Times[id]
			delete(scale.Fields, id)
			continue
		}
		// The Scale write took the replicas from this manager.
		if s := vs.Set().Difference(fieldpath.NewSet(p)); !s.Empty() {
			out.Fields[id] = fieldpath.NewVersionedSet(s, vs.APIVersion(), vs.Applied())
			out.Times[id] = parent.Times[id]
		}
	}
	for id, vs := range scale.Fields {
		if !vs.Set().Has(replicasPathInScale) {
			continue
		}
		out.Fields[id] = fieldpath.NewVersionedSet(fieldpath.NewSet(h.mappings[h.groupVersion]), fieldpath.APIVersion(h.groupVersion), vs.Applied())
		// The time is the parent entry's, as upstream has it: none for a
		// manager new to the parent.
		out.Times[id] = parent.Times[id]
	}
	return EncodeManagedFields(out)
}
