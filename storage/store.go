package storage

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strconv"
)

// store is the Interface of one resource: a view of a DB under a key
// prefix, with the resource's codec. It holds no state of its own beyond
// its config; objects it decodes are remembered on the records
// (decodeMemo), shared with its watchers.
//
// Mirrors k8s.io/apiserver/pkg/storage/etcd3.store (store.go), with the
// read side of the cacher (objects decoded once and shared).
type store struct {
	db      *DB
	prefix  string // the resource's key prefix, ending in "/"
	newFunc func() Object
	codec   Codec
	attrs   AttrFunc
}

var _ Interface = (*store)(nil)

// decode returns the object of r with its resourceVersion set: a shared,
// read-only object, decoded at most once per store and record.
func (s *store) decode(r *record) (Object, error) {
	if obj := r.memo.get(s); obj != nil {
		return obj, nil
	}
	obj, err := s.decodeFresh(r)
	if err != nil {
		return nil, err
	}
	return r.memo.put(s, obj), nil
}

// decodeFresh decodes r into a new object that the caller owns.
func (s *store) decodeFresh(r *record) (Object, error) {
	obj := s.newFunc()
	if err := s.decodeTo(r, obj); err != nil {
		return nil, err
	}
	return obj, nil
}

func (s *store) decodeTo(r *record, out Object) error {
	if err := s.codec.Decode(r.value, out); err != nil {
		return NewInternalError(r.key, fmt.Errorf("decoding the object at revision %d: %w", r.rev, err))
	}
	out.SetResourceVersion(strconv.FormatInt(r.rev, 10))
	return nil
}

// decodeInto fills out with a copy of the object of r: a deep copy of the
// shared decoded object, cheaper than decoding again.
func (s *store) decodeInto(r *record, out Object) error {
	obj, err := s.decode(r)
	if err != nil {
		return err
	}
	if copyInto(out, obj) {
		return nil
	}
	return s.decodeTo(r, out) // out is of another type than NewFunc's
}

// encode returns obj as stored: encoded without its resourceVersion, which
// is the revision of the record and is set again on every read (upstream's
// APIObjectVersioner.PrepareObjectForStorage / UpdateObject).
func (s *store) encode(key string, obj Object) ([]byte, error) {
	if rv := obj.GetResourceVersion(); rv != "" {
		obj.SetResourceVersion("")
		defer obj.SetResourceVersion(rv)
	}
	data, err := s.codec.Encode(obj)
	if err != nil {
		return nil, NewInvalidObjError(key, err.Error())
	}
	if len(data) > s.db.opts.MaxObjectSize {
		return nil, &Error{Code: ErrCodeInvalidObj, Key: key, Err: ErrObjectTooLarge,
			Msg: fmt.Sprintf("the object is %d bytes, more than the limit of %d", len(data), s.db.opts.MaxObjectSize)}
	}
	return data, nil
}

// Create stores obj under key if key is free.
//
// Mirrors (*store).Create in etcd3/store.go: a transaction
// If(ModRevision(key) == 0).Then(Put).
func (s *store) Create(ctx context.Context, key string, obj, out Object) error {
	if err := s.checkKey(key); err != nil {
		return err
	}
	if obj.GetResourceVersion() != "" {
		return NewInvalidObjError(key, "resourceVersion should not be set on objects to be created")
	}
	data, err := s.encode(key, obj)
	if err != nil {
		return err
	}
	r, err := s.db.write(ctx, &writeOp{key: key, value: data})
	if errors.Is(err, errModified) {
		return NewAlreadyExistsError(key)
	}
	if err != nil {
		return err
	}
	return s.decodeTo(r, out)
}

