package v1

import (
	"github.com/crdlab/crdlab/apis/apps"
	"github.com/crdlab/crdlab/scheme"
)

// SchemeGroupVersion is apps/v1.
var SchemeGroupVersion = scheme.GroupVersion{Group: apps.GroupName, Version: "v1"}

// AddToScheme registers the v1 Deployment, its conversions to and
// from the hub, and its defaults.
func AddToScheme(s *scheme.Scheme) error {
	s.AddKnownTypes(SchemeGroupVersion, &Deployment{}, &DeploymentList{})
	RegisterConversions(s)
	RegisterDefaults(s)
	return nil
}
