package client

import (
	"bytes"
	"encoding/json"
	"hash/maphash"
	"reflect"
	"sync"
	"time"
	"unsafe"

	apiextensionsv1 "github.com/crdlab/crdlab/apis/apiextensions/v1"
	metav1 "github.com/crdlab/crdlab/apis/meta/v1"
	"github.com/crdlab/crdlab/scheme"
)

// SharedSpecs lets a CRD client decode a spec once. A real-size CRD's spec
// is hundreds of KB of schema, and on its way to Established a controller
// sees it again and again unchanged: in the watch event of its create and
// of each status write, and in the answer of each status write. The CRD
// client of CRDsSharingSpecs remembers the specs it decoded by their JSON;
// a CRD whose spec is, byte for byte, a remembered one gets that spec
// (shared), and only the rest (metadata, status) is decoded. A body whose
// spec is a remembered one is written by copying the spec's JSON as the
// server wrote it.
//
// The rule that makes the sharing safe: a spec decoded by such a client is
// read only, as an informer's cache is (DeepCopy copies all of it). The
// server's own controllers change a CRD's status and metadata only.
//
// Upstream has nothing like it: client-go decodes every event and answer
// whole, and an informer's transform runs on every object.
type SharedSpecs struct {
	prepare func(*apiextensionsv1.CustomResourceDefinitionSpec)
	seed    maphash.Seed

	// mu guards the fields below.
	mu sync.Mutex
	// byHash finds an entry by its JSON's hash (decode); byID by the
	// backing array of its spec's versions (encode). An entry is in both
	// or in neither.
	byHash map[uint64]*sharedSpec
	byID   map[*apiextensionsv1.CustomResourceDefinitionVersion]*sharedSpec
	// sweeping is true if and only if a sweep is scheduled.
	sweeping bool
	// hits and misses count lookups (tests).
	hits, misses int
}

// sharedSpec is one remembered spec.
type sharedSpec struct {
	hash uint64
	// json is the spec's value as the server wrote it.
	json []byte
	// spec is the decoded spec, prepared; read only.
	spec apiextensionsv1.CustomResourceDefinitionSpec
	// used is when it was last looked up (guarded by SharedSpecs.mu).
	used time.Time
}

const (
	// sharedSpecsMax bounds the remembered specs: those of the CRDs on
	// their way to Established (a create and two status writes within
	// seconds). Each keeps its JSON (a real-size one is 0.25 MB); the
	// decoded spec is the one the informer caches anyway.
	sharedSpecsMax = 32
	// sharedSpecsIdle is how long an unused entry is kept: once CRDs
	// settle, the memo empties.
	sharedSpecsIdle = 5 * time.Second
	// sharedSpecsMin is the smallest spec worth remembering.
	sharedSpecsMin = 16 << 10
)

// NewSharedSpecs returns an empty memo. prepare, if not nil, is run once
// on every spec the client decodes whole, before the spec is shared: the
// CRD informer's controller.ShareSpecSchemas, which changes the spec in
// place and so cannot run on a shared one.
func NewSharedSpecs(prepare func(*apiextensionsv1.CustomResourceDefinitionSpec)) *SharedSpecs {
	return &SharedSpecs{prepare: prepare, seed: maphash.MakeSeed(),
		byHash: map[uint64]*sharedSpec{},
		byID:   map[*apiextensionsv1.CustomResourceDefinitionVersion]*sharedSpec{}}
}

// decode decodes data, a CRD's JSON, into crd (which must be zero). A
// spec decoded before is not decoded again: the rest is, with an empty
// spec in its place, and the remembered spec is put in.
func (s *SharedSpecs) decode(data []byte, crd *apiextensionsv1.CustomResourceDefinition) error {
	start, end, found := apiextensionsv1.SpecSpan(data)
	if !found || end-start < sharedSpecsMin {
		if err := decodeJSONInto(data, crd); err != nil {
			return err
		}
		s.prepareSpec(&crd.Spec)
		return nil
	}
	specJSON := data[start:end]
	h := maphash.Bytes(s.seed, specJSON)
	if spec, hit := s.lookupJSON(h, specJSON); hit {
		rest := make([]byte, 0, len(data)-len(specJSON)+2)
		rest = append(append(append(rest, data[:start]...), "{}"...), data[end:]...)
		if err := decodeJSONInto(rest, crd); err != nil {
			return err
		}
		crd.Spec = spec
		return nil
	}
	if err := decodeJSONInto(data, crd); err != nil {
		return err
	}
	s.prepareSpec(&crd.Spec)
	crd.Spec = s.remember(h, specJSON, crd.Spec)
	return nil
}

// decodeList decodes data, a CustomResourceDefinitionList's JSON, into
// list: the envelope with encoding/json, each item as decode does, but
// without remembering its spec (a relist of thousands of CRDs would push
// out the specs of the CRDs in flight). An informer lists again when its
// watch falls behind, and encoding/json alone reads a real-size CRD's
// schemas many times over (apiextensions/v1.SplitJSON says why).
func (s *SharedSpecs) decodeList(data []byte, list *apiextensionsv1.CustomResourceDefinitionList) error {
	var env struct {
		metav1.TypeMeta `json:",inline"`
		ListMeta        metav1.ListMeta   `json:"metadata"`
		Items           []json.RawMessage `json:"items"`
	}
	if err := json.Unmarshal(data, &env); err != nil {
		return err
	}
	*list = apiextensionsv1.CustomResourceDefinitionList{TypeMeta: env.TypeMeta, ListMeta: env.ListMeta}
	if env.Items != nil {
		list.Items = make([]apiextensionsv1.CustomResourceDefinition, len(env.Items))
	}
	for i, item := range env.Items {
		crd := &list.Items[i]
		start, end, found := apiextensionsv1.SpecSpan(item)
		if found && end-start >= sharedSpecsMin {
			specJSON := item[start:end]
			if spec, hit := s.lookupJSON(maphash.Bytes(s.seed, specJSON), specJSON); hit {
				rest := make([]byte, 0, len(item)-len(specJSON)+2)
				rest = append(append(append(rest, item[:start]...), "{}"...), item[end:]...)
				if err := decodeJSONInto(rest, crd); err != nil {
					return err
				}
				crd.Spec = spec
				continue
			}
		}
		if err := decodeJSONInto(item, crd); err != nil {
			return err
		}
		s.prepareSpec(&crd.Spec)
	}
	return nil
}

