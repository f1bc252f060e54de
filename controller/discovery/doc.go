// Package discovery holds the DiscoveryController: it keeps what
// /apis/<group> and /apis/<group>/<version> (and the aggregated /apis
// document client-go asks for first) say about CRDs in step with the
// Established CRDs.
//
// Vocabulary: the controller's key is a group version, not a CRD: a
// change to one CRD queues every version it lists (before and after the
// change), and the sync of a group version rebuilds its whole resource
// list from the lister — one apiresource.Resource per Established CRD of
// the group that serves the version, named by its accepted names, plus
// its status and scale subresources. A group version with no resource
// left is removed, and a group goes with its last version; so a CRD
// appears in discovery once Established and disappears when it is
// deleted (while it is Terminating it stays, with only the verbs that
// still work: delete, deletecollection, get, list, watch).
//
// Before serving, Run syncs every group version once (HasSynced turns
// true after), so that a restarted server advertises every CRD before it
// reports ready.
//
// Tracing: with controller.Options.Tracer set, the controller's queue
// ("DiscoveryController", keyed by group version) emits workqueue events
// and each sync a "sync" event (actor "discovery") and a "publish" event:
// "published /apis/stable.example.com/v1: crontabs" or "removed
// /apis/stable.example.com/v1". Run's initial sync, which does not go
// through the queue, emits only the "publish" events.
//
// Upstream:
//   - k8s.io/apiextensions-apiserver/pkg/apiserver/customresource_discovery_controller.go
//     (DiscoveryController, sync, enqueue, Run's initial sync)
//   - k8s.io/apiserver/pkg/endpoints/discovery/aggregated/handler.go
//     (ResourceManager: AddGroupVersion, RemoveGroupVersion)
//
// Differences from upstream:
//   - One ResourceManager, an interface the controller owns (apiserver
//     passes the handler's discovery.Manager), holds both the legacy
//     documents and the aggregated one; upstream updates a version
//     handler, a group handler and the aggregated manager one by one.
//   - A group version is advertised iff it has at least one resource
//     (upstream can list a version in /apis/<group> whose own document is
//     404 — never for CRDs, since an Established CRD serving the version is
//     its resource).
//   - The apiextensions.k8s.io group is never touched: its document is the
//     built-in customresourcedefinitions, and a CRD naming that group must
//     not replace it.
//   - CRD group versions get no priority of their own (upstream sets
//     1000/100 for the aggregated document's order); the Manager orders
//     them by name after the built-in group.
package discovery
