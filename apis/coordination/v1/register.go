package v1

import (
	"github.com/crdlab/crdlab/apis/coordination"
	"github.com/crdlab/crdlab/scheme"
)

// SchemeGroupVersion is coordination.k8s.io/v1.
var SchemeGroupVersion = scheme.GroupVersion{Group: coordination.GroupName, Version: "v1"}

// AddToScheme registers the v1 types and their conversions.
func AddToScheme(s *scheme.Scheme) error {
	s.AddKnownTypes(SchemeGroupVersion, &Lease{}, &LeaseList{})
	RegisterConversions(s)
	return nil
}
