// Package configmap is the REST storage of ConfigMaps: namespaced, kept
// under /registry/configmaps, validated as upstream (keys, no key in both
// data and binaryData, 1 MiB, immutable data unchangeable).
//
// Upstream:
//   - k8s.io/kubernetes/pkg/registry/core/configmap/strategy.go
//   - k8s.io/kubernetes/pkg/registry/core/configmap/storage/storage.go
package configmap
