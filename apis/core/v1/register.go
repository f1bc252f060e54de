package v1

import (
	"github.com/crdlab/crdlab/scheme"
)

// GroupName is the legacy core group, "".
const GroupName = ""

// SchemeGroupVersion is core/v1, written "v1" in apiVersion.
var SchemeGroupVersion = scheme.GroupVersion{Group: GroupName, Version: "v1"}

// AddToScheme registers the v1 types, their conversions to and from the
// hub, and their defaults.
//
// Mirrors AddToScheme in k8s.io/api/core/v1/register.go together with
// pkg/apis/core/v1's RegisterConversions and RegisterDefaults.
func AddToScheme(s *scheme.Scheme) error {
	s.AddKnownTypes(SchemeGroupVersion,
		&Namespace{}, &NamespaceList{},
		&Secret{}, &SecretList{},
		&ConfigMap{}, &ConfigMapList{},
		&Event{}, &EventList{},
		&List{},
	)
	RegisterConversions(s)
	RegisterDefaults(s)
	return nil
}
