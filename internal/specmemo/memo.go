package specmemo

import (
	"bytes"
	"hash/maphash"
	"reflect"
	"sync"
	"sync/atomic"
	"time"
	"unsafe"
)

const (
	// MaxJSON bounds the JSON the entries keep, together: about 1,000
	// real-size specs (0.26 MB of JSON each). The specs kept are those of
	// the CRDs on their way to Established (a create, then two status
	// writes that keep the spec), and when creates outrun the
	// controllers that backlog is hundreds of CRDs long. Past the specs
	// already finished, the bound drops the spec remembered first, which
	// is the one the controllers need next, so a backlog longer than the
	// bound is decoded whole again, spec after spec, on each side. In the
	// many-CRDs family at 2,000 on two cores the backlog is 500–1,000
	// CRDs: with 64 MiB 1,700–2,600 specs were decoded whole a second
	// time on each side, with 128 MiB 0–600 (session 34) and, on session
	// 36's faster host, 2,600 on the storage codec's side and 1,900 on
	// the client's; with this
	// bound none (docs/crd-memory.md, "Session 34: the memo's bound
	// again", "Session 36: room for the backlog"). The memory it costs
	// while full is more than the JSON: doc.go says how much.
	MaxJSON = 256 << 20
	// Idle is how long the memo keeps its entries once none is used:
	// when CRDs settle, it empties, Idle after its last use. An entry is
	// not dropped for its own idleness: a CRD waits longer than that for
	// the controllers when creates outrun them, but while it waits
	// others are used. The server's idle collection waits a little
	// longer than Idle after the last request, so that it frees what the
	// memos held (apiserver/idlegc.go).
	Idle = 2 * time.Second
	// MinJSON is the smallest spec worth remembering.
	MinJSON = 16 << 10
	// maxWritten bounds the specs written whole waiting to be read back
	// (a create or an update of the spec, read back within the write).
	maxWritten = 8
)

// Memo remembers specs of type S (whose versions, of type V, give a spec
// its identity) by their JSON. It is safe for concurrent use.
type Memo[S, V any] struct {
	versions func(*S) []V
	seed     maphash.Seed
	// now is time.Now (tests move it); afterFunc is time.AfterFunc
	// (tests note the delay and call sweep themselves).
	now       func() time.Time
	afterFunc func(time.Duration, func())

	// mu guards the fields below.
	mu sync.Mutex
	// byHash finds an entry by its JSON's hash (Lookup); byID by the
	// backing array of its spec's versions (Find). An entry is in both or
	// in neither.
	byHash map[uint64]*Entry[S]
	byID   map[*V]*Entry[S]
	// written are the specs written whole lately, by their JSON's hash,
	// until that JSON is read back (TakeWritten) or Idle passes; at most
	// maxWritten.
	written map[uint64]*writtenSpec[S]
	// json is the length of the entries' JSON, together; at most maxJSON
	// (MaxJSON, but tests lower it).
	json, maxJSON int
	// used is when an entry was last used or added.
	used time.Time
	// sweeping is true if and only if a sweep is scheduled: at used+Idle
	// while entries are left, else when the first written spec is Idle
	// old.
	sweeping bool
	stats    Stats
}

// Entry is one remembered spec.
type Entry[S any] struct {
	hash uint64
	// JSON is the spec's value as it was read (or written); read only.
	JSON []byte
	// Spec is the spec decoded from JSON; read only.
	Spec S
	// State is the user's to keep a fact about the entry in (the storage
	// codec: whether JSON is what its writer writes for Spec).
	State atomic.Int32
	// added is when it was remembered.
	added time.Time
	// finished is when Finish was first called (Unix nanoseconds), or 0.
	finished atomic.Int64
}

