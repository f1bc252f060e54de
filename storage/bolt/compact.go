package bolt

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"go.etcd.io/bbolt"

	"github.com/crdlab/crdlab/storage"
)

// Compact forgets history before rev: afterwards the state at rev and
// after is readable, and reads and watches from before rev answer Expired.
// Of each key it keeps the last write at or before rev (unless it is a
// delete) and every write after rev.
//
// In order: the new compacted revision is committed to meta (so that a
// crash cannot bring the forgotten history back as readable); the index
// forgets the revisions (compactIndex, holding mu for compactChunk keys at
// a time); then the committer deletes the records from disk, in the
// commits of writes (deleteJob), so that no write waits for a transaction
// of the compaction's.
// A crash between the last two steps is finished by the next Open. If it
// leaves at least Options.DefragmentFree of the file free, the file is
// then defragmented (Defragment).
//
// Errors: TooLargeResourceVersion for a revision not reached yet, Expired
// for one at or before the compacted revision (as etcd's ErrCompacted).
//
// Mirrors (*store).Compact in etcd's kvstore.go and kvstore_compaction.go.
func (db *DB) Compact(ctx context.Context, rev int64) error {
	if err := db.usable(); err != nil {
		return err
	}
	db.compactMu.Lock()
	defer db.compactMu.Unlock()
	cur, compacted := db.state()
	if rev > cur {
		return storage.NewTooLargeResourceVersionError(rev, cur)
	}
	if rev <= compacted {
		return storage.NewExpiredError(rev, compacted)
	}
	if err := ctx.Err(); err != nil {
		return &storage.Error{Kind: storage.ErrTimeout, Key: "", Msg: "the request ended before the compaction: " + err.Error()}
	}
	start := time.Now()
	err := db.bbolt.Update(func(tx *bbolt.Tx) error {
		return tx.Bucket(bucketMeta).Put(metaCompacted, u64(rev))
	})
	if err != nil {
		return &storage.Error{Kind: storage.ErrInternal, Key: "", Err: fmt.Errorf("compact: %w", err)}
	}
	db.mu.Lock()
	db.compacted = rev
	db.mu.Unlock()
	dropped := db.compactIndex(rev)
	if len(dropped) > 0 {
		// The committer deletes the records, in the commits of writes.
		job := &deleteJob{revs: dropped, done: make(chan struct{})}
		select {
		case db.deletes <- job:
			select {
			case <-job.done:
			case <-db.closing: // the next Open deletes the rest
			}
		case <-db.closing:
		}
		if p := db.failed.Load(); p != nil {
			return &storage.Error{Kind: storage.ErrInternal, Key: "", Err: fmt.Errorf("compact: %w: %w", ErrFailed, *p)}
		}
	}
	defrag := false
	if db.opts.DefragmentFree >= 0 {
		free, size, err := db.freeSpace()
		defrag = err == nil && free >= defragMinFree && float64(free) >= db.opts.DefragmentFree*float64(size)
	}
	db.log.Info("compacted", "revision", rev, "records_deleted", len(dropped), "took", time.Since(start), "defragment", defrag)
	if defrag {
		// A failed defragmentation leaves the file as it was: the
		// compaction itself succeeded.
		if err := db.defragmentLocked(ctx); err != nil {
			db.log.Error("defragmentation after compaction failed", "err", err)
		}
	}
	if db.opts.Strict {
		return db.checkLocked()
	}
	return nil
}

// compactChunk is how many keys compactIndex trims per hold of mu, and
// how many records Open deletes per transaction when it finishes a
// compaction a crash interrupted.
const compactChunk = 512

// compactIndex forgets in the index the revisions that compaction at rev
// drops, and returns them in increasing order. It holds mu for
// compactChunk keys at a time, so that commits and reads go on between:
// db.compacted is already rev, so no read needs what is still to be
// forgotten, and a key created meanwhile has nothing at or before rev.
func (db *DB) compactIndex(rev int64) []int64 {
	var revs []int64
	for from := ""; ; {
		db.mu.Lock()
		var gone []string
		next, n := "", 0
		db.index.ascend(from, func(ki *keyIndex) bool {
			if n == compactChunk {
				next = ki.key
				return false
			}
			n++
			revs = append(revs, ki.compact(rev)...)
			if len(ki.revs) == 0 {
				gone = append(gone, ki.key)
			}
			return true
		})
		for _, k := range gone {
			db.index.remove(k)
		}
		db.mu.Unlock()
		if next == "" {
			slices.Sort(revs)
			return revs
		}
		from = next
	}
}

// deleteRevisions deletes the records at revs from the history bucket. It
// stops early if the DB is closing: the next Open deletes the rest.
func (db *DB) deleteRevisions(revs []int64) error {
	for len(revs) > 0 && db.usable() == nil {
		n := min(len(revs), compactChunk)
		err := db.bbolt.Update(func(tx *bbolt.Tx) error {
			h := tx.Bucket(bucketHistory)
			for _, r := range revs[:n] {
				if err := deleteRecord(tx, h, revKey(r)); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			return err
		}
		revs = revs[n:]
	}
	return nil
}

// revSample is the current revision at one moment, for age retention.
type revSample struct {
	at  time.Time
	rev int64
}

// runCompactor compacts history every CompactInterval to the window set by
// RetainRevisions and RetainAge, if any, but not past the revision of a
// list of the current state, or of a watch begun from now, in the last
// KeepListed (listed.go).
//
// Mirrors etcd's auto-compactors (server/etcdserver/api/v3compactor:
// revision.go keeps the last N revisions; periodic.go samples the revision
// as time passes and compacts to the sample older than the retention).
// As in etcd, samples live in memory: after a restart, age retention
// starts counting again.
func (db *DB) runCompactor() {
	defer db.wg.Done()
	if db.opts.RetainRevisions <= 0 && db.opts.RetainAge <= 0 {
		return
	}
	tick := time.NewTicker(db.opts.CompactInterval)
	defer tick.Stop()
	var samples []revSample
	for {
		select {
		case <-db.closing:
			return
		case now := <-tick.C:
			cur, compacted := db.state()
			samples = append(samples, revSample{now, cur})
			var target int64
			target, samples = compactionTarget(samples, now, cur, db.opts.RetainRevisions, db.opts.RetainAge)
			if listed := db.listed.oldest(now); listed > 0 && listed < target {
				target = listed // a recent list's watch may still come
			}
			if target <= compacted {
				continue
			}
			if err := db.Compact(context.Background(), target); err != nil && !errors.Is(err, storage.ErrExpired) {
				db.log.Error("auto-compaction failed", "revision", target, "err", err)
			}
		}
	}
}

// compactionTarget returns the revision to compact to now (0 for none)
// and the samples still needed. A revision is forgotten only once it is
// outside every configured window: older than the last keepRevs
// revisions, and older than the newest sample taken at least keepAge ago.
func compactionTarget(samples []revSample, now time.Time, cur, keepRevs int64, keepAge time.Duration) (int64, []revSample) {
	target := int64(-1) // -1: no window has spoken yet
	if keepRevs > 0 {
		target = max(cur-keepRevs, 0)
	}
	if keepAge > 0 {
		// The newest sample taken at least keepAge ago; drop older ones.
		i := -1
		for j, s := range samples {
			if now.Sub(s.at) >= keepAge {
				i = j
			}
		}
		byAge := int64(0)
		if i >= 0 {
			byAge = samples[i].rev
			samples = samples[i:]
		}
		if target < 0 || byAge < target {
			target = byAge
		}
	}
	return max(target, 0), samples
}
