package etcd3

import (
	"bytes"
	"context"
	"strings"

	"go.etcd.io/etcd/api/v3/mvccpb"
	clientv3 "go.etcd.io/etcd/client/v3"

	"github.com/crdlab/crdlab/storage"
)

// store is the storage.Interface of one resource on etcd: the resource's
// key prefix and codec (the embedded storage.Resource) on a Backend.
//
// Mirrors k8s.io/apiserver/pkg/storage/etcd3/store.go.
type store struct {
	*storage.Resource
	b *Backend
}

var _ storage.Interface = (*store)(nil)

// etcdRange returns the etcd [start, end) of rng from the crdlab key from
// on; end is "" for one key.
func (s *store) etcdRange(rng storage.KeyRange, from string) (start, end string) {
	if !rng.Prefix {
		return s.b.etcdKey(rng.Key), ""
	}
	return s.b.etcdKey(from), clientv3.GetPrefixRangeEnd(s.b.etcdKey(rng.Key))
}

func (s *store) begin(ctx context.Context, key string) error {
	if err := s.b.usable(); err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		return &storage.Error{Kind: storage.ErrTimeout, Key: key, Msg: "the request ended before it started: " + err.Error()}
	}
	return nil
}

// Create stores obj under key if key is free: a transaction
// If(CreateRevision(key) == 0).Then(Put), as upstream's Create.
func (s *store) Create(ctx context.Context, key string, obj, out storage.Object) error {
	if err := s.CheckKey(key); err != nil {
		return err
	}
	if obj.GetResourceVersion() != "" {
		return &storage.Error{Kind: storage.ErrInvalidObject, Key: key, Msg: "resourceVersion should not be set on objects to be created"}
	}
	data, err := s.Encode(key, obj)
	if err != nil {
		return err
	}
	if err := s.begin(ctx, key); err != nil {
		return err
	}
	ek := s.b.etcdKey(key)
	put, err := s.putOptions(ctx)
	if err != nil {
		return toErr(ctx, key, err)
	}
	resp, err := s.b.client.Txn(ctx).
		If(clientv3.Compare(clientv3.CreateRevision(ek), "=", 0)).
		Then(clientv3.OpPut(ek, string(data), put...)).
		Commit()
	if err != nil {
		return toErr(ctx, key, err)
	}
	if !resp.Succeeded {
		return &storage.Error{Kind: storage.ErrAlreadyExists, Key: key}
	}
	return s.Decode(key, data, resp.Header.Revision, out)
}

// Get reads the object under key (a linearizable read).
func (s *store) Get(ctx context.Context, key string, opts storage.GetOptions, out storage.Object) error {
	if err := s.CheckKey(key); err != nil {
		return err
	}
	var minRV int64
	if opts.ResourceVersion != "" && opts.ResourceVersion != "0" {
		var err error
		if minRV, err = storage.ParseResourceVersion(opts.ResourceVersion); err != nil {
			return err
		}
	}
	if err := s.begin(ctx, key); err != nil {
		return err
	}
	resp, err := s.b.client.Get(ctx, s.b.etcdKey(key))
	if err != nil {
		return toErr(ctx, key, err)
	}
	if minRV > resp.Header.Revision {
		return storage.NewTooLargeResourceVersionError(minRV, resp.Header.Revision)
	}
	if len(resp.Kvs) == 0 {
		if opts.IgnoreNotFound {
			return storage.SetZero(out)
		}
		return &storage.Error{Kind: storage.ErrNotFound, Key: key}
	}
	kv := resp.Kvs[0]
	return s.Decode(key, kv.Value, kv.ModRevision, out)
}

// current is the state of a key read for a read-modify-write.
type current struct {
	kv  *mvccpb.KeyValue // nil: the key does not exist
	obj storage.Object   // a fresh copy the caller may change
}

func (s *store) currentFrom(key string, kvs []*mvccpb.KeyValue) (*current, error) {
	if len(kvs) == 0 {
		return &current{}, nil
	}
	obj, err := s.DecodeNew(key, kvs[0].Value, kvs[0].ModRevision)
	if err != nil {
		return nil, err
	}
	return &current{kv: kvs[0], obj: obj}, nil
}

