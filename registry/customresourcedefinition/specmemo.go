package customresourcedefinition

import (
	"bytes"
	"hash/maphash"
	"reflect"
	"sync"
	"sync/atomic"
	"time"
	"unsafe"

	"github.com/crdlab/crdlab/apis/apiextensions"
)

// A real-size CRD's spec is hundreds of KB of schema, and a CRD is read
// from and written to storage many times on its way to Established: every
// /status write decodes the stored CRD, encodes the new one, and decodes
// what it wrote for the answer and for the watchers — while a status
// write keeps the stored spec (statusStrategy). specMemo remembers the
// specs the codec last wrote or read, as their stored JSON and as the
// decoded internal spec, so that a stored value whose spec is one of
// them is decoded without its spec (the remembered one is shared), and a
// CRD whose spec is a remembered one is encoded by copying the JSON.
//
// The rule that makes the sharing safe: a spec the storage codec decodes
// is read only — nothing changes it in place, in the registry (the
// strategies replace a spec or copy it, never edit it), the handler (it
// converts CRDs to write them) or storage (its watchers share one decoded
// object already). DeepCopy still copies all of it, so a copy may be
// changed. specmemo_test.go:TestSpecMemo_SharedSpecsUnchanged checks the
// remembered specs after every kind of write; the race detector sees any
// writer.
//
// Upstream has nothing like it: each read decodes the whole CRD (its
// watch cache keeps one decoded object per revision).
type specMemo struct {
	mu   sync.Mutex
	seed maphash.Seed
	// byHash finds an entry by its JSON's hash (decode); byID by the
	// backing array of its spec's versions (encode).
	byHash map[uint64]*specEntry
	byID   map[*apiextensions.CustomResourceDefinitionVersion]*specEntry
	// written are the specs Encode wrote whole lately (not remembered
	// ones), by their JSON's hash, until that JSON is read back
	// (confirmWritten) or specMemoIdle passes; at most specMemoWritten.
	written map[uint64]*writtenSpec
	// sweeping is set while a sweep is scheduled.
	sweeping bool

	// hits and misses count decodes and encodes (tests, the docs' table).
	hits, misses int
}

// specEntry is one remembered spec.
type specEntry struct {
	hash uint64
	// json is the spec's value as the codec wrote it (or read it).
	json []byte
	// spec is the decoded internal spec; read only.
	spec apiextensions.CustomResourceDefinitionSpec
	// used is when it was last used.
	used time.Time
	// wire says whether json is what the v1 writer writes for spec
	// (wireSame), is not (wireDiffers: stored by an older build, or
	// without a default), or is not known yet (0; Codec.EncodeWire).
	wire atomic.Int32
}

const (
	wireSame    = 1
	wireDiffers = 2
)

// writtenSpec is a spec Encode wrote whole, and the JSON it wrote for it.
type writtenSpec struct {
	json []byte
	spec apiextensions.CustomResourceDefinitionSpec
	at   time.Time
}

const (
	// specMemoEntries bounds the remembered specs: those of the CRDs on
	// their way to Established (a create and two or three status writes
	// within seconds). A real-size spec is 0.25 MB of JSON and about
	// four times that decoded.
	specMemoEntries = 32
	// specMemoIdle is how long an unused entry is kept: once CRDs settle,
	// the memo empties.
	specMemoIdle = 5 * time.Second
	// specMemoMin is the smallest spec worth remembering.
	specMemoMin = 16 << 10
	// specMemoWritten bounds the written specs waiting to be read back
	// (a create or an update of the spec, read back within the write).
	specMemoWritten = 8
)

func newSpecMemo() *specMemo {
	return &specMemo{seed: maphash.MakeSeed(), byHash: map[uint64]*specEntry{},
		byID:    map[*apiextensions.CustomResourceDefinitionVersion]*specEntry{},
		written: map[uint64]*writtenSpec{}}
}

// specID is the identity of a spec: the backing array of its versions
// (every CRD has at least one version).
func specID(spec *apiextensions.CustomResourceDefinitionSpec) *apiextensions.CustomResourceDefinitionVersion {
	if len(spec.Versions) == 0 {
		return nil
	}
	return unsafe.SliceData(spec.Versions)
}

// lookupJSON returns the remembered spec whose JSON is specJSON, or false.
func (m *specMemo) lookupJSON(specJSON []byte) (apiextensions.CustomResourceDefinitionSpec, bool) {
	if len(specJSON) < specMemoMin {
		return apiextensions.CustomResourceDefinitionSpec{}, false
	}
	h := maphash.Bytes(m.seed, specJSON)
	m.mu.Lock()
	defer m.mu.Unlock()
	e := m.byHash[h]
	if e == nil || !bytes.Equal(e.json, specJSON) {
		m.misses++
		return apiextensions.CustomResourceDefinitionSpec{}, false
	}
	m.hits++
	e.used = time.Now()
	return e.spec, true
}

