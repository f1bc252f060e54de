package bolt

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"strconv"
	"sync/atomic"

	"github.com/crdlab/crdlab/storage"
)

// record is what one write did to one key: the unit of history. It is
// stored in the history bucket under its revision, and the latest record
// of every key is also kept in memory (keyIndex.latest).
//
// A record loaded at Open keeps its value on disk (onDisk, value nil):
// DB.value reads it from the history bucket when a reader needs it, so
// that Open does not copy every object and memory holds only what is
// read. A record the committer writes keeps its value in memory.
//
// A record is immutable once committed, except for memo, a cache of its
// decoded object that readers fill in (for values up to memoMaxValue),
// splice, which lists fill in, and loaded, which the committer fills in for
// an onDisk record it is about to supersede (its watchers may need the old
// state).
//
// Mirrors etcd's mvccpb.KeyValue as kept in bbolt's "key" bucket
// (server/storage/mvcc/kvstore.go, revision.go).
type record struct {
	rev       int64  // the revision of the write, and the record's bucket key
	key       string // e.g. /registry/stable.example.com/crontabs/default/my-cron
	createRev int64  // the revision that created the key's current life (its generation)
	prevRev   int64  // the previous write to key in this generation; 0 for a create
	deleted   bool   // a tombstone: value is the last state before the delete
	value     []byte // the encoded object, without resourceVersion; nil if onDisk
	onDisk    bool   // the value stays in the history bucket: read it with DB.value
	// expires is when the object expires, in Unix nanoseconds (wall
	// clock, so that it survives a restart); 0 for never (ttl.go).
	expires int64

	memo   decodeMemo
	loaded atomic.Pointer[[]byte] // an onDisk record's value, once the committer read it
	// splice is where the resourceVersion goes in the value
	// (storage.FindSplice), once a list of stored bytes looked: spliceOf.
	splice atomic.Int32
}

// spliceOf returns where the resourceVersion goes in value, r's value:
// found on the first list that hands the bytes out, kept for the next.
func (r *record) spliceOf(value []byte) storage.Splice {
	if sp := storage.Splice(r.splice.Load()); sp != 0 {
		return sp
	}
	sp := storage.FindSplice(value)
	r.splice.Store(int32(sp))
	return sp
}

// The on-disk layout of a record's value (the bucket key is revKey(rev)):
//
//	[0]      format version: 1, or 2 for a put that expires
//	[1]      kind: 'P' (put) or 'D' (delete, a tombstone)
//	[2:10]   createRev, big-endian
//	[10:18]  prevRev, big-endian
//	[18:26]  version 2 only: expires, Unix nanoseconds, big-endian
//	uvarint  len(key), then key
//	...      value
//	[-4:]    CRC-32C of revKey(rev) followed by every byte before it
//
// The checksum covers the bucket key too, so a record copied under the
// wrong revision is caught. bbolt checksums only its meta pages. Records
// without an expiry keep version 1, so a file that never held one stays
// readable by a crdlab that predates expiry.
//
// A record whose encoding is outOfLineMin bytes or more (a real-size
// CRD: hundreds of KB) is stored whole in the values bucket, under the
// same key, and history holds its stub: the same layout with kind 'p' or
// 'd' and no value (outofline.go). Each such record would otherwise fill
// a history leaf of its own: at 2,000 real-size CRDs (9,000 records)
// history had 3,200 leaves, the branch page above the newest one about
// 640 children, and every commit, a small object's create too, read that
// branch into memory and wrote it back (docs/storage.md, "On disk").
// With the stubs, history's leaves hold about a hundred records each
// whatever the objects weigh; the values bucket is written only when a
// large record is.
const (
	recordVersion        = 1
	recordVersionExpires = 2
	kindPut              = 'P'
	kindDelete           = 'D'
	kindPutStub          = 'p' // a put whose record is in the values bucket
	kindDeleteStub       = 'd' // a tombstone whose record is in the values bucket
	recordHeader         = 18
	recordHeaderExpires  = 26
)

// outOfLineMin is the size of an encoded record from which it goes to the
// values bucket: half a page of a new file, so that history's leaves hold
// at least two records in any case, and the objects of 1-5 KB that most
// custom resources are stay in history, where a list reads them in order.
// A variable for tests.
var outOfLineMin = pageSize / 2

// isStub says whether the history bucket value v is a stub: its record
// is in the values bucket under the same key.
func isStub(v []byte) bool {
	return len(v) > 1 && (v[1] == kindPutStub || v[1] == kindDeleteStub)
}

// encodeStub returns the history bucket value that stands for r when its
// record is in the values bucket: r's header and key, without the value.
func (r *record) encodeStub() []byte {
	stub := record{rev: r.rev, key: r.key, createRev: r.createRev, prevRev: r.prevRev, deleted: r.deleted, expires: r.expires}
	b := stub.encode()
	if b[1] == kindPut {
		b[1] = kindPutStub
	} else {
		b[1] = kindDeleteStub
	}
	crc := crc32.Update(crc32.Checksum(revKey(r.rev), crcTable), crcTable, b[:len(b)-4])
	binary.BigEndian.PutUint32(b[len(b)-4:], crc)
	return b
}

