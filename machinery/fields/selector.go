package fields

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"
)

// Selector says whether an object's fields are selected.
//
// A Selector is immutable and safe for concurrent use. It satisfies
// storage.FieldSelector.
//
// Mirrors fields.Selector (Transform is a function, transform.go; no
// Requirements or DeepCopySelector).
type Selector interface {
	// Matches reports whether fields satisfy every term; a missing field
	// reads as "".
	Matches(fields map[string]string) bool
	// Empty reports whether the selector selects everything.
	Empty() bool
	// String is the text form, with values escaped, which ParseSelector
	// reads back ("" for Everything).
	String() string
	// RequiresExactMatch returns the value field must equal, if a "=" or
	// "==" term demands one.
	RequiresExactMatch(field string) (value string, found bool)
}

// ErrInvalidSelector is wrapped by every error ParseSelector returns:
// errors.Is(err, fields.ErrInvalidSelector).
var ErrInvalidSelector = errors.New("invalid field selector")

// Error is a field selector that does not parse. Msg is upstream's message.
type Error struct {
	Msg string
}

func (e *Error) Error() string { return e.Msg }

// Unwrap makes errors.Is(err, ErrInvalidSelector) true.
func (e *Error) Unwrap() error { return ErrInvalidSelector }

// hasTerm selects objects whose field has value. Mirrors fields.hasTerm.
type hasTerm struct{ field, value string }

func (t hasTerm) Matches(f map[string]string) bool { return f[t.field] == t.value }
func (t hasTerm) Empty() bool                      { return false }
func (t hasTerm) String() string                   { return t.field + "=" + EscapeValue(t.value) }
func (t hasTerm) RequiresExactMatch(field string) (string, bool) {
	if t.field == field {
		return t.value, true
	}
	return "", false
}

// notHasTerm selects objects whose field differs from value. Mirrors
// fields.notHasTerm.
type notHasTerm struct{ field, value string }

func (t notHasTerm) Matches(f map[string]string) bool         { return f[t.field] != t.value }
func (t notHasTerm) Empty() bool                              { return false }
func (t notHasTerm) String() string                           { return t.field + "!=" + EscapeValue(t.value) }
func (t notHasTerm) RequiresExactMatch(string) (string, bool) { return "", false }

// andTerm selects objects every term selects; empty selects everything.
// Mirrors fields.andTerm.
type andTerm []Selector

func (t andTerm) Matches(f map[string]string) bool {
	for _, s := range t {
		if !s.Matches(f) {
			return false
		}
	}
	return true
}

func (t andTerm) Empty() bool {
	for _, s := range t {
		if !s.Empty() {
			return false
		}
	}
	return true
}

func (t andTerm) String() string {
	parts := make([]string, 0, len(t))
	for _, s := range t {
		parts = append(parts, s.String())
	}
	return strings.Join(parts, ",")
}

// RequiresExactMatch answers with the first term that requires one.
func (t andTerm) RequiresExactMatch(field string) (string, bool) {
	for _, s := range t {
		if v, ok := s.RequiresExactMatch(field); ok {
			return v, true
		}
	}
	return "", false
}

// nothingSelector selects nothing.
type nothingSelector struct{}

func (nothingSelector) Matches(map[string]string) bool           { return false }
func (nothingSelector) Empty() bool                              { return false }
func (nothingSelector) String() string                           { return "" }
func (nothingSelector) RequiresExactMatch(string) (string, bool) { return "", false }

// Everything returns the selector that selects every object.
func Everything() Selector { return andTerm{} }

// Nothing returns a selector that selects no object. Its String is "",
// which ParseSelector reads as Everything.
func Nothing() Selector { return nothingSelector{} }

// OneTermEqualSelector returns the selector "k=v".
func OneTermEqualSelector(k, v string) Selector { return hasTerm{field: k, value: v} }

// OneTermNotEqualSelector returns the selector "k!=v".
func OneTermNotEqualSelector(k, v string) Selector { return notHasTerm{field: k, value: v} }

// AndSelectors returns the selector that selects what every one of
// selectors selects.
func AndSelectors(selectors ...Selector) Selector { return andTerm(slices.Clone(selectors)) }

