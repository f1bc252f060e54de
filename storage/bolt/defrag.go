package bolt

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"go.etcd.io/bbolt"

	"github.com/crdlab/crdlab/storage"
)

// defragSuffix names the file Defragment writes next to the data file
// before it renames it over the data file. Open removes one a crash left.
const defragSuffix = ".defrag"

// defragChunk is how many bytes of records Defragment copies, and then
// fsyncs, per transaction while writes go on: the fsync of one chunk is
// what a concurrent commit may wait for in the disk's queue.
const defragChunk = 1 << 20

// defragMinFree is the least free space (bytes) worth a defragmentation
// after a compaction.
const defragMinFree = 1 << 20

// beginRead begins a read transaction on the data file; end it with
// endRead. Until then, Defragment does not swap the file.
func (db *DB) beginRead() (*bbolt.Tx, error) {
	db.fileMu.RLock()
	tx, err := db.bbolt.Begin(false)
	if err != nil {
		db.fileMu.RUnlock()
		return nil, err
	}
	return tx, nil
}

// endRead ends a transaction begun with beginRead, and tells the
// committer the mapped pages it read may be released (resident.go).
func (db *DB) endRead(tx *bbolt.Tx) {
	_ = tx.Rollback()
	db.fileMu.RUnlock()
	select {
	case db.read <- struct{}{}:
	default:
	}
}

// Defragment copies the data file's live pages into a new file and swaps
// it in, so the file shrinks to what history holds. bbolt reuses the pages
// a compaction frees but never gives them back to the file system; this
// is the only way to do that.
//
// Writes go on while it copies: it copies history in transactions of
// defragChunk bytes (history only grows at its end while compactMu is
// held), then hands its last step to the committer, which runs it between
// two commits: copy the records written meanwhile and the meta bucket,
// fsync the new file, rename it over the data file, fsync the directory,
// and use it from the next commit on. Writes wait only for that step;
// reads wait only for the swap itself. A crash before the rename leaves
// the old file as it was (Open removes the half-written copy); after it,
// the new file holds every acknowledged write.
//
// Mirrors etcd's defragmentation (server/storage/backend/backend.go:
// defrag, defragdb), which copies every bucket into a new file and renames
// it over the old, but holds every read and write for the whole copy.
func (db *DB) Defragment(ctx context.Context) error {
	if err := db.usable(); err != nil {
		return err
	}
	db.compactMu.Lock()
	defer db.compactMu.Unlock()
	return db.defragmentLocked(ctx)
}

// freeSpace returns the bytes of free pages inside the data file and the
// file's size in pages in use or free (its high-water mark). The caller
// holds compactMu.
func (db *DB) freeSpace() (free, size int64, err error) {
	err = db.bbolt.View(func(tx *bbolt.Tx) error {
		size = tx.Size()
		return nil
	})
	return int64(db.bbolt.Stats().FreeAlloc), size, err
}

// defragmentLocked is Defragment; the caller holds compactMu.
func (db *DB) defragmentLocked(ctx context.Context) (err error) {
	start := time.Now()
	before := fileSize(db.path)
	tmp := db.path + defragSuffix
	if err := os.Remove(tmp); err != nil && !errors.Is(err, os.ErrNotExist) {
		return &storage.Error{Kind: storage.ErrInternal, Key: "", Err: fmt.Errorf("defragment: %w", err)}
	}
	// The copy is written without fsync (and without growing the file
	// ahead of need); one fsync makes it durable before the rename.
	ndb, err := bbolt.Open(tmp, 0o600, &bbolt.Options{
		Timeout:        db.opts.LockTimeout,
		NoSync:         true,
		NoGrowSync:     true,
		NoFreelistSync: true,
		FreelistType:   bbolt.FreelistMapType,
		PageSize:       pageSize,
	})
	if err != nil {
		return &storage.Error{Kind: storage.ErrInternal, Key: "", Err: fmt.Errorf("defragment: %w", err)}
	}
	ndb.AllocSize = pageSize
	swapped := false
	defer func() {
		if !swapped {
			_ = ndb.Close()
			_ = os.Remove(tmp)
		}
		if err != nil {
			err = &storage.Error{Kind: storage.ErrInternal, Key: "", Err: fmt.Errorf("defragment: %w", err)}
		}
	}()
	if err := ndb.Update(func(tx *bbolt.Tx) error {
		if _, err := tx.CreateBucket(bucketMeta); err != nil {
			return err
		}
		_, err := tx.CreateBucket(bucketHistory)
		return err
	}); err != nil {
		return err
	}

	// Copy history while writes go on, until a chunk comes back short:
	// what is left is what was written during the last chunk.
	var last []byte
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		if err := db.usable(); err != nil {
			return err
		}
		end, err := db.copyHistory(ndb, &last, defragChunk)
		if err != nil {
			return err
		}
		// Write each chunk out now: the last step's fsync, with writes
		// held back, then has only the tail to write, and the disk sees
		// the copy as a steady stream rather than one burst.
		if err := ndb.Sync(); err != nil {
			return err
		}
		if end {
			break
		}
	}

	// The last step, in the committer: no write runs meanwhile.
	var (
		paused time.Duration
		steps  pauseSteps
		old    *bbolt.DB
	)
	done := make(chan error, 1)
	step := func() {
		t := time.Now()
		var err error
		old, err = db.finishDefragment(ndb, tmp, &last, &swapped, &steps)
		paused = time.Since(t)
		done <- err
	}
	select {
	case db.pause <- step:
	case <-db.closing:
		return storage.ErrClosed
	case <-ctx.Done():
		return ctx.Err()
	}
	err = <-done
	var closing time.Duration
	if old != nil {
		// The old file, unlinked, is closed with writes going on again.
		t := time.Now()
		if cerr := old.Close(); cerr != nil {
			db.log.Warn("defragment: closing the old file", "err", cerr)
		}
		closing = time.Since(t)
	}
	if err != nil {
		return err
	}
	db.log.Info("defragmented", "bytes_before", before, "bytes_after", fileSize(db.path),
		"took", time.Since(start), "writes_paused", paused,
		"paused_copy", steps.copy, "paused_sync", steps.sync, "paused_switch", steps.swap, "paused_syncdir", steps.syncDir,
		"old_file_closed_in", closing)
	return nil
}

