package apiextensions

import "github.com/crdlab/crdlab/scheme"

// GroupName is the API group of CustomResourceDefinitions.
const GroupName = "apiextensions.k8s.io"

// SchemeGroupVersion is the internal (hub) version of the group.
var SchemeGroupVersion = scheme.GroupVersion{Group: GroupName, Version: scheme.APIVersionInternal}

// Resource returns the group-qualified resource.
func Resource(resource string) scheme.GroupResource {
	return scheme.GroupResource{Group: GroupName, Resource: resource}
}

// AddToScheme registers the internal types.
//
// Mirrors addKnownTypes in pkg/apis/apiextensions/register.go.
func AddToScheme(s *scheme.Scheme) error {
	s.AddKnownTypes(SchemeGroupVersion,
		&CustomResourceDefinition{},
		&CustomResourceDefinitionList{},
	)
	return nil
}