func (s *store) read(ctx context.Context, key string) (*current, error) {
	resp, err := s.b.client.Get(ctx, s.b.etcdKey(key))
	if err != nil {
		return nil, toErr(ctx, key, err)
	}
	return s.currentFrom(key, resp.Kvs)
}

// GuaranteedUpdate is the optimistic read-modify-write loop of upstream's
// GuaranteedUpdate: the write is a transaction
// If(ModRevision(key) == read revision).Then(Put).Else(Get), and a failed
// compare starts again with the state the Else branch returned.
func (s *store) GuaranteedUpdate(ctx context.Context, key string, out storage.Object, ignoreNotFound bool,
	preconditions *storage.Preconditions, tryUpdate storage.UpdateFunc) error {
	if err := s.CheckKey(key); err != nil {
		return err
	}
	if err := s.begin(ctx, key); err != nil {
		return err
	}
	ek := s.b.etcdKey(key)
	cur, err := s.read(ctx, key)
	if err != nil {
		return err
	}
	for {
		if err := ctx.Err(); err != nil {
			return &storage.Error{Kind: storage.ErrTimeout, Key: key, Msg: "the request ended before the update: " + err.Error()}
		}
		obj := cur.obj
		var expect int64
		if cur.kv == nil {
			if !ignoreNotFound {
				return &storage.Error{Kind: storage.ErrNotFound, Key: key}
			}
			obj = s.NewFunc()
		} else {
			expect = cur.kv.ModRevision
		}
		if err := preconditions.Check(key, obj); err != nil {
			return err
		}
		updated, err := tryUpdate(obj)
		if err != nil {
			return err
		}
		data, err := s.Encode(key, updated)
		if err != nil {
			return err
		}
		if cur.kv != nil && bytes.Equal(data, cur.kv.Value) {
			// Nothing changed: no write, no new revision (as upstream).
			return s.Decode(key, cur.kv.Value, cur.kv.ModRevision, out)
		}
		put, err := s.putOptions(ctx)
		if err != nil {
			return toErr(ctx, key, err)
		}
		resp, err := s.b.client.Txn(ctx).
			If(clientv3.Compare(clientv3.ModRevision(ek), "=", expect)).
			Then(clientv3.OpPut(ek, string(data), put...)).
			Else(clientv3.OpGet(ek)).
			Commit()
		if err != nil {
			return toErr(ctx, key, err)
		}
		if !resp.Succeeded {
			if cur, err = s.currentFrom(key, resp.Responses[0].GetResponseRange().Kvs); err != nil {
				return err
			}
			continue
		}
		return s.Decode(key, data, resp.Header.Revision, out)
	}
}

// Delete removes the object under key: a transaction
// If(ModRevision(key) == read revision).Then(Delete).Else(Get), retried
// like GuaranteedUpdate (upstream's conditionalDelete).
func (s *store) Delete(ctx context.Context, key string, out storage.Object, preconditions *storage.Preconditions,
	validateDeletion storage.ValidateObjectFunc) error {
	if err := s.CheckKey(key); err != nil {
		return err
	}
	if err := s.begin(ctx, key); err != nil {
		return err
	}
	ek := s.b.etcdKey(key)
	cur, err := s.read(ctx, key)
	if err != nil {
		return err
	}
	for {
		if err := ctx.Err(); err != nil {
			return &storage.Error{Kind: storage.ErrTimeout, Key: key, Msg: "the request ended before the delete: " + err.Error()}
		}
		if cur.kv == nil {
			return &storage.Error{Kind: storage.ErrNotFound, Key: key}
		}
		if err := preconditions.Check(key, cur.obj); err != nil {
			return err
		}
		if validateDeletion != nil {
			if err := validateDeletion(ctx, cur.obj); err != nil {
				return err
			}
		}
		resp, err := s.b.client.Txn(ctx).
			If(clientv3.Compare(clientv3.ModRevision(ek), "=", cur.kv.ModRevision)).
			Then(clientv3.OpDelete(ek)).
			Else(clientv3.OpGet(ek)).
			Commit()
		if err != nil {
			return toErr(ctx, key, err)
		}
		if !resp.Succeeded {
			if cur, err = s.currentFrom(key, resp.Responses[0].GetResponseRange().Kvs); err != nil {
				return err
			}
			continue
		}
		return s.Decode(key, cur.kv.Value, resp.Header.Revision, out)
	}
}

