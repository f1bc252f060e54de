package bolt

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"

	"go.etcd.io/bbolt"

	"github.com/crdlab/crdlab/storage"
)

// errGone is the cause of the error DB.value returns for a record no
// longer in history: a compaction deleted it after the caller found it in
// the index. That happens only to a record that is no longer its key's
// latest, or to a tombstone, and only once the compaction has passed every
// revision the record is the state at: a read at the latest revision reads
// the key again, a read at an older revision is Expired (410).
var errGone = errors.New("the record was compacted away")

// value returns the encoded object of r. A record loaded at Open keeps its
// value on disk (record.onDisk): value reads it from the history bucket,
// in a read transaction of its own, and checks it against its checksum
// and the record. It does not keep what it read: the decoded object is
// what readers keep (decodeMemo), and a value too large to memoise is
// read from the mapped file, not from the heap, on each use.
//
// The transaction holds the file (beginRead): a defragmentation's switch
// waits for it, so the bytes read are never of a file closed or unmapped
// meanwhile.
func (db *DB) value(r *record) ([]byte, error) {
	if !r.onDisk {
		return r.value, nil
	}
	if p := r.loaded.Load(); p != nil {
		return *p, nil
	}
	tx, err := db.beginRead()
	if err != nil {
		return nil, &storage.Error{Kind: storage.ErrInternal, Key: r.key, Err: fmt.Errorf("%w: %w", storage.ErrClosed, err)}
	}
	defer db.endRead(tx)
	return readValue(tx, r)
}

// readValue reads the value of r from the history bucket of tx: a copy,
// which outlives the transaction.
func readValue(tx *bbolt.Tx, r *record) ([]byte, error) {
	v, err := valueAt(tx.Bucket(bucketHistory).Cursor(), r, make([]byte, 8))
	if err != nil {
		return nil, err
	}
	return bytes.Clone(v), nil
}

// valueAt finds the value of r in the history bucket with c, and checks
// it against its checksum and r: part of the mapped file, valid while c's
// transaction is. k is 8 bytes of scratch for the bucket key.
func valueAt(c *bbolt.Cursor, r *record, k []byte) ([]byte, error) {
	binary.BigEndian.PutUint64(k, uint64(r.rev))
	found, v := c.Seek(k)
	if !bytes.Equal(found, k) || v == nil {
		return nil, &storage.Error{Kind: storage.ErrExpired, Key: r.key, ResourceVersion: r.rev, Err: errGone,
			Msg: fmt.Sprintf("the state at revision %d was compacted", r.rev)}
	}
	var d record
	v, err := resolve(c.Bucket().Tx(), k, v)
	var key []byte
	if err == nil {
		key, err = d.parse(k, v)
	}
	if err == nil && (string(key) != r.key || d.deleted != r.deleted || d.createRev != r.createRev || d.prevRev != r.prevRev) {
		err = fmt.Errorf("%w at revision %d: it differs from the record read at open", errBadRecord, r.rev)
	}
	if err != nil {
		return nil, &storage.Error{Kind: storage.ErrInternal, Key: r.key, Err: fmt.Errorf("%w: %w", ErrCorrupt, err)}
	}
	return d.value, nil
}

// readValues reads, in tx, the values of the records recs that stay on
// disk into values (the others' are theirs): copies, which outlive the
// transaction, all in one allocation — a list of 100,000 objects read
// them as 100,000 copies, and their allocation and collection were a
// third of its time. A value that cannot be read in tx is left nil (a
// record committed after tx began: DB.value reads it later, in a
// transaction of its own, and reports what is wrong).
//
// With cut, each value read is cut to cut's span of it when cut finds one
// (cutOK[i] true; the rest of the value is not copied), and left whole
// when it does not.
//
// With reuse, the copies go into *reuse, grown if need be and kept there
// for the next call: they are valid until then (scanOpts.reuse).
func readValues(tx *bbolt.Tx, recs []*record, values [][]byte, cut func([]byte) (start, end int, ok bool), cutOK []bool, reuse *[]byte) {
	c := tx.Bucket(bucketHistory).Cursor()
	k := make([]byte, 8)
	var mapped []int // the values still in the mapped file: copied below
	total := 0
	cutTo := func(i int, v []byte) []byte {
		if cut == nil || v == nil {
			return v
		}
		start, end, ok := cut(v)
		cutOK[i] = ok
		if !ok {
			return v
		}
		return v[start:end:end]
	}
	for i, r := range recs {
		if cut != nil {
			cutOK[i] = false
		}
		if !r.onDisk {
			values[i] = cutTo(i, r.value)
			continue
		}
		if p := r.loaded.Load(); p != nil {
			values[i] = cutTo(i, *p)
			continue
		}
		v, err := valueAt(c, r, k)
		if err != nil {
			v = nil
		}
		v = cutTo(i, v)
		values[i] = v
		if v != nil {
			mapped = append(mapped, i)
			total += len(v)
		}
	}
	if len(mapped) == 0 {
		return
	}
	// Which values to copy is decided above, not by looking at loaded
	// again: the committer may fill it in meanwhile, and a value left in
	// the mapped file would outlive tx.
	var arena []byte
	if reuse != nil && cap(*reuse) >= total {
		arena = (*reuse)[:0]
	} else {
		arena = make([]byte, 0, total)
	}
	for _, i := range mapped {
		start := len(arena)
		arena = append(arena, values[i]...)
		values[i] = arena[start:len(arena):len(arena)]
	}
	if reuse != nil {
		*reuse = arena
	}
}

// indexed returns the record the index keeps for a committed write: r
// itself, or, for a value larger than Options.MaxValueInMemory, a copy
// without it (onDisk). The fan-out and the writer keep r, value and all,
// for as long as they need it.
func (db *DB) indexed(r *record) *record {
	if len(r.value) <= db.opts.MaxValueInMemory {
		return r
	}
	return &record{rev: r.rev, key: r.key, createRev: r.createRev, prevRev: r.prevRev,
		deleted: r.deleted, expires: r.expires, onDisk: true}
}

// loadSuperseded reads, in the committer's write transaction tx, the
// values of the onDisk records that the commit's writes supersede: the
// fan-out decodes them for watchers whose predicate an update may stop or
// start matching, possibly after a compaction deleted them from history.
// A record it cannot read is left as it is: the fan-out reports the error
// to the watchers that need it.
func loadSuperseded(tx *bbolt.Tx, events []event) {
	for _, e := range events {
		if p := e.prev; p != nil && p.onDisk && p.loaded.Load() == nil {
			if v, err := readValue(tx, p); err == nil {
				p.loaded.Store(&v)
			}
		}
	}
}
