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
