package bolt

import (
	"fmt"

	"go.etcd.io/bbolt"
)

// Records too large for history's leaves (record.go: outOfLineMin) are
// kept whole in the values bucket, and history holds their stubs. These
// are the only ways in and out of the pair: a writer puts and deletes
// through them, and a reader that needs a record's value resolves the
// history value it read first.
//
// Each record in the values bucket has a bucket of its own (format v3),
// holding it under valueKey. Kept as plain values (v2), the newest
// records shared a leaf: bbolt splits a leaf only when it holds more
// than four elements, so the last leaf of an append-only bucket holds
// three or four, and each commit of a large record wrote the other two
// or three again (a real-size CRD's 265 KB record: about 1 MB written
// and allocated a commit). A bucket of its own gives a record a page run
// of its own, written once. A v2 file's plain values are read as before.

// valueKey is the key of the record in its bucket.
var valueKey = []byte("r")

// putRecord writes the encoded record enc of r under k in tx: into h, or,
// from outOfLineMin bytes, into the values bucket with its stub in h.
func putRecord(tx *bbolt.Tx, h *bbolt.Bucket, k []byte, r *record, enc []byte) error {
	if len(enc) < outOfLineMin {
		return h.Put(k, enc)
	}
	vals, err := valuesBucket(tx)
	if err != nil {
		return err
	}
	if err := putValue(vals, k, enc); err != nil {
		return err
	}
	return h.Put(k, r.encodeStub())
}

// putValue puts the whole record enc under k in the values bucket, in a
// bucket of its own.
func putValue(vals *bbolt.Bucket, k, enc []byte) error {
	b, err := vals.CreateBucket(k)
	if err != nil {
		return err
	}
	return b.Put(valueKey, enc)
}

// valuesBucket returns tx's values bucket, made if it is not there yet,
// with the file's format marker moved to formatV3 (which a crdlab that
// predates records in buckets of their own refuses to open).
func valuesBucket(tx *bbolt.Tx) (*bbolt.Bucket, error) {
	vals := tx.Bucket(bucketValues)
	if vals == nil {
		var err error
		if vals, err = tx.CreateBucket(bucketValues); err != nil {
			return nil, err
		}
	}
	if meta := tx.Bucket(bucketMeta); string(meta.Get(metaFormat)) != formatV3 {
		if err := meta.Put(metaFormat, []byte(formatV3)); err != nil {
			return nil, err
		}
	}
	vals.FillPercent = 1 // keys only ever append: fill pages up
	return vals, nil
}

// deleteRecord deletes the record at k from h and, if it is there, from
// the values bucket.
func deleteRecord(tx *bbolt.Tx, h *bbolt.Bucket, k []byte) error {
	if err := h.Delete(k); err != nil {
		return err
	}
	vals := tx.Bucket(bucketValues)
	if vals == nil {
		return nil
	}
	if vals.Bucket(k) != nil {
		return vals.DeleteBucket(k)
	}
	return vals.Delete(k) // a v2 file's plain value, or nothing
}

// storedValue returns the whole record under k in the values bucket (in its
// own bucket, or a v2 file's plain value), or nil.
func storedValue(vals *bbolt.Bucket, k []byte) []byte {
	if v := vals.Get(k); v != nil {
		return v
	}
	if b := vals.Bucket(k); b != nil {
		return b.Get(valueKey)
	}
	return nil
}

// decodeResolved decodes the whole record for the history value v at k
// (resolve, then decodeRecord).
func decodeResolved(tx *bbolt.Tx, k, v []byte) (*record, error) {
	whole, err := resolve(tx, k, v)
	if err != nil {
		return nil, err
	}
	return decodeRecord(k, whole)
}

// resolve returns the whole record for the history value v at k: v
// itself, or, for a stub, the record in the values bucket (part of the
// mapped file, valid while tx is). A nil v stays nil.
func resolve(tx *bbolt.Tx, k, v []byte) ([]byte, error) {
	if !isStub(v) {
		return v, nil
	}
	var whole []byte
	if vals := tx.Bucket(bucketValues); vals != nil {
		whole = storedValue(vals, k)
	}
	if whole == nil {
		return nil, fmt.Errorf("%w at key %x: history has a stub, the values bucket no record", errBadRecord, k)
	}
	if isStub(whole) {
		return nil, fmt.Errorf("%w at key %x: the values bucket holds a stub", errBadRecord, k)
	}
	return whole, nil
}
