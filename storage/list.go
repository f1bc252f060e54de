package storage

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"path"
	"strings"

	metav1 "github.com/crdlab/crdlab/apis/meta/v1"
)

// GetList reads the objects of a key range at one revision, in key order,
// a page at a time.
//
// Mirrors (*store).GetList in etcd3/store.go: the first page fixes the
// revision, and the continue token carries it, so that every page is read
// at the same revision however many writes happen in between.
func (s *store) GetList(ctx context.Context, key string, opts ListOptions) (*ListResult, error) {
	rng, err := s.keyRange(key, opts.Recursive)
	if err != nil {
		return nil, err
	}
	if err := s.db.usable(); err != nil {
		return nil, err
	}
	pred := opts.Predicate
	rev, from, err := s.listRevision(rng, opts)
	if err != nil {
		return nil, err
	}
	limit := int(pred.Limit)
	if !opts.Recursive || limit < 0 {
		limit = 0
	}

	res := &ListResult{ResourceVersion: rev, Items: []Object{}}
	var lastKey string
	err = s.db.scanAt(ctx, rng, from, rev, func(r *record) (bool, error) {
		if limit > 0 && len(res.Items) == limit {
			// Another object follows: this page ends here.
			c, err := encodeContinue(lastKey+"\x00", s.prefix, rev)
			if err != nil {
				return false, err
			}
			res.Continue = c
			if pred.Empty() {
				s.db.mu.RLock()
				n := s.db.countAt(rng, r.key, rev)
				s.db.mu.RUnlock()
				res.RemainingItemCount = &n
			}
			return false, nil
		}
		obj, err := s.decode(r)
		if err != nil {
			return false, err
		}
		ok, err := pred.Matches(obj, s.attrs)
		if err != nil {
			return false, NewInternalError(r.key, err)
		}
		if ok {
			res.Items = append(res.Items, obj)
			lastKey = r.key
		}
		return true, nil
	})
	if err != nil {
		return nil, err
	}
	return res, nil
}

// listRevision returns the revision a list reads at and the key it starts
// from, following upstream's resourceVersion semantics:
//
//   - continue token: its revision and start key;
//   - "" or "0": the current revision ("0" allows any, we have the latest);
//   - N, Match NotOlderThan: the current revision, if it is at least N;
//   - N, Match Exact: N itself;
//   - N, Match unset: as NotOlderThan, but exactly N when paging (limit >
//     0), as etcd3/store.go does.
func (s *store) listRevision(rng keyRange, opts ListOptions) (rev int64, from string, err error) {
	cur, compacted := s.db.state()
	from = rng.key
	if c := opts.Predicate.Continue; c != "" {
		if opts.ResourceVersion != "" {
			return 0, "", NewBadRequestError("specifying resource version is not allowed when using continue")
		}
		if opts.ResourceVersionMatch != "" {
			return 0, "", NewBadRequestError("resourceVersionMatch is forbidden when continue is provided")
		}
		from, rev, err = decodeContinue(c, s.prefix)
		if err != nil {
			return 0, "", err
		}
		if !rng.prefix || !strings.HasPrefix(from, rng.key) {
			return 0, "", NewBadRequestError("continue key is not valid: it is outside the listed prefix")
		}
		if rev > cur {
			return 0, "", NewTooLargeResourceVersionError(rev, cur)
		}
		if rev < compacted {
			return 0, "", &Error{Code: ErrCodeExpired, ResourceVersion: rev, Msg: fmt.Sprintf(
				"The provided continue parameter is too old to display a consistent list result (revision %d is compacted, history starts at %d). Start a new list without the continue parameter.", rev, compacted)}
		}
		return rev, from, nil
	}

	rv, match := opts.ResourceVersion, opts.ResourceVersionMatch
	var n int64
	if rv != "" {
		if n, err = parseRV(rv); err != nil {
			return 0, "", err
		}
	}
	switch match {
	case "":
		if n > cur {
			return 0, "", NewTooLargeResourceVersionError(n, cur)
		}
		if n > 0 && opts.Predicate.Limit > 0 {
			rev = n
		} else {
			rev = cur
		}
	case metav1.ResourceVersionMatchNotOlderThan:
		if rv == "" {
			return 0, "", NewBadRequestError("resourceVersionMatch NotOlderThan needs a resourceVersion")
		}
		if n > cur {
			return 0, "", NewTooLargeResourceVersionError(n, cur)
		}
		rev = cur
	case metav1.ResourceVersionMatchExact:
		if rv == "" || n == 0 {
			return 0, "", NewBadRequestError(`resourceVersionMatch Exact needs a resourceVersion other than "" and "0"`)
		}
		if n > cur {
			return 0, "", NewTooLargeResourceVersionError(n, cur)
		}
		rev = n
	default:
		return 0, "", NewBadRequestError(fmt.Sprintf("unknown resourceVersionMatch %q", match))
	}
	if rev < compacted {
		return 0, "", NewExpiredError(rev, compacted)
	}
	return rev, from, nil
}

