package unstructured

import (
	"encoding/json"
	"strconv"
	"unicode/utf8"
)

// decodeObjectFast parses a JSON object the way DecodeJSONObject does —
// the same maps, slices, strings, int64s, float64s, bools and nils — in
// one pass without reflection. It handles well-formed input only: on
// anything else (a syntax error, trailing data, a number out of range,
// nesting deeper than encoding/json allows) it returns ok == false and the
// caller takes encoding/json's path, which rejects the input with its own
// error message. Strings with escapes or non-ASCII bytes are handed to
// encoding/json too, so that their decoding (surrogates, invalid UTF-8
// replaced by U+FFFD) is exactly its own.
//
// Every request body and every stored object is decoded: with
// encoding/json (a Decoder, json.Number, then a second pass converting
// numbers) this was a fifth of a create's CPU. FuzzDecodeObjectFast checks
// it against encoding/json's path.
func decodeObjectFast(b []byte) (map[string]any, bool) {
	p := fastParser{b: b}
	p.skipSpace()
	if p.i >= len(p.b) || p.b[p.i] != '{' {
		return nil, false
	}
	m, ok := p.object()
	if !ok {
		return nil, false
	}
	p.skipSpace()
	return m, p.i == len(p.b)
}

// maxDepth is encoding/json's nesting limit: deeper input goes the slow
// way and fails there.
const maxDepth = 10000

type fastParser struct {
	b     []byte
	i     int
	depth int
}

func (p *fastParser) skipSpace() {
	for p.i < len(p.b) {
		switch p.b[p.i] {
		case ' ', '\t', '\n', '\r':
			p.i++
		default:
			return
		}
	}
}

func (p *fastParser) value() (any, bool) {
	p.skipSpace()
	if p.i >= len(p.b) {
		return nil, false
	}
	switch c := p.b[p.i]; {
	case c == '{':
		m, ok := p.object()
		return m, ok
	case c == '[':
		return p.array()
	case c == '"':
		return p.str()
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

func (p *fastParser) literal(word string) bool {
	if len(p.b)-p.i < len(word) || string(p.b[p.i:p.i+len(word)]) != word {
		return false
	}
	p.i += len(word)
	return true
}

// object parses {…} starting at p.b[p.i] == '{'.
func (p *fastParser) object() (map[string]any, bool) {
	if p.depth++; p.depth > maxDepth {
		return nil, false
	}
	defer func() { p.depth-- }()
	p.i++ // '{'
	m := make(map[string]any)
	p.skipSpace()
	if p.i < len(p.b) && p.b[p.i] == '}' {
		p.i++
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
		m[k.(string)] = v // a repeated key: the last one wins, as in encoding/json
		p.skipSpace()
		if p.i >= len(p.b) {
			return nil, false
		}
		switch p.b[p.i] {
		case ',':
			p.i++
		case '}':
			p.i++
			return m, true
		default:
			return nil, false
		}
	}
}

// array parses […] starting at p.b[p.i] == '['.
func (p *fastParser) array() (any, bool) {
	if p.depth++; p.depth > maxDepth {
		return nil, false
	}
	defer func() { p.depth-- }()
	p.i++ // '['
	a := []any{}
	p.skipSpace()
	if p.i < len(p.b) && p.b[p.i] == ']' {
		p.i++
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
			return a, true
		default:
			return nil, false
		}
	}
}

// str parses a string starting at p.b[p.i] == '"'.
func (p *fastParser) str() (any, bool) {
	start := p.i + 1
	simple := true
	for i := start; i < len(p.b); i++ {
		switch c := p.b[i]; {
		case c == '"':
			p.i = i + 1
			if simple {
				return string(p.b[start:i]), true
			}
			// Escapes or non-ASCII: encoding/json's own unquoting.
			var s string
			if err := json.Unmarshal(p.b[start-1:i+1], &s); err != nil {
				return nil, false
			}
			return s, true
		case c == '\\':
			simple = false
			i++ // the escaped byte cannot end the string
		case c < 0x20:
			return nil, false
		case c >= utf8.RuneSelf:
			simple = false
		}
	}
	return nil, false
}

// number parses a JSON number and converts it as convertNumbers does:
// int64 if it is a whole number in range, else float64.
func (p *fastParser) number() (any, bool) {
	start := p.i
	b := p.b
	i := p.i
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
	whole := true
	if i < len(b) && b[i] == '.' {
		whole = false
		i++
		if i >= len(b) || b[i] < '0' || b[i] > '9' {
			return nil, false
		}
		for i < len(b) && '0' <= b[i] && b[i] <= '9' {
			i++
		}
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		whole = false
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
	p.i = i
	lit := string(b[start:i])
	if whole {
		if n, err := strconv.ParseInt(lit, 10, 64); err == nil {
			return n, true
		}
	}
	f, err := strconv.ParseFloat(lit, 64)
	if err != nil {
		return nil, false
	}
	return f, true
}