func (s *SharedSpecs) prepareSpec(spec *apiextensionsv1.CustomResourceDefinitionSpec) {
	if s.prepare != nil {
		s.prepare(spec)
	}
}

// lookupJSON returns the remembered spec whose JSON is specJSON (hash h).
func (s *SharedSpecs) lookupJSON(h uint64, specJSON []byte) (apiextensionsv1.CustomResourceDefinitionSpec, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	e := s.byHash[h]
	if e == nil || !bytes.Equal(e.json, specJSON) {
		s.misses++
		return apiextensionsv1.CustomResourceDefinitionSpec{}, false
	}
	s.hits++
	e.used = time.Now()
	return e.spec, true
}

// remember adds spec, decoded from specJSON (copied), and returns the spec
// to use: spec, or the one remembered already with the same JSON (two
// readers decoded it at once: both then share the first).
func (s *SharedSpecs) remember(h uint64, specJSON []byte, spec apiextensionsv1.CustomResourceDefinitionSpec) apiextensionsv1.CustomResourceDefinitionSpec {
	id := specID(&spec)
	if id == nil {
		return spec
	}
	now := time.Now()
	s.mu.Lock()
	defer s.mu.Unlock()
	if e := s.byHash[h]; e != nil {
		if bytes.Equal(e.json, specJSON) {
			e.used = now
			return e.spec
		}
		s.drop(e)
	}
	for len(s.byHash) >= sharedSpecsMax {
		var oldest *sharedSpec
		for _, e := range s.byHash {
			if oldest == nil || e.used.Before(oldest.used) {
				oldest = e
			}
		}
		s.drop(oldest)
	}
	e := &sharedSpec{hash: h, json: bytes.Clone(specJSON), spec: spec, used: now}
	s.byHash[h] = e
	s.byID[id] = e
	if !s.sweeping {
		s.sweeping = true
		time.AfterFunc(sharedSpecsIdle, s.sweep)
	}
	return spec
}

// drop forgets e. s.mu is held.
func (s *SharedSpecs) drop(e *sharedSpec) {
	delete(s.byHash, e.hash)
	if id := specID(&e.spec); s.byID[id] == e {
		delete(s.byID, id)
	}
}

// sweep drops the entries unused for sharedSpecsIdle, and runs again while
// some are left.
func (s *SharedSpecs) sweep() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, e := range s.byHash {
		if time.Since(e.used) >= sharedSpecsIdle {
			s.drop(e)
		}
	}
	s.sweeping = len(s.byHash) > 0
	if s.sweeping {
		time.AfterFunc(sharedSpecsIdle, s.sweep)
	}
}

// specID is the identity of a spec: the backing array of its versions
// (every CRD has at least one version).
func specID(spec *apiextensionsv1.CustomResourceDefinitionSpec) *apiextensionsv1.CustomResourceDefinitionVersion {
	if len(spec.Versions) == 0 {
		return nil
	}
	return unsafe.SliceData(spec.Versions)
}

// lookupSpec returns the entry of spec if spec is a remembered one (the
// same versions and every other field, compared shallowly: a remembered
// spec is never changed in place), or nil.
func (s *SharedSpecs) lookupSpec(spec *apiextensionsv1.CustomResourceDefinitionSpec) *sharedSpec {
	id := specID(spec)
	if id == nil {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	e := s.byID[id]
	if e == nil || !shallowEqual(reflect.ValueOf(spec).Elem(), reflect.ValueOf(&e.spec).Elem()) {
		return nil
	}
	e.used = time.Now()
	return e
}

// encode writes crd as a request body, as scheme.MarshalJSON does, but
// for a CRD whose spec is a remembered one: then the rest is written with
// an empty spec, and the spec's JSON as the server wrote it copied in. The
// body's spec is the one the server sent, as it sent it (the server's
// storage codec finds it byte for byte among the specs it remembers); it
// decodes to the remembered spec, which was decoded from it.
func (s *SharedSpecs) encode(crd *apiextensionsv1.CustomResourceDefinition) ([]byte, error) {
	e := s.lookupSpec(&crd.Spec)
	if e == nil {
		return scheme.MarshalJSON(crd)
	}
	stub := *crd
	stub.Spec = apiextensionsv1.CustomResourceDefinitionSpec{}
	b, err := scheme.MarshalJSON(&stub)
	if err != nil {
		return nil, err
	}
	start, end, found := apiextensionsv1.SpecSpan(b)
	if !found {
		return scheme.MarshalJSON(crd)
	}
	out := make([]byte, 0, len(b)-(end-start)+len(e.json))
	return append(append(append(out, b[:start]...), e.json...), b[end:]...), nil
}

// shallowEqual compares a and b field by field, slices, maps and pointers
// by what they point at, not by their contents.
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
	}
	return false
}
