// Code written by hand in the shape of upstream's generated
// zz_generated.deepcopy.go: upstream generates field-by-field copies,
// crdlab copies by reflection (internal/deepcopy). Nothing to learn here.

package v1beta1

import (
	"github.com/crdlab/crdlab/internal/deepcopy"
	"github.com/crdlab/crdlab/scheme"
)

func (in *CustomResourceDefinition) DeepCopyObject() scheme.Object     { return deepcopy.Copy(in) }
func (in *CustomResourceDefinitionList) DeepCopyObject() scheme.Object { return deepcopy.Copy(in) }

// DeepCopy returns a copy sharing no memory with in.
func (in *CustomResourceDefinition) DeepCopy() *CustomResourceDefinition { return deepcopy.Copy(in) }
