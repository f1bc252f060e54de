package bolt

import (
	"bytes"
	"errors"
	"fmt"
	"slices"

	"go.etcd.io/bbolt"
)

// Check verifies the data file and the in-memory index against each
// other, and returns every problem found (wrapped in ErrCorrupt), or nil:
//
//   - bbolt's own page-level check (Tx.Check);
//   - the meta bucket: format marker, revision counter, compacted revision;
//   - every record: checksum, kind, revision not after the counter;
//   - every key's chain: each update names the write before it and keeps
//     its generation's createRev; each create starts a generation;
//   - compaction: of the writes at or before the compacted revision, only
//     each key's last (and only if it is a put) is left;
//   - the index: the same keys, revisions and latest values as the disk,
//     in key order, and each chunk's figures (its live keys, its latest write).
//
// It reads the whole file; writers keep going meanwhile. Strict mode runs
// it at Open and after each compaction.
//
// Mirrors bbolt's Tx.Check and StrictMode, extended to crdlab's layout.
func (db *DB) Check() error {
	if err := db.usable(); err != nil {
		return err
	}
	db.compactMu.Lock()
	defer db.compactMu.Unlock()
	return db.checkLocked()
}

// checkLocked is Check; the caller holds compactMu.
func (db *DB) checkLocked() error {
	const maxFindings = 20
	var findings []error
	report := func(format string, args ...any) {
		if len(findings) < maxFindings {
			findings = append(findings, fmt.Errorf(format, args...))
		}
	}
	err := db.bbolt.View(func(tx *bbolt.Tx) error {
		for err := range tx.Check() {
			report("bbolt: %v", err)
		}
		meta := tx.Bucket(bucketMeta)
		h := tx.Bucket(bucketHistory)
		if meta == nil || h == nil {
			report("missing the meta or history bucket")
			return nil
		}
		f := string(meta.Get(metaFormat))
		if !knownFormat(f) {
			report("meta/format is %q, want %q, %q or %q", f, formatV1, formatV2, formatV3)
		}
		if f == formatV1 && tx.Bucket(bucketValues) != nil {
			report("meta/format is %q, but the file has a values bucket (%q or later)", f, formatV2)
		}
		if len(meta.Get(metaRevision)) != 8 || len(meta.Get(metaCompacted)) != 8 {
			report("meta/revision or meta/compacted is not 8 bytes")
			return nil
		}
		diskRev, diskCompacted := getU64(meta.Get(metaRevision)), getU64(meta.Get(metaCompacted))

		// Hold mu for the rest: the index must not change while it is
		// compared. Commits go on; their records are past memRev.
		db.mu.RLock()
		defer db.mu.RUnlock()
		memRev := db.rev
		if diskCompacted != db.compacted {
			report("compacted revision: %d on disk, %d in memory", diskCompacted, db.compacted)
		}
		if diskCompacted > diskRev {
			report("compacted revision %d is after the revision counter %d", diskCompacted, diskRev)
		}
		if memRev > diskRev {
			report("memory is at revision %d, the disk at %d", memRev, diskRev)
		}

		type chain struct {
			revs      []revision
			last      *record
			compacted int // records at or before the compacted revision
		}
		keys := map[string]*chain{}
		c := h.Cursor()
		stubs := 0
		for k, v := c.First(); k != nil; k, v = c.Next() {
			r, err := decodeRecord(k, v)
			if err != nil {
				report("%v", err)
				continue
			}
			if isStub(v) {
				// The record the stub stands for (outofline.go) must be
				// whole and say what the stub says.
				stubs++
				w, err := decodeResolved(tx, k, v)
				if err != nil {
					report("%v", err)
					continue
				}
				if w.key != r.key || w.deleted != r.deleted || w.createRev != r.createRev || w.prevRev != r.prevRev || w.expires != r.expires {
					report("record %d: the values bucket's record differs from its stub in history", r.rev)
				}
				r = w
			}
			if r.rev > diskRev {
				report("record %d is after the revision counter %d", r.rev, diskRev)
			}
			if r.rev > memRev {
				continue // committed, not yet applied to the index
			}
			ch := keys[r.key]
			if ch == nil {
				ch = &chain{}
				keys[r.key] = ch
			}
			if r.rev <= diskCompacted {
				ch.compacted++
				if ch.compacted > 1 || r.deleted {
					report("key %s: record %d should have been compacted (compacted revision %d)", r.key, r.rev, diskCompacted)
				}
			} else {
				last := ch.last
				switch {
				case r.deleted && r.prevRev == 0:
					report("key %s: delete %d deletes nothing", r.key, r.rev)
				case last == nil || last.deleted:
					if r.prevRev != 0 || r.createRev != r.rev {
						report("key %s: record %d should start a generation (prev %d, create %d)", r.key, r.rev, r.prevRev, r.createRev)
					}
				case r.prevRev != last.rev || r.createRev != last.createRev:
					report("key %s: record %d follows %d (create %d), but names prev %d, create %d",
						r.key, r.rev, last.rev, last.createRev, r.prevRev, r.createRev)
				}
			}
			ch.revs = append(ch.revs, revision{rev: r.rev, tombstone: r.deleted})
			ch.last = r
		}

		// Every record of the values bucket has its stub in history.
		if vals := tx.Bucket(bucketValues); vals != nil {
			n := 0
			_ = vals.ForEach(func(k, v []byte) error {
				n++
				if v := h.Get(k); !isStub(v) {
					report("the values bucket holds a record under key %x, which history has no stub for", k)
				}
				if v != nil {
					return nil // a v2 file's plain value
				}
				if f != formatV3 {
					report("meta/format is %q, but the values bucket has a record in a bucket of its own (%q)", f, formatV3)
				}
				b := vals.Bucket(k)
				if b.Get(valueKey) == nil || b.Stats().KeyN != 1 {
					report("the bucket of the record under key %x does not hold just the record", k)
				}
				return nil
			})
			if n != stubs {
				report("history has %d stubs, the values bucket %d records", stubs, n)
			}
		}

		// The index against the disk.
		for key, ch := range keys {
			ki := db.index.get(key)
			if ki == nil {
				report("key %s is on disk but not in the index", key)
				continue
			}
			if !slices.Equal(ki.revs, ch.revs) {
				report("key %s: revisions %v in the index, %v on disk", key, ki.revs, ch.revs)
			}
			l := ki.latest
			value := l.value // an onDisk record's is the disk's, unless the committer read it
			if p := l.loaded.Load(); p != nil {
				value = *p
			} else if l.onDisk {
				value = ch.last.value
			}
			if l.rev != ch.last.rev || l.deleted != ch.last.deleted ||
				l.createRev != ch.last.createRev || l.prevRev != ch.last.prevRev || !bytes.Equal(value, ch.last.value) {
				report("key %s: the latest record in memory (%d) differs from the disk's (%d)", key, l.rev, ch.last.rev)
			}
		}
		if n := db.index.len(); n != len(keys) {
			report("the index has %d keys, the disk %d", n, len(keys))
		}
		var prev string
		n := 0
		db.index.ascend("", func(ki *keyIndex) bool {
			if n > 0 && ki.key <= prev {
				report("the index is out of order at %s", ki.key)
			}
			if db.index.get(ki.key) != ki {
				report("the index's map and order disagree at %s", ki.key)
			}
			if len(ki.revs) == 0 || ki.revs[len(ki.revs)-1].rev != ki.latest.rev {
				report("key %s: the latest record is not the last revision", ki.key)
			}
			prev = ki.key
			n++
			return true
		})
		if n != db.index.len() {
			report("the index's order has %d keys, its map %d", n, db.index.len())
		}
		if len(db.index.stats) != len(db.index.chunks) {
			report("the index has figures of %d chunks of %d", len(db.index.stats), len(db.index.chunks))
		} else {
			for ci, c := range db.index.chunks {
				got, want := db.index.stats[ci], statsOf(c)
				if got.live != want.live {
					report("the index counts %d live keys from %s on, where there are %d", got.live, c[0].key, want.live)
				}
				if got.written < want.written {
					report("the index has the keys from %s on last written at %d, where one was at %d", c[0].key, got.written, want.written)
				}
			}
		}
		return nil
	})
	if err != nil {
		report("%v", err)
	}
	if len(findings) == 0 {
		return nil
	}
	return fmt.Errorf("%w: %s: %w", ErrCorrupt, db.path, errors.Join(findings...))
}
