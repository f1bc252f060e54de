package storage

import (
	"bytes"
	"strconv"

	metav1 "github.com/crdlab/crdlab/apis/meta/v1"
	"github.com/crdlab/crdlab/scheme"
)

// MetadataJSON is one object's metadata as a metadata-only watch
// (ListOptions.MetadataOnly) may carry it: the JSON of the object's
// metadata, cut out of its stored bytes, with its resourceVersion set.
// The handler writes it as the event's PartialObjectMetadata without
// decoding or encoding anything. It exists for the garbage collector,
// which watches every resource for metadata alone: decoding each written
// object whole for it was most of what one more watcher cost a create
// (docs/perf.md, "The kube controllers in the server").
//
// Upstream has no such shortcut: its watch cache holds decoded objects,
// and the metadata encoder copies their ObjectMeta.
//
// Its bytes are shared by every metadata-only watcher of one event and
// must not be changed.
type MetadataJSON struct {
	metav1.TypeMeta // meta.k8s.io/v1 PartialObjectMetadata
	Raw             []byte
}

// RawMetadata returns the metadata's JSON, read-only.
func (m *MetadataJSON) RawMetadata() []byte { return m.Raw }

// DeepCopyObject returns a copy with its own bytes.
func (m *MetadataJSON) DeepCopyObject() scheme.Object {
	return &MetadataJSON{TypeMeta: m.TypeMeta, Raw: bytes.Clone(m.Raw)}
}

// MetadataCodec is a Codec that can cut an object's metadata out of its
// stored bytes. An engine serves metadata-only watches from it when the
// resource's codec is one; otherwise it decodes the object.
type MetadataCodec interface {
	// AppendMetadata appends the JSON of the metadata of the object
	// stored as data, with resourceVersion rv, to dst; false if data is
	// not what the codec writes (the caller decodes it instead).
	AppendMetadata(dst, data []byte, rv int64) ([]byte, bool)
}

var _ MetadataCodec = JSONCodec{}

// NewMetadataJSON cuts the metadata of the object stored as data at
// revision rv out with codec; nil if codec cannot.
func NewMetadataJSON(codec Codec, data []byte, rv int64) *MetadataJSON {
	mc, ok := codec.(MetadataCodec)
	if !ok {
		return nil
	}
	raw, ok := mc.AppendMetadata(make([]byte, 0, len(data)+24), data, rv)
	if !ok {
		return nil
	}
	return &MetadataJSON{
		TypeMeta: metav1.TypeMeta{APIVersion: "meta.k8s.io/v1", Kind: "PartialObjectMetadata"},
		Raw:      raw,
	}
}

// AppendMetadata appends data's metadata object with its resourceVersion
// set to rv. The stored bytes hold none (Resource.Encode drops it); it
// goes before the first key that sorts after it, where encoding/json's
// sorted keys (and unstructured.AppendJSON's) put it, so that the result
// is byte for byte what encoding the decoded object's metadata writes.
func (JSONCodec) AppendMetadata(dst, data []byte, rv int64) ([]byte, bool) {
	s := jsonScan{b: data}
	start, end := -1, -1
	ok := s.object(func(key []byte) bool {
		if string(key) != "metadata" {
			return s.skip()
		}
		s.space()
		start = s.i
		ok := s.skip()
		end = s.i
		return ok
	})
	if !ok || !s.end() || start < 0 || data[start] != '{' {
		return dst, false
	}
	return appendMetaWithRV(dst, data[start:end], rv)
}

// appendMetaWithRV appends the metadata object meta with its
// resourceVersion set to rv, where encoding/json's sorted keys put it.
func appendMetaWithRV(dst, meta []byte, rv int64) ([]byte, bool) {
	if sp := metaSplice(meta); sp != 0 {
		return sp.insert(dst, meta, rv), true
	}
	// A resourceVersion already there (Resource.Encode writes none), or
	// metadata the walk declines.
	m := jsonScan{b: meta}
	valStart, valEnd := -1, -1
	ok := m.object(func(key []byte) bool {
		if string(key) == "resourceVersion" {
			m.space()
			valStart = m.i
			ok := m.skip()
			valEnd = m.i
			return ok
		}
		return m.skip()
	})
	if !ok || m.escaped || valStart < 0 {
		return dst, false
	}
	dst = append(dst, meta[:valStart]...)
	dst = appendQuotedRV(dst, rv)
	return append(dst, meta[valEnd:]...), true
}

