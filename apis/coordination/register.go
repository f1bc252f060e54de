package coordination

import "github.com/crdlab/crdlab/scheme"

// GroupName is the coordination.k8s.io API group.
const GroupName = "coordination.k8s.io"

// SchemeGroupVersion is the group's internal version.
var SchemeGroupVersion = scheme.GroupVersion{Group: GroupName, Version: scheme.APIVersionInternal}

// Resource returns the group-qualified resource.
func Resource(resource string) scheme.GroupResource {
	return scheme.GroupResource{Group: GroupName, Resource: resource}
}

// AddToScheme registers the internal types.
func AddToScheme(s *scheme.Scheme) error {
	s.AddKnownTypes(SchemeGroupVersion, &Lease{}, &LeaseList{})
	return nil
}
