package v1

import (
	"github.com/crdlab/crdlab/scheme"
)

// GroupName is the API group of CustomResourceDefinitions.
const GroupName = "apiextensions.k8s.io"

// SchemeGroupVersion is apiextensions.k8s.io/v1.
var SchemeGroupVersion = scheme.GroupVersion{Group: GroupName, Version: "v1"}

// Resource returns the group-qualified resource.
func Resource(resource string) scheme.GroupResource {
	return SchemeGroupVersion.WithResource(resource).GroupResource()
}

// AddToScheme registers the v1 types, their conversions to and from the
// internal version, and their defaulting functions.
//
// Mirrors AddToScheme in pkg/apis/apiextensions/v1/register.go (types,
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