func appendQuotedRV(dst []byte, rv int64) []byte {
	dst = append(dst, '"')
	dst = strconv.AppendInt(dst, rv, 10)
	return append(dst, '"')
}

// Splice is where the resourceVersion goes in an object's stored JSON
// (which holds none: Resource.Encode drops it): an offset, and how the
// key goes in there. An engine may find it once per stored value
// (FindSplice) and hand it with the bytes (ObjectJSON.Splice), which
// spares each later read the walk of the metadata. 0 is unknown.
type Splice int32

// The ways the key goes in, in a Splice's low two bits.
const (
	spliceBefore    = 1 // "resourceVersion":"N", before the key at the offset
	spliceAfterLast = 2 // ,"resourceVersion":"N" before the closing brace at the offset
	spliceAlone     = 3 // "resourceVersion":"N" into an empty metadata object
)

func newSplice(at, how int) Splice {
	if at < 0 || at >= 1<<29 {
		return 0
	}
	return Splice(at<<2 | how)
}

func (sp Splice) at() int  { return int(sp >> 2) }
func (sp Splice) how() int { return int(sp & 3) }

// insert appends data with the resourceVersion rv spliced in at sp.
func (sp Splice) insert(dst, data []byte, rv int64) []byte {
	at := sp.at()
	dst = append(dst, data[:at]...)
	switch sp.how() {
	case spliceBefore:
		dst = appendQuotedRV(append(dst, `"resourceVersion":`...), rv)
		dst = append(dst, ',')
	case spliceAfterLast:
		dst = appendQuotedRV(append(dst, `,"resourceVersion":`...), rv)
	default:
		dst = appendQuotedRV(append(dst, `"resourceVersion":`...), rv)
	}
	return append(dst, data[at:]...)
}

// metaSplice finds where the resourceVersion goes in the metadata object
// meta, which has none: before the first key that sorts after it, where
// encoding/json's sorted keys (and unstructured.AppendJSON's) put it.
// 0 if meta has a resourceVersion, is not an object, or has an escaped
// key (whose order the raw bytes do not tell).
func metaSplice(meta []byte) Splice {
	m := jsonScan{b: meta}
	at, keys, has := -1, 0, false
	ok := m.object(func(key []byte) bool {
		keys++
		switch k := string(key); {
		case k == "resourceVersion":
			has = true
			return false
		case k > "resourceVersion":
			at = m.keyAt
			return false // the keys are sorted: it goes here
		}
		return m.skip()
	})
	switch {
	case has || m.escaped:
		return 0
	case at >= 0:
		return newSplice(at, spliceBefore)
	case !ok:
		return 0
	case keys == 0:
		return newSplice(bytes.LastIndexByte(meta, '}'), spliceAlone)
	default:
		return newSplice(bytes.LastIndexByte(meta, '}'), spliceAfterLast)
	}
}

// jsonScan walks JSON text, checking no more of its grammar than it needs
// to find where each value begins and ends: it reads bytes written by
// encoding/json, and anything it does not expect fails the cut (the
// caller decodes instead).
type jsonScan struct {
	b []byte
	i int
	// keyAt is the offset of the opening quote of the key object's
	// callback is reading.
	keyAt int
	// escaped says a key had a backslash escape (keys are handed over
	// raw, escapes and all).
	escaped bool
}

func (s *jsonScan) space() {
	for s.i < len(s.b) && (s.b[s.i] == ' ' || s.b[s.i] == '\t' || s.b[s.i] == '\n' || s.b[s.i] == '\r') {
		s.i++
	}
}

// end reports whether only white space is left.
func (s *jsonScan) end() bool {
	s.space()
	return s.i == len(s.b)
}

