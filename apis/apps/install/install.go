// Package install registers the apps group — the internal hub, v1 and
// v1beta1 (Deployment only) — into a scheme, preferring v1.
//
// Upstream:
//   - k8s.io/kubernetes/pkg/apis/apps/install/install.go
//
// Differences from upstream: extensions/v1beta1 and apps/v1beta2 are not
// registered; the scheme is an argument, not a global.
package install

import (
	"github.com/crdlab/crdlab/apis/apps"
	v1 "github.com/crdlab/crdlab/apis/apps/v1"
	"github.com/crdlab/crdlab/apis/apps/v1beta1"
	"github.com/crdlab/crdlab/scheme"
)

// Install registers the group's types, conversions and defaults in s and
// sets the version priority to v1, v1beta1.
func Install(s *scheme.Scheme) {
	must(apps.AddToScheme(s))
	must(v1beta1.AddToScheme(s))
	must(v1.AddToScheme(s))
	must(s.SetVersionPriority(v1.SchemeGroupVersion, v1beta1.SchemeGroupVersion))
}

func must(err error) {
	if err != nil {
		panic(err)
	}
}
