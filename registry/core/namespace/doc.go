// Package namespace is the REST storage of Namespaces, with their
// lifecycle: a Namespace is created Active with the "kubernetes" finalizer
// in spec.finalizers; deleting it only marks it (deletionTimestamp, phase
// Terminating); it disappears once its spec.finalizers are empty — the
// namespace controller empties the namespace and then clears its finalizer
// through the /finalize subresource.
//
// Vocabulary: spec.finalizers (FinalizerName, "kubernetes") are the
// namespace's own finalizers, apart from metadata.finalizers, which every
// object has; /status writes only status; /finalize writes only
// spec.finalizers.
//
// Upstream:
//   - k8s.io/kubernetes/pkg/registry/core/namespace/strategy.go (Strategy,
//     StatusStrategy, FinalizeStrategy, NamespaceToSelectableFields)
//   - k8s.io/kubernetes/pkg/registry/core/namespace/storage/storage.go
//     (REST.Delete, ShouldDeleteNamespaceDuringUpdate, StatusREST,
//     FinalizeREST)
//
// Differences from upstream: the orphan and foregroundDeletion
// finalizers a delete's propagationPolicy asks for are added as upstream,
// but nothing acts on them until a garbage collector does.
package namespace
