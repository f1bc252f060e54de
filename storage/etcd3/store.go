package etcd3

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"path"
	"reflect"
	"strconv"
	"strings"

	"go.etcd.io/etcd/api/v3/mvccpb"
	clientv3 "go.etcd.io/etcd/client/v3"

	metav1 "github.com/crdlab/crdlab/apis/meta/v1"
	"github.com/crdlab/crdlab/storage"
)

// store is the storage.Interface of one resource on etcd.
//
// Mirrors k8s.io/apiserver/pkg/storage/etcd3/store.go.
type store struct {
	b       *Backend
	prefix  string // the resource's crdlab key prefix, ending in "/"
	newFunc func() storage.Object
	codec   storage.Codec
	attrs   storage.AttrFunc
}

var _ storage.Interface = (*store)(nil)

// decode decodes data into a fresh object with resourceVersion rev.
func (s *store) decode(key string, data []byte, rev int64) (storage.Object, error) {
	obj := s.newFunc()
	if err := s.decodeTo(key, data, rev, obj); err != nil {
		return nil, err
	}
	return obj, nil
}

func (s *store) decodeTo(key string, data []byte, rev int64, out storage.Object) error {
	if err := s.codec.Decode(data, out); err != nil {
		return storage.NewInternalError(key, fmt.Errorf("decoding the object at revision %d: %w", rev, err))
	}
	out.SetResourceVersion(strconv.FormatInt(rev, 10))
	return nil
}

// encode returns obj as stored, without its resourceVersion (the etcd
// ModRevision is the resourceVersion, set again on every read).
func (s *store) encode(key string, obj storage.Object) ([]byte, error) {
	if rv := obj.GetResourceVersion(); rv != "" {
		obj.SetResourceVersion("")
		defer obj.SetResourceVersion(rv)
	}
	data, err := s.codec.Encode(obj)
	if err != nil {
		return nil, storage.NewInvalidObjError(key, err.Error())
	}
	return data, nil
}

// checkKey refuses keys outside the store's prefix, and NUL (continue
// tokens use it as a separator).
func (s *store) checkKey(key string) error {
	if !strings.HasPrefix(key, s.prefix) || len(key) == len(s.prefix) {
		return storage.NewBadRequestError("key " + key + " is not under the resource prefix " + s.prefix)
	}
	if strings.ContainsRune(key, 0) {
		return storage.NewBadRequestError("key contains NUL")
	}
	return nil
}

// keyRange is a crdlab key, or with prefix, every key under it.
type keyRange struct {
	key    string
	prefix bool
}

func (s *store) keyRange(key string, recursive bool) (keyRange, error) {
	if !recursive {
		return keyRange{key: key}, s.checkKey(key)
	}
	if !strings.HasSuffix(key, "/") {
		key += "/"
	}
	if !strings.HasPrefix(key, s.prefix) || strings.ContainsRune(key, 0) {
		return keyRange{}, storage.NewBadRequestError("prefix " + key + " is not under the resource prefix " + s.prefix)
	}
	return keyRange{key: key, prefix: true}, nil
}

// etcdRange returns the etcd [start, end) of rng from the crdlab key from
// on; end is "" for one key.
func (s *store) etcdRange(rng keyRange, from string) (start, end string) {
	if !rng.prefix {
		return s.b.etcdKey(rng.key), ""
	}
	return s.b.etcdKey(from), clientv3.GetPrefixRangeEnd(s.b.etcdKey(rng.key))
}

func (s *store) begin(ctx context.Context, key string) error {
	if err := s.b.usable(); err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		return storage.NewTimeoutError(key, "the request ended before it started: "+err.Error())
	}
	return nil
}

// Create stores obj under key if key is free: a transaction
// If(CreateRevision(key) == 0).Then(Put), as upstream's Create.
func (s *store) Create(ctx context.Context, key string, obj, out storage.Object) error {
	if err := s.checkKey(key); err != nil {
		return err
	}
	if obj.GetResourceVersion() != "" {
		return storage.NewInvalidObjError(key, "resourceVersion should not be set on objects to be created")
	}
	data, err := s.encode(key, obj)
	if err != nil {
		return err
	}
	if err := s.begin(ctx, key); err != nil {
		return err
	}
	ek := s.b.etcdKey(key)
	resp, err := s.b.client.Txn(ctx).
		If(clientv3.Compare(clientv3.CreateRevision(ek), "=", 0)).
		Then(clientv3.OpPut(ek, string(data))).
		Commit()
	if err != nil {
		return toErr(ctx, key, err)
	}
	if !resp.Succeeded {
		return storage.NewAlreadyExistsError(key)
	}
	return s.decodeTo(key, data, resp.Header.Revision, out)
}

