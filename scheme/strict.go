package scheme

import (
	"bytes"
	"encoding/json"
	"reflect"
	"sort"
	"strconv"
	"strings"
)

// StrictDecodingError is what strict decoding finds in a document that
// otherwise decodes: fields its type does not know and keys an object
// repeats, each as a field path ("spec.replicas", "spec.items[0].name").
// The decoded object keeps the last value of a repeated key and ignores
// unknown fields; the fieldValidation directive decides what a server does
// with the error (Strict: 400, Warn: one warning per field).
//
// Mirrors the strict decoding error of k8s.io/apimachinery/pkg/runtime
// (NewStrictDecodingError), with the messages of sigs.k8s.io/json's
// UnmarshalStrict: `unknown field "spec.foo"`, `duplicate field "spec.a"`.
type StrictDecodingError struct {
	// Unknown are the fields the type does not have (for a custom
	// resource: those its schema prunes), sorted.
	Unknown []string
	// Duplicate are the repeated keys, in document order.
	Duplicate []string
}

// Error is "strict decoding error: " and the messages, comma-separated.
func (e *StrictDecodingError) Error() string {
	return "strict decoding error: " + strings.Join(e.Messages(), ", ")
}

// Messages are one message per field, repeated keys first.
func (e *StrictDecodingError) Messages() []string {
	out := make([]string, 0, len(e.Duplicate)+len(e.Unknown))
	for _, f := range e.Duplicate {
		out = append(out, "duplicate field "+strconv.Quote(f))
	}
	for _, f := range e.Unknown {
		out = append(out, "unknown field "+strconv.Quote(f))
	}
	return out
}

// StrictErrors returns what strict decoding of the JSON document data into
// a value like v finds, or nil if nothing: the fields v's type does not
// have, and the keys an object repeats. Below a map, an interface,
// json.RawMessage or a type with its own UnmarshalJSON any field is known;
// with v nil every field is, so only repeated keys are found (strict
// decoding into unstructured data). Field names match exactly, as
// upstream's case-sensitive decoder matches them.
//
// data must be well-formed JSON (decode it first): StrictErrors scans its
// bytes once, without decoding values, and allocates nothing for a
// document of small objects without findings. It is crdlab's one strict
// decoder: CodecFactory.Decode with DecodeOptions.Strict calls it for
// typed objects, and the handler for custom resources.
//
// Mirrors what sigs.k8s.io/json.UnmarshalStrict reports
// (DisallowUnknownFields, DisallowDuplicateFields).
func StrictErrors(data []byte, v any) *StrictDecodingError {
	s := strictScanner{b: data}
	var t reflect.Type
	if v != nil {
		t = reflect.TypeOf(v)
	}
	s.skipSpace()
	s.value(t)
	if len(s.found.Unknown)+len(s.found.Duplicate) == 0 {
		return nil
	}
	sort.Strings(s.found.Unknown)
	return &s.found
}

// strictScanner walks a JSON document's bytes alongside the Go type that
// would hold each value.
type strictScanner struct {
	b     []byte
	i     int
	path  []pathSegment // the keys and indices down to the current value
	found StrictDecodingError
	// fields caches the JSON fields of the struct types met (nil until
	// the first).
	fields map[reflect.Type]map[string]reflect.Type
}

// pathSegment is one step of a path: an object key or an array index.
type pathSegment struct {
	key   []byte // raw, between the quotes; nil for an index
	index int
}

var (
	rawMessageType  = reflect.TypeFor[json.RawMessage]()
	unmarshalerType = reflect.TypeFor[json.Unmarshaler]()
)

// known reduces t to the type whose fields are checked: nil when any field
// is known below it.
func known(t reflect.Type) reflect.Type {
	for t != nil && t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t == nil || t == rawMessageType || reflect.PointerTo(t).Implements(unmarshalerType) {
		return nil
	}
	switch t.Kind() {
	case reflect.Struct, reflect.Map, reflect.Slice, reflect.Array:
		return t
	}
	return nil
}

func (s *strictScanner) skipSpace() {
	for s.i < len(s.b) && (s.b[s.i] == ' ' || s.b[s.i] == '\t' || s.b[s.i] == '\n' || s.b[s.i] == '\r') {
		s.i++
	}
}

// value skips one value starting at s.b[s.i], looking into objects and
// arrays; t is the Go type that would hold it (nil: anything).
func (s *strictScanner) value(t reflect.Type) {
	if s.i >= len(s.b) {
		return
	}
	switch s.b[s.i] {
	case '{':
		s.object(known(t))
	case '[':
		s.array(known(t))
	case '"':
		s.str()
	default: // number, true, false, null
		for ; s.i < len(s.b); s.i++ {
			switch s.b[s.i] {
			case ',', ']', '}', ':', ' ', '\t', '\n', '\r':
				return
			}
		}
	}
}

// str skips a string and returns its raw content.
func (s *strictScanner) str() []byte {
	s.i++ // '"'
	start := s.i
	for s.i < len(s.b) {
		switch s.b[s.i] {
		case '\\':
			s.i += 2
			continue
		case '"':
			raw := s.b[start:s.i]
			s.i++
			return raw
		}
		s.i++
	}
	return s.b[start:min(s.i, len(s.b))]
}

