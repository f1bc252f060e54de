package handler

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"
)

// duplicateFields returns the paths of the keys a JSON document repeats
// within one object ("spec.replicas", "spec.items[0].name"), in document
// order: for field validation, which answers them as unknown fields are
// answered (Strict: 400, Warn: a warning). The decoders keep the last
// value of a repeated key, as encoding/json does.
//
// It is a byte scanner, not a decoder: the body has been decoded already,
// so it is well-formed JSON, and this pass only has to find keys. It
// allocates nothing for a document without duplicates but the key lists
// of its objects.
//
// Mirrors the duplicate-field errors of upstream's strict decoding
// (sigs.k8s.io/json's UnmarshalStrict), which k8s.io/apiserver's
// handlers turn into `duplicate field "…"`.
func duplicateFields(b []byte) []string {
	s := dupScanner{b: b}
	s.skipSpace()
	s.value()
	return s.found
}

type dupScanner struct {
	b     []byte
	i     int
	path  []dupSegment // the keys and indices down to the current value
	found []string
}

// dupSegment is one step of a path: an object key or an array index.
type dupSegment struct {
	key   []byte // raw, between the quotes; nil for an index
	index int
}

func (s *dupScanner) skipSpace() {
	for s.i < len(s.b) && (s.b[s.i] == ' ' || s.b[s.i] == '\t' || s.b[s.i] == '\n' || s.b[s.i] == '\r') {
		s.i++
	}
}

// value skips one value starting at s.b[s.i], looking into objects and
// arrays.
func (s *dupScanner) value() {
	if s.i >= len(s.b) {
		return
	}
	switch s.b[s.i] {
	case '{':
		s.object()
	case '[':
		s.array()
	case '"':
		s.str()
	default: // number, true, false, null
		for ; s.i < len(s.b); s.i++ {
			switch s.b[s.i] {
			case ',', ']', '}', ' ', '\t', '\n', '\r':
				return
			}
		}
	}
}

// str skips a string and returns its raw content.
func (s *dupScanner) str() []byte {
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
	return s.b[start:]
}

// maxListedKeys is how many keys an object's keys are compared with one
// by one; past it, they go into a map (a body may hold an object of
// hundreds of thousands of keys).
const maxListedKeys = 16

func (s *dupScanner) object() {
	s.i++ // '{'
	var keys [][]byte
	var many map[string]struct{}
	for {
		s.skipSpace()
		if s.i >= len(s.b) || s.b[s.i] == '}' {
			s.i++
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
			s.found = append(s.found, s.pathTo(key))
		}
		s.skipSpace()
		s.i++ // ':'
		s.skipSpace()
		s.path = append(s.path, dupSegment{key: key})
		s.value()
		s.path = s.path[:len(s.path)-1]
		s.skipSpace()
		if s.i < len(s.b) && s.b[s.i] == ',' {
			s.i++
		}
	}
}

func (s *dupScanner) array() {
	s.i++ // '['
	for n := 0; ; n++ {
		s.skipSpace()
		if s.i >= len(s.b) || s.b[s.i] == ']' {
			s.i++
			return
		}
		s.path = append(s.path, dupSegment{index: n})
		s.value()
		s.path = s.path[:len(s.path)-1]
		s.skipSpace()
		if s.i < len(s.b) && s.b[s.i] == ',' {
			s.i++
		}
	}
}

// pathTo renders the current path and key as field validation names
// fields: "spec.items[0].name".
func (s *dupScanner) pathTo(key []byte) string {
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
