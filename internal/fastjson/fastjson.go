package fastjson

import (
	"encoding/json"
	"strconv"
	"unicode/utf8"
)

// Numbers says what a JSON number decodes to.
type Numbers int

const (
	// UseNumber keeps a number's text as a json.Number.
	UseNumber Numbers = iota
	// Int64OrFloat64 makes a whole number in int64's range an int64 and
	// any other number a float64; a number out of float64's range fails.
	Int64OrFloat64
)

// maxDepth is encoding/json's nesting limit: deeper input goes the slow
// way and fails there.
const maxDepth = 10000

// Decode parses b, one JSON value with optional surrounding space. ok is
// false for anything but well-formed input within the package's limits.
func Decode(b []byte, numbers Numbers) (v any, ok bool) {
	p := parser{b: b, numbers: numbers}
	if v, ok = p.value(); !ok {
		return nil, false
	}
	if p.skipSpace(); p.i != len(p.b) {
		return nil, false
	}
	return v, true
}

// DecodeObject is Decode for a value that must be a JSON object.
func DecodeObject(b []byte, numbers Numbers) (map[string]any, bool) {
	p := parser{b: b, numbers: numbers}
	p.skipSpace()
	if p.i >= len(p.b) || p.b[p.i] != '{' {
		return nil, false
	}
	m, ok := p.object()
	if !ok {
		return nil, false
	}
	if p.skipSpace(); p.i != len(p.b) {
		return nil, false
	}
	return m, true
}

type parser struct {
	b       []byte
	i       int
	depth   int
	numbers Numbers
}

func (p *parser) skipSpace() {
	for p.i < len(p.b) {
		switch p.b[p.i] {
		case ' ', '\t', '\n', '\r':
			p.i++
		default:
			return
		}
	}
}

func (p *parser) value() (any, bool) {
	p.skipSpace()
	if p.i >= len(p.b) {
		return nil, false
	}
	switch c := p.b[p.i]; {
	case c == '{':
		if m, ok := p.object(); ok {
			return m, true
		}
		return nil, false
	case c == '[':
		if a, ok := p.array(); ok {
			return a, true
		}
		return nil, false
	case c == '"':
		if s, ok := p.str(); ok {
			return s, true
		}
		return nil, false
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

func (p *parser) literal(word string) bool {
	if len(p.b)-p.i < len(word) || string(p.b[p.i:p.i+len(word)]) != word {
		return false
	}
	p.i += len(word)
	return true
}

// object parses {…} starting at p.b[p.i] == '{'.
func (p *parser) object() (map[string]any, bool) {
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

// array parses […] starting at p.b[p.i] == '['.
func (p *parser) array() ([]any, bool) {
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
func (p *parser) str() (string, bool) {
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

// number parses a JSON number starting at p.b[p.i] and converts it as
// p.numbers says.
func (p *parser) number() (any, bool) {
	b, start, i := p.b, p.i, p.i
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
	if p.numbers == UseNumber {
		return json.Number(lit), true
	}
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
