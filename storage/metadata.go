package storage

import (
	"bytes"
	"strconv"

	metav1 "github.com/crdlab/crdlab/apis/meta/v1"
	"github.com/crdlab/crdlab/internal/jsonskim"
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
	s := jsonskim.Scanner{B: data}
	start, end := -1, -1
	ok := s.Object(func(key []byte) bool {
		if string(key) != "metadata" {
			return s.Skip()
		}
		s.Space()
		start = s.I
		ok := s.Skip()
		end = s.I
		return ok
	})
	if !ok || !s.End() || start < 0 || data[start] != '{' {
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
	m := jsonskim.Scanner{B: meta}
	valStart, valEnd := -1, -1
	ok := m.Object(func(key []byte) bool {
		if string(key) == "resourceVersion" {
			m.Space()
			valStart = m.I
			ok := m.Skip()
			valEnd = m.I
			return ok
		}
		return m.Skip()
	})
	if !ok || m.Escaped || valStart < 0 {
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
	m := jsonskim.Scanner{B: meta}
	at, keys, has := -1, 0, false
	ok := m.Object(func(key []byte) bool {
		keys++
		switch k := string(key); {
		case k == "resourceVersion":
			has = true
			return false
		case k > "resourceVersion":
			at = m.KeyAt
			return false // the keys are sorted: it goes here
		}
		return m.Skip()
	})
	switch {
	case has || m.Escaped:
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

// MetadataSpan returns where the value of the top-level "metadata" key
// of the JSON object data is, data[start:end], an object. It reads no
// further than that key: the bytes must be a codec's own (checked when
// stored), not a client's. ok is false if the keys before it do not read,
// or there is no metadata object.
func MetadataSpan(data []byte) (start, end int, ok bool) {
	s := jsonskim.Scanner{B: data}
	start = -1
	s.Object(func(key []byte) bool {
		if string(key) != "metadata" {
			return s.Skip()
		}
		s.Space()
		start = s.I
		if !s.Skip() {
			start = -1
		}
		end = s.I
		return false // found: stop here
	})
	if start < 0 || data[start] != '{' || s.Escaped {
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
	s := jsonskim.Scanner{B: meta}
	at = -1
	s.Object(func(key []byte) bool {
		switch string(key) {
		case "name", "generateName", "namespace", "selfLink":
			return s.Skip()
		case "uid":
			s.Space()
			if s.I >= len(s.B) || s.B[s.I] != '"' || !s.Skip() {
				return false
			}
			at = s.I
			s.Space()
			if s.I < len(s.B) && s.B[s.I] == ',' {
				next := jsonskim.Scanner{B: meta, I: s.I + 1}
				next.Space()
				if k, _, ok := next.Str(); !ok || string(k) == "resourceVersion" {
					at = -1
				}
			}
		}
		return false
	})
	if at < 0 || s.Escaped {
		return 0, false
	}
	return at, true
}
