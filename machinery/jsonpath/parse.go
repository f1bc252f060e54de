package jsonpath

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// ErrInvalidExpression is wrapped by every error Parse returns.
var ErrInvalidExpression = errors.New("invalid JSONPath expression")

// Error is an expression that does not parse.
type Error struct {
	Expr string
	// Pos is the byte offset in Expr where parsing stopped.
	Pos int
	Msg string
}

func (e *Error) Error() string {
	return fmt.Sprintf("error parsing %q at %d: %s", e.Expr, e.Pos, e.Msg)
}

// Unwrap makes errors.Is(err, ErrInvalidExpression) true.
func (e *Error) Unwrap() error { return ErrInvalidExpression }

// JSONPath is a parsed expression. It is immutable and safe for concurrent
// use.
//
// Mirrors jsonpath.JSONPath (with AllowMissingKeys(true)).
type JSONPath struct {
	steps []step
}

// Parse parses an expression such as ".spec.replicas",
// "{.metadata.labels['app.kubernetes.io/name']}" or
// ".status.conditions[?(@.type==\"Ready\")].status".
//
// Mirrors (*jsonpath.JSONPath).Parse for a single {…} action.
func Parse(expr string) (*JSONPath, error) {
	p := &parser{src: expr}
	p.skipSpace()
	braced := p.eat('{')
	p.skipSpace()
	if p.eat('$') {
		p.root = true
	}
	steps, err := p.steps(false)
	if err != nil {
		return nil, err
	}
	p.skipSpace()
	if braced && !p.eat('}') {
		if p.pos == len(p.src) {
			return nil, p.errorf("unclosed action")
		}
		return nil, p.errorf("unrecognized character in action: %q", p.peek())
	}
	p.skipSpace()
	if p.pos != len(p.src) {
		return nil, p.errorf("unrecognized character in action: %q", p.peek())
	}
	if len(steps) == 0 && !p.root {
		return nil, p.errorf("empty expression")
	}
	return &JSONPath{steps: steps}, nil
}

// String renders the expression in a canonical form that Parse reads back:
// fields as ".name" or "['other name']", no braces, "." for the object
// itself.
func (j *JSONPath) String() string {
	if len(j.steps) == 0 {
		return "."
	}
	var b strings.Builder
	for _, s := range j.steps {
		b.WriteString(s.String())
	}
	return b.String()
}

type parser struct {
	src string
	pos int
	// root is set when the expression named the object itself ("$" or a
	// lone ".").
	root bool
}

func (p *parser) errorf(format string, args ...any) *Error {
	return &Error{Expr: p.src, Pos: p.pos, Msg: fmt.Sprintf(format, args...)}
}

func (p *parser) peek() byte {
	if p.pos < len(p.src) {
		return p.src[p.pos]
	}
	return 0
}

func (p *parser) eat(c byte) bool {
	if p.peek() == c && p.pos < len(p.src) {
		p.pos++
		return true
	}
	return false
}

func (p *parser) skipSpace() {
	for p.pos < len(p.src) && strings.IndexByte(" \t\r\n", p.src[p.pos]) >= 0 {
		p.pos++
	}
}

// isTerminator says c ends a dotted field name.
func isTerminator(c byte) bool {
	return strings.IndexByte(" \t\r\n.[](){},=!<>'\"@$", c) >= 0
}

// steps parses steps until something that is not a step. inFilter is set
// for the relative path of a filter ("@.a.b").
func (p *parser) steps(inFilter bool) ([]step, error) {
	var steps []step
	for {
		switch p.peek() {
		case '.':
			p.pos++
			if p.eat('.') {
				inner, err := p.afterDot()
				if err != nil {
					return nil, err
				}
				steps = append(steps, recursive{inner})
				continue
			}
			c := p.peek()
			if p.pos == len(p.src) || c == '}' || c == ' ' || (inFilter && isTerminator(c) && c != '[' && c != '\\') {
				// A lone "." is the current value.
				p.root = true
				continue
			}
			s, err := p.afterDot()
			if err != nil {
				return nil, err
			}
			steps = append(steps, s)
		case '[':
			s, err := p.bracket()
			if err != nil {
				return nil, err
			}
			steps = append(steps, s)
		default:
			return steps, nil
		}
	}
}

// afterDot parses what follows "." or "..": a name, "*" or a bracket
// (".[0]" is "[0]").
func (p *parser) afterDot() (step, error) {
	switch p.peek() {
	case '*':
		p.pos++
		return wildcard{}, nil
	case '[':
		return p.bracket()
	}
	start := p.pos
	var name strings.Builder
	for p.pos < len(p.src) && !isTerminator(p.src[p.pos]) {
		c := p.src[p.pos]
		if c == '\\' && p.pos+1 < len(p.src) {
			p.pos++
			c = p.src[p.pos]
		}
		name.WriteByte(c)
		p.pos++
	}
	if p.pos == start {
		if p.pos == len(p.src) {
			return nil, p.errorf("missing field name")
		}
		return nil, p.errorf("unrecognized character in action: %q", p.peek())
	}
	return field{name.String()}, nil
}

