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
	meta := data[start:end]
	m := jsonScan{b: meta}
	at, valStart, valEnd, keys := -1, -1, -1, 0
	ok = m.object(func(key []byte) bool {
		keys++
		switch k := string(key); {
		case k == "resourceVersion":
			m.space()
			valStart = m.i
			ok := m.skip()
			valEnd = m.i
			return ok
		case at < 0 && k > "resourceVersion":
			at = m.keyAt
		}
		return m.skip()
	})
	if !ok || m.escaped {
		return dst, false
	}
	quoted := func(dst []byte) []byte {
		dst = append(dst, '"')
		dst = strconv.AppendInt(dst, rv, 10)
		return append(dst, '"')
	}
	switch {
	case valStart >= 0: // not written by Resource.Encode, but replace it
		dst = append(dst, meta[:valStart]...)
		dst = quoted(dst)
		return append(dst, meta[valEnd:]...), true
	case at >= 0:
		dst = append(dst, meta[:at]...)
		dst = quoted(append(dst, `"resourceVersion":`...))
		dst = append(dst, ',')
		return append(dst, meta[at:]...), true
	default: // after the last key
		last := bytes.LastIndexByte(meta, '}')
		dst = append(dst, meta[:last]...)
		if keys > 0 {
			dst = append(dst, ',')
		}
		dst = quoted(append(dst, `"resourceVersion":`...))
		return append(dst, meta[last:]...), true
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