// Finish says that the entry's spec is not likely to be read again soon
// (its CRD is Established: the controllers are done with it), so that,
// FinishGrace later, the bound drops it before the specs still on their
// way. Without it the bound dropped the spec remembered first, which,
// with the controllers trailing hundreds of CRDs behind the creates, is
// the next one they need: at 2,000 real-size CRDs about half the specs
// were decoded whole twice on each side with a bound of 64 MiB
// (docs/crd-memory.md, "Session 31", "Session 33"; with 128 MiB,
// "Session 34").
func (m *Memo[S, V]) Finish(e *Entry[S]) { e.finished.CompareAndSwap(0, m.now().UnixNano()) }

// FinishGrace is how long a finished entry is kept as any other: the
// write that finishes a spec is read back, answered and sent to watchers
// within milliseconds, each of which looks the spec up again. Dropped at
// once, the spec was decoded whole by each of them.
const FinishGrace = time.Second

// writtenSpec is a spec written whole, and the JSON written for it.
type writtenSpec[S any] struct {
	json []byte
	spec S
	at   time.Time
}

// Stats counts what a memo did (tests and benchmarks).
type Stats struct {
	// Hits and Misses count Lookup and Find.
	Hits, Misses int
	// Added counts the specs remembered: each was decoded whole, or
	// taken as written (TakenWritten).
	Added int
	// TakenWritten counts the specs written whole that a reader took
	// instead of decoding their JSON (TakeWrittenSpec).
	TakenWritten int
	// Evicted counts the entries dropped by the bound (MaxJSON).
	Evicted int
	// PeakJSON is the most JSON the entries kept at once, in bytes.
	PeakJSON int
}

// New returns an empty memo of specs whose versions are versions(spec):
// every spec it remembers has at least one.
func New[S, V any](versions func(*S) []V) *Memo[S, V] {
	m := &Memo[S, V]{
		versions:  versions,
		seed:      maphash.MakeSeed(),
		now:       time.Now,
		afterFunc: func(d time.Duration, f func()) { time.AfterFunc(d, f) },
		maxJSON:   MaxJSON,
		byHash:    map[uint64]*Entry[S]{},
		byID:      map[*V]*Entry[S]{},
		written:   map[uint64]*writtenSpec[S]{},
	}
	return m
}

// id is the identity of a spec: the backing array of its versions, or nil.
func (m *Memo[S, V]) id(spec *S) *V {
	v := m.versions(spec)
	if len(v) == 0 {
		return nil
	}
	return unsafe.SliceData(v)
}

// Lookup returns the remembered spec whose JSON is specJSON, or false.
func (m *Memo[S, V]) Lookup(specJSON []byte) (S, bool) {
	var none S
	if len(specJSON) < MinJSON {
		return none, false
	}
	h := maphash.Bytes(m.seed, specJSON)
	m.mu.Lock()
	defer m.mu.Unlock()
	e := m.byHash[h]
	if e == nil || !bytes.Equal(e.JSON, specJSON) {
		m.stats.Misses++
		return none, false
	}
	m.stats.Hits++
	m.used = m.now()
	return e.Spec, true
}

