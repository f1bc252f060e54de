// Code written by hand in the shape of upstream's generated
// zz_generated.deepcopy.go: crdlab copies by reflection (internal/deepcopy).
// Nothing to learn here.

package v1

import (
	"github.com/crdlab/crdlab/internal/deepcopy"
	"github.com/crdlab/crdlab/scheme"
)

// DeepCopyObject methods make the meta types that travel as objects satisfy
// scheme.Object.

func (in *Status) DeepCopyObject() scheme.Object                { return deepcopy.Copy(in) }
func (in *Table) DeepCopyObject() scheme.Object                 { return deepcopy.Copy(in) }
func (in *PartialObjectMetadata) DeepCopyObject() scheme.Object { return deepcopy.Copy(in) }
func (in *PartialObjectMetadataList) DeepCopyObject() scheme.Object {
	return deepcopy.Copy(in)
}
func (in *ListOptions) DeepCopyObject() scheme.Object     { return deepcopy.Copy(in) }
func (in *GetOptions) DeepCopyObject() scheme.Object      { return deepcopy.Copy(in) }
func (in *CreateOptions) DeepCopyObject() scheme.Object   { return deepcopy.Copy(in) }
func (in *UpdateOptions) DeepCopyObject() scheme.Object   { return deepcopy.Copy(in) }
func (in *PatchOptions) DeepCopyObject() scheme.Object    { return deepcopy.Copy(in) }
func (in *DeleteOptions) DeepCopyObject() scheme.Object   { return deepcopy.Copy(in) }
func (in *APIVersions) DeepCopyObject() scheme.Object     { return deepcopy.Copy(in) }
func (in *APIGroupList) DeepCopyObject() scheme.Object    { return deepcopy.Copy(in) }
func (in *APIGroup) DeepCopyObject() scheme.Object        { return deepcopy.Copy(in) }
func (in *APIResourceList) DeepCopyObject() scheme.Object { return deepcopy.Copy(in) }

// DeepCopy returns a copy of the metadata sharing no memory with m.
func (m *ObjectMeta) DeepCopy() *ObjectMeta { return deepcopy.Copy(m) }
