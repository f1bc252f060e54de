// Code written by hand in the shape of upstream's generated
// zz_generated.deepcopy.go: upstream generates field-by-field copies,
// crdlab copies by reflection (internal/deepcopy). Nothing to learn here.

package apps

import (
	"github.com/crdlab/crdlab/internal/deepcopy"
	"github.com/crdlab/crdlab/scheme"
)

func (in *Deployment) DeepCopyObject() scheme.Object     { return deepcopy.Copy(in) }
func (in *DeploymentList) DeepCopyObject() scheme.Object { return deepcopy.Copy(in) }
