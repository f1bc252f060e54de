package bolt

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"reflect"
	"strconv"

	"github.com/crdlab/crdlab/storage"
)

// store is the storage.Interface of one resource: a view of a DB under
// the resource's key prefix, with its codec (the embedded
// storage.Resource). It holds no state of its own beyond them; objects it
// decodes are remembered on the records (decodeMemo), shared with its
// watchers.
//
// Mirrors k8s.io/apiserver/pkg/storage/etcd3.store (store.go), with the
// read side of the cacher (objects decoded once and shared).
type store struct {
	*storage.Resource
	db *DB
}

var _ storage.Interface = (*store)(nil)

// memoMaxValue is the largest value whose decoded object a record keeps
// (its decodeMemo). A larger one — a real-size CRD is 100–300 KB of JSON,
// and three to four times that decoded — is decoded on each read instead:
// remembering it would keep every such key's object in memory for good
// (0.84 MiB per 265 KB CRD, docs/crd-memory.md), while such objects are
// rarely read (the CRD informer lists once, then watches, and a write's
// watchers share one decode through their change).
const memoMaxValue = 64 << 10

// decode returns the object of r with its resourceVersion set: a shared,
// read-only object, decoded at most once per store and record — or, for a
// value larger than memoMaxValue, a new object on each call. The value of
// an onDisk record is read only when there is no decoded object to share.
// A record a compaction deleted meanwhile is an Expired error wrapping
// errGone.
func (s *store) decode(r *record) (storage.Object, error) {
	if obj := r.memo.get(s); obj != nil {
		return obj, nil
	}
	value, err := s.db.value(r)
	if err != nil {
		return nil, err
	}
	if len(value) > memoMaxValue {
		return s.DecodeNew(r.key, value, r.rev)
	}
	obj, err := s.DecodeNew(r.key, value, r.rev)
	if err != nil {
		return nil, err
	}
	return s.remember(r, obj), nil
}

// decodeInto fills out with a copy of the object of r: a deep copy of the
// shared decoded object, cheaper than decoding again.
func (s *store) decodeInto(r *record, out storage.Object) error {
	if obj := r.memo.get(s); obj != nil && copyInto(out, obj) {
		return nil
	}
	value, err := s.db.value(r)
	if err != nil {
		return err
	}
	if len(value) > memoMaxValue {
		return s.Decode(r.key, value, r.rev, out)
	}
	obj, err := s.DecodeNew(r.key, value, r.rev)
	if err != nil {
		return err
	}
	if copyInto(out, s.remember(r, obj)) {
		return nil
	}
	return s.Decode(r.key, value, r.rev, out) // out is of another type than NewFunc's
}

// copyInto sets *dst to a deep copy of *src when both are pointers to the
// same type, and reports whether it could.
func copyInto(dst, src storage.Object) bool {
	dv, sv := reflect.ValueOf(dst), reflect.ValueOf(src)
	if dv.Type() != sv.Type() || dv.Kind() != reflect.Pointer || dv.IsNil() {
		return false
	}
	dv.Elem().Set(reflect.ValueOf(src.DeepCopyObject()).Elem())
	return true
}

// encode is the contract's Encode, refusing objects larger than
// Options.MaxObjectSize.
func (s *store) encode(key string, obj storage.Object) ([]byte, error) {
	data, err := s.Encode(key, obj)
	if err != nil {
		return nil, err
	}
	if len(data) > s.db.opts.MaxObjectSize {
		return nil, &storage.Error{Kind: storage.ErrInvalidObject, Key: key, Err: storage.ErrObjectTooLarge,
			Msg: fmt.Sprintf("the object is %d bytes, more than the limit of %d", len(data), s.db.opts.MaxObjectSize)}
	}
	return data, nil
}

// Create stores obj under key if key is free.
//
// Mirrors (*store).Create in etcd3/store.go: a transaction
// If(ModRevision(key) == 0).Then(Put).
func (s *store) Create(ctx context.Context, key string, obj, out storage.Object) error {
	if err := s.CheckKey(key); err != nil {
		return err
	}
	if obj.GetResourceVersion() != "" {
		return &storage.Error{Kind: storage.ErrInvalidObject, Key: key, Msg: "resourceVersion should not be set on objects to be created"}
	}
	data, err := s.encode(key, obj)
	if err != nil {
		return err
	}
	op := &writeOp{key: key, value: data, expires: s.expiresAt()}
	if err := s.db.submit(ctx, op); err != nil {
		return err
	}
	// out is read back from the bytes written, as etcd3's Create decodes
	// the stored value, while the committer writes and fsyncs them: only
	// the resourceVersion waits for the commit (a lone client's create
	// spends most of its time in the fsyncs, on the other core). The
	// decode goes into an object of its own, so that out is untouched
	// by a write refused.
	written, decodeErr := s.decodeFresh(data)
	r, err := s.db.await(op)
	if errors.Is(err, errModified) {
		return &storage.Error{Kind: storage.ErrAlreadyExists, Key: key}
	}
	if err != nil {
		return err
	}
	return s.finish(r, data, written, out, decodeErr)
}

