package bolt

import (
	"context"
	"errors"
	"fmt"

	"github.com/crdlab/crdlab/storage"
)

// GetList reads the objects of a key range at one revision, in key order,
// a page at a time.
//
// Mirrors (*store).GetList in etcd3/store.go: the first page fixes the
// revision, and the continue token carries it, so that every page is read
// at the same revision however many writes happen in between.
func (s *store) GetList(ctx context.Context, key string, opts storage.ListOptions) (*storage.ListResult, error) {
	rng, err := s.KeyRange(key, opts.Recursive)
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

	res := &storage.ListResult{ResourceVersion: rev, Items: []storage.Object{}}
	var lastKey string
	err = s.db.scanAt(ctx, rng, from, rev, func(r *record) (bool, error) {
		if limit > 0 && len(res.Items) == limit {
			// Another object follows: this page ends here.
			c, err := storage.EncodeContinue(lastKey+"\x00", s.Prefix, rev)
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
		if errors.Is(err, errGone) {
			// A compaction passed rev since the chunk was read.
			_, compacted := s.db.state()
			return false, storage.NewExpiredError(rev, compacted)
		}
		if err != nil {
			return false, err
		}
		ok, err := s.Matches(pred, r.key, obj)
		if err != nil {
			return false, err
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
// from: the contract's plan (storage.PlanList), checked against the
// current and compacted revisions.
func (s *store) listRevision(rng storage.KeyRange, opts storage.ListOptions) (rev int64, from string, err error) {
	p, err := storage.PlanList(rng, s.Prefix, opts)
	if err != nil {
		return 0, "", err
	}
	cur, compacted := s.db.state()
	rev = p.Rev
	if rev == 0 {
		rev = max(cur, p.MinRev)
	}
	switch {
	case rev > cur:
		return 0, "", storage.NewTooLargeResourceVersionError(rev, cur)
	case rev < compacted && p.Continuing:
		return 0, "", &storage.Error{Kind: storage.ErrExpired, ResourceVersion: rev, Msg: fmt.Sprintf(
			"The provided continue parameter is too old to display a consistent list result (revision %d is compacted, history starts at %d). Start a new list without the continue parameter.", rev, compacted)}
	case rev < compacted:
		return 0, "", storage.NewExpiredError(rev, compacted)
	}
	return rev, p.From, nil
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
func (db *DB) scanAt(ctx context.Context, rng storage.KeyRange, from string, rev int64, fn func(*record) (bool, error)) error {
	type hit struct {
		rec *record // the record, or nil if it must be read from history
		rev int64
	}
	hits := make([]hit, 0, scanChunk)
	for {
		if err := ctx.Err(); err != nil {
			return &storage.Error{Kind: storage.ErrTimeout, Key: rng.Key, Msg: "the request ended during the list: " + err.Error()}
		}
		tx, err := db.beginRead()
		if err != nil {
			return &storage.Error{Kind: storage.ErrInternal, Key: rng.Key, Err: fmt.Errorf("%w: %w", storage.ErrClosed, err)}
		}
		db.mu.RLock()
		if rev < db.compacted {
			compacted := db.compacted
			db.mu.RUnlock()
			db.endRead(tx)
			return storage.NewExpiredError(rev, compacted)
		}
		hits = hits[:0]
		next, visited := "", 0
		db.index.ascend(from, func(ki *keyIndex) bool {
			if !rng.Contains(ki.key) {
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
				db.endRead(tx)
				return &storage.Error{Kind: storage.ErrInternal, Key: rng.Key, Err: fmt.Errorf("%w: history has no record at revision %d", ErrCorrupt, hits[i].rev)}
			}
			r, err := decodeRecord(k, v)
			if err != nil {
				db.endRead(tx)
				return &storage.Error{Kind: storage.ErrInternal, Key: rng.Key, Err: fmt.Errorf("%w: %w", ErrCorrupt, err)}
			}
			hits[i].rec = r
		}
		db.endRead(tx)

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
func (db *DB) countAt(rng storage.KeyRange, from string, rev int64) int64 {
	var n int64
	db.index.ascend(from, func(ki *keyIndex) bool {
		if !rng.Contains(ki.key) {
			return false
		}
		if _, ok := ki.at(rev); ok {
			n++
		}
		return true
	})
	return n
}
