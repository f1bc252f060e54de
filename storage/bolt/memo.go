package bolt

import (
	"sync"
	"time"

	"github.com/crdlab/crdlab/storage"
)

// decodeMemo keeps the objects decoded from a record, one per store that
// decoded it, so that a record read again — by a get, the next list, an
// update's current state — is not decoded again. The objects are shared:
// read-only.
//
// It is a cache that forgets: the DB's sweep (memoSet) drops an object no
// reader asked for since the sweep before. A list of 5,000 objects of
// ≈ 1 KB left ≈ 22–29 MB of decoded objects on the records for good; the
// collector then let the heap grow to twice that again, and they set the
// server's peak in the 1,000-watcher fan-out that came minutes later
// (bench/cmd/crdbench/perf-notes.md, "Peak RSS"). Upstream's watch cache
// keeps every object decoded for as long as it runs.
type decodeMemo struct {
	mu      sync.Mutex // guards entries
	entries []memoEntry
}

type memoEntry struct {
	owner *store
	obj   storage.Object
	used  bool // read (or put) since the last sweep
}

// maxMemo bounds the stores remembered per record (several stores may
// serve one prefix, e.g. one per served version).
const maxMemo = 4

// defaultMemoIdle is Options.MemoIdle's default: an object nobody read
// for 5–10 s is decoded again when next read (≈ 10–20 µs for 1 KB of
// JSON, unstructured's BenchmarkDecodeJSONObject), while reads that come
// back to back — a list after a list, the pages of a paged list, an
// update loop's current state — find it decoded. Keeping ≈ 4.4 KB per
// 1 KB object for longer saves too little: with 15 s, a list's objects
// were still live when the 1,000-watcher fan-out began 15 s after it.
const defaultMemoIdle = 5 * time.Second

func (m *decodeMemo) get(owner *store) storage.Object {
	m.mu.Lock()
	defer m.mu.Unlock()
	for i := range m.entries {
		if e := &m.entries[i]; e.owner == owner {
			e.used = true
			return e.obj
		}
	}
	return nil
}

// put remembers obj for owner and returns the object to use: an earlier
// one if another reader won the race, so that everyone shares one. first
// says the memo was empty: the record must join the DB's memoSet.
func (m *decodeMemo) put(owner *store, obj storage.Object) (shared storage.Object, first bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	for i := range m.entries {
		if e := &m.entries[i]; e.owner == owner {
			e.used = true
			return e.obj, false
		}
	}
	first = len(m.entries) == 0
	if len(m.entries) == maxMemo {
		m.entries = m.entries[1:]
	}
	m.entries = append(m.entries, memoEntry{owner: owner, obj: obj, used: true})
	return obj, first
}

// age forgets the objects not read since the last call and marks the
// others unread; it reports whether any object is left.
func (m *decodeMemo) age() bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	n := 0
	for _, e := range m.entries {
		if e.used {
			e.used = false
			m.entries[n] = e
			n++
		}
	}
	if n == 0 {
		m.entries = nil // the array may be large: let it go
		return false
	}
	clear(m.entries[n:])
	m.entries = m.entries[:n]
	return true
}

// forget drops every object: the record's key was deleted. Nothing reads
// a deleted key's last state through its record again but a read of old
// revisions, which decodes it anew; keeping it would keep the objects a
// list decoded until the next sweeps, while the delete of a whole
// collection runs (5,000 instances: ≈ 22 MB).
func (m *decodeMemo) forget() {
	m.mu.Lock()
	m.entries = nil
	m.mu.Unlock()
}

// remember puts obj in r's memo for s, and returns the object to share.
func (s *store) remember(r *record, obj storage.Object) storage.Object {
	shared, first := r.memo.put(s, obj)
	if first {
		s.db.memos.add(r)
	}
	return shared
}

// memoSet is the records whose memo holds objects, for the sweep.
type memoSet struct {
	mu   sync.Mutex // guards recs
	recs []*record
}

func (ms *memoSet) add(r *record) {
	ms.mu.Lock()
	ms.recs = append(ms.recs, r)
	ms.mu.Unlock()
}

// sweep ages every memo (decodeMemo.age) and lets go of the records
// whose memo is left empty. A record written to meanwhile (put after its
// memo was emptied) is added again by remember; the sweep works on its
// own slice, so readers only wait for add.
func (ms *memoSet) sweep() (kept int) {
	ms.mu.Lock()
	recs := ms.recs
	ms.recs = nil
	ms.mu.Unlock()
	keep := recs[:0]
	for _, r := range recs {
		if r.memo.age() {
			keep = append(keep, r)
		}
	}
	clear(recs[len(keep):])
	ms.mu.Lock()
	ms.recs = append(keep, ms.recs...)
	kept = len(ms.recs)
	ms.mu.Unlock()
	return kept
}

// len is how many records hold decoded objects.
func (ms *memoSet) len() int {
	ms.mu.Lock()
	defer ms.mu.Unlock()
	return len(ms.recs)
}

// runMemoSweeper sweeps the memos every MemoIdle until the DB closes.
func (db *DB) runMemoSweeper() {
	defer db.wg.Done()
	if db.opts.MemoIdle < 0 {
		return
	}
	tick := time.NewTicker(db.opts.MemoIdle)
	defer tick.Stop()
	for {
		select {
		case <-db.closing:
			return
		case <-tick.C:
			db.memos.sweep()
		}
	}
}