// decodeFresh decodes data, a value being committed, into a new object
// of the resource's type.
func (s *store) decodeFresh(data []byte) (storage.Object, error) {
	obj := s.NewFunc()
	return obj, s.Codec.Decode(data, obj)
}

// finish ends a write whose value was decoded into obj while r was being
// committed: obj moves into out, with r's resourceVersion (an out of
// another type than NewFunc's is decoded from data now), or the decode's
// error is reported as Decode reports it.
func (s *store) finish(r *record, data []byte, obj, out storage.Object, decodeErr error) error {
	if decodeErr == nil && !moveInto(out, obj) {
		decodeErr = s.Codec.Decode(data, out)
	}
	if decodeErr != nil {
		return &storage.Error{Kind: storage.ErrInternal, Key: r.key, Err: fmt.Errorf("decoding the object at revision %d: %w", r.rev, decodeErr)}
	}
	out.SetResourceVersion(strconv.FormatInt(r.rev, 10))
	return nil
}

// moveInto sets *dst to *src when both are pointers to the same type, and
// reports whether it could. src must not be used afterwards: the two
// share everything below the top.
func moveInto(dst, src storage.Object) bool {
	dv, sv := reflect.ValueOf(dst), reflect.ValueOf(src)
	if dv.Type() != sv.Type() || dv.Kind() != reflect.Pointer || dv.IsNil() {
		return false
	}
	dv.Elem().Set(sv.Elem())
	return true
}

// Get reads the object under key.
//
// Mirrors (*store).Get in etcd3/store.go. Reads come from memory: the
// latest record of every key is in the index.
func (s *store) Get(ctx context.Context, key string, opts storage.GetOptions, out storage.Object) error {
	if err := s.CheckKey(key); err != nil {
		return err
	}
	if err := s.db.usable(); err != nil {
		return err
	}
	if opts.ResourceVersion != "" && opts.ResourceVersion != "0" {
		min, err := storage.ParseResourceVersion(opts.ResourceVersion)
		if err != nil {
			return err
		}
		if cur, _ := s.db.state(); min > cur {
			return storage.NewTooLargeResourceVersionError(min, cur)
		}
	}
	for {
		r := s.db.latest(key)
		if r == nil || r.deleted {
			if opts.IgnoreNotFound {
				return storage.SetZero(out)
			}
			return &storage.Error{Kind: storage.ErrNotFound, Key: key}
		}
		// A record compacted away between the lookup and the read of its
		// value was superseded: read the key again.
		if err := s.decodeInto(r, out); !errors.Is(err, errGone) {
			return err
		}
	}
}

// current returns the latest record of key if the key exists, its value,
// and a copy of its object the caller may change. The key was written
// again meanwhile if the error wraps errGone.
func (s *store) current(key string) (*record, []byte, storage.Object, error) {
	r := s.db.latest(key)
	if r == nil || r.deleted {
		return nil, nil, nil, nil
	}
	value, err := s.db.value(r)
	if err != nil {
		return nil, nil, nil, err
	}
	if len(value) > memoMaxValue { // decoded afresh: the caller's own
		obj, err := s.DecodeNew(r.key, value, r.rev)
		return r, value, obj, err
	}
	shared := r.memo.get(s)
	if shared == nil {
		obj, err := s.DecodeNew(r.key, value, r.rev)
		if err != nil {
			return nil, nil, nil, err
		}
		shared = s.remember(r, obj)
	}
	return r, value, shared.DeepCopyObject().(storage.Object), nil
}

