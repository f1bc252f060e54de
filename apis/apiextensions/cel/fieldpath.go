package cel

import (
	"errors"
	"fmt"
	"regexp"

	"github.com/crdlab/crdlab/apis/apiextensions/structural"
	"github.com/crdlab/crdlab/apis/validation/field"
)

// FieldPathOptions tunes ValidFieldPath.
type FieldPathOptions struct {
	// NoArrayNotation forbids ['key'] steps (selectable fields).
	NoArrayNotation bool
}

// ValidFieldPath checks a rule's fieldPath (".spec.ports", "['x.y'].z")
// against the schema s of the rule's node: every step must be a property,
// or a key of a map. It returns the path as a field path and the schema it
// ends at.
//
// Mirrors cel.ValidFieldPath in validation.go.
func ValidFieldPath(jsonPath string, s *structural.Structural, opts ...FieldPathOptions) (*field.Path, *structural.Structural, error) {
	var opt FieldPathOptions
	if len(opts) > 0 {
		opt = opts[0]
	}
	var p *field.Path
	step := func(name string) error {
		switch {
		case s.Properties != nil:
			p = p.Child(name)
			next, ok := s.Properties[name]
			if !ok {
				return errors.New("does not refer to a valid field")
			}
			s = next
		case s.AdditionalProperties != nil:
			p = p.Key(name)
			s = s.AdditionalProperties
		default:
			return errors.New("does not refer to a valid field")
		}
		return nil
	}
	toks := fieldPathTokens(jsonPath)
	for i := 0; i < len(toks); i++ {
		switch toks[i] {
		case "[":
			if opt.NoArrayNotation {
				return nil, nil, errors.New("array notation is not allowed")
			}
			if i+1 >= len(toks) {
				return nil, nil, errors.New("unexpected end of JSON path")
			}
			i++
			tok := toks[i]
			if len(tok) < 2 || tok[0] != '\'' || tok[len(tok)-1] != '\'' {
				return nil, nil, fmt.Errorf("expected single quoted string but got %s", tok)
			}
			name, err := unescapeSingleQuote(tok[1 : len(tok)-1])
			if err != nil {
				return nil, nil, fmt.Errorf("invalid string literal: %w", err)
			}
			if err := step(name); err != nil {
				return nil, nil, err
			}
			if i+1 >= len(toks) {
				return nil, nil, errors.New("unexpected end of JSON path")
			}
			i++
			if toks[i] != "]" {
				return nil, nil, fmt.Errorf("expected ] but got %s", toks[i])
			}
		case ".":
			if i+1 >= len(toks) {
				return nil, nil, errors.New("unexpected end of JSON path")
			}
			i++
			if err := step(toks[i]); err != nil {
				return nil, nil, err
			}
		default:
			return nil, nil, fmt.Errorf("expected [ or . but got: %s", toks[i])
		}
	}
	return p, s, nil
}

// fieldPathTokens splits a path into ".", "[", "]" and the text between
// them; a token starting with a quote runs to the next unescaped quote.
//
// Mirrors the bufio.Scanner split function of ValidFieldPath.
func fieldPathTokens(s string) []string {
	var toks []string
	for len(s) > 0 {
		n := len(s)
		if s[0] == '\'' {
			for i := 1; i < len(s); i++ {
				if s[i] == '\'' && s[i-1] != '\\' {
					n = i + 1
					break
				}
			}
		} else {
			for i := 0; i < len(s); i++ {
				if s[i] == '.' || s[i] == '[' || s[i] == ']' {
					n = i
					if i == 0 {
						n = 1
					}
					break
				}
			}
		}
		toks = append(toks, s[:n])
		s = s[n:]
	}
	return toks
}

var unescapeMatcher = regexp.MustCompile(`\\.`)

// unescapeSingleQuote reads the escapes of a single-quoted name.
func unescapeSingleQuote(s string) (string, error) {
	var err error
	out := unescapeMatcher.ReplaceAllStringFunc(s, func(m string) string {
		switch m[1] {
		case 'a':
			return "\a"
		case 'b':
			return "\b"
		case 'f':
			return "\f"
		case 'n':
			return "\n"
		case 'r':
			return "\r"
		case 't':
			return "\t"
		case 'v':
			return "\v"
		case '\'':
			return "'"
		case '\\':
			return "\\"
		}
		err = fmt.Errorf("invalid escape char %s", m)
		return ""
	})
	return out, err
}