// Get reads the object under key (a linearizable read).
func (s *store) Get(ctx context.Context, key string, opts storage.GetOptions, out storage.Object) error {
	if err := s.checkKey(key); err != nil {
		return err
	}
	var minRV int64
	if opts.ResourceVersion != "" && opts.ResourceVersion != "0" {
		var err error
		if minRV, err = parseRV(opts.ResourceVersion); err != nil {
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
			return setZero(out)
		}
		return storage.NewNotFoundError(key)
	}
	kv := resp.Kvs[0]
	return s.decodeTo(key, kv.Value, kv.ModRevision, out)
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
	obj, err := s.decode(key, kvs[0].Value, kvs[0].ModRevision)
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
	if err := s.checkKey(key); err != nil {
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
			return storage.NewTimeoutError(key, "the request ended before the update: "+err.Error())
		}
		obj := cur.obj
		var expect int64
		if cur.kv == nil {
			if !ignoreNotFound {
				return storage.NewNotFoundError(key)
			}
			obj = s.newFunc()
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
		data, err := s.encode(key, updated)
		if err != nil {
			return err
		}
		if cur.kv != nil && bytes.Equal(data, cur.kv.Value) {
			// Nothing changed: no write, no new revision (as upstream).
			return s.decodeTo(key, cur.kv.Value, cur.kv.ModRevision, out)
		}
		resp, err := s.b.client.Txn(ctx).
			If(clientv3.Compare(clientv3.ModRevision(ek), "=", expect)).
			Then(clientv3.OpPut(ek, string(data))).
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
		return s.decodeTo(key, data, resp.Header.Revision, out)
	}
}

// Delete removes the object under key: a transaction
// If(ModRevision(key) == read revision).Then(Delete).Else(Get), retried
// like GuaranteedUpdate (upstream's conditionalDelete).
func (s *store) Delete(ctx context.Context, key string, out storage.Object, preconditions *storage.Preconditions,
	validateDeletion storage.ValidateObjectFunc) error {
	if err := s.checkKey(key); err != nil {
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
			return storage.NewTimeoutError(key, "the request ended before the delete: "+err.Error())
		}
		if cur.kv == nil {
			return storage.NewNotFoundError(key)
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
		return s.decodeTo(key, cur.kv.Value, resp.Header.Revision, out)
	}
}

