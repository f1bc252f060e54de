package labels

import (
	"slices"
	"strings"
)

// tokenKind is what the lexer recognised. Mirrors labels.Token.
type tokenKind int

const (
	endOfString  tokenKind = iota
	closedPar              // )
	comma                  // ,
	doesNotExist           // !
	doubleEquals           // ==
	equals                 // =
	greaterThan            // >
	identifier             // a key or a value
	inKeyword              // in
	lessThan               // <
	notEquals              // !=
	notInKeyword           // notin
	openPar                // (
)

type token struct {
	kind tokenKind
	lit  string
}

// symbols are the operators and punctuation, longest first so that "!="
// wins over "!".
var symbols = []token{
	{notEquals, "!="}, {doubleEquals, "=="},
	{doesNotExist, "!"}, {equals, "="}, {openPar, "("}, {closedPar, ")"},
	{comma, ","}, {greaterThan, ">"}, {lessThan, "<"},
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\r' || c == '\n' }

func isSymbol(c byte) bool { return strings.IndexByte("=!(),<>", c) >= 0 }

// lex splits s into tokens, ending with endOfString. Whitespace separates
// tokens; an identifier runs until whitespace or a symbol; "in" and
// "notin" are keywords (the parser reads them back as identifiers where a
// value is expected, so "x in (in)" works).
//
// Mirrors labels.Lexer.
func lex(s string) []token {
	var toks []token
	for i := 0; ; {
		for i < len(s) && isSpace(s[i]) {
			i++
		}
		if i == len(s) {
			return append(toks, token{endOfString, ""})
		}
		if isSymbol(s[i]) {
			for _, sym := range symbols {
				if strings.HasPrefix(s[i:], sym.lit) {
					toks = append(toks, sym)
					i += len(sym.lit)
					break
				}
			}
			continue
		}
		start := i
		for i < len(s) && !isSpace(s[i]) && !isSymbol(s[i]) {
			i++
		}
		word := s[start:i]
		switch word {
		case "in":
			toks = append(toks, token{inKeyword, word})
		case "notin":
			toks = append(toks, token{notInKeyword, word})
		default:
			toks = append(toks, token{identifier, word})
		}
	}
}

// parser walks the tokens of one selector. Mirrors labels.Parser.
type parser struct {
	toks []token
	pos  int
}

// peek returns the next token without consuming it. When asValue is set,
// the keywords in and notin read as identifiers.
func (p *parser) peek(asValue bool) token {
	t := p.toks[p.pos]
	if asValue && (t.kind == inKeyword || t.kind == notInKeyword) {
		t.kind = identifier
	}
	return t
}

// next consumes the next token (endOfString repeats forever).
func (p *parser) next(asValue bool) token {
	t := p.peek(asValue)
	if p.pos < len(p.toks)-1 {
		p.pos++
	}
	return t
}

// Parse reads a label selector; "" (or only whitespace) is Everything.
// The result's requirements are sorted by key. Errors carry upstream's
// messages, e.g. "unable to parse requirement: found ”, expected: in,
// notin, =, ==, !=, gt, lt".
//
// Mirrors labels.Parse.
func Parse(selector string) (Selector, error) {
	reqs, err := parseRequirements(selector)
	if err != nil {
		return nil, err
	}
	return reqs, nil
}

func parseRequirements(selector string) (internalSelector, error) {
	p := &parser{toks: lex(selector)}
	var reqs internalSelector
	for {
		t := p.peek(true)
		switch t.kind {
		case endOfString:
			sortByKey(reqs)
			return reqs, nil
		case identifier, doesNotExist:
		default:
			return nil, errorf("found '%s', expected: !, identifier, or 'end of string'", t.lit)
		}
		r, err := p.requirement()
		if err != nil {
			return nil, errorf("unable to parse requirement: %s", err.Msg)
		}
		reqs = append(reqs, *r)
		switch t := p.next(true); t.kind {
		case endOfString:
			sortByKey(reqs)
			return reqs, nil
		case comma:
			if t2 := p.peek(true); t2.kind != identifier && t2.kind != doesNotExist {
				return nil, errorf("found '%s', expected: identifier after ','", t2.lit)
			}
		default:
			return nil, errorf("found '%s', expected: ',' or 'end of string'", t.lit)
		}
	}
}

// requirement parses [!] KEY [op values].
func (p *parser) requirement() (*Requirement, *Error) {
	op := Operator("")
	t := p.next(true)
	if t.kind == doesNotExist {
		op = DoesNotExist
		t = p.next(true)
	}
	if t.kind != identifier {
		return nil, errorf("found '%s', expected: identifier", t.lit)
	}
	key := t.lit
	// Upstream validates the key with a nil field path, which prints "<nil>".
	if m := validateKey(key, "<nil>"); m != "" {
		return nil, &Error{Msg: m}
	}
	if k := p.peek(true).kind; op == "" && (k == endOfString || k == comma) {
		op = Exists
	}
	if op == Exists || op == DoesNotExist {
		return newRequirement(key, op, []string{})
	}

	switch t := p.next(false); t.kind {
	case inKeyword:
		op = In
	case notInKeyword:
		op = NotIn
	case equals:
		op = Equals
	case doubleEquals:
		op = DoubleEquals
	case notEquals:
		op = NotEquals
	case greaterThan:
		op = GreaterThan
	case lessThan:
		op = LessThan
	default:
		ops := make([]string, len(binaryOperators))
		for i, o := range binaryOperators {
			ops[i] = string(o)
		}
		return nil, errorf("found '%s', expected: %s", t.lit, strings.Join(ops, ", "))
	}

	var values []string
	var err *Error
	if op == In || op == NotIn {
		values, err = p.valueSet()
	} else {
		values, err = p.exactValue()
	}
	if err != nil {
		return nil, err
	}
	slices.Sort(values)
	return newRequirement(key, op, slices.Compact(values))
}

func newRequirement(key string, op Operator, values []string) (*Requirement, *Error) {
	r, err := NewRequirement(key, op, values)
	if err != nil {
		return nil, err.(*Error)
	}
	return r, nil
}

// valueSet parses "(" [VALUE] { "," [VALUE] } ")". Empty entries are the
// empty value: "()" is {""} and "(a,,b)" is {"", "a", "b"}.
func (p *parser) valueSet() ([]string, *Error) {
	if t := p.next(true); t.kind != openPar {
		return nil, errorf("found '%s' expected: '('", t.lit)
	}
	switch t := p.peek(true); t.kind {
	case closedPar:
		p.next(true)
		return []string{""}, nil
	case identifier, comma:
	default:
		return nil, errorf("found '%s', expected: ',', ')' or identifier", t.lit)
	}
	var values []string
	for {
		t := p.next(true)
		switch t.kind {
		case identifier:
			values = append(values, t.lit)
			switch t2 := p.peek(true); t2.kind {
			case comma:
				continue
			case closedPar:
				p.next(true)
				return values, nil
			default:
				return nil, errorf("found '%s', expected: ',' or ')'", t2.lit)
			}
		case comma:
			// A comma first, last or doubled stands for an empty value.
			if len(values) == 0 {
				values = append(values, "")
			}
			switch p.peek(true).kind {
			case closedPar:
				p.next(true)
				return append(values, ""), nil
			case comma:
				p.next(true)
				values = append(values, "")
			}
		default:
			return nil, errorf("found '%s', expected: ',', or identifier", t.lit)
		}
	}
}

// exactValue parses the one VALUE after =, ==, !=, > or <; nothing before
// a comma or the end is the empty value.
func (p *parser) exactValue() ([]string, *Error) {
	if k := p.peek(true).kind; k == endOfString || k == comma {
		return []string{""}, nil
	}
	t := p.next(true)
	if t.kind != identifier {
		return nil, errorf("found '%s', expected: identifier", t.lit)
	}
	return []string{t.lit}, nil
}
