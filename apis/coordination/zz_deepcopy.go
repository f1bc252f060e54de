// Code written by hand in the shape of upstream's generated
// zz_generated.deepcopy.go. Nothing to learn here; skip it.

package coordination

import (
	"github.com/crdlab/crdlab/internal/deepcopy"
	"github.com/crdlab/crdlab/scheme"
)

func (in *Lease) DeepCopyObject() scheme.Object     { return deepcopy.Copy(in) }
func (in *LeaseList) DeepCopyObject() scheme.Object { return deepcopy.Copy(in) }
