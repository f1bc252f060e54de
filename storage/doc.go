// Package storage is the store under every object crdlab keeps: a
// versioned key-value store on one bbolt file, with etcd's semantics
// (one revision counter, history, compaction, watches from any revision)
// and the parts of kube-apiserver's storage layer that sit on top of etcd
// (storage.Interface, the etcd3 store, the cacher's watch fan-out).
//
// # Vocabulary
//
// A key is the path of one object, readable as upstream's:
// /registry/<group>/<resource>/[<namespace>/]<name>, e.g.
// /registry/stable.example.com/crontabs/default/my-cron (ResourcePrefix
// and ObjectKey build them). A revision is a number the whole DB gives to
// each write, one more than the last; the written object's
// metadata.resourceVersion is that number in decimal. A record is what one
// write did to one key (put or delete); history is every record not yet
// compacted. A tombstone is the record of a delete: it keeps the deleted
// state. Compaction forgets history before a revision. A watcher is a
// running watch; the fan-out hands committed writes to watchers. A Backend
// (DB) is the whole file; an Interface (store) is one resource's view of
// it, with its codec.
//
// # On disk
//
// One bbolt file with two buckets:
//
//	meta     format    = "crdlab.storage/v1"   (Open refuses files without it)
//	         revision  = 8 bytes big-endian     (the last committed revision)
//	         compacted = 8 bytes big-endian     (history starts here)
//	history  <revision, 8 bytes big-endian> → record
//
// A record (record.go) holds the key, put or delete, the revision that
// created the key's current generation, the revision of the key's previous
// write, the encoded object without its resourceVersion (for a delete: the
// last state), and a CRC-32C over all of it and its revision. History is
// append-only: revisions are bbolt keys in increasing order, so a commit
// appends to the last page, and a watch replays history with one cursor.
// The user's key is inside the record, as in etcd, whose "key" bucket is
// also keyed by revision. bbolt makes each commit atomic (copy-on-write
// pages, then a meta page swap, fsync after each): after a crash the file
// holds every committed transaction and nothing of the others.
//
// # Revisions and resourceVersion
//
// Every write goes to one committer goroutine (commit.go). It checks each
// write's condition (Create: the key does not exist; GuaranteedUpdate and
// Delete: the key is still at the revision the caller read, etcd's
// If(ModRevision(key) == n)), gives the accepted ones the next revisions,
// and commits them in one bbolt transaction (group commit: while one
// commit waits for fsync, the next batch gathers). Only after the commit
// returns does it apply the records to the in-memory index, hand them to
// the fan-out and answer the writers: a write is acknowledged only once it
// is on disk, and every read that starts after the acknowledgement sees it.
// A conflicting write is answered "modified", and GuaranteedUpdate reads
// again and retries, as upstream's etcd3 store does.
//
// The in-memory index (index.go) maps each key to the revisions of its
// writes still in history and to its latest record; it is rebuilt from the
// history bucket at Open, every record's checksum checked, and Check
// compares it with the disk. A read at the latest revision (Get, a list
// with resourceVersion "" or "0") is served from the latest records; a
// read at an older revision N finds, for each key, its last write at or
// before N in the index and reads that record from history. A list's
// continue token carries its revision, so every page is read at the same
// revision.
//
// Compaction at revision C (compact.go) keeps, of each key, its last write
// at or before C (unless it is a delete) and everything after C. Reads and
// watches at C or later are unaffected; those before C answer Expired
// (410), never a partial answer. It commits the new compacted revision
// first, then trims the index, then deletes records in small transactions;
// Open finishes a compaction a crash interrupted.
//
// # Watches: catching up, then live
//
// A watch from resourceVersion N gets every change after N, in revision
// order, exactly once; one from "" or "0" first gets the state at the
// current revision S as ADDED events, then every change after S. Its own
// goroutine sends the initial state (a list at S) and replays history
// after S (or N) from the history bucket, at the pace of its reader
// ("unsynced", in etcd's words). When it has sent everything the fan-out
// has dispatched, it joins the fan-out under the lock the fan-out
// dispatches under, noting the revision it reached; from then on the
// fan-out goroutine gives it every later event ("synced"). No event is
// lost or sent twice between the two phases, and a slow replay never holds
// anyone up.
//
// The fan-out (fanout.go) decodes each committed object once per store and
// shares it among that store's watchers (the objects are read-only), turns
// predicate transitions into ADDED/DELETED, and puts events into each
// watcher's buffered channel without waiting. A watcher whose buffer is
// full is closed with an ERROR event (410 Expired, "fell behind"): the
// client lists again, as with upstream's cacher; writers and other
// watchers never wait for it. Watchers that allow bookmarks get a BOOKMARK
// (an empty object with only a resourceVersion) every BookmarkInterval, so
// idle ones move on; a watch-list (SendInitialEvents) always gets one,
// annotated k8s.io/initial-events-end, after its initial events.
//
// # Upstream
//
//   - etcd server/storage/mvcc: kvstore.go (store, restore, Compact),
//     key_index.go (keyIndex: revisions and generations of a key),
//     index.go (treeIndex), revision.go (revisions as bbolt keys),
//     kvstore_compaction.go (compaction in batches),
//     watchable_store.go (synced and unsynced watchers, catching up from
//     the backend), watcher_group.go
//   - etcd server/storage/backend: batch_tx.go (batched commits);
//     server/etcdserver/api/v3compactor: periodic.go, revision.go
//   - k8s.io/apiserver/pkg/storage: interfaces.go (Interface, ListOptions,
//     Preconditions), errors.go, selection_predicate.go, continue.go
//   - k8s.io/apiserver/pkg/storage/etcd3: store.go (Create, Get, GetList,
//     GuaranteedUpdate, Delete, Watch over etcd transactions)
//   - k8s.io/apiserver/pkg/storage/cacher: cacher.go (dispatchEvents,
//     bookmarks, terminating slow watchers), cache_watcher.go
//     (convertToWatchEvent), watch_cache.go (decoded objects shared
//     between watchers)
//   - go.etcd.io/bbolt: Tx.Check and StrictMode (here Check and
//     Options.Strict)
//
// # Differences from upstream
//
//   - One process, one file: no Raft, no WAL. Durability is bbolt's commit
//     (two fsyncs); etcd acknowledges after its WAL fsync and commits bbolt
//     in the background.
//   - No transactions over several keys: a revision has no sub-revisions.
//   - The index is a map plus sorted chunks, not a B-tree; generations are
//     folded into one revision list per key.
//   - Tombstones keep the deleted state (etcd's keep only the key), so a
//     DELETED event needs no lookup of the previous revision.
//   - The watch cache is the index itself: latest records and their
//     decoded objects are in memory, and watches replay older history from
//     disk rather than from a ring buffer, so any revision not compacted
//     can be watched from.
//   - Slow watchers are closed with a 410 ERROR event, where the cacher
//     closes them silently after a grace period; etcd moves them back to
//     "unsynced" instead.
//   - A watch from a future revision waits for it (etcd's behaviour);
//     the cacher waits up to 3s, then answers TooLargeResourceVersion.
//   - GetList honours Limit for every resourceVersion (the cacher ignores
//     it for "0"); RemainingItemCount is set when there is no predicate.
//   - Not implemented: the consistent-read-from-cache proxy protocol
//     (ProgressNotify / RequestWatchProgress), encryption at rest,
//     defragmentation, quota (etcd's --quota-backend-bytes), and storage
//     of several versions of an object.
//
// # Locks
//
// DB.mu guards the index, the current and compacted revisions; fanout.mu
// guards the live watchers and the dispatched revision; nobody holds
// either while waiting for disk or for a reader. DB.compactMu serialises
// compactions and Check.
package storage
