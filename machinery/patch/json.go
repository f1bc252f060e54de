package patch

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"strconv"
)

// Limits against pathological input.
const (
	// MaxOperations is the most operations a JSON patch may have. Mirrors
	// maxJSONPatchOperations in apiserver's handlers/patch.go.
	MaxOperations = 10000
	// MaxDepth is the deepest nesting of arrays and objects a document or
	// patch may have (encoding/json's own limit).
	MaxDepth = 10000
	// MaxCopyBytes bounds the JSON size that copy operations may add in
	// total, so a few operations cannot double a document into gigabytes
	// (evanphx's AccumulatedCopySizeLimit). It is kube-apiserver's request
	// body limit, 3 MiB.
	MaxCopyBytes = 3 << 20
)

var errTooDeep = errors.New("too deep")

// decode parses one JSON value with numbers as json.Number. Values are
// map[string]any, []any, string, json.Number, bool or nil.
func decode(b []byte) (any, error) {
	if err := checkDepth(b); err != nil {
		return nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("unexpected data after the JSON value")
	}
	return v, nil
}

// checkDepth rejects input nested deeper than MaxDepth before anything
// recurses into it.
func checkDepth(b []byte) error {
	depth := 0
	inString, escaped := false, false
	for _, c := range b {
		switch {
		case escaped:
			escaped = false
		case inString:
			switch c {
			case '\\':
				escaped = true
			case '"':
				inString = false
			}
		case c == '"':
			inString = true
		case c == '{' || c == '[':
			if depth++; depth > MaxDepth {
				return errTooDeep
			}
		case c == '}' || c == ']':
			depth--
		}
	}
	return nil
}

func encode(v any) ([]byte, error) { return json.Marshal(v) }

// equal reports whether two decoded JSON values are equal: objects with the
// same members, arrays with the same elements in order, numbers with the
// same value.
func equal(a, b any) bool {
	switch a := a.(type) {
	case map[string]any:
		b, ok := b.(map[string]any)
		if !ok || len(a) != len(b) {
			return false
		}
		for k, av := range a {
			bv, ok := b[k]
			if !ok || !equal(av, bv) {
				return false
			}
		}
		return true
	case []any:
		b, ok := b.([]any)
		if !ok || len(a) != len(b) {
			return false
		}
		for i := range a {
			if !equal(a[i], b[i]) {
				return false
			}
		}
		return true
	case json.Number:
		b, ok := b.(json.Number)
		if !ok {
			return false
		}
		if a == b {
			return true
		}
		fa, errA := strconv.ParseFloat(string(a), 64)
		fb, errB := strconv.ParseFloat(string(b), 64)
		return errA == nil && errB == nil && fa == fb
	default: // string, bool, nil
		return a == b
	}
}

// deepCopy copies a decoded JSON value.
func deepCopy(v any) any {
	switch v := v.(type) {
	case map[string]any:
		m := make(map[string]any, len(v))
		for k, e := range v {
			m[k] = deepCopy(e)
		}
		return m
	case []any:
		s := make([]any, len(v))
		for i, e := range v {
			s[i] = deepCopy(e)
		}
		return s
	default:
		return v
	}
}