// str reads a string and returns its raw content, escapes included.
func (s *jsonScan) str() ([]byte, bool) {
	s.space()
	if s.i >= len(s.b) || s.b[s.i] != '"' {
		return nil, false
	}
	start := s.i + 1
	for i := start; i < len(s.b); i++ {
		switch s.b[i] {
		case '\\':
			s.escaped = true
			i++
		case '"':
			s.i = i + 1
			return s.b[start:i], true
		}
	}
	return nil, false
}

// object reads an object, calling field with each key; field must read
// the key's value.
func (s *jsonScan) object(field func(key []byte) bool) bool {
	s.space()
	if s.i >= len(s.b) || s.b[s.i] != '{' {
		return false
	}
	s.i++
	s.space()
	if s.i < len(s.b) && s.b[s.i] == '}' {
		s.i++
		return true
	}
	for {
		s.space()
		s.keyAt = s.i
		key, ok := s.str()
		if !ok {
			return false
		}
		s.space()
		if s.i >= len(s.b) || s.b[s.i] != ':' {
			return false
		}
		s.i++
		if !field(key) {
			return false
		}
		s.space()
		if s.i >= len(s.b) {
			return false
		}
		switch s.b[s.i] {
		case ',':
			s.i++
		case '}':
			s.i++
			return true
		default:
			return false
		}
	}
}

// skip reads one value of any kind. Strings inside are read for their
// quotes only; brackets are counted.
func (s *jsonScan) skip() bool {
	s.space()
	if s.i >= len(s.b) {
		return false
	}
	switch c := s.b[s.i]; c {
	case '"':
		escaped := s.escaped
		_, ok := s.str()
		s.escaped = escaped // only keys count
		return ok
	case '{', '[':
		depth := 0
		for s.i < len(s.b) {
			switch s.b[s.i] {
			case '"':
				escaped := s.escaped
				if _, ok := s.str(); !ok {
					return false
				}
				s.escaped = escaped
				continue
			case '{', '[':
				depth++
			case '}', ']':
				depth--
			}
			s.i++
			if depth == 0 {
				return true
			}
		}
		return false
	default: // a number, true, false or null
		start := s.i
		for s.i < len(s.b) {
			switch s.b[s.i] {
			case ',', '}', ']', ' ', '\t', '\n', '\r':
				return s.i > start
			case '"', '{', '[', ':':
				return false
			}
			s.i++
		}
		return s.i > start
	}
}

// MetadataSpan returns where the value of the top-level "metadata" key
// of the JSON object data is, data[start:end], an object. It reads no
// further than that key: the bytes must be a codec's own (checked when
// stored), not a client's. ok is false if the keys before it do not read,
// or there is no metadata object.
func MetadataSpan(data []byte) (start, end int, ok bool) {
	s := jsonScan{b: data}
	start = -1
	s.object(func(key []byte) bool {
		if string(key) != "metadata" {
			return s.skip()
		}
		s.space()
		start = s.i
		if !s.skip() {
			start = -1
		}
		end = s.i
		return false // found: stop here
	})
	if start < 0 || data[start] != '{' || s.escaped {
		return 0, 0, false
	}
	return start, end, true
}

// StructMetaSplice returns where the resourceVersion goes in meta, the
// JSON of an ObjectMeta as its Go struct writes it (name, generateName,
// namespace, selfLink, uid, resourceVersion, generation, …: the order of
// upstream's fields): right after the uid's value, as
// ,"resourceVersion":"N". ok is false unless uid is there, after none but
// the keys that come before it, and the key after it is not
// resourceVersion.
func StructMetaSplice(meta []byte) (at int, ok bool) {
	s := jsonScan{b: meta}
	at = -1
	s.object(func(key []byte) bool {
		switch string(key) {
		case "name", "generateName", "namespace", "selfLink":
			return s.skip()
		case "uid":
			s.space()
			if s.i >= len(s.b) || s.b[s.i] != '"' || !s.skip() {
				return false
			}
			at = s.i
			s.space()
			if s.i < len(s.b) && s.b[s.i] == ',' {
				next := jsonScan{b: meta, i: s.i + 1}
				next.space()
				if k, ok := next.str(); !ok || string(k) == "resourceVersion" {
					at = -1
				}
			}
		}
		return false
	})
	if at < 0 || s.escaped {
		return 0, false
	}
	return at, true
}
