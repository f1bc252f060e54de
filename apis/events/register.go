package events

import (
	"github.com/crdlab/crdlab/apis/core"
	"github.com/crdlab/crdlab/scheme"
)

// GroupName is the events.k8s.io API group.
const GroupName = "events.k8s.io"

// SchemeGroupVersion is the group's internal version.
var SchemeGroupVersion = scheme.GroupVersion{Group: GroupName, Version: scheme.APIVersionInternal}

// AddToScheme registers core.Event (the hub) as events.k8s.io's internal
// Event.
//
// Mirrors addKnownTypes in pkg/apis/events/register.go.
func AddToScheme(s *scheme.Scheme) error {
	s.AddKnownTypes(SchemeGroupVersion, &core.Event{}, &core.EventList{})
	return nil
}
