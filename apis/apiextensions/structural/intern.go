package structural

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math"
	"runtime"
	"sort"
	"sync"
	"weak"
)

// Interner makes schemas share their equal subtrees: Intern returns a
// schema in which every subtree equal to one interned before — in the same
// schema, in another version of the CRD, or in another CRD — is that
// earlier one. A provider's CRD repeats most of itself: forProvider,
// initProvider and atProvider hold the same parameters, its versions
// differ by a field or two, and every CRD of a provider has the same
// conditions, references and selectors. Sharing is safe because a
// Structural is read-only once built.
//
// The Interner holds its schemas weakly: a subtree nobody else uses any
// more is collected, and its entry goes with it. Two nodes are equal when
// every field is (children compared by content, through their hashes).
//
// Upstream keeps one structural schema per CRD version, unshared.
type Interner struct {
	mu    sync.Mutex // guards nodes
	nodes map[nodeHash]weak.Pointer[Structural]
}

// nodeHash identifies a subtree by content: the SHA-256 of its fields
// with its children's hashes in place of the children.
type nodeHash [sha256.Size]byte

// NewInterner returns an empty Interner.
func NewInterner() *Interner {
	return &Interner{nodes: map[nodeHash]weak.Pointer[Structural]{}}
}

// Intern returns a schema equal to s that shares its subtrees with every
// schema interned before. s is taken over: its nodes may be changed to
// point at shared children, and it must not be changed afterwards (nor
// must anything Intern returns).
func (in *Interner) Intern(s *Structural) *Structural {
	if s == nil {
		return nil
	}
	in.mu.Lock()
	defer in.mu.Unlock()
	out, _ := in.intern(s)
	return out
}

// Len is the number of distinct subtrees alive in the Interner.
func (in *Interner) Len() int {
	in.mu.Lock()
	defer in.mu.Unlock()
	n := 0
	for _, w := range in.nodes {
		if w.Value() != nil {
			n++
		}
	}
	return n
}