// pauseSteps is how long each part of Defragment's last step took, while
// writes waited: the log line "defragmented" reports them.
type pauseSteps struct{ copy, sync, swap, syncDir time.Duration }

// finishDefragment is Defragment's last step, run by the committer between
// two commits: it copies what is left, swaps the files, sets *swapped once
// the new file is the data file and returns the old one, for the caller
// to close.
func (db *DB) finishDefragment(ndb *bbolt.DB, tmp string, last *[]byte, swapped *bool, steps *pauseSteps) (old *bbolt.DB, err error) {
	if p := db.failed.Load(); p != nil {
		return nil, fmt.Errorf("%w: %w", ErrFailed, *p)
	}
	t := time.Now()
	lap := func(d *time.Duration) { now := time.Now(); *d, t = now.Sub(t), now }
	if _, err := db.copyHistory(ndb, last, 0); err != nil {
		return nil, err
	}
	// The meta bucket (format, revision, compacted) as it is now.
	if err := db.bbolt.View(func(tx *bbolt.Tx) error {
		return ndb.Update(func(ntx *bbolt.Tx) error {
			nm := ntx.Bucket(bucketMeta)
			return tx.Bucket(bucketMeta).ForEach(func(k, v []byte) error { return nm.Put(k, v) })
		})
	}); err != nil {
		return nil, err
	}
	lap(&steps.copy)
	if err := ndb.Sync(); err != nil {
		return nil, err
	}
	lap(&steps.sync)
	if err := os.Rename(tmp, db.path); err != nil {
		return nil, err
	}
	// From here on the data file is the new one, whatever happens: the
	// old one is unlinked, and a write to it would be lost.
	*swapped = true
	ndb.NoSync = db.opts.NoSync
	ndb.NoGrowSync = false
	db.fileMu.Lock()
	old = db.bbolt
	ndb.AllocSize = old.AllocSize
	db.bbolt = ndb
	db.fileMu.Unlock()
	lap(&steps.swap)
	defer lap(&steps.syncDir)
	if err := syncDir(filepath.Dir(db.path)); err != nil {
		// The rename may not be durable: after a crash the old file
		// could come back without the writes made from now on. Refuse
		// writes, as after a failed commit.
		db.failed.Store(&err)
		db.log.Error("defragment: the rename is not durable; refusing writes until reopened", "err", err)
		return old, err
	}
	return old, nil
}

// copyHistory copies the records of the history bucket after the key
// *last into ndb's, in one transaction of each file, until it has copied
// maxBytes (0: no limit), and moves *last to the last record copied. end
// says it reached the end of history.
func (db *DB) copyHistory(ndb *bbolt.DB, last *[]byte, maxBytes int) (end bool, err error) {
	err = db.bbolt.View(func(tx *bbolt.Tx) error {
		c := tx.Bucket(bucketHistory).Cursor()
		k, v := c.First()
		if *last != nil {
			if k, v = c.Seek(*last); bytes.Equal(k, *last) {
				k, v = c.Next()
			}
		}
		if k == nil {
			end = true
			return nil
		}
		return ndb.Update(func(ntx *bbolt.Tx) error {
			h := ntx.Bucket(bucketHistory)
			h.FillPercent = 1 // keys arrive in order: fill pages up
			copied := 0
			for ; k != nil && (maxBytes == 0 || copied < maxBytes); k, v = c.Next() {
				// A stub's record goes with it (outofline.go).
				whole, err := resolve(tx, k, v)
				if err != nil {
					return fmt.Errorf("%w: %w", ErrCorrupt, err)
				}
				if isStub(v) {
					vals, err := valuesBucket(ntx)
					if err != nil {
						return err
					}
					if err := putValue(vals, k, whole); err != nil {
						return err
					}
				}
				if err := h.Put(k, v); err != nil {
					return err
				}
				*last = append((*last)[:0], k...)
				copied += len(k) + len(whole)
			}
			end = k == nil
			return nil
		})
	})
	return end, err
}

// fileSize returns the size of the file at path, or 0.
func fileSize(path string) int64 {
	fi, err := os.Stat(path)
	if err != nil {
		return 0
	}
	return fi.Size()
}