// GuaranteedUpdate is an optimistic read-modify-write loop: read, check
// preconditions, call tryUpdate, and write if the key is still at the
// revision that was read; otherwise start again with the new state.
//
// Mirrors (*store).GuaranteedUpdate in etcd3/store.go.
func (s *store) GuaranteedUpdate(ctx context.Context, key string, out storage.Object, ignoreNotFound bool,
	preconditions *storage.Preconditions, tryUpdate storage.UpdateFunc) error {
	if err := s.CheckKey(key); err != nil {
		return err
	}
	for {
		if err := ctx.Err(); err != nil {
			return &storage.Error{Kind: storage.ErrTimeout, Key: key, Msg: "the request ended before the update: " + err.Error()}
		}
		cur, curValue, obj, err := s.current(key)
		if errors.Is(err, errGone) {
			continue // written again: read it again
		}
		if err != nil {
			return err
		}
		var expect int64
		if cur == nil {
			if !ignoreNotFound {
				return &storage.Error{Kind: storage.ErrNotFound, Key: key}
			}
			obj = s.NewFunc()
		} else {
			expect = cur.rev
		}
		if err := preconditions.Check(key, obj); err != nil {
			return err
		}
		updated, err := tryUpdate(obj)
		if err != nil {
			return err
		}
		data, err := s.encode(key, updated)
		if err != nil {
			return err
		}
		if cur != nil && bytes.Equal(data, curValue) {
			// Nothing changed: no write, no new revision (as upstream).
			return s.decodeInto(cur, out)
		}
		op := &writeOp{key: key, value: data, expect: expect, expires: s.expiresAt()}
		if err := s.db.submit(ctx, op); err != nil {
			return err
		}
		// Decoded once and remembered on the record, out a copy: the next
		// update of the key (a controller's loop, the bench's writer)
		// reads it as its current state without decoding it again, as a
		// get or a list would have left it; a copy allocates less than a
		// decode (storage.md, session 13). Both are made while the
		// committer writes and fsyncs, as in Create.
		memo, written, decodeErr := s.decodeWritten(data)
		r, err := s.db.await(op)
		if errors.Is(err, errModified) {
			continue
		}
		if err != nil {
			return err
		}
		if memo != nil {
			memo.SetResourceVersion(strconv.FormatInt(r.rev, 10))
			s.remember(r, memo)
		}
		return s.finish(r, data, written, out, decodeErr)
	}
}

// decodeWritten decodes data, a value being committed, and returns the
// object its record should remember (nil for a value too large to
// remember) and a copy of it for the caller: decodeInto's work, before
// the record exists. out is not touched: the write may be retried.
func (s *store) decodeWritten(data []byte) (memo, written storage.Object, err error) {
	obj, err := s.decodeFresh(data)
	if err != nil || len(data) > memoMaxValue {
		return nil, obj, err
	}
	return obj, obj.DeepCopyObject().(storage.Object), nil
}

// Delete removes the object under key. The tombstone keeps the deleted
// state, so that watchers and out get it with the delete's revision.
//
// Mirrors (*store).Delete and conditionalDelete in etcd3/store.go.
func (s *store) Delete(ctx context.Context, key string, out storage.Object, preconditions *storage.Preconditions,
	validateDeletion storage.ValidateObjectFunc) error {
	if err := s.CheckKey(key); err != nil {
		return err
	}
	for {
		if err := ctx.Err(); err != nil {
			return &storage.Error{Kind: storage.ErrTimeout, Key: key, Msg: "the request ended before the delete: " + err.Error()}
		}
		cur, curValue, obj, err := s.current(key)
		if errors.Is(err, errGone) {
			continue // written again: read it again
		}
		if err != nil {
			return err
		}
		if cur == nil {
			return &storage.Error{Kind: storage.ErrNotFound, Key: key}
		}
		if err := preconditions.Check(key, obj); err != nil {
			return err
		}
		if validateDeletion != nil {
			if err := validateDeletion(ctx, obj); err != nil {
				return err
			}
		}
		r, err := s.db.write(ctx, &writeOp{key: key, deleted: true, value: curValue, expect: cur.rev})
		if errors.Is(err, errModified) {
			continue
		}
		if err != nil {
			return err
		}
		cur.memo.forget()
		return s.Decode(r.key, r.value, r.rev, out)
	}
}

// Count returns the number of objects under the prefix key now.
func (s *store) Count(ctx context.Context, key string) (int64, error) {
	rng, err := s.KeyRange(key, true)
	if err != nil {
		return 0, err
	}
	if err := s.db.usable(); err != nil {
		return 0, err
	}
	s.db.mu.RLock()
	defer s.db.mu.RUnlock()
	return s.db.countAt(rng, rng.Key, s.db.rev), nil
}
