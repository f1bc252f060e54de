// Code written by hand in the shape of upstream's generated
// zz_generated.deepcopy.go: one DeepCopyObject per kind. Nothing to learn
// here; skip it.

package core

import (
	"github.com/crdlab/crdlab/internal/deepcopy"
	"github.com/crdlab/crdlab/scheme"
)

func (in *Namespace) DeepCopyObject() scheme.Object     { return deepcopy.Copy(in) }
func (in *NamespaceList) DeepCopyObject() scheme.Object { return deepcopy.Copy(in) }
func (in *Secret) DeepCopyObject() scheme.Object        { return deepcopy.Copy(in) }
func (in *SecretList) DeepCopyObject() scheme.Object    { return deepcopy.Copy(in) }
func (in *ConfigMap) DeepCopyObject() scheme.Object     { return deepcopy.Copy(in) }
func (in *ConfigMapList) DeepCopyObject() scheme.Object { return deepcopy.Copy(in) }
func (in *Event) DeepCopyObject() scheme.Object         { return deepcopy.Copy(in) }
func (in *EventList) DeepCopyObject() scheme.Object     { return deepcopy.Copy(in) }
func (in *List) DeepCopyObject() scheme.Object          { return deepcopy.Copy(in) }
