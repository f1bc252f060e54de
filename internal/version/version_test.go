package version_test

import (
	"regexp"
	"testing"

	"github.com/crdlab/crdlab/internal/version"
)

// semver is the regular expression of semver.org (with an optional "v").
var semver = regexp.MustCompile(`^v(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-((?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*)(?:\.(?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*))*))?(?:\+([0-9a-zA-Z-]+(?:\.[0-9a-zA-Z-]+)*))?$`)

func TestGet(t *testing.T) {
	v := version.Get()
	if !semver.MatchString(v.GitVersion) {
		t.Errorf("GitVersion %q is not a semantic version", v.GitVersion)
	}
	if v.Major != "1" || v.Minor != "37" {
		t.Errorf("Major.Minor = %s.%s, want 1.37", v.Major, v.Minor)
	}
	if want := "v" + v.Major + "." + v.Minor + "."; v.GitVersion[:len(want)] != want {
		t.Errorf("GitVersion %q does not start with %q", v.GitVersion, want)
	}
	if v.GoVersion == "" || v.Platform == "" {
		t.Errorf("GoVersion/Platform empty: %+v", v)
	}
}
