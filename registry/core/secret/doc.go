// Package secret is the REST storage of Secrets: namespaced, kept under
// /registry/secrets, validated as upstream (keys, 1 MiB, the keys a typed
// Secret needs, type and immutable data unchangeable), selectable by
// metadata.name, metadata.namespace and type.
//
// Upstream:
//   - k8s.io/kubernetes/pkg/registry/core/secret/strategy.go
//   - k8s.io/kubernetes/pkg/registry/core/secret/storage/storage.go
//
// Differences from upstream: no warning for a TLS Secret whose key pair
// does not parse.
package secret
