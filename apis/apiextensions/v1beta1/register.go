package v1beta1

import (
	"github.com/crdlab/crdlab/scheme"
)

// GroupName is the API group of CustomResourceDefinitions.
const GroupName = "apiextensions.k8s.io"

// SchemeGroupVersion is apiextensions.k8s.io/v1beta1.
var SchemeGroupVersion = scheme.GroupVersion{Group: GroupName, Version: "v1beta1"}

// AddToScheme registers the v1beta1 types, their conversions to and from the
// internal version, and their defaulting functions.
//
// Mirrors AddToScheme in pkg/apis/apiextensions/v1beta1/register.go (types,
// generated conversions, generated defaulters).
func AddToScheme(s *scheme.Scheme) error {
	s.AddKnownTypes(SchemeGroupVersion,
		&CustomResourceDefinition{},
		&CustomResourceDefinitionList{},
	)
	RegisterConversions(s)
	RegisterDefaults(s)
	return nil
}
