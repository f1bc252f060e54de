package authorization

import "github.com/crdlab/crdlab/scheme"

// GroupName is the authorization.k8s.io API group.
const GroupName = "authorization.k8s.io"

// SchemeGroupVersion is the group's internal version.
var SchemeGroupVersion = scheme.GroupVersion{Group: GroupName, Version: scheme.APIVersionInternal}

// Kind returns the group-qualified kind.
func Kind(kind string) scheme.GroupKind { return scheme.GroupKind{Group: GroupName, Kind: kind} }

// AddToScheme registers the internal types.
func AddToScheme(s *scheme.Scheme) error {
	s.AddKnownTypes(SchemeGroupVersion, &SelfSubjectAccessReview{}, &SelfSubjectRulesReview{})
	return nil
}
