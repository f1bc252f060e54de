package version_test

import (
	"slices"
	"sort"
	"testing"

	"github.com/crdlab/crdlab/machinery/version"
)

func TestCompareKubeAwareVersionStrings(t *testing.T) {
	vs := []string{"foo10", "v1alpha1", "v2", "v1beta1", "v10", "v1", "foo1", "v11beta2", "v10beta3", "v12alpha1", "v11alpha2", "v3beta1"}
	sort.Slice(vs, func(i, j int) bool { return version.CompareKubeAwareVersionStrings(vs[i], vs[j]) > 0 })
	want := []string{"v10", "v2", "v1", "v11beta2", "v10beta3", "v3beta1", "v1beta1", "v12alpha1", "v11alpha2", "v1alpha1", "foo1", "foo10"}
	if !slices.Equal(vs, want) {
		t.Errorf("got  %v\nwant %v", vs, want)
	}
}