// Find returns the entry of spec if spec is a remembered one: the same
// versions and every other field (compared shallowly: a remembered spec
// is never changed in place), or nil.
func (m *Memo[S, V]) Find(spec *S) *Entry[S] {
	id := m.id(spec)
	if id == nil {
		return nil
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	e := m.byID[id]
	if e == nil || !shallowEqual(reflect.ValueOf(spec).Elem(), reflect.ValueOf(&e.Spec).Elem()) {
		m.stats.Misses++
		return nil
	}
	m.stats.Hits++
	m.used = m.now()
	return e
}

// Remember adds spec, decoded from specJSON (which it copies), and returns
// the spec to use: spec, or the one remembered already with the same JSON
// (two readers decoded it at once; both then share the first). The
// caller gives up spec: from now on it is shared and read only.
func (m *Memo[S, V]) Remember(specJSON []byte, spec S) S {
	id := m.id(&spec)
	if id == nil || len(specJSON) < MinJSON {
		return spec
	}
	h := maphash.Bytes(m.seed, specJSON)
	m.mu.Lock()
	defer m.mu.Unlock()
	now := m.now()
	m.used = now
	if e := m.byHash[h]; e != nil {
		if bytes.Equal(e.JSON, specJSON) {
			return e.Spec
		}
		m.drop(e)
	}
	if e := m.byID[id]; e != nil {
		m.drop(e)
	}
	for m.json+len(specJSON) > m.maxJSON && len(m.byHash) > 0 {
		m.drop(m.evictable())
		m.stats.Evicted++
	}
	e := &Entry[S]{hash: h, JSON: bytes.Clone(specJSON), Spec: spec, added: now}
	m.byHash[h] = e
	m.byID[id] = e
	m.json += len(e.JSON)
	m.stats.PeakJSON = max(m.stats.PeakJSON, m.json)
	m.stats.Added++
	m.scheduleSweep(Idle)
	return spec
}

// NoteWritten records that spec was written whole as specJSON (which it
// copies), until a reader decodes that JSON back (TakeWritten). spec is
// only read, within the write that stores it.
func (m *Memo[S, V]) NoteWritten(specJSON []byte, spec S) {
	if len(specJSON) < MinJSON {
		return
	}
	h := maphash.Bytes(m.seed, specJSON)
	w := &writtenSpec[S]{json: bytes.Clone(specJSON), spec: spec}
	m.mu.Lock()
	defer m.mu.Unlock()
	w.at = m.now()
	for len(m.written) >= maxWritten {
		var oldest uint64
		first := true
		for k, o := range m.written {
			if first || o.at.Before(m.written[oldest].at) {
				oldest, first = k, false
			}
		}
		delete(m.written, oldest)
	}
	m.written[h] = w
	m.scheduleSweep(Idle)
}

// FindWritten returns the JSON of a spec written whole lately
// (NoteWritten) if spec is that spec: the same versions and every other
// field (compared shallowly, as Find), or nil. The JSON is read only.
func (m *Memo[S, V]) FindWritten(spec *S) []byte {
	id := m.id(spec)
	if id == nil {
		return nil
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, w := range m.written {
		if m.id(&w.spec) == id && shallowEqual(reflect.ValueOf(spec).Elem(), reflect.ValueOf(&w.spec).Elem()) {
			return w.json
		}
	}
	return nil
}

// TakeWritten is called by the reader that remembered spec, decoded from
// specJSON: if a spec was written whole as specJSON (NoteWritten), it is
// forgotten and returned, with spec's entry. ok is false if none was, or
// if spec is not the one remembered for specJSON.
func (m *Memo[S, V]) TakeWritten(specJSON []byte, spec *S) (written S, e *Entry[S], ok bool) {
	if len(specJSON) < MinJSON {
		return written, nil, false
	}
	h := maphash.Bytes(m.seed, specJSON)
	m.mu.Lock()
	defer m.mu.Unlock()
	w := m.takeWritten(specJSON, h)
	if w == nil {
		return written, nil, false
	}
	e = m.byHash[h]
	if e == nil || m.id(&e.Spec) != m.id(spec) {
		return written, nil, false
	}
	return w.spec, e, true
}

// TakeWrittenSpec returns and forgets the spec written whole as specJSON
// (NoteWritten), if one was: a reader that can tell it would decode that
// JSON to the spec written takes it instead of decoding (then
// Remember). ok is false if none was.
func (m *Memo[S, V]) TakeWrittenSpec(specJSON []byte) (written S, ok bool) {
	if len(specJSON) < MinJSON {
		return written, false
	}
	h := maphash.Bytes(m.seed, specJSON)
	m.mu.Lock()
	defer m.mu.Unlock()
	w := m.takeWritten(specJSON, h)
	if w == nil {
		return written, false
	}
	m.stats.TakenWritten++
	return w.spec, true
}

// takeWritten forgets and returns the spec written whole as specJSON
// (whose hash is h), or nil. m.mu is held.
func (m *Memo[S, V]) takeWritten(specJSON []byte, h uint64) *writtenSpec[S] {
	w := m.written[h]
	if w == nil || !bytes.Equal(w.json, specJSON) {
		return nil
	}
	delete(m.written, h)
	return w
}

// Stats returns the counts so far.
func (m *Memo[S, V]) Stats() Stats {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.stats
}

// Entries returns the remembered entries (tests).
func (m *Memo[S, V]) Entries() []*Entry[S] {
	m.mu.Lock()
	defer m.mu.Unlock()
	out := make([]*Entry[S], 0, len(m.byHash))
	for _, e := range m.byHash {
		out = append(out, e)
	}
	return out
}

// evictable returns the entry the bound drops next: the one remembered
// first among those finished FinishGrace ago or more, or else the one
// remembered first. m.mu is held and there is an entry.
func (m *Memo[S, V]) evictable() *Entry[S] {
	var oldest, oldestFinished *Entry[S]
	graceEnded := m.now().Add(-FinishGrace).UnixNano()
	for _, e := range m.byHash {
		if oldest == nil || e.added.Before(oldest.added) {
			oldest = e
		}
		if f := e.finished.Load(); f != 0 && f <= graceEnded && (oldestFinished == nil || e.added.Before(oldestFinished.added)) {
			oldestFinished = e
		}
	}
	if oldestFinished != nil {
		return oldestFinished
	}
	return oldest
}

// drop forgets e. m.mu is held.
func (m *Memo[S, V]) drop(e *Entry[S]) {
	delete(m.byHash, e.hash)
	m.json -= len(e.JSON)
	if id := m.id(&e.Spec); m.byID[id] == e {
		delete(m.byID, id)
	}
}

// scheduleSweep schedules a sweep in d unless one is. m.mu is held.
func (m *Memo[S, V]) scheduleSweep(d time.Duration) {
	if !m.sweeping {
		m.sweeping = true
		m.afterFunc(d, m.sweep)
	}
}

// sweep drops every entry if none was used for Idle, and the written
// specs not read back for Idle, and runs again when the rest may go: the
// entries Idle after their last use (not Idle after this sweep, which
// kept them up to twice Idle: the server's idle collection then ran
// before they were let go, and what they held stayed in the heap).
func (m *Memo[S, V]) sweep() {
	m.mu.Lock()
	defer m.mu.Unlock()
	now := m.now()
	if now.Sub(m.used) >= Idle {
		for _, e := range m.byHash {
			m.drop(e)
		}
	}
	var next time.Time
	if len(m.byHash) > 0 {
		next = m.used.Add(Idle)
	}
	for k, w := range m.written {
		if now.Sub(w.at) >= Idle {
			delete(m.written, k)
		} else if at := w.at.Add(Idle); next.IsZero() || at.Before(next) {
			next = at
		}
	}
	m.sweeping = false
	if !next.IsZero() {
		m.scheduleSweep(next.Sub(now))
	}
}

// Splice returns data with data[start:end] replaced by value, in a new
// slice: a CRD's JSON with its spec's value cut out ("{}") or copied in.
func Splice(data []byte, start, end int, value []byte) []byte {
	out := make([]byte, 0, len(data)-(end-start)+len(value))
	return append(append(append(out, data[:start]...), value...), data[end:]...)
}

// shallowEqual reports whether a and b (values of one type) hold the same
// scalars, the same pointers and the same slices (backing array and
// length) and maps, field by field through structs.
func shallowEqual(a, b reflect.Value) bool {
	switch a.Kind() {
	case reflect.Struct:
		for i := range a.NumField() {
			if !shallowEqual(a.Field(i), b.Field(i)) {
				return false
			}
		}
		return true
	case reflect.Slice:
		return a.IsNil() == b.IsNil() && a.Len() == b.Len() && a.Pointer() == b.Pointer()
	case reflect.Pointer, reflect.Map:
		return a.IsNil() == b.IsNil() && a.Pointer() == b.Pointer()
	case reflect.String:
		return a.String() == b.String()
	case reflect.Bool:
		return a.Bool() == b.Bool()
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return a.Int() == b.Int()
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return a.Uint() == b.Uint()
	case reflect.Float32, reflect.Float64:
		return a.Float() == b.Float()
	case reflect.Interface:
		return a.IsNil() && b.IsNil()
	}
	return false
}
