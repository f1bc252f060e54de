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
	if err := vals.Put(k, enc); err != nil {
		return err
	}
	return h.Put(k, r.encodeStub())
}

// valuesBucket returns tx's values bucket, made (and the file's format
// marker moved to formatV2) if it is not there yet.
func valuesBucket(tx *bbolt.Tx) (*bbolt.Bucket, error) {
	vals := tx.Bucket(bucketValues)
	if vals == nil {
		var err error
		if vals, err = tx.CreateBucket(bucketValues); err != nil {
			return nil, err
		}
		if err := tx.Bucket(bucketMeta).Put(metaFormat, []byte(formatV2)); err != nil {
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
	if vals := tx.Bucket(bucketValues); vals != nil {
		return vals.Delete(k)
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
		whole = vals.Get(k)
	}
	if whole == nil {
		return nil, fmt.Errorf("%w at key %x: history has a stub, the values bucket no record", errBadRecord, k)
	}
	if isStub(whole) {
		return nil, fmt.Errorf("%w at key %x: the values bucket holds a stub", errBadRecord, k)
	}
	return whole, nil
}
