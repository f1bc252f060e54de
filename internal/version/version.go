// Package version says which Kubernetes API crdlab speaks: /version and
// `crdlab version` answer with Get.
//
// The numbers follow the Kubernetes minor whose behaviour crdlab copies
// (1.37); GitVersion is a semantic version with a "-crdlab" pre-release
// part, so kubectl parses it and still sees that this is not upstream.
//
// Upstream:
//   - k8s.io/component-base/version: Get, base.go (gitVersion, gitMajor, gitMinor)
//
// Differences from upstream: no ldflags-stamped git commit or tree state by
// default; GitCommit, GitTreeState and BuildDate may still be set with
// -ldflags "-X github.com/crdlab/crdlab/internal/version.gitCommit=…".
package version

import (
	"fmt"
	"runtime"

	metav1 "github.com/crdlab/crdlab/apis/meta/v1"
)

// Set at build time with -ldflags -X, as upstream's base.go.
var (
	gitCommit    = ""
	gitTreeState = ""
	buildDate    = "1970-01-01T00:00:00Z"
)

// The Kubernetes version crdlab mirrors.
const (
	Major      = "1"
	Minor      = "37"
	GitVersion = "v1.37.0-crdlab"
)

// Get returns the version of this binary.
//
// Mirrors k8s.io/component-base/version.Get.
func Get() metav1.VersionInfo {
	return metav1.VersionInfo{
		Major:        Major,
		Minor:        Minor,
		GitVersion:   GitVersion,
		GitCommit:    gitCommit,
		GitTreeState: gitTreeState,
		BuildDate:    buildDate,
		GoVersion:    runtime.Version(),
		Compiler:     runtime.Compiler,
		Platform:     fmt.Sprintf("%s/%s", runtime.GOOS, runtime.GOARCH),
	}
}
