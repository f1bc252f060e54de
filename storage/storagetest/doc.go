// Package storagetest is the conformance suite of the storage contract
// (storage.Interface and storage.Backend): one body of tests, written
// once against the interfaces, that every engine runs (storage/bolt and
// storage/etcd3).
//
// Vocabulary: a backend factory (newBackend) returns a fresh, empty
// Backend and registers its Close with t.Cleanup; the suite asks it for a
// store of CronTab custom resources (unstructured, JSONCodec) under
// /registry/stable.example.com/crontabs and checks every method, every
// error, pagination under concurrent writes, watches from every kind of
// resourceVersion, compaction boundaries, predicate filtering, bookmarks
// and Stop.
//
// The factory's backend must send bookmarks within a few seconds of a
// change (the bbolt tests use a 50ms interval) and keep at least 64 events
// per watcher buffer.
//
// Upstream:
//   - k8s.io/apiserver/pkg/storage/testing: store_tests.go, watcher_tests.go
//     (RunTestCreate, RunTestGet, RunTestList, RunTestGuaranteedUpdate,
//     RunTestWatch… run against both the etcd3 store and the cacher)
//   - Litestream's RunWithReplicaClient: one suite, every implementation
//
// Differences from upstream: one entry point, RunConformance, instead of a
// RunTestX function per behaviour; objects are always unstructured.
package storagetest