var crcTable = crc32.MakeTable(crc32.Castagnoli)

// revKey is the history bucket key of rev: 8 bytes big-endian, so that
// bbolt's byte order is revision order.
func revKey(rev int64) []byte {
	var b [8]byte
	binary.BigEndian.PutUint64(b[:], uint64(rev))
	return b[:]
}

// encode returns the bucket value of r.
func (r *record) encode() []byte {
	b := make([]byte, 0, recordHeaderExpires+binary.MaxVarintLen64+len(r.key)+len(r.value)+4)
	kind := byte(kindPut)
	if r.deleted {
		kind = kindDelete
	}
	version := byte(recordVersion)
	if r.expires != 0 {
		version = recordVersionExpires
	}
	b = append(b, version, kind)
	b = binary.BigEndian.AppendUint64(b, uint64(r.createRev))
	b = binary.BigEndian.AppendUint64(b, uint64(r.prevRev))
	if r.expires != 0 {
		b = binary.BigEndian.AppendUint64(b, uint64(r.expires))
	}
	b = binary.AppendUvarint(b, uint64(len(r.key)))
	b = append(b, r.key...)
	b = append(b, r.value...)
	crc := crc32.Update(crc32.Checksum(revKey(r.rev), crcTable), crcTable, b)
	return binary.BigEndian.AppendUint32(b, crc)
}

var errBadRecord = errors.New("bad record")

// decodeRecord parses a history bucket entry. It copies what it keeps, so k
// and v may be bbolt memory that dies with the transaction.
func decodeRecord(k, v []byte) (*record, error) {
	r, err := parseRecord(k, v)
	if err != nil {
		return nil, err
	}
	r.value = bytes.Clone(r.value)
	return r, nil
}

// parseRecord is decodeRecord without the copy of the value: r.value is
// part of v.
func parseRecord(k, v []byte) (*record, error) {
	r := &record{}
	key, err := r.parse(k, v)
	if err != nil {
		return nil, err
	}
	r.key = string(key)
	return r, nil
}

// parse checks the history bucket entry k, v and sets every field of r
// but key, which it returns (part of v), and memo; r.value is part of v.
// It allocates nothing: Open's rebuild parses every record of history
// into one scratch record.
func (r *record) parse(k, v []byte) (key []byte, err error) {
	if len(k) != 8 {
		return nil, fmt.Errorf("%w: key of %d bytes", errBadRecord, len(k))
	}
	rev := int64(binary.BigEndian.Uint64(k))
	fail := func(what string) ([]byte, error) {
		return nil, fmt.Errorf("%w at revision %d: %s", errBadRecord, rev, what)
	}
	if len(v) < recordHeader+1+4 {
		return fail("too short")
	}
	body, sum := v[:len(v)-4], binary.BigEndian.Uint32(v[len(v)-4:])
	if crc32.Update(crc32.Checksum(k, crcTable), crcTable, body) != sum {
		return fail("checksum mismatch")
	}
	header := recordHeader
	switch body[0] {
	case recordVersion:
	case recordVersionExpires:
		header = recordHeaderExpires
		if len(body) < header+1 {
			return fail("too short")
		}
	default:
		return fail("unknown record version " + strconv.Itoa(int(body[0])))
	}
	r.rev = rev
	r.createRev = int64(binary.BigEndian.Uint64(body[2:10]))
	r.prevRev = int64(binary.BigEndian.Uint64(body[10:18]))
	r.expires = 0
	if header == recordHeaderExpires {
		if r.expires = int64(binary.BigEndian.Uint64(body[18:26])); r.expires == 0 {
			return fail("version 2 without an expiry")
		}
	}
	switch body[1] {
	case kindPut, kindPutStub:
		r.deleted = false
	case kindDelete, kindDeleteStub:
		r.deleted = true
	default:
		return fail("unknown kind")
	}
	n, w := binary.Uvarint(body[header:])
	if w <= 0 || n == 0 || uint64(len(body)-header-w) < n {
		return fail("bad key length")
	}
	rest := body[header+w:]
	r.value = rest[n:]
	return rest[:n], nil
}

// recordKey returns the key of an encoded record without checking it, or
// "" if the record is too short to hold one. Scans use it to skip the
// records of other keys cheaply.
func recordKey(v []byte) string {
	header := recordHeader
	if len(v) > 0 && v[0] == recordVersionExpires {
		header = recordHeaderExpires
	}
	if len(v) <= header {
		return ""
	}
	n, w := binary.Uvarint(v[header:])
	if w <= 0 || uint64(len(v)-header-w) < n {
		return ""
	}
	return string(v[header+w : header+w+int(n)])
}
