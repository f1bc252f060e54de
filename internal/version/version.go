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
