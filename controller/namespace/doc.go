// Package namespace holds the NamespaceController: it empties a deleted
// namespace of every object, custom resources included, and then lets the
// namespace go. Upstream it runs in kube-controller-manager; crdlab runs
// it inside the server, on its own informer and workqueue.
//
// Vocabulary:
//   - Deleting a namespace does not remove it: the namespace storage sets
//     deletionTimestamp and phase Terminating. Every namespace has the
//     finalizer token "kubernetes" in spec.finalizers (not
//     metadata.finalizers), and the namespace stays until that list is
//     empty. Admission (NamespaceLifecycle) refuses creates in it (403).
//   - The controller's queue holds the names of namespaces with a
//     deletionTimestamp. A sync (NamespacedResourcesDeleter.Delete) asks
//     discovery for every namespaced resource that can be deleted
//     (built-in and custom: ServerPreferredNamespacedResources), deletes
//     each resource's objects in the namespace with one deletecollection
//     (or a list and a delete each, for a resource without the verb), with
//     propagationPolicy Background, then lists what is left.
//   - Nothing left: the controller removes "kubernetes" from
//     spec.finalizers through the /finalize subresource; with no
//     finalizer left, that write deletes the namespace.
//   - Objects left that carry finalizers (the garbage collector's
//     foregroundDeletion, an operator's own) are expected: the sync
//     returns a ResourcesRemainingError and the namespace is looked at
//     again after half the estimate (15 s per finalizer wait, so 8 s).
//     Objects left without finalizers, or a failed delete, are errors:
//     the namespace is retried with backoff (5 ms doubling, at most a
//     minute).
//   - Conditions: each pass writes upstream's five conditions on the
//     namespace status (NamespaceContentRemaining: "Some resources are
//     remaining: crontabs.stable.example.com has 3 resource instances",
//     …), True with a reason when something is wrong, else False.
//
// Tracing (actor "namespace": sync, delete, status, finalize) and the
// measured figures: docs/controllers.md.
//
// Upstream:
//   - k8s.io/kubernetes/pkg/controller/namespace/namespace_controller.go
//     (NamespaceController, enqueueNamespace, worker,
//     syncNamespaceFromKey, nsControllerRateLimiter)
//   - k8s.io/kubernetes/pkg/controller/namespace/deletion/namespaced_resources_deleter.go
//     (Delete, deleteAllContent, deleteAllContentForGroupVersionResource,
//     deleteCollection, listCollection, deleteEachItem, finalizeNamespace,
//     retryOnConflictError, ResourcesRemainingError)
//   - …/deletion/status_condition_utils.go (namespaceConditionUpdater)
//
// Differences from upstream (also in docs/controllers.md):
//   - DeletionGracePeriod is 0: upstream waits 5 s so that other
//     apiservers and lagging etcd members see the deletion first; one
//     crdlab server has no such lag (HADeletionGracePeriod keeps the knob).
//   - Verbs come from discovery at every sync (upstream: an opCache).
//   - No pods-first pass; resources are emptied in a sorted order.
package namespace
