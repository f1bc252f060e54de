package builtin

import (
	"github.com/crdlab/crdlab/apis/authentication"
	authenticationv1 "github.com/crdlab/crdlab/apis/authentication/v1"
	"github.com/crdlab/crdlab/apis/authorization"
	authorizationv1 "github.com/crdlab/crdlab/apis/authorization/v1"
	"github.com/crdlab/crdlab/apis/coordination"
	coordinationv1 "github.com/crdlab/crdlab/apis/coordination/v1"
	"github.com/crdlab/crdlab/apis/core"
	corev1 "github.com/crdlab/crdlab/apis/core/v1"
	"github.com/crdlab/crdlab/apis/events"
	eventsv1 "github.com/crdlab/crdlab/apis/events/v1"
	"github.com/crdlab/crdlab/scheme"
)

// Install registers the built-in groups' types, conversions and defaults
// in s, and each group's version priority.
func Install(s *scheme.Scheme) {
	for _, add := range []func(*scheme.Scheme) error{
		core.AddToScheme, corev1.AddToScheme,
		events.AddToScheme, eventsv1.AddToScheme,
		coordination.AddToScheme, coordinationv1.AddToScheme,
		authorization.AddToScheme, authorizationv1.AddToScheme,
		authentication.AddToScheme, authenticationv1.AddToScheme,
	} {
		must(add(s))
	}
	for _, gv := range GroupVersions {
		must(s.SetVersionPriority(gv))
	}
}

// GroupVersions are the built-in group versions, in the order discovery
// lists them (core first).
var GroupVersions = []scheme.GroupVersion{
	corev1.SchemeGroupVersion,
	eventsv1.SchemeGroupVersion,
	coordinationv1.SchemeGroupVersion,
	authorizationv1.SchemeGroupVersion,
	authenticationv1.SchemeGroupVersion,
}

func must(err error) {
	if err != nil {
		panic(err)
	}
}