// intern interns s's children, then s, and returns the shared node and its
// hash.
func (in *Interner) intern(s *Structural) (*Structural, nodeHash) {
	h := sha256.New()
	child := func(tag byte, c **Structural) {
		if *c == nil {
			h.Write([]byte{tag, 0})
			return
		}
		shared, ch := in.intern(*c)
		if shared != *c { // never write to a node already shared
			*c = shared
		}
		h.Write([]byte{tag, 1})
		h.Write(ch[:])
	}
	children := func(tag byte, list []*Structural) {
		writeInt(h, tag, int64(len(list)))
		for i := range list {
			child(tag, &list[i])
		}
	}
	keys := make([]string, 0, len(s.Properties))
	for k := range s.Properties {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	writeInt(h, 'P', int64(len(keys)))
	for _, k := range keys {
		c := s.Properties[k]
		writeString(h, 'p', k)
		if child('p', &c); c != s.Properties[k] {
			s.Properties[k] = c
		}
	}
	child('I', &s.Items)
	child('A', &s.AdditionalProperties)
	children('a', s.AllOf)
	children('o', s.AnyOf)
	children('1', s.OneOf)
	child('N', &s.Not)
	writeFields(h, s)

	var key nodeHash
	h.Sum(key[:0])
	if w, ok := in.nodes[key]; ok {
		if old := w.Value(); old != nil {
			return old, key
		}
	}
	in.nodes[key] = weak.Make(s)
	runtime.AddCleanup(s, in.forget, key)
	return s, key
}

// forget drops the entry of a collected subtree, unless another node took
// its place meanwhile.
func (in *Interner) forget(key nodeHash) {
	in.mu.Lock()
	defer in.mu.Unlock()
	if w, ok := in.nodes[key]; ok && w.Value() == nil {
		delete(in.nodes, key)
	}
}

// hashWriter is what the field writers write to (a sha256 hash).
type hashWriter interface{ Write([]byte) (int, error) }

// writeFields writes every field of s except its children, each with a
// tag and its length, so that no two different nodes write the same
// bytes. A field added to Structural must be added here
// (TestInterner_EveryFieldCounts fails otherwise).
func writeFields(h hashWriter, s *Structural) {
	writeString(h, 't', s.Type)
	writeString(h, 'f', s.Format)
	writeString(h, 'd', s.Description)
	writeString(h, 'T', s.Title)
	writeString(h, 'r', s.Pattern)
	writeJSON(h, 'D', s.Default)
	writeJSON(h, 'e', s.Example)
	writeJSON(h, 'x', s.ExternalDocs)
	writeJSON(h, 'E', s.Enum)
	writeJSON(h, 'v', s.XValidations)
	writeStrings(h, 'R', s.Required)
	writeStrings(h, 'k', s.XListMapKeys)
	writeStringPtr(h, 'l', s.XListType)
	writeStringPtr(h, 'm', s.XMapType)
	for _, f := range []struct {
		tag byte
		v   *float64
	}{{'<', s.Minimum}, {'>', s.Maximum}, {'%', s.MultipleOf}} {
		if f.v == nil {
			h.Write([]byte{f.tag, 0})
		} else {
			writeInt(h, f.tag, int64(math.Float64bits(*f.v)))
		}
	}
	for _, f := range []struct {
		tag byte
		v   *int64
	}{{'s', s.MinLength}, {'S', s.MaxLength}, {'i', s.MinItems}, {'j', s.MaxItems}, {'q', s.MinProperties}, {'Q', s.MaxProperties}} {
		if f.v == nil {
			h.Write([]byte{f.tag, 0})
		} else {
			writeInt(h, f.tag, *f.v)
		}
	}
	var bits uint64
	for i, b := range []bool{
		s.Nullable, s.ExclusiveMinimum, s.ExclusiveMaximum, s.UniqueItems,
		s.XPreserveUnknownFields, s.XIntOrString, s.XEmbeddedResource,
		s.AdditionalPropertiesBool != nil, s.AdditionalPropertiesBool != nil && *s.AdditionalPropertiesBool,
		// Derived from the fields above, but a hand-built node lacks them.
		s.re != nil, s.reErr != nil, s.noEmbedded, s.noListSetMap,
	} {
		if b {
			bits |= 1 << i
		}
	}
	writeInt(h, 'b', int64(bits))
}

func writeInt(h hashWriter, tag byte, v int64) {
	var b [9]byte
	b[0] = tag
	binary.BigEndian.PutUint64(b[1:], uint64(v))
	h.Write(b[:])
}

func writeString(h hashWriter, tag byte, s string) {
	writeInt(h, tag, int64(len(s)))
	h.Write([]byte(s))
}

func writeStringPtr(h hashWriter, tag byte, s *string) {
	if s == nil {
		h.Write([]byte{tag, 0})
		return
	}
	h.Write([]byte{tag, 1})
	writeString(h, tag, *s)
}

func writeStrings(h hashWriter, tag byte, list []string) {
	if list == nil {
		h.Write([]byte{tag, 0})
		return
	}
	writeInt(h, tag, int64(len(list))+1)
	for _, s := range list {
		writeString(h, tag, s)
	}
}

// writeJSON writes a JSON value as read by FromJSON (maps, slices,
// strings, int64, float64, booleans, nil), each with its Go type: a
// default of int64 1 and one of float64 1 differ. Map keys are written
// sorted, so equal values write equal bytes.
func writeJSON(h hashWriter, tag byte, v any) {
	switch v := v.(type) {
	case nil:
		h.Write([]byte{tag, 'n'})
	case map[string]any:
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		writeInt(h, tag, int64(len(keys)))
		h.Write([]byte{'{'})
		for _, k := range keys {
			writeString(h, 'K', k)
			writeJSON(h, 'V', v[k])
		}
	case []any:
		writeInt(h, tag, int64(len(v)))
		h.Write([]byte{'['})
		for _, e := range v {
			writeJSON(h, 'V', e)
		}
	case string:
		h.Write([]byte{tag, 's'})
		writeString(h, tag, v)
	case int64:
		h.Write([]byte{tag, 'i'})
		writeInt(h, tag, v)
	case float64:
		h.Write([]byte{tag, 'f'})
		writeInt(h, tag, int64(math.Float64bits(v)))
	case bool:
		h.Write([]byte{tag, 'b'})
		if v {
			h.Write([]byte{1})
		} else {
			h.Write([]byte{0})
		}
	default:
		// Not a value FromJSON makes (a hand-built schema's): its type
		// and JSON keep it apart from the others.
		b, err := json.Marshal(v)
		if err != nil {
			b = []byte(err.Error())
		}
		h.Write([]byte{tag, '?'})
		writeString(h, tag, fmt.Sprintf("%T", v))
		writeString(h, tag, string(b))
	}
}

// WithoutDocs clears the documentation of every node of s in place —
// Description, Title, Example, ExternalDocs — and returns s. A schema that
// only prunes, defaults and validates never reads them (the OpenAPI
// documents are built from the CRD itself), and in a provider's CRD they
// are most of the bytes.
func WithoutDocs(s *Structural) *Structural {
	if s == nil {
		return nil
	}
	s.Description, s.Title, s.Example, s.ExternalDocs = "", "", nil, nil
	for _, c := range s.Properties {
		WithoutDocs(c)
	}
	WithoutDocs(s.Items)
	WithoutDocs(s.AdditionalProperties)
	for _, list := range [][]*Structural{s.AllOf, s.AnyOf, s.OneOf} {
		for _, c := range list {
			WithoutDocs(c)
		}
	}
	WithoutDocs(s.Not)
	return s
}