// bracket parses "[...]": "*", an index, a slice, a quoted field name, or
// a filter "?(...)".
func (p *parser) bracket() (step, error) {
	p.pos++ // '['
	p.skipSpace()
	var s step
	switch c := p.peek(); {
	case c == '*':
		p.pos++
		s = wildcard{}
	case c == '\'' || c == '"':
		name, err := p.quoted()
		if err != nil {
			return nil, err
		}
		s = field{name}
	case c == '?':
		f, err := p.filter()
		if err != nil {
			return nil, err
		}
		s = f
	default:
		a, err := p.arrayParams()
		if err != nil {
			return nil, err
		}
		s = a
	}
	p.skipSpace()
	if !p.eat(']') {
		if p.pos == len(p.src) {
			return nil, p.errorf("unterminated array")
		}
		return nil, p.errorf("unrecognized character in array: %q", p.peek())
	}
	return s, nil
}

// quoted parses a '…' or "…" string; a backslash escapes the next byte.
func (p *parser) quoted() (string, error) {
	q := p.src[p.pos]
	p.pos++
	var b strings.Builder
	for p.pos < len(p.src) {
		c := p.src[p.pos]
		p.pos++
		switch {
		case c == q:
			return b.String(), nil
		case c == '\\' && p.pos < len(p.src):
			b.WriteByte(p.src[p.pos])
			p.pos++
		default:
			b.WriteByte(c)
		}
	}
	return "", p.errorf("unterminated quoted string")
}

// arrayParams parses "n", "start:end" or "start:end:step", each part
// optional in a slice.
func (p *parser) arrayParams() (step, error) {
	start := p.pos
	for p.pos < len(p.src) && p.src[p.pos] != ']' {
		p.pos++
	}
	text := strings.TrimSpace(p.src[start:p.pos])
	parts := strings.Split(text, ":")
	if len(parts) > 3 {
		p.pos = start
		return nil, p.errorf("invalid array index %s", text)
	}
	var vals [3]*int
	for i, part := range parts {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		n, err := strconv.Atoi(part)
		if err != nil {
			p.pos = start
			return nil, p.errorf("invalid array index %s", text)
		}
		vals[i] = &n
	}
	if len(parts) == 1 {
		if vals[0] == nil {
			p.pos = start
			return nil, p.errorf("invalid array index %s", text)
		}
		return index{*vals[0]}, nil
	}
	if vals[2] != nil && *vals[2] <= 0 {
		p.pos = start
		return nil, p.errorf("step must be > 0")
	}
	return slice{start: vals[0], end: vals[1], step: vals[2]}, nil
}

// filter parses "?(" operand [op operand] ")".
func (p *parser) filter() (step, error) {
	p.pos++ // '?'
	if !p.eat('(') {
		return nil, p.errorf("unrecognized character in filter: %q, expected '('", p.peek())
	}
	p.skipSpace()
	left, err := p.operand()
	if err != nil {
		return nil, err
	}
	p.skipSpace()
	f := filter{left: left, op: "exists"}
	for _, op := range []string{"==", "!=", "<=", ">=", "<", ">"} {
		if strings.HasPrefix(p.src[p.pos:], op) {
			p.pos += len(op)
			p.skipSpace()
			right, err := p.operand()
			if err != nil {
				return nil, err
			}
			f.op, f.right = op, right
			p.skipSpace()
			break
		}
	}
	if !p.eat(')') {
		if p.pos == len(p.src) {
			return nil, p.errorf("unterminated filter")
		}
		return nil, p.errorf("unrecognized character in filter: %q", p.peek())
	}
	return f, nil
}

// operand parses "@" followed by steps, a quoted string, a number, true
// or false.
func (p *parser) operand() (operand, error) {
	switch c := p.peek(); {
	case c == '@':
		p.pos++
		steps, err := p.steps(true)
		if err != nil {
			return operand{}, err
		}
		return operand{isPath: true, path: steps}, nil
	case c == '\'' || c == '"':
		s, err := p.quoted()
		if err != nil {
			return operand{}, err
		}
		return operand{literal: s}, nil
	case c == '-' || c == '+' || c == '.' || (c >= '0' && c <= '9'):
		start := p.pos
		for p.pos < len(p.src) && strings.IndexByte("+-.eE0123456789", p.src[p.pos]) >= 0 {
			p.pos++
		}
		text := p.src[start:p.pos]
		f, err := strconv.ParseFloat(text, 64)
		if err != nil {
			p.pos = start
			return operand{}, p.errorf("invalid number %q", text)
		}
		return operand{literal: f}, nil
	case strings.HasPrefix(p.src[p.pos:], "true"):
		p.pos += 4
		return operand{literal: true}, nil
	case strings.HasPrefix(p.src[p.pos:], "false"):
		p.pos += 5
		return operand{literal: false}, nil
	default:
		if p.pos == len(p.src) {
			return operand{}, p.errorf("unterminated filter")
		}
		return operand{}, p.errorf("unrecognized character in filter: %q", c)
	}
}
