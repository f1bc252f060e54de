package bolt

import (
	"slices"
	"sort"

	"github.com/crdlab/crdlab/storage"
)

// revision is one write to a key, as the index remembers it.
type revision struct {
	rev       int64
	tombstone bool
}

// keyIndex is the history of one key still held on disk: the revisions of
// its writes, oldest first, and its latest record.
//
// A key lives in generations: a put after nothing or after a tombstone
// starts one, a tombstone ends it. revs runs through them all, e.g.
// [3 5 8(tombstone) 12] is a key created at 3, changed at 5, deleted at 8
// and created again at 12.
//
// Invariants: revs is non-empty and strictly increasing; latest is the
// record of revs[len(revs)-1]; after compaction at c, revs[0] >= c unless
// revs[0] is the key's last put at or before c (which keeps the state at c
// readable).
//
// Mirrors etcd's keyIndex (server/storage/mvcc/key_index.go), with
// generations folded into one list.
type keyIndex struct {
	key    string
	revs   []revision
	latest *record
}

// at returns the revision that holds the key's state at rev: its last
// write at or before rev. ok is false if there is none or it is a
// tombstone (the key did not exist at rev).
func (ki *keyIndex) at(rev int64) (r revision, ok bool) {
	i := sort.Search(len(ki.revs), func(i int) bool { return ki.revs[i].rev > rev }) - 1
	if i < 0 || ki.revs[i].tombstone {
		return revision{}, false
	}
	return ki.revs[i], true
}

// compact forgets the revisions that no read at or after rev can need: all
// before rev but the last, and that one too if it is a tombstone. It
// returns the forgotten revisions; the key itself is forgotten when revs
// ends up empty.
//
// Mirrors keyIndex.compact in key_index.go.
func (ki *keyIndex) compact(rev int64) (dropped []int64) {
	i := sort.Search(len(ki.revs), func(i int) bool { return ki.revs[i].rev > rev }) - 1
	if i < 0 {
		return nil
	}
	keep := i
	if ki.revs[i].tombstone {
		keep = i + 1
	}
	for _, r := range ki.revs[:keep] {
		dropped = append(dropped, r.rev)
	}
	ki.revs = slices.Delete(ki.revs, 0, keep)
	return dropped
}

// treeIndex maps keys to their keyIndex, in key order.
//
// Not safe for concurrent use: DB.mu guards it.
//
// Mirrors etcd's treeIndex (server/storage/mvcc/index.go), which keeps a
// B-tree; here a point lookup is a map and the order is kept in sorted
// chunks of at most maxChunk keys, a two-level B-tree that is enough for
// the hundreds of thousands of keys crdlab is meant for.
//
// Each chunk also keeps two figures of its keys (chunkStats): how many
// are live (their latest write is not a tombstone), and the revision of
// the latest write to any of them. How many keys of a range exist at a
// revision is then a sum over the chunks written to at or before it, and
// a walk over the keys of the others only (count: a paginated list's
// remainingItemCount). etcd counts by walking its tree.
type treeIndex struct {
	byKey  map[string]*keyIndex
	chunks [][]*keyIndex // each sorted and non-empty; chunk i's keys < chunk i+1's
	stats  []chunkStats  // stats[i] is chunks[i]'s
}

// chunkStats are the figures of one chunk's keys.
type chunkStats struct {
	live    int   // keys whose latest write is not a tombstone
	written int64 // at least the revision of the latest write to any of them
}

const maxChunk = 512

func newTreeIndex() *treeIndex { return &treeIndex{byKey: map[string]*keyIndex{}} }

func (t *treeIndex) get(key string) *keyIndex { return t.byKey[key] }

func (t *treeIndex) len() int { return len(t.byKey) }

// isLive reports whether the key exists at the latest revision.
func (ki *keyIndex) isLive() bool { return len(ki.revs) > 0 && !ki.revs[len(ki.revs)-1].tombstone }

// put records a committed write.
func (t *treeIndex) put(r *record) {
	ki := t.byKey[r.key]
	if ki == nil {
		ki = &keyIndex{key: r.key}
		t.byKey[r.key] = ki
		t.insert(ki)
	}
	was := ki.isLive()
	ki.revs = append(ki.revs, revision{rev: r.rev, tombstone: r.deleted})
	ki.latest = r
	st := &t.stats[t.chunkFor(r.key)]
	st.written = max(st.written, r.rev)
	switch is := !r.deleted; {
	case is && !was:
		st.live++
	case was && !is:
		st.live--
	}
}

