package storage

import "github.com/crdlab/crdlab/internal/jsonskim"

// ObjectJSON is one listed object as a reader that only writes it as JSON
// may take it (ListOptions.Encoded): its bytes as JSONCodec stored them
// (without resourceVersion) and the revision they were written at. Its
// AppendJSON writes the object with its resourceVersion set, byte for
// byte what decoding it (Resource.Decode) and encoding it again would
// write, without doing either.
//
// It exists for full lists: a list of 100,000 objects of 2 KB decoded
// every object only for the handler to encode it again — 2.1 s, where the
// bytes were at hand (docs/perf.md, "Many objects"). Upstream has no such
// shortcut: its watch cache holds decoded objects and the serializer
// encodes each one.
//
// Data is shared with storage and must not be changed.
type ObjectJSON struct {
	Data []byte
	Rev  int64
	// Splice, if not 0, is where the resourceVersion goes in Data, as
	// FindSplice found it for these bytes before: an engine may keep it
	// with the stored value.
	Splice Splice
	// Metadata says Data is only the object's metadata object, as
	// MetadataSpan cuts it out of the stored bytes (a list with
	// ListOptions.MetadataOnly); AppendJSON and Splice do not apply.
	Metadata bool
}

// AppendJSON appends the object's JSON with its resourceVersion set to
// o.Rev, and returns the stored apiVersion and kind (aliases of Data, for
// the caller to check against the version it serves). ok is false if
// Data is not what JSONCodec writes — a JSON object whose keys come
// sorted, apiVersion and kind as plain strings before a metadata object —
// and dst is then returned unchanged: the caller decodes the object
// instead.
//
// Only the keys up to metadata are read, and metadata's up to where the
// resourceVersion goes (none of it with o.Splice); the rest is copied.
func (o ObjectJSON) AppendJSON(dst []byte) (out, apiVersion, kind []byte, ok bool) {
	apiVersion, kind, start, ok := typeAndMeta(o.Data)
	if !ok {
		return dst, nil, nil, false
	}
	if sp := o.Splice; sp != 0 && sp.at() > start && sp.at() < len(o.Data) {
		return sp.insert(dst, o.Data, o.Rev), apiVersion, kind, true
	}
	s := jsonskim.Scanner{B: o.Data, I: start}
	if !s.Skip() {
		return dst, nil, nil, false
	}
	end := s.I
	if sp := metaSplice(o.Data[start:end]); sp != 0 {
		return newSplice(start+sp.at(), sp.how()).insert(dst, o.Data, o.Rev), apiVersion, kind, true
	}
	n := len(dst)
	dst = append(dst, o.Data[:start]...)
	dst, ok = appendMetaWithRV(dst, o.Data[start:end], o.Rev)
	if !ok {
		return dst[:n], nil, nil, false
	}
	return append(dst, o.Data[end:]...), apiVersion, kind, true
}

// FindSplice finds where the resourceVersion goes in data, an object's
// JSON as JSONCodec stores it; 0 if AppendJSON would walk it anew (no
// metadata object, one with a resourceVersion, an escaped key).
func FindSplice(data []byte) Splice {
	_, _, start, ok := typeAndMeta(data)
	if !ok {
		return 0
	}
	s := jsonskim.Scanner{B: data, I: start}
	if !s.Skip() {
		return 0
	}
	sp := metaSplice(data[start:s.I])
	if sp == 0 {
		return 0
	}
	return newSplice(start+sp.at(), sp.how())
}

// typeAndMeta reads the keys of the object data up to metadata: the
// apiVersion and kind if they come before it (as plain strings), and the
// offset of metadata's value, an object.
func typeAndMeta(data []byte) (apiVersion, kind []byte, start int, ok bool) {
	s := jsonskim.Scanner{B: data}
	start = -1
	str := func(v *[]byte) bool {
		raw, escaped, ok := s.Str()
		*v = raw
		return ok && !escaped
	}
	ended := s.Object(func(key []byte) bool {
		switch string(key) {
		case "apiVersion":
			return str(&apiVersion)
		case "kind":
			return str(&kind)
		case "metadata":
			s.Space()
			start = s.I
			return false // stop: the caller reads it
		}
		return s.Skip()
	})
	if ended || start < 0 || start >= len(data) || data[start] != '{' || s.Escaped {
		// ended: the object has no metadata.
		return nil, nil, 0, false
	}
	return apiVersion, kind, start, true
}