// maxListedKeys is how many keys an object's keys are compared with one
// by one; past it, they go into a map (a body may hold an object of
// hundreds of thousands of keys).
const maxListedKeys = 16

func (s *strictScanner) object(t reflect.Type) {
	var fields map[string]reflect.Type
	var elem reflect.Type
	switch {
	case t == nil:
	case t.Kind() == reflect.Struct:
		fields = s.fieldsOf(t)
	case t.Kind() == reflect.Map:
		elem = t.Elem()
	}
	s.i++ // '{'
	var keys [][]byte
	var many map[string]struct{}
	for {
		s.skipSpace()
		if s.i >= len(s.b) || s.b[s.i] != '"' {
			s.i++ // '}' (or not JSON: stop)
			return
		}
		key := s.str()
		dup := false
		if many != nil {
			k := unquoteKey(key)
			_, dup = many[k]
			many[k] = struct{}{}
		} else {
			for _, k := range keys {
				if sameKey(k, key) {
					dup = true
					break
				}
			}
			if keys = append(keys, key); len(keys) > maxListedKeys {
				many = make(map[string]struct{}, 2*len(keys))
				for _, k := range keys {
					many[unquoteKey(k)] = struct{}{}
				}
			}
		}
		if dup {
			s.found.Duplicate = append(s.found.Duplicate, s.pathTo(key))
		}
		vt := elem
		if fields != nil {
			var ft reflect.Type
			var ok bool
			if bytes.IndexByte(key, '\\') < 0 {
				ft, ok = fields[string(key)] // no allocation
			} else {
				ft, ok = fields[unquoteKey(key)]
			}
			if !ok {
				s.found.Unknown = append(s.found.Unknown, s.pathTo(key))
			}
			vt = ft
		}
		s.skipSpace()
		s.i++ // ':'
		s.skipSpace()
		s.path = append(s.path, pathSegment{key: key})
		s.value(vt)
		s.path = s.path[:len(s.path)-1]
		s.skipSpace()
		if s.i < len(s.b) && s.b[s.i] == ',' {
			s.i++
		}
	}
}

func (s *strictScanner) array(t reflect.Type) {
	var elem reflect.Type
	if t != nil && (t.Kind() == reflect.Slice || t.Kind() == reflect.Array) {
		elem = t.Elem()
	}
	s.i++ // '['
	for n := 0; ; n++ {
		s.skipSpace()
		if s.i >= len(s.b) || s.b[s.i] == ']' {
			s.i++
			return
		}
		start := s.i
		s.path = append(s.path, pathSegment{index: n})
		s.value(elem)
		s.path = s.path[:len(s.path)-1]
		s.skipSpace()
		if s.i < len(s.b) && s.b[s.i] == ',' {
			s.i++
		} else if s.i == start {
			s.i++ // not JSON: make progress
		}
	}
}

// fieldsOf maps the JSON names of a struct's fields (embedded and inline
// structs flattened) to their types.
func (s *strictScanner) fieldsOf(t reflect.Type) map[string]reflect.Type {
	if f, ok := s.fields[t]; ok {
		return f
	}
	if s.fields == nil {
		s.fields = map[reflect.Type]map[string]reflect.Type{}
	}
	out := map[string]reflect.Type{}
	addJSONFields(t, out)
	s.fields[t] = out
	return out
}

func addJSONFields(t reflect.Type, out map[string]reflect.Type) {
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		tag := f.Tag.Get("json")
		if tag == "-" {
			continue
		}
		name, opts, _ := strings.Cut(tag, ",")
		if (f.Anonymous && name == "") || strings.Contains(opts, "inline") {
			ft := f.Type
			for ft.Kind() == reflect.Pointer {
				ft = ft.Elem()
			}
			if ft.Kind() == reflect.Struct {
				addJSONFields(ft, out)
				continue
			}
		}
		if !f.IsExported() {
			continue
		}
		if name == "" {
			name = f.Name
		}
		out[name] = f.Type
	}
}

// pathTo renders the current path and key as field validation names
// fields: "spec.items[0].name".
func (s *strictScanner) pathTo(key []byte) string {
	var p strings.Builder
	for _, seg := range s.path {
		if seg.key == nil {
			p.WriteString("[" + strconv.Itoa(seg.index) + "]")
			continue
		}
		if p.Len() > 0 {
			p.WriteByte('.')
		}
		p.WriteString(unquoteKey(seg.key))
	}
	if p.Len() > 0 {
		p.WriteByte('.')
	}
	p.WriteString(unquoteKey(key))
	return p.String()
}

// sameKey compares two raw keys; keys with escapes are compared decoded.
func sameKey(a, b []byte) bool {
	if bytes.IndexByte(a, '\\') < 0 && bytes.IndexByte(b, '\\') < 0 {
		return bytes.Equal(a, b)
	}
	return unquoteKey(a) == unquoteKey(b)
}

// unquoteKey decodes a raw key's escapes.
func unquoteKey(raw []byte) string {
	if bytes.IndexByte(raw, '\\') < 0 {
		return string(raw)
	}
	var k string
	if json.Unmarshal(append(append([]byte{'"'}, raw...), '"'), &k) != nil {
		return string(raw)
	}
	return k
}