// Count returns the number of objects under the prefix key.
func (s *store) Count(ctx context.Context, key string) (int64, error) {
	rng, err := s.keyRange(key, true)
	if err != nil {
		return 0, err
	}
	if err := s.begin(ctx, key); err != nil {
		return 0, err
	}
	start, end := s.etcdRange(rng, rng.key)
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
	rng, err := s.keyRange(key, opts.Recursive)
	if err != nil {
		return nil, err
	}
	plan, err := s.listPlan(rng, opts)
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
	start, end := s.etcdRange(rng, plan.from)
	rev := plan.rev
	res := &storage.ListResult{Items: []storage.Object{}}
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
			if plan.minRev > rev {
				return nil, storage.NewTooLargeResourceVersionError(plan.minRev, rev)
			}
		}
		for i, kv := range resp.Kvs {
			if limit > 0 && int64(len(res.Items)) == limit {
				// Another object follows: this page ends here.
				c, err := encodeContinue(last+"\x00", s.prefix, rev)
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
			obj, err := s.decode(k, kv.Value, kv.ModRevision)
			if err != nil {
				return nil, err
			}
			ok, err := pred.Matches(obj, s.attrs)
			if err != nil {
				return nil, storage.NewInternalError(k, err)
			}
			if ok {
				res.Items = append(res.Items, obj)
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

// listPlan is where and at which revision a list reads: rev 0 means the
// latest, which must then be at least minRev.
type listPlan struct {
	rev, minRev int64
	from        string
}

// listPlan follows upstream's resourceVersion semantics (see the bbolt
// store's listRevision); etcd itself answers Expired for a compacted
// revision and TooLargeResourceVersion for a future one.
func (s *store) listPlan(rng keyRange, opts storage.ListOptions) (listPlan, error) {
	p := listPlan{from: rng.key}
	if c := opts.Predicate.Continue; c != "" {
		if opts.ResourceVersion != "" {
			return p, storage.NewBadRequestError("specifying resource version is not allowed when using continue")
		}
		if opts.ResourceVersionMatch != "" {
			return p, storage.NewBadRequestError("resourceVersionMatch is forbidden when continue is provided")
		}
		from, rev, err := decodeContinue(c, s.prefix)
		if err != nil {
			return p, err
		}
		if !rng.prefix || !strings.HasPrefix(from, rng.key) {
			return p, storage.NewBadRequestError("continue key is not valid: it is outside the listed prefix")
		}
		p.from, p.rev = from, rev
		return p, nil
	}
	rv, match := opts.ResourceVersion, opts.ResourceVersionMatch
	var n int64
	if rv != "" {
		var err error
		if n, err = parseRV(rv); err != nil {
			return p, err
		}
	}
	switch match {
	case "":
		if n > 0 && opts.Predicate.Limit > 0 {
			p.rev = n
		} else {
			p.minRev = n
		}
	case metav1.ResourceVersionMatchNotOlderThan:
		if rv == "" {
			return p, storage.NewBadRequestError("resourceVersionMatch NotOlderThan needs a resourceVersion")
		}
		p.minRev = n
	case metav1.ResourceVersionMatchExact:
		if rv == "" || n == 0 {
			return p, storage.NewBadRequestError(`resourceVersionMatch Exact needs a resourceVersion other than "" and "0"`)
		}
		p.rev = n
	default:
		return p, storage.NewBadRequestError(fmt.Sprintf("unknown resourceVersionMatch %q", match))
	}
	return p, nil
}

// parseRV parses a resourceVersion given by a client.
func parseRV(rv string) (int64, error) {
	n, err := strconv.ParseInt(rv, 10, 64)
	if err != nil || n < 0 {
		return 0, storage.NewBadRequestError(fmt.Sprintf("invalid resource version %q", rv))
	}
	return n, nil
}

// setZero sets *obj to its zero value.
func setZero(obj storage.Object) error {
	v := reflect.ValueOf(obj)
	if v.Kind() != reflect.Pointer || v.IsNil() {
		return fmt.Errorf("etcd3: out must be a non-nil pointer, got %T", obj)
	}
	v.Elem().SetZero()
	return nil
}

// continueToken is upstream's continue token (storage/continue.go), the
// same as the bbolt store's: base64url of
// {"v":"meta.k8s.io/v1","rv":12,"start":"default/b\u0000"}.
type continueToken struct {
	APIVersion      string `json:"v"`
	ResourceVersion int64  `json:"rv"`
	StartKey        string `json:"start"`
}

func encodeContinue(key, keyPrefix string, rv int64) (string, error) {
	next := strings.TrimPrefix(key, keyPrefix)
	if next == key {
		return "", storage.NewInternalError(key, fmt.Errorf("unable to encode next field: the key and key prefix do not match"))
	}
	out, err := json.Marshal(&continueToken{APIVersion: "meta.k8s.io/v1", ResourceVersion: rv, StartKey: next})
	if err != nil {
		return "", storage.NewInternalError(key, err)
	}
	return base64.RawURLEncoding.EncodeToString(out), nil
}

func decodeContinue(token, keyPrefix string) (from string, rv int64, err error) {
	bad := func(why string) (string, int64, error) {
		return "", 0, storage.NewBadRequestError("continue key is not valid: " + why)
	}
	data, err := base64.RawURLEncoding.DecodeString(token)
	if err != nil {
		return bad(err.Error())
	}
	var c continueToken
	if err := json.Unmarshal(data, &c); err != nil {
		return bad(err.Error())
	}
	if c.APIVersion != "meta.k8s.io/v1" {
		return bad(fmt.Sprintf("server does not recognize this encoded version %q", c.APIVersion))
	}
	if c.ResourceVersion <= 0 {
		return bad("incorrect encoded start resourceVersion (version meta.k8s.io/v1)")
	}
	if c.StartKey == "" {
		return bad("encoded start key empty (version meta.k8s.io/v1)")
	}
	key := c.StartKey
	if !strings.HasPrefix(key, "/") {
		key = "/" + key
	}
	if cleaned := path.Clean(key); cleaned != key {
		return bad(c.StartKey)
	}
	return keyPrefix + key[1:], c.ResourceVersion, nil
}
