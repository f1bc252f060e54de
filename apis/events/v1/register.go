package v1

import (
	"github.com/crdlab/crdlab/apis/events"
	"github.com/crdlab/crdlab/scheme"
)

// SchemeGroupVersion is events.k8s.io/v1.
var SchemeGroupVersion = scheme.GroupVersion{Group: events.GroupName, Version: "v1"}

// AddToScheme registers the v1 types and their conversions through the
// hub. events.k8s.io/v1 has no defaults.
//
// Mirrors AddToScheme in k8s.io/api/events/v1/register.go with
// pkg/apis/events/v1's RegisterConversions.
func AddToScheme(s *scheme.Scheme) error {
	s.AddKnownTypes(SchemeGroupVersion, &Event{}, &EventList{})
	RegisterConversions(s)
	s.AddFieldLabelConversionFunc(SchemeGroupVersion.WithKind("Event"), ConvertFieldLabel)
	return nil
}
