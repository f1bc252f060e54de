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