// recount works out every chunk's figures again: after Open has filled
// the keys' revisions in place (DB.rebuild).
func (t *treeIndex) recount() {
	t.stats = t.stats[:0]
	for _, c := range t.chunks {
		t.stats = append(t.stats, statsOf(c))
	}
}

func statsOf(c []*keyIndex) chunkStats {
	var st chunkStats
	for _, ki := range c {
		if ki.isLive() {
			st.live++
		}
		if n := len(ki.revs); n > 0 {
			st.written = max(st.written, ki.revs[n-1].rev)
		}
	}
	return st
}

// chunkFor returns the index of the first chunk whose last key is >= key,
// or len(t.chunks) if there is none.
func (t *treeIndex) chunkFor(key string) int {
	return sort.Search(len(t.chunks), func(i int) bool {
		c := t.chunks[i]
		return c[len(c)-1].key >= key
	})
}

// insert adds ki, a key without revisions yet (put and DB.rebuild add
// them), in key order; a chunk grown past maxChunk splits in two.
func (t *treeIndex) insert(ki *keyIndex) {
	if len(t.chunks) == 0 {
		t.chunks = [][]*keyIndex{{ki}}
		t.stats = []chunkStats{statsOf(t.chunks[0])}
		return
	}
	ci := min(t.chunkFor(ki.key), len(t.chunks)-1)
	c := t.chunks[ci]
	i := sort.Search(len(c), func(i int) bool { return c[i].key >= ki.key })
	c = slices.Insert(c, i, ki)
	if len(c) <= maxChunk {
		t.chunks[ci] = c
		return
	}
	half := len(c) / 2
	left := slices.Clone(c[:half])
	right := slices.Clone(c[half:])
	t.chunks[ci] = left
	t.chunks = slices.Insert(t.chunks, ci+1, right)
	t.stats[ci] = statsOf(left)
	t.stats = slices.Insert(t.stats, ci+1, statsOf(right))
}

func (t *treeIndex) remove(key string) {
	ki, ok := t.byKey[key]
	if !ok {
		return
	}
	delete(t.byKey, key)
	ci := t.chunkFor(key)
	c := t.chunks[ci]
	i := sort.Search(len(c), func(i int) bool { return c[i].key >= key })
	c = slices.Delete(c, i, i+1)
	if len(c) == 0 {
		t.chunks = slices.Delete(t.chunks, ci, ci+1)
		t.stats = slices.Delete(t.stats, ci, ci+1)
		return
	}
	t.chunks[ci] = c
	if ki.isLive() {
		t.stats[ci].live--
	}
}

// count returns how many keys exist at rev from the key from on, up to
// the first key outside rng (from is in rng or just after one of its
// keys). A chunk wholly in the range and not written to after rev adds
// its count of live keys (each key's state at rev is its latest); the
// keys of the others are looked at one by one.
func (t *treeIndex) count(rng storage.KeyRange, from string, rev int64) int64 {
	var n int64
	for ci := t.chunkFor(from); ci < len(t.chunks); ci++ {
		c := t.chunks[ci]
		first, last := c[0].key, c[len(c)-1].key
		if t.stats[ci].written <= rev && first >= from && rng.Contains(first) && rng.Contains(last) {
			// A range is one run of keys in order (a key, or every key
			// with a prefix): the keys between two of it are in it.
			n += int64(t.stats[ci].live)
			continue
		}
		for _, ki := range c {
			if ki.key < from {
				continue
			}
			if !rng.Contains(ki.key) {
				return n
			}
			if _, ok := ki.at(rev); ok {
				n++
			}
		}
	}
	return n
}

// ascend calls fn for every keyIndex with a key >= from, in key order,
// until fn returns false.
func (t *treeIndex) ascend(from string, fn func(*keyIndex) bool) {
	for ci := t.chunkFor(from); ci < len(t.chunks); ci++ {
		c := t.chunks[ci]
		i := 0
		if c[0].key < from {
			i = sort.Search(len(c), func(i int) bool { return c[i].key >= from })
		}
		for ; i < len(c); i++ {
			if !fn(c[i]) {
				return
			}
		}
	}
}

// compact compacts every key at rev, forgets the keys left without
// revisions, and returns the dropped revisions in increasing order.
func (t *treeIndex) compact(rev int64) []int64 {
	var gone []string
	var revs []int64
	for _, c := range t.chunks {
		for _, ki := range c {
			revs = append(revs, ki.compact(rev)...)
			if len(ki.revs) == 0 {
				gone = append(gone, ki.key)
			}
		}
	}
	for _, k := range gone {
		t.remove(k)
	}
	slices.Sort(revs)
	return revs
}
