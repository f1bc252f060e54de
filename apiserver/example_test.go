package apiserver_test

import (
	"fmt"

	"github.com/crdlab/crdlab/apiserver"
	"github.com/crdlab/crdlab/scheme"
)

// --runtime-config turns group versions on and off, broad keys first.
func ExampleMergeAPIResourceConfigs() {
	v1 := scheme.GroupVersion{Group: "apiextensions.k8s.io", Version: "v1"}
	v1beta1 := scheme.GroupVersion{Group: "apiextensions.k8s.io", Version: "v1beta1"}

	for _, flag := range []string{"", "apiextensions.k8s.io/v1beta1=true", "api/all=false,apiextensions.k8s.io/v1beta1"} {
		overrides, _ := apiserver.ParseRuntimeConfig(flag)
		c, _ := apiserver.MergeAPIResourceConfigs(apiserver.DefaultAPIResourceConfig(), overrides, []scheme.GroupVersion{v1, v1beta1})
		fmt.Printf("%-45q v1=%v v1beta1=%v\n", flag, c.VersionEnabled(v1), c.VersionEnabled(v1beta1))
	}
	// Output:
	// ""                                            v1=true v1beta1=false
	// "apiextensions.k8s.io/v1beta1=true"           v1=true v1beta1=true
	// "api/all=false,apiextensions.k8s.io/v1beta1"  v1=false v1beta1=true
}
