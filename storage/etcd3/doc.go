// Package etcd3 is storage.Backend and storage.Interface on an etcd v3
// cluster: the second implementation of the storage contract, next to the
// bbolt DB of package storage, and the one several crdlab servers can
// share (`crdlab serve --storage=etcd --etcd-servers=... --etcd-prefix=...`).
//
// It passes the same conformance suite (storagetest.RunConformance)
// against a real etcd that its tests start (etcdtest).
//
// # Mapping
//
//   - resourceVersion = the etcd ModRevision of the key; a backend's
//     revision is etcd's cluster-wide revision, so every write through any
//     server gets the next one.
//   - Create: Txn If(CreateRevision(key) == 0) Then(Put).
//   - GuaranteedUpdate and Delete: read, check preconditions, call
//     tryUpdate (or validateDeletion), then Txn If(ModRevision(key) ==
//     read revision) Then(Put or Delete) Else(Get); a failed compare starts
//     again with the state the Else branch returned, without another read.
//   - Get, GetList, Count: linearizable range requests. A list is paged
//     with WithLimit at one revision: the first page's header revision is
//     kept in the continue token (upstream's token format) and every later
//     page reads WithRev(it). etcd answers ErrCompacted (→ Expired, 410)
//     and ErrFutureRev (→ TooLargeResourceVersion) itself.
//   - Watch: an etcd watch WithRev(rv+1) and WithPrevKV; the previous
//     value tells predicate transitions (ADDED when an object starts
//     matching, DELETED with its previous state when it stops) and is the
//     object of a DELETED event. A watch from "" or "0" first sends the
//     current state (paged reads at one revision S) and then watches from
//     S+1; with SendInitialEvents it ends the initial state with the
//     initial-events-end bookmark. A compacted start is Expired (checked
//     with a read at rv before the watch starts, as etcd itself accepts a
//     watch from the compacted revision), or an ERROR event with a 410
//     Status when etcd cancels the watch for compaction.
//   - Bookmarks: etcd progress notifications (WithProgressNotify) become
//     BOOKMARK events when the watch allows them. etcd sends them to idle,
//     synced watchers every --experimental-watch-progress-notify-interval
//     (default 10 minutes; kube-apiserver deployments set it to about 5s,
//     the tests to 200ms).
//   - Keys: crdlab keys live under storage.KeyRoot (/registry); the
//     backend replaces that root by Config.Prefix (--etcd-prefix), so the
//     default prefix /registry keeps the keys as they are, and servers that
//     share a prefix share their objects.
//
// Mirrors k8s.io/apiserver/pkg/storage/etcd3: store.go (Create,
// GuaranteedUpdate, conditionalDelete, GetList) and watcher.go (watchChan,
// transform). Unlike upstream there is no watch cache (cacher) in front:
// every watch is an etcd watch, multiplexed by the client on one gRPC
// stream, and every object is decoded per watcher.
//
// # Several servers on one etcd
//
// Every server reads and writes etcd directly and has no state of its own
// that another server would have to see: the CRD informer of each server
// lists and watches CRDs through its own storage, so a CRD created through
// one server is served by every server once its informer has seen it.
//
// The controllers (naming, establishing, finalizer, non-structural schema,
// API approval) run in every server at once. That is safe without leader
// election because each one is idempotent and level-based, and each writes
// with optimistic concurrency: an update carries the resourceVersion it
// was computed from, and etcd's compare on ModRevision turns a race
// between two servers into a 409 Conflict for the loser, which requeues,
// reads the new state, and finds nothing left to do (or does the same
// thing again, harmlessly). The finalizer deleting custom resources may
// race with another server's: a NotFound on delete is success for it.
// The cost is duplicated work (N servers do each reconcile), not wrong
// results; upstream kube-apiserver runs these controllers in every
// apiserver the same way, without leader election.
//
// EstablishingController: with --storage=etcd the server sets its
// EstablishDelay to upstream's HAEstablishDelay (5 s). A CRD's
// Established condition tells clients its resources are served; with one
// server the CRD handler serves them as soon as it sees the CRD, but with
// several, a client that sees Established through one server may send its
// next request to another whose informer has not caught up yet. Upstream
// waits 5 s when it runs more than one apiserver (MasterCount > 1); crdlab
// cannot know how many servers share the etcd, so it always waits with
// etcd storage: CRDs take 5 s to become Established, the price of never
// answering 404 for an Established CRD's resources.
//
// Compaction: the backend compacts only when asked (Backend.Compact);
// crdlab's --compaction-interval applies to bbolt. With etcd, let etcd
// compact itself (etcd --auto-compaction-mode=periodic
// --auto-compaction-retention=5m), as one compactor for every server.
//
// # Dependency
//
// go.etcd.io/etcd/client/v3 (with its gRPC and protobuf dependencies) is
// the one dependency this package adds to the module: the etcd v3 API is
// gRPC, and its official client brings the balancer, the watch stream
// multiplexing and the error mapping crdlab would otherwise reimplement.
// It is not a k8s.io module: crdlab still imports nothing from k8s.io.
package etcd3
