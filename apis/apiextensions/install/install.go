// Package install registers the apiextensions.k8s.io group — the internal
// hub, v1 and v1beta1 — into a scheme, preferring v1.
//
// Upstream:
//   - k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/install/install.go
//
// Differences from upstream: Install panics on a registration error, as
// upstream's utilruntime.Must does, and takes the scheme as an argument
// (there is no package-level Scheme in crdlab).
package install

import (
	"github.com/crdlab/crdlab/apis/apiextensions"
	v1 "github.com/crdlab/crdlab/apis/apiextensions/v1"
	"github.com/crdlab/crdlab/apis/apiextensions/v1beta1"
	"github.com/crdlab/crdlab/scheme"
)

// Install registers the group's types, conversions and defaults in s and
// sets the version priority to v1, v1beta1.
func Install(s *scheme.Scheme) {
	must(apiextensions.AddToScheme(s))
	must(v1beta1.AddToScheme(s))
	must(v1.AddToScheme(s))
	must(s.SetVersionPriority(v1.SchemeGroupVersion, v1beta1.SchemeGroupVersion))
}

func must(err error) {
	if err != nil {
		panic(err)
	}
}
