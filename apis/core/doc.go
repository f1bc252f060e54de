// Package core is the internal (hub) version of the legacy core API group
// ("", served under /api/v1), reduced to the kinds crdlab's kube-apiserver
// link serves: Namespace, Secret, ConfigMap and Event (and List).
//
// Vocabulary: a Namespace scopes the names of namespaced objects; it is
// Active, or Terminating once deleted until its spec.finalizers are empty
// (the "kubernetes" finalizer is the namespace controller's). A Secret
// holds bytes (Data), a ConfigMap strings (Data) and bytes (BinaryData);
// either may be made Immutable. An Event reports something that happened
// to an InvolvedObject; the events.k8s.io group shares this hub type, so
// core/v1 and events.k8s.io/v1 Events are two views of one stored object.
//
// Layout: types.go (the hub types, no JSON tags: they never travel),
// register.go (the group in the scheme), zz_deepcopy.go.
//
// Upstream:
//   - k8s.io/kubernetes/pkg/apis/core: types.go, register.go
//   - k8s.io/kubernetes/pkg/apis/events/register.go (core.Event registered
//     in events.k8s.io's internal version)
//
// Differences from upstream:
//   - only these kinds; Pods, Services, Nodes and the rest are not served
//     by crdlab (see docs/compatibility.md).
//   - List's items are raw JSON (upstream: runtime.Object).
//   - DeepCopy is reflective (internal/deepcopy), not generated.
package core
