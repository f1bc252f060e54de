package client

import (
	"bytes"
	"strings"
)

// splitList cuts a list's JSON into its items and the rest (the envelope:
// apiVersion, kind, metadata), reading the items only for their quotes
// and brackets. items is nil for a list whose "items" is null or missing;
// each item is a span of data. ok is false for anything it does not
// expect (a key spelled another way that encoding/json would match to
// "items", an escaped key, a key twice, bad syntax outside the items):
// the caller then decodes data with encoding/json, which says what is
// wrong. An item's own bad syntax is found when the item is decoded.
//
// It exists for the CRD informer's first list at a start: encoding/json
// checks the whole body before decoding it, then scans each item again to
// hand it to UnmarshalJSON. At 2,000 real-size CRDs the body is 543 MB,
// and those two scans took about 4 s of the client's 12.5 (docs/crd-memory.md,
// "Session 22").
func splitList(data []byte) (envelope []byte, items [][]byte, ok bool) {
	s := listScan{b: data}
	s.space()
	if !s.byte('{') {
		return nil, nil, false
	}
	envelope = append(make([]byte, 0, 256), '{')
	seen := map[string]bool{}
	s.space()
	if s.byte('}') {
		return append(envelope, '}'), nil, s.end()
	}
	for {
		s.space()
		keyStart := s.i
		key, escaped, kok := s.str()
		if !kok || escaped || seen[key] {
			return nil, nil, false
		}
		seen[key] = true
		s.space()
		if !s.byte(':') {
			return nil, nil, false
		}
		s.space()
		valStart := s.i
		switch {
		case key == "items":
			if s.literal("null") {
				items = nil
				break
			}
			var iok bool
			if items, iok = s.array(); !iok {
				return nil, nil, false
			}
		case strings.EqualFold(key, "items"):
			return nil, nil, false // encoding/json would take it for items
		default:
			if !s.skip() {
				return nil, nil, false
			}
			if len(envelope) > 1 {
				envelope = append(envelope, ',')
			}
			envelope = append(envelope, data[keyStart:valStart]...)
			envelope = append(envelope, data[valStart:s.i]...)
		}
		s.space()
		switch {
		case s.byte(','):
		case s.byte('}'):
			return append(envelope, '}'), items, s.end()
		default:
			return nil, nil, false
		}
	}
}

// listScan reads JSON text as splitList needs it.
type listScan struct {
	b []byte
	i int
}

func (s *listScan) space() {
	for s.i < len(s.b) {
		switch s.b[s.i] {
		case ' ', '\t', '\n', '\r':
			s.i++
		default:
			return
		}
	}
}

func (s *listScan) end() bool {
	s.space()
	return s.i == len(s.b)
}

// byte consumes c if it is next.
func (s *listScan) byte(c byte) bool {
	if s.i < len(s.b) && s.b[s.i] == c {
		s.i++
		return true
	}
	return false
}

func (s *listScan) literal(word string) bool {
	if bytes.HasPrefix(s.b[s.i:], []byte(word)) {
		s.i += len(word)
		return true
	}
	return false
}

// str reads a string; escaped says it had a backslash escape (its raw
// content is then not its value).
func (s *listScan) str() (raw string, escaped, ok bool) {
	if !s.byte('"') {
		return "", false, false
	}
	start := s.i
	for s.i < len(s.b) {
		switch c := s.b[s.i]; {
		case c == '\\':
			escaped = true
			s.i += 2
		case c == '"':
			s.i++
			return string(s.b[start : s.i-1]), escaped, true
		case c < 0x20:
			return "", false, false
		default:
			s.i++
		}
	}
	return "", false, false
}

// array reads an array of values, returning each one's span.
func (s *listScan) array() ([][]byte, bool) {
	if !s.byte('[') {
		return nil, false
	}
	out := [][]byte{}
	s.space()
	if s.byte(']') {
		return out, true
	}
	for {
		s.space()
		start := s.i
		if !s.skip() {
			return nil, false
		}
		out = append(out, s.b[start:s.i])
		s.space()
		switch {
		case s.byte(','):
		case s.byte(']'):
			return out, true
		default:
			return nil, false
		}
	}
}

// skip reads one value: strings for their quotes, brackets counted, and a
// scalar up to the next delimiter. The value's own syntax is checked by
// whoever decodes it (encoding/json, for the envelope's).
func (s *listScan) skip() bool {
	if s.i >= len(s.b) {
		return false
	}
	switch s.b[s.i] {
	case '"':
		_, _, ok := s.str()
		return ok
	case '{', '[':
		depth := 0
		for s.i < len(s.b) {
			switch s.b[s.i] {
			case '"':
				if _, _, ok := s.str(); !ok {
					return false
				}
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
	default:
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