// Count returns the number of objects under the prefix key.
func (s *store) Count(ctx context.Context, key string) (int64, error) {
	rng, err := s.KeyRange(key, true)
	if err != nil {
		return 0, err
	}
	if err := s.begin(ctx, key); err != nil {
		return 0, err
	}
	start, end := s.etcdRange(rng, rng.Key)
	resp, err := s.b.client.Get(ctx, start, clientv3.WithRange(end), clientv3.WithCountOnly())
	if err != nil {
		return 0, toErr(ctx, key, err)
	}
	return resp.Count, nil
}

// GetList reads a key range at one revision, a page at a time.
//
// Mirrors (*store).GetList in etcd3/store.go: the first page reads at the
// latest revision (or the one asked for), and the continue token carries
// it, so that every page is read WithRev(that revision).
func (s *store) GetList(ctx context.Context, key string, opts storage.ListOptions) (*storage.ListResult, error) {
	rng, err := s.KeyRange(key, opts.Recursive)
	if err != nil {
		return nil, err
	}
	plan, err := storage.PlanList(rng, s.Prefix, opts)
	if err != nil {
		return nil, err
	}
	if err := s.begin(ctx, key); err != nil {
		return nil, err
	}
	pred := opts.Predicate
	limit := pred.Limit
	if !opts.Recursive || limit < 0 {
		limit = 0
	}
	start, end := s.etcdRange(rng, plan.From)
	rev := plan.Rev
	// A reader that only writes JSON takes the stored bytes, with no
	// selector to decode them for (storage.ListOptions.Encoded).
	_, isJSON := s.Codec.(storage.JSONCodec)
	_, storesJSON := s.Codec.(storage.JSONStorer)
	encoded := opts.Encoded && (isJSON || storesJSON) && pred.Empty()
	res := &storage.ListResult{}
	if encoded {
		res.Encoded = []storage.ObjectJSON{}
	} else {
		res.Items = []storage.Object{}
	}
	var n int64 // items in the page
	fetch := limit + 1
	if !pred.Empty() {
		fetch = max(fetch, s.b.cfg.PagingChunk)
	}
	var last string // the crdlab key of the last key looked at
	for {
		ops := []clientv3.OpOption{clientv3.WithRev(rev)}
		if end != "" {
			ops = append(ops, clientv3.WithRange(end))
		}
		if limit > 0 {
			ops = append(ops, clientv3.WithLimit(fetch))
		}
		resp, err := s.b.client.Get(ctx, start, ops...)
		if err != nil {
			return nil, toErr(ctx, key, err)
		}
		if rev == 0 {
			rev = resp.Header.Revision
			if plan.MinRev > rev {
				return nil, storage.NewTooLargeResourceVersionError(plan.MinRev, rev)
			}
		}
		for i, kv := range resp.Kvs {
			if limit > 0 && n == limit {
				// Another object follows: this page ends here.
				c, err := storage.EncodeContinue(last+"\x00", s.Prefix, rev)
				if err != nil {
					return nil, err
				}
				res.Continue = c
				if pred.Empty() {
					n := resp.Count - int64(i)
					res.RemainingItemCount = &n
				}
				res.ResourceVersion = rev
				return res, nil
			}
			k := s.fromEtcd(kv.Key)
			last = k
			if encoded {
				res.Encoded = append(res.Encoded, storage.ObjectJSON{Data: kv.Value, Rev: kv.ModRevision})
				n++
				continue
			}
			obj, err := s.DecodeNew(k, kv.Value, kv.ModRevision)
			if err != nil {
				return nil, err
			}
			ok, err := s.Matches(pred, k, obj)
			if err != nil {
				return nil, err
			}
			if ok {
				res.Items = append(res.Items, obj)
				n++
			}
		}
		if !resp.More || len(resp.Kvs) == 0 {
			break
		}
		start = string(resp.Kvs[len(resp.Kvs)-1].Key) + "\x00"
	}
	res.ResourceVersion = rev
	return res, nil
}

// fromEtcd maps an etcd key back to its crdlab key.
func (s *store) fromEtcd(k []byte) string {
	return storage.KeyRoot + strings.TrimPrefix(string(k), s.b.prefix)
}
