package core

import "github.com/crdlab/crdlab/scheme"

// GroupName is the legacy core group: the empty string, served under /api.
const GroupName = ""

// SchemeGroupVersion is the internal version of the core group.
var SchemeGroupVersion = scheme.GroupVersion{Group: GroupName, Version: scheme.APIVersionInternal}

// Resource returns the group-qualified resource.
func Resource(resource string) scheme.GroupResource {
	return scheme.GroupResource{Group: GroupName, Resource: resource}
}

// AddToScheme registers the internal types.
//
// Mirrors addKnownTypes in pkg/apis/core/register.go.
func AddToScheme(s *scheme.Scheme) error {
	s.AddKnownTypes(SchemeGroupVersion,
		&Namespace{}, &NamespaceList{},
		&Secret{}, &SecretList{},
		&ConfigMap{}, &ConfigMapList{},
		&Event{}, &EventList{},
		&List{},
	)
	return nil
}
