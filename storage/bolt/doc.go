// Package bolt is crdlab's default storage engine: the storage contract
// on one bbolt file, for one process, with etcd's semantics. It is named
// after what it stores on, as storage/etcd3 is; it imports
// go.etcd.io/bbolt as bbolt.
//
// # Vocabulary
//
// A DB is the whole data file (a storage.Backend); a store is one
// resource's view of it (ForResource). A record is what one write did to
// one key (put or delete), kept in the history bucket under its revision
// (a large one in the values bucket, with its stub in history);
// a tombstone is the record of a delete and keeps the deleted state. The
// index is the in-memory map from each key to its revisions still in
// history and its latest record; a record whose value stays on disk
// (onDisk: every record at Open, and large values) has it read when
// needed (value.go). The committer is the one goroutine that
// writes: it groups writes into shared commits (group commit). A watcher
// is a running watch: catching up from history on its own goroutine,
// then live, fed by the fan-out, which hands each committed write to the
// live watchers. Check verifies the file against the index, as bbolt's
// Tx.Check; Strict runs it at Open and after each compaction.
//
// # Layout
//
//	db.go        DB, Open (the file, its format marker, the index rebuilt), Close;
//	             WrittenSince (the revision from which Options.Writer wrote every record)
//	precheck.go  the file's pages checked as bytes before bbolt maps them
//	record.go    a record's bytes on disk (with its CRC-32C)
//	outofline.go large records in the values bucket (each in a bucket of its own), their stubs in history
//	memo.go      the decoded objects readers leave on records, forgotten when idle
//	index.go     the in-memory index
//	value.go     values read from the file when needed (records onDisk)
//	resident.go  the mapped file's pages released from the resident set
//	commit.go    the committer: conditions, revisions, group commit
//	store.go     Create, Get, GuaranteedUpdate, Delete, Count
//	list.go      GetList: reads at a revision, a page at a time (decoded, or the stored bytes)
//	watch.go     Watch: catching up from history, then live
//	fanout.go    the fan-out to live watchers, bookmarks, slow watchers
//	bookmarks.go when each watcher's next BOOKMARK is due
//	queue.go     a watcher's events waiting for its reader (TryNext, ResultChan)
//	change.go    one write as a watcher sees it (predicate transitions)
//	compact.go   Compact and the auto-compaction loop
//	listed.go    the revisions of recent lists, which the loop keeps
//	defrag.go    Defragment: the live pages copied into a new file
//	ttl.go       expiry: the deadlines and the expirer
//	check.go     Check
//	errors.go    the data file's errors (ErrCorrupt, ErrLocked, …)
//	options.go   Options
//	trace.go     what the engine tells a tracer
//
// The on-disk layout, how a write becomes durable and visible, how a
// watch catches up without losing or repeating an event, expiry, and the
// locks are described in docs/storage.md.
//
// # Upstream
//
//   - etcd server/storage/mvcc: kvstore.go (store, restore, Compact),
//     key_index.go, index.go, revision.go, kvstore_compaction.go,
//     watchable_store.go (synced and unsynced watchers), watcher_group.go
//   - etcd server/storage/backend: batch_tx.go, backend.go (defrag),
//     config_linux.go (MAP_POPULATE, which crdlab does not set: Open
//     rebuilds from the pre-check's mapping); server/etcdserver/api/v3compactor:
//     periodic.go, revision.go
//   - k8s.io/apiserver/pkg/storage/etcd3/store.go and cacher: cacher.go
//     (dispatchEvents, bookmarks), cache_watcher.go, watch_cache.go
//   - go.etcd.io/bbolt: Tx.Check and StrictMode (here Check, Options.Strict)
//   - etcd server/lease/lessor.go: runLoop (here the expirer)
//
// # Differences from upstream
//
// One process, one file: no Raft, no WAL, acknowledged after bbolt's
// commit. Compaction defragments the file by itself, online. The index
// is the watch cache: any revision not compacted can be watched from, so
// a slow watcher, closed without an error as the cacher closes one, is
// replayed what it missed when its client watches again (more in
// docs/storage.md). Upstream's watch cache
// keeps every object decoded; here the index keeps the bytes, and an
// object decoded for a read stays on its record only while readers keep
// asking for it (memo.go, Options.MemoIdle).
package bolt