// Get reads the object under key.
//
// Mirrors (*store).Get in etcd3/store.go. Reads come from memory: the
// latest record of every key is in the index.
func (s *store) Get(ctx context.Context, key string, opts GetOptions, out Object) error {
	if err := s.checkKey(key); err != nil {
		return err
	}
	if err := s.db.usable(); err != nil {
		return err
	}
	if opts.ResourceVersion != "" && opts.ResourceVersion != "0" {
		min, err := parseRV(opts.ResourceVersion)
		if err != nil {
			return err
		}
		if cur, _ := s.db.state(); min > cur {
			return NewTooLargeResourceVersionError(min, cur)
		}
	}
	r := s.db.latest(key)
	if r == nil || r.deleted {
		if opts.IgnoreNotFound {
			return setZero(out)
		}
		return NewNotFoundError(key)
	}
	return s.decodeInto(r, out)
}

// current returns the latest record of key if the key exists, and a copy
// of its object the caller may change.
func (s *store) current(key string) (*record, Object, error) {
	r := s.db.latest(key)
	if r == nil || r.deleted {
		return nil, nil, nil
	}
	shared, err := s.decode(r)
	if err != nil {
		return nil, nil, err
	}
	return r, shared.DeepCopyObject().(Object), nil
}

// GuaranteedUpdate is an optimistic read-modify-write loop: read, check
// preconditions, call tryUpdate, and write if the key is still at the
// revision that was read; otherwise start again with the new state.
//
// Mirrors (*store).GuaranteedUpdate in etcd3/store.go.
func (s *store) GuaranteedUpdate(ctx context.Context, key string, out Object, ignoreNotFound bool,
	preconditions *Preconditions, tryUpdate UpdateFunc) error {
	if err := s.checkKey(key); err != nil {
		return err
	}
	for {
		if err := ctx.Err(); err != nil {
			return NewTimeoutError(key, "the request ended before the update: "+err.Error())
		}
		cur, obj, err := s.current(key)
		if err != nil {
			return err
		}
		var expect int64
		if cur == nil {
			if !ignoreNotFound {
				return NewNotFoundError(key)
			}
			obj = s.newFunc()
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
		if cur != nil && bytes.Equal(data, cur.value) {
			// Nothing changed: no write, no new revision (as upstream).
			return s.decodeInto(cur, out)
		}
		r, err := s.db.write(ctx, &writeOp{key: key, value: data, expect: expect})
		if errors.Is(err, errModified) {
			continue
		}
		if err != nil {
			return err
		}
		return s.decodeTo(r, out)
	}
}

// Delete removes the object under key. The tombstone keeps the deleted
// state, so that watchers and out get it with the delete's revision.
//
// Mirrors (*store).Delete and conditionalDelete in etcd3/store.go.
func (s *store) Delete(ctx context.Context, key string, out Object, preconditions *Preconditions,
	validateDeletion ValidateObjectFunc) error {
	if err := s.checkKey(key); err != nil {
		return err
	}
	for {
		if err := ctx.Err(); err != nil {
			return NewTimeoutError(key, "the request ended before the delete: "+err.Error())
		}
		cur, obj, err := s.current(key)
		if err != nil {
			return err
		}
		if cur == nil {
			return NewNotFoundError(key)
		}
		if err := preconditions.Check(key, obj); err != nil {
			return err
		}
		if validateDeletion != nil {
			if err := validateDeletion(ctx, obj); err != nil {
				return err
			}
		}
		r, err := s.db.write(ctx, &writeOp{key: key, deleted: true, value: cur.value, expect: cur.rev})
		if errors.Is(err, errModified) {
			continue
		}
		if err != nil {
			return err
		}
		return s.decodeTo(r, out)
	}
}

// Count returns the number of objects under the prefix key now.
func (s *store) Count(ctx context.Context, key string) (int64, error) {
	rng, err := s.keyRange(key, true)
	if err != nil {
		return 0, err
	}
	if err := s.db.usable(); err != nil {
		return 0, err
	}
	s.db.mu.RLock()
	defer s.db.mu.RUnlock()
	return s.db.countAt(rng, rng.key, s.db.rev), nil
}

// parseRV parses a resourceVersion given by a client.
func parseRV(rv string) (int64, error) {
	n, err := strconv.ParseInt(rv, 10, 64)
	if err != nil || n < 0 {
		return 0, NewBadRequestError(fmt.Sprintf("invalid resource version %q", rv))
	}
	return n, nil
}
