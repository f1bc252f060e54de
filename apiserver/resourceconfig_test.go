package apiserver

import (
	"testing"

	"github.com/crdlab/crdlab/scheme"
)

// TestResourceConfig_ExplicitResourceWins checks ResourceEnabled's rule: an
// explicit setting of a resource wins over its group version, either way,
// and a group version turned off again takes its other resources with it.
func TestResourceConfig_ExplicitResourceWins(t *testing.T) {
	on := scheme.GroupVersion{Group: "a.example.com", Version: "v1"}
	off := scheme.GroupVersion{Group: "b.example.com", Version: "v1"}
	c := NewResourceConfig()
	c.EnableVersions(on, off)
	c.DisableVersions(off)
	c.DisableResources(on.WithResource("hidden"))
	c.EnableResources(off.WithResource("shown"))

	for _, tt := range []struct {
		gvr  scheme.GroupVersionResource
		want bool
	}{
		{on.WithResource("widgets"), true},
		{on.WithResource("hidden"), false},
		{off.WithResource("widgets"), false},
		{off.WithResource("shown"), true},
	} {
		if got := c.ResourceEnabled(tt.gvr); got != tt.want {
			t.Errorf("ResourceEnabled(%s) = %v, want %v", tt.gvr, got, tt.want)
		}
	}
	if c.VersionEnabled(off) {
		t.Errorf("VersionEnabled(%s) = true after DisableVersions", off)
	}
}
