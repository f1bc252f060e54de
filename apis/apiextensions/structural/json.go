package structural

import (
	"encoding/json"
	"unicode/utf8"
)

// decodeSchemaJSON parses a schema's JSON into what encoding/json's
// Decoder with UseNumber gives — maps, slices, strings, json.Numbers,
// bools and nils — in one pass without reflection. It handles
// well-formed input only: on anything else (a syntax error, trailing
// data, nesting deeper than encoding/json allows) ok is false and
// FromJSON takes encoding/json's path, which words the error. Strings with
// escapes or non-ASCII bytes are unquoted by encoding/json itself.
//
// A real-size CRD's schema is a few hundred KB, read at every create and
// update of the CRD (its validation) and by the controllers: through
// encoding/json this was half of the validation's CPU.
// FuzzDecodeSchemaJSON compares it with encoding/json.
func decodeSchemaJSON(b []byte) (any, bool) {
	p := schemaParser{b: b}
	v, ok := p.value()
	if !ok {
		return nil, false
	}
	p.skipSpace()
	return v, p.i == len(p.b)
}

// maxDepth is encoding/json's nesting limit.
const maxDepth = 10000

type schemaParser struct {
	b     []byte
	i     int
	depth int
}

func (p *schemaParser) skipSpace() {
	for p.i < len(p.b) {
		switch p.b[p.i] {
		case ' ', '\t', '\n', '\r':
			p.i++
		default:
			return
		}
	}
}

func (p *schemaParser) value() (any, bool) {
	p.skipSpace()
	if p.i >= len(p.b) {
		return nil, false
	}
	switch c := p.b[p.i]; {
	case c == '{':
		return p.object()
	case c == '[':
		return p.array()
	case c == '"':
		s, ok := p.str()
		return s, ok
	case c == 't':
		return true, p.literal("true")
	case c == 'f':
		return false, p.literal("false")
	case c == 'n':
		return nil, p.literal("null")
	case c == '-' || '0' <= c && c <= '9':
		return p.number()
	}
	return nil, false
}

func (p *schemaParser) literal(word string) bool {
	if len(p.b)-p.i < len(word) || string(p.b[p.i:p.i+len(word)]) != word {
		return false
	}
	p.i += len(word)
	return true
}

func (p *schemaParser) object() (any, bool) {
	if p.depth++; p.depth > maxDepth {
		return nil, false
	}
	p.i++ // '{'
	m := make(map[string]any)
	p.skipSpace()
	if p.i < len(p.b) && p.b[p.i] == '}' {
		p.i++
		p.depth--
		return m, true
	}
	for {
		p.skipSpace()
		if p.i >= len(p.b) || p.b[p.i] != '"' {
			return nil, false
		}
		k, ok := p.str()
		if !ok {
			return nil, false
		}
		p.skipSpace()
		if p.i >= len(p.b) || p.b[p.i] != ':' {
			return nil, false
		}
		p.i++
		v, ok := p.value()
		if !ok {
			return nil, false
		}
		m[k] = v // a repeated key: the last one wins, as in encoding/json
		p.skipSpace()
		if p.i >= len(p.b) {
			return nil, false
		}
		switch p.b[p.i] {
		case ',':
			p.i++
		case '}':
			p.i++
			p.depth--
			return m, true
		default:
			return nil, false
		}
	}
}

func (p *schemaParser) array() (any, bool) {
	if p.depth++; p.depth > maxDepth {
		return nil, false
	}
	p.i++ // '['
	a := []any{}
	p.skipSpace()
	if p.i < len(p.b) && p.b[p.i] == ']' {
		p.i++
		p.depth--
		return a, true
	}
	for {
		v, ok := p.value()
		if !ok {
			return nil, false
		}
		a = append(a, v)
		p.skipSpace()
		if p.i >= len(p.b) {
			return nil, false
		}
		switch p.b[p.i] {
		case ',':
			p.i++
		case ']':
			p.i++
			p.depth--
			return a, true
		default:
			return nil, false
		}
	}
}

// str parses a string starting at p.b[p.i] == '"'.
func (p *schemaParser) str() (string, bool) {
	start := p.i + 1
	simple := true
	for i := start; i < len(p.b); i++ {
		switch c := p.b[i]; {
		case c == '"':
			p.i = i + 1
			if simple {
				return string(p.b[start:i]), true
			}
			var s string
			if err := json.Unmarshal(p.b[start-1:i+1], &s); err != nil {
				return "", false
			}
			return s, true
		case c == '\\':
			simple = false
			i++ // the escaped byte cannot end the string
		case c < 0x20:
			return "", false
		case c >= utf8.RuneSelf:
			simple = false
		}
	}
	return "", false
}

// number reads a JSON number as its text, as UseNumber keeps it.
func (p *schemaParser) number() (any, bool) {
	b, i := p.b, p.i
	if b[i] == '-' {
		i++
	}
	switch {
	case i < len(b) && b[i] == '0':
		i++
	case i < len(b) && '1' <= b[i] && b[i] <= '9':
		for i < len(b) && '0' <= b[i] && b[i] <= '9' {
			i++
		}
	default:
		return nil, false
	}
	if i < len(b) && b[i] == '.' {
		i++
		if i >= len(b) || b[i] < '0' || b[i] > '9' {
			return nil, false
		}
		for i < len(b) && '0' <= b[i] && b[i] <= '9' {
			i++
		}
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		if i >= len(b) || b[i] < '0' || b[i] > '9' {
			return nil, false
		}
		for i < len(b) && '0' <= b[i] && b[i] <= '9' {
			i++
		}
	}
	n := json.Number(b[p.i:i])
	p.i = i
	return n, true
}
