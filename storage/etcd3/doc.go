// Package etcd3 is the storage engine on an etcd v3 cluster: the storage
// contract (storage.Backend, storage.Interface) next to the bbolt engine
// of storage/bolt, and the one several crdlab servers can share
// (`crdlab serve --storage=etcd --etcd-servers=... --etcd-prefix=...`).
// It passes the same conformance suite (storagetest.RunConformance)
// against a real etcd that its tests start (etcdtest).
//
// # Vocabulary
//
// A Backend is one etcd client under one key prefix (Config.Prefix, the
// --etcd-prefix that replaces storage.KeyRoot); a store is one resource's
// view of it. A resourceVersion is the etcd ModRevision of the key, so
// the revision is etcd's, shared by every server. A write is an etcd
// transaction whose compare is the contract's condition: Create is
// If(CreateRevision(key) == 0), GuaranteedUpdate and Delete are
// If(ModRevision(key) == the revision read), retried from the Else
// branch's state. A watch is an etcd watch WithRev(rv+1) and WithPrevKV;
// the previous value tells predicate transitions. A progress
// notification becomes a BOOKMARK. A lease carries the TTL of a write
// to a resource that has one: etcd deletes its keys when it runs out.
//
// # Layout
//
//	backend.go   Backend, New, CurrentRevision, Compact, the etcd → storage error mapping
//	store.go     Create, Get, GuaranteedUpdate, Delete, Count, GetList
//	watcher.go   Watch: the initial state, then etcd watch events
//	lease.go     the leases of writes with a TTL, reused as upstream's
//	etcdtest/    a real etcd for tests (/usr/bin/etcd)
//
// The mapping in detail, running several servers on one etcd (why the
// controllers need no leader election, why the EstablishingController
// waits 5 s), compaction, and why this package adds the etcd client
// dependency, are in docs/storage.md.
//
// # Upstream
//
//   - k8s.io/apiserver/pkg/storage/etcd3: store.go (Create,
//     GuaranteedUpdate, conditionalDelete, GetList), watcher.go
//     (watchChan, transform), lease_manager.go
//
// # Differences from upstream
//
//   - No watch cache (cacher) in front: every watch is an etcd watch,
//     multiplexed by the client on one gRPC stream, and every object is
//     decoded per watcher.
//   - The backend compacts only when asked; let etcd compact itself
//     (--auto-compaction-mode), as one compactor for every server.
//
// # Dependency
//
// go.etcd.io/etcd/client/v3 (with gRPC and protobuf): the etcd v3 API is
// gRPC, and its official client brings the balancer, the watch stream
// multiplexing and the error mapping crdlab would otherwise reimplement.
// It is not a k8s.io module.
package etcd3
