package v1beta1

import (
	"github.com/crdlab/crdlab/apis/apiextensions"
	"github.com/crdlab/crdlab/scheme"
)

// GroupName is the API group of CustomResourceDefinitions.
const GroupName = "apiextensions.k8s.io"

// SchemeGroupVersion is apiextensions.k8s.io/v1beta1.
var SchemeGroupVersion = scheme.GroupVersion{Group: GroupName, Version: "v1beta1"}

// Kind returns the group-qualified kind.
func Kind(kind string) scheme.GroupKind { return SchemeGroupVersion.WithKind(kind).GroupKind() }

// Resource returns the group-qualified resource.
func Resource(resource string) scheme.GroupResource {
	return SchemeGroupVersion.WithResource(resource).GroupResource()
}

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
	s.AddConversionFunc((*CustomResourceDefinition)(nil), (*apiextensions.CustomResourceDefinition)(nil), func(in, out scheme.Object) error {
		return Convert_v1beta1_CustomResourceDefinition_To_apiextensions_CustomResourceDefinition(in.(*CustomResourceDefinition), out.(*apiextensions.CustomResourceDefinition))
	})
	s.AddConversionFunc((*apiextensions.CustomResourceDefinition)(nil), (*CustomResourceDefinition)(nil), func(in, out scheme.Object) error {
		return Convert_apiextensions_CustomResourceDefinition_To_v1beta1_CustomResourceDefinition(in.(*apiextensions.CustomResourceDefinition), out.(*CustomResourceDefinition))
	})
	s.AddConversionFunc((*CustomResourceDefinitionList)(nil), (*apiextensions.CustomResourceDefinitionList)(nil), func(in, out scheme.Object) error {
		return Convert_v1beta1_CustomResourceDefinitionList_To_apiextensions_CustomResourceDefinitionList(in.(*CustomResourceDefinitionList), out.(*apiextensions.CustomResourceDefinitionList))
	})
	s.AddConversionFunc((*apiextensions.CustomResourceDefinitionList)(nil), (*CustomResourceDefinitionList)(nil), func(in, out scheme.Object) error {
		return Convert_apiextensions_CustomResourceDefinitionList_To_v1beta1_CustomResourceDefinitionList(in.(*apiextensions.CustomResourceDefinitionList), out.(*CustomResourceDefinitionList))
	})
	s.AddTypeDefaultingFunc((*CustomResourceDefinition)(nil), func(obj scheme.Object) {
		SetObjectDefaults_CustomResourceDefinition(obj.(*CustomResourceDefinition))
	})
	s.AddTypeDefaultingFunc((*CustomResourceDefinitionList)(nil), func(obj scheme.Object) {
		SetObjectDefaults_CustomResourceDefinitionList(obj.(*CustomResourceDefinitionList))
	})
	return nil
}