// lookupEntry returns the entry of spec if spec is a remembered one: the
// same versions, schemas and every other field (compared shallowly: a
// remembered spec is never changed in place), or nil.
func (m *specMemo) lookupEntry(spec *apiextensions.CustomResourceDefinitionSpec) *specEntry {
	id := specID(spec)
	if id == nil {
		return nil
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	e := m.byID[id]
	if e == nil || !shallowEqual(reflect.ValueOf(spec).Elem(), reflect.ValueOf(&e.spec).Elem()) {
		m.misses++
		return nil
	}
	m.hits++
	e.used = time.Now()
	return e
}

// remember adds spec, decoded from specJSON (which it copies), and
// returns the spec to use: spec, or the one remembered already with the
// same JSON (two readers decoded it at once; both then share the first).
// The caller gives up spec: from now on it is shared and read only.
func (m *specMemo) remember(specJSON []byte, spec apiextensions.CustomResourceDefinitionSpec) apiextensions.CustomResourceDefinitionSpec {
	id := specID(&spec)
	if id == nil || len(specJSON) < specMemoMin {
		return spec
	}
	h := maphash.Bytes(m.seed, specJSON)
	now := time.Now()
	m.mu.Lock()
	defer m.mu.Unlock()
	if e := m.byHash[h]; e != nil {
		if bytes.Equal(e.json, specJSON) {
			e.used = now
			return e.spec
		}
		m.drop(e)
	}
	specJSON = bytes.Clone(specJSON)
	if e := m.byID[id]; e != nil {
		m.drop(e)
	}
	for len(m.byHash) >= specMemoEntries {
		var oldest *specEntry
		for _, e := range m.byHash {
			if oldest == nil || e.used.Before(oldest.used) {
				oldest = e
			}
		}
		m.drop(oldest)
	}
	e := &specEntry{hash: h, json: specJSON, spec: spec, used: now}
	m.byHash[h] = e
	m.byID[id] = e
	if !m.sweeping {
		m.sweeping = true
		time.AfterFunc(specMemoIdle, m.sweep)
	}
	return spec
}

// noteWritten records that Encode wrote spec whole as specJSON (which it
// copies): when a reader decodes that JSON (confirmWritten), a decoded
// spec equal to spec is known to write as specJSON without writing it
// again. spec is only read, within the write that stores it.
func (m *specMemo) noteWritten(specJSON []byte, spec apiextensions.CustomResourceDefinitionSpec) {
	if len(specJSON) < specMemoMin {
		return
	}
	h := maphash.Bytes(m.seed, specJSON)
	w := &writtenSpec{json: bytes.Clone(specJSON), spec: spec, at: time.Now()}
	m.mu.Lock()
	defer m.mu.Unlock()
	for len(m.written) >= specMemoWritten {
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
	if !m.sweeping {
		m.sweeping = true
		time.AfterFunc(specMemoIdle, m.sweep)
	}
}

// confirmWritten is called once spec, decoded from specJSON, is
// remembered: if Encode wrote specJSON for a spec equal to it
// (apiextensions.EqualSpecs: the same values, numbers by their bits),
// specJSON is what the v1 writer writes for spec, and its entry is
// marked so (wireSame) without a whole write to see (Codec.EncodeWire).
// A create's answer and first watch event are then copied too (when the
// reader that decoded the spec first has compared it before they are
// written: another reader may share the entry a moment before).
func (m *specMemo) confirmWritten(specJSON []byte, spec apiextensions.CustomResourceDefinitionSpec) {
	if len(specJSON) < specMemoMin {
		return
	}
	h := maphash.Bytes(m.seed, specJSON)
	m.mu.Lock()
	w := m.written[h]
	if w == nil || !bytes.Equal(w.json, specJSON) {
		m.mu.Unlock()
		return
	}
	delete(m.written, h)
	e := m.byHash[h]
	m.mu.Unlock()
	if e == nil || specID(&e.spec) != specID(&spec) || !apiextensions.EqualSpecs(&spec, &w.spec) {
		return
	}
	e.wire.CompareAndSwap(0, wireSame)
}

func (m *specMemo) drop(e *specEntry) {
	delete(m.byHash, e.hash)
	if id := specID(&e.spec); m.byID[id] == e {
		delete(m.byID, id)
	}
}

// sweep drops the entries unused for specMemoIdle, and runs again while
// some are left.
func (m *specMemo) sweep() {
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, e := range m.byHash {
		if time.Since(e.used) >= specMemoIdle {
			m.drop(e)
		}
	}
	for k, w := range m.written {
		if time.Since(w.at) >= specMemoIdle {
			delete(m.written, k)
		}
	}
	m.sweeping = len(m.byHash)+len(m.written) > 0
	if m.sweeping {
		time.AfterFunc(specMemoIdle, m.sweep)
	}
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