// scanChunk is how many keys scanAt looks at under one lock.
const scanChunk = 1000

// scanAt calls fn, in key order, with the record that holds the state at
// rev of every key in rng from the key from on that exists at rev, until
// fn returns false or an error.
//
// A key's latest record is in memory; older states are read from the
// history bucket. Each chunk opens its bbolt read transaction before it
// looks revisions up under mu: a compaction forgets revisions in memory
// (under mu) before it deletes them on disk, so every revision found is in
// the transaction's snapshot, or the compaction is seen and the scan
// answers Expired. fn runs with no lock and no transaction held.
func (db *DB) scanAt(ctx context.Context, rng keyRange, from string, rev int64, fn func(*record) (bool, error)) error {
	type hit struct {
		rec *record // the record, or nil if it must be read from history
		rev int64
	}
	hits := make([]hit, 0, scanChunk)
	for {
		if err := ctx.Err(); err != nil {
			return NewTimeoutError(rng.key, "the request ended during the list: "+err.Error())
		}
		tx, err := db.bolt.Begin(false)
		if err != nil {
			return NewInternalError(rng.key, fmt.Errorf("%w: %w", ErrClosed, err))
		}
		db.mu.RLock()
		if rev < db.compacted {
			compacted := db.compacted
			db.mu.RUnlock()
			_ = tx.Rollback()
			return NewExpiredError(rev, compacted)
		}
		hits = hits[:0]
		next, visited := "", 0
		db.index.ascend(from, func(ki *keyIndex) bool {
			if !rng.contains(ki.key) {
				return false
			}
			if visited == scanChunk {
				next = ki.key
				return false
			}
			visited++
			r, ok := ki.at(rev)
			switch {
			case !ok:
			case r.rev == ki.latest.rev:
				hits = append(hits, hit{rec: ki.latest})
			default:
				hits = append(hits, hit{rev: r.rev})
			}
			return true
		})
		db.mu.RUnlock()

		h := tx.Bucket(bucketHistory)
		for i := range hits {
			if hits[i].rec != nil {
				continue
			}
			k := revKey(hits[i].rev)
			v := h.Get(k)
			if v == nil {
				_ = tx.Rollback()
				return NewInternalError(rng.key, fmt.Errorf("%w: history has no record at revision %d", ErrCorrupt, hits[i].rev))
			}
			r, err := decodeRecord(k, v)
			if err != nil {
				_ = tx.Rollback()
				return NewInternalError(rng.key, fmt.Errorf("%w: %w", ErrCorrupt, err))
			}
			hits[i].rec = r
		}
		_ = tx.Rollback()

		for _, h := range hits {
			more, err := fn(h.rec)
			if err != nil || !more {
				return err
			}
		}
		if next == "" {
			return nil
		}
		from = next
	}
}

// countAt returns how many keys of rng from the key from on exist at rev.
// The caller holds mu.
func (db *DB) countAt(rng keyRange, from string, rev int64) int64 {
	var n int64
	db.index.ascend(from, func(ki *keyIndex) bool {
		if !rng.contains(ki.key) {
			return false
		}
		if _, ok := ki.at(rev); ok {
			n++
		}
		return true
	})
	return n
}

// continueToken is the decoded continue parameter of a list.
//
// Mirrors k8s.io/apiserver/pkg/storage/continue.go, so tokens look like
// upstream's: base64url of {"v":"meta.k8s.io/v1","rv":12,"start":"default/b\u0000"}.
type continueToken struct {
	APIVersion      string `json:"v"`
	ResourceVersion int64  `json:"rv"`
	StartKey        string `json:"start"`
}

// encodeContinue returns the token of a page that starts at key (relative
// to keyPrefix) and reads at rv.
func encodeContinue(key, keyPrefix string, rv int64) (string, error) {
	next := strings.TrimPrefix(key, keyPrefix)
	if next == key {
		return "", NewInternalError(key, fmt.Errorf("unable to encode next field: the key and key prefix do not match"))
	}
	out, err := json.Marshal(&continueToken{APIVersion: "meta.k8s.io/v1", ResourceVersion: rv, StartKey: next})
	if err != nil {
		return "", NewInternalError(key, err)
	}
	return base64.RawURLEncoding.EncodeToString(out), nil
}

// decodeContinue returns the key and revision a continue token points at.
func decodeContinue(token, keyPrefix string) (from string, rv int64, err error) {
	bad := func(why string) (string, int64, error) {
		return "", 0, NewBadRequestError("continue key is not valid: " + why)
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
	// Refuse keys that walk out of the prefix ("../").
	key := c.StartKey
	if !strings.HasPrefix(key, "/") {
		key = "/" + key
	}
	if cleaned := path.Clean(key); cleaned != key {
		return bad(c.StartKey)
	}
	return keyPrefix + key[1:], c.ResourceVersion, nil
}
