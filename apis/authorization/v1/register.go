package v1

import (
	"github.com/crdlab/crdlab/apis/authorization"
	"github.com/crdlab/crdlab/scheme"
)

// SchemeGroupVersion is authorization.k8s.io/v1.
var SchemeGroupVersion = scheme.GroupVersion{Group: authorization.GroupName, Version: "v1"}

// AddToScheme registers the v1 types and their conversions.
func AddToScheme(s *scheme.Scheme) error {
	s.AddKnownTypes(SchemeGroupVersion, &SelfSubjectAccessReview{}, &SelfSubjectRulesReview{})
	RegisterConversions(s)
	return nil
}
