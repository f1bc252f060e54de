// Package version orders API version names as Kubernetes does: GA before
// beta before alpha, higher numbers first, and names that are not kube
// versions ("foo1") last, in lexical order. Discovery lists a group's
// versions in this order, and a deprecated CRD version's warning names the
// best served version to use instead.
//
// Vocabulary: a kube version is v<major>[(alpha|beta)<minor>] ("v1",
// "v2beta1"); CompareKubeAwareVersionStrings says which of two has the
// higher priority.
//
// Upstream:
//   - k8s.io/apimachinery/pkg/version/helpers.go
//
// Differences from upstream: no Info (the server's version is
// internal/version's).
package version