// Set is a map of field names to values, as an object exposes them.
//
// Mirrors fields.Set.
type Set map[string]string

// String renders the set as an equality selector, fields sorted.
func (s Set) String() string { return SelectorFromSet(s).String() }

// SelectorFromSet returns the selector requiring each field of set to have
// its value; nil or empty gives Everything.
//
// Mirrors fields.SelectorFromSet.
func SelectorFromSet(set map[string]string) Selector {
	if len(set) == 0 {
		return Everything()
	}
	terms := make(andTerm, 0, len(set))
	for _, k := range slices.Sorted(maps.Keys(set)) {
		terms = append(terms, hasTerm{field: k, value: set[k]})
	}
	if len(terms) == 1 {
		return terms[0]
	}
	return terms
}

// The operators a term may use, in the order splitTerm tries them.
var termOperators = []string{"!=", "==", "="}

// ParseSelector reads a field selector: terms "field=value",
// "field==value" or "field!=value" separated by commas; "" is Everything.
// Terms are sorted (as text) before they are parsed, and empty terms are
// skipped. In values, "\", "," and "=" must be escaped with a backslash.
//
// Mirrors fields.ParseSelector.
func ParseSelector(selector string) (Selector, error) {
	parts := splitTerms(selector)
	sort.Strings(parts)
	var items andTerm
	for _, part := range parts {
		if part == "" {
			continue
		}
		lhs, op, rhs, ok := splitTerm(part)
		if !ok {
			return nil, &Error{Msg: fmt.Sprintf("invalid selector: '%s'; can't understand '%s'", selector, part)}
		}
		value, err := UnescapeValue(rhs)
		if err != nil {
			return nil, err
		}
		if op == "!=" {
			items = append(items, notHasTerm{field: lhs, value: value})
		} else {
			items = append(items, hasTerm{field: lhs, value: value})
		}
	}
	if len(items) == 1 {
		return items[0], nil
	}
	return items, nil
}

// splitTerms splits s at the commas that are not escaped.
func splitTerms(s string) []string {
	if s == "" {
		return nil
	}
	var terms []string
	start := 0
	escaped := false
	for i := 0; i < len(s); i++ {
		switch {
		case escaped:
			escaped = false
		case s[i] == '\\':
			escaped = true
		case s[i] == ',':
			terms = append(terms, s[start:i])
			start = i + 1
		}
	}
	return append(terms, s[start:])
}

// splitTerm splits a term at its first operator. As upstream, the field
// part is not checked for escapes.
func splitTerm(term string) (lhs, op, rhs string, ok bool) {
	for i := range term {
		for _, op := range termOperators {
			if strings.HasPrefix(term[i:], op) {
				return term[:i], op, term[i+len(op):], true
			}
		}
	}
	return "", "", "", false
}

var valueEscaper = strings.NewReplacer(`\`, `\\`, `,`, `\,`, `=`, `\=`)

// EscapeValue escapes "\", "," and "=" in a value so that it can be put in
// a selector. Mirrors fields.EscapeValue.
func EscapeValue(s string) string { return valueEscaper.Replace(s) }

// UnescapeValue undoes EscapeValue. An unescaped "," or "=", or a
// backslash before anything but "\", "," or "=", is an error.
//
// Mirrors fields.UnescapeValue.
func UnescapeValue(s string) (string, error) {
	if !strings.ContainsAny(s, `\,=`) {
		return s, nil
	}
	var b strings.Builder
	escaped := false
	for _, c := range s {
		if escaped {
			switch c {
			case '\\', ',', '=':
				b.WriteRune(c)
			default:
				return "", &Error{Msg: "invalid field selector: invalid escape sequence: " + string([]rune{'\\', c})}
			}
			escaped = false
			continue
		}
		switch c {
		case '\\':
			escaped = true
		case ',', '=':
			return "", &Error{Msg: "invalid field selector: unescaped character in value: " + string(c)}
		default:
			b.WriteRune(c)
		}
	}
	if escaped {
		return "", &Error{Msg: `invalid field selector: invalid escape sequence: \`}
	}
	return b.String(), nil
}
