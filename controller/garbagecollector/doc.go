// Package garbagecollector holds the garbage collector: it deletes the
// objects whose owners are gone, and carries out the foreground and
// orphan deletions a DELETE's propagationPolicy asked for, across
// built-in and custom resources. Upstream it runs in
// kube-controller-manager; crdlab runs it inside the server.
//
// Vocabulary:
//   - An owner is named by a dependent's metadata.ownerReferences
//     (apiVersion, kind, name, uid; blockOwnerDeletion). An owner is in
//     the dependent's namespace, or cluster-scoped.
//   - The graph (graph.go) has a node per object, by UID, with its owners
//     and its dependents. A virtual node stands for an owner that some
//     reference names but no informer has shown: the collector asks the
//     server whether it exists.
//   - The GraphBuilder (graph_builder.go) runs a monitor — an informer
//     of PartialObjectMetadata: the metadata client (client/metadata)
//     asks the server for metadata alone, so no spec or data crosses the
//     wire — per resource discovery lists with the delete, list and watch
//     verbs, and applies their events to the graph from one goroutine
//     (processGraphChanges). It queues what the collector must look at.
//   - The GarbageCollector (garbagecollector.go) has two queues of nodes.
//     attemptToDelete: a node whose owners all turn out to be gone
//     (dangling) is deleted; one with a live (solid) owner stays. A node
//     with the foregroundDeletion finalizer waits for its dependents with
//     blockOwnerDeletion: true, which are deleted (in foreground too, if
//     they own others), and then loses the finalizer. attemptToOrphan: a
//     node with the orphan finalizer has its ownerReference removed from
//     every dependent, then loses the finalizer.
//   - The policies, as the registry turns a DELETE into finalizers
//     (registry/gc.go): Background (the default) deletes the owner now,
//     the dependents after; Foreground keeps the owner, with a
//     deletionTimestamp, until its blocking dependents are gone; Orphan
//     keeps the dependents, without the reference.
//   - Sync reads discovery (every period, and whenever Resync is called:
//     crdlab's discovery controller does so when a CRD is served or not;
//     a burst of calls coalesces into one read a second at most, fewer
//     when a read is slow: resyncReadShare) and
//     starts or stops monitors.
//
// Tracing (actor "garbagecollector": the two queues, sync, delete,
// orphan, finalize; not the monitors): docs/controllers.md.
//
// Upstream: k8s.io/kubernetes/pkg/controller/garbagecollector:
// garbagecollector.go (GarbageCollector, attemptToDeleteItem, isDangling,
// processDeletingDependentsItem, orphanDependents), graph_builder.go
// (GraphBuilder, syncMonitors, processGraphChanges), graph.go,
// operations.go and patch.go, uid_cache.go (ReferenceCache).
//
// Differences from upstream (in full in docs/controllers.md):
//   - Monitors are informers of their own (not shared with other
//     controllers' typed informers) over the metadata client, JSON only;
//     the REST mapping is by group and kind, from the last discovery read.
//     Being the collector's own, they keep only what the graph reads
//     (trimToGraph: no labels, annotations or managedFields, which the
//     client does not even keep: OmitManagedFields,
//     OmitLabelsAndAnnotations), since every event of
//     every object passes through them.
//   - JSON merge patches conditional on resourceVersion (upstream tries a
//     strategic merge patch first).
//   - One lock per node; a reduced handling of ownerReferences whose
//     coordinates disagree with the observed owner.
//   - Sync also runs on Resync, coalesced to one read a second or less
//     (upstream only polls, every 30 s); no metrics, no
//     /debug/controllers.
package garbagecollector
