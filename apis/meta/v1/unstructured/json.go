package unstructured

import (
	"encoding/json"
	"math"
	"slices"
	"strconv"
	"unicode/utf8"
)

// AppendJSON appends the JSON encoding of v to dst and returns the result.
//
// v is a JSON value the way this package holds them: map[string]any, []any,
// string, int64, float64, bool and nil (DecodeJSONObject makes nothing
// else), plus the other ints and floats, json.Number, []string and
// map[string]string that callers sometimes set. The output is byte for byte
// what encoding/json's Marshal writes for the same value: object keys
// sorted, <, > and & escaped, floats formatted as ES6 does. Any other type
// is handed to json.Marshal.
//
// It exists because encoding a custom resource is on the path of every
// request, list item and watch event, and encoding/json spends most of its
// time on reflection over map[string]any and on re-validating what a
// MarshalJSON method returns. Upstream has the same shortcut
// (k8s.io/apimachinery/pkg/runtime.DefaultUnstructuredConverter and the
// json-iterator configuration of its JSON serializer).
func AppendJSON(dst []byte, v any) ([]byte, error) {
	switch v := v.(type) {
	case nil:
		return append(dst, "null"...), nil
	case string:
		return AppendString(dst, v), nil
	case bool:
		if v {
			return append(dst, "true"...), nil
		}
		return append(dst, "false"...), nil
	case int64:
		return strconv.AppendInt(dst, v, 10), nil
	case int:
		return strconv.AppendInt(dst, int64(v), 10), nil
	case int32:
		return strconv.AppendInt(dst, int64(v), 10), nil
	case float64:
		return appendFloat(dst, v, 64)
	case float32:
		return appendFloat(dst, float64(v), 32)
	case map[string]any:
		return appendObject(dst, v)
	case []any:
		if v == nil {
			return append(dst, "null"...), nil
		}
		dst = append(dst, '[')
		for i, e := range v {
			if i > 0 {
				dst = append(dst, ',')
			}
			var err error
			if dst, err = AppendJSON(dst, e); err != nil {
				return dst, err
			}
		}
		return append(dst, ']'), nil
	case json.Number:
		s := string(v)
		if s == "" {
			s = "0"
		}
		if !isValidNumber(s) {
			return dst, &json.UnsupportedValueError{Str: "invalid number literal " + strconv.Quote(s)}
		}
		return append(dst, s...), nil
	case []string:
		if v == nil {
			return append(dst, "null"...), nil
		}
		dst = append(dst, '[')
		for i, e := range v {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = AppendString(dst, e)
		}
		return append(dst, ']'), nil
	case map[string]string:
		if v == nil {
			return append(dst, "null"...), nil
		}
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		dst = append(dst, '{')
		for i, k := range keys {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = AppendString(dst, k)
			dst = append(dst, ':')
			dst = AppendString(dst, v[k])
		}
		return append(dst, '}'), nil
	}
	b, err := json.Marshal(v)
	if err != nil {
		return dst, err
	}
	return append(dst, b...), nil
}

// appendObject writes m with its keys in order, as encoding/json does.
func appendObject(dst []byte, m map[string]any) ([]byte, error) {
	if m == nil {
		return append(dst, "null"...), nil
	}
	// Most objects are small: sort the keys in a stack buffer.
	var buf [16]string
	keys := buf[:0]
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	dst = append(dst, '{')
	for i, k := range keys {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = AppendString(dst, k)
		dst = append(dst, ':')
		var err error
		if dst, err = AppendJSON(dst, m[k]); err != nil {
			return dst, err
		}
	}
	return append(dst, '}'), nil
}

// appendFloat is encoding/json's floatEncoder.
func appendFloat(dst []byte, f float64, bits int) ([]byte, error) {
	if math.IsInf(f, 0) || math.IsNaN(f) {
		return dst, &json.UnsupportedValueError{Str: strconv.FormatFloat(f, 'g', -1, bits)}
	}
	abs := math.Abs(f)
	format := byte('f')
	if abs != 0 {
		if bits == 64 && (abs < 1e-6 || abs >= 1e21) || bits == 32 && (float32(abs) < 1e-6 || float32(abs) >= 1e21) {
			format = 'e'
		}
	}
	start := len(dst)
	dst = strconv.AppendFloat(dst, f, format, -1, bits)
	if format == 'e' {
		// e-09 → e-9, as encoding/json writes it.
		n := len(dst)
		if n-start >= 4 && dst[n-4] == 'e' && dst[n-3] == '-' && dst[n-2] == '0' {
			dst[n-2] = dst[n-1]
			dst = dst[:n-1]
		}
	}
	return dst, nil
}

const hexDigits = "0123456789abcdef"

// htmlSafe[b] says ASCII byte b is written as is: everything printable but
// the quote, the backslash and encoding/json's HTML characters <, > and &.
var htmlSafe = func() (t [utf8.RuneSelf]bool) {
	for b := 0x20; b < utf8.RuneSelf; b++ {
		t[b] = b != '"' && b != '\\' && b != '<' && b != '>' && b != '&'
	}
	return t
}()

// AppendString appends s quoted as json.Marshal quotes it: encoding/json's
// appendString with HTML escaping on. The schema writer of
// apis/apiextensions/v1 uses it too. TestAppendString_SameAsEncodingJSON
// compares the two.
func AppendString(dst []byte, s string) []byte {
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); {
		if b := s[i]; b < utf8.RuneSelf {
			if htmlSafe[b] {
				i++
				continue
			}
			dst = append(dst, s[start:i]...)
			switch b {
			case '\\', '"':
				dst = append(dst, '\\', b)
			case '\b':
				dst = append(dst, '\\', 'b')
			case '\f':
				dst = append(dst, '\\', 'f')
			case '\n':
				dst = append(dst, '\\', 'n')
			case '\r':
				dst = append(dst, '\\', 'r')
			case '\t':
				dst = append(dst, '\\', 't')
			default:
				dst = append(dst, '\\', 'u', '0', '0', hexDigits[b>>4], hexDigits[b&0xF])
			}
			i++
			start = i
			continue
		}
		c, size := utf8.DecodeRuneInString(s[i:])
		if c == utf8.RuneError && size == 1 {
			dst = append(dst, s[start:i]...)
			dst = append(dst, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if c == '\u2028' || c == '\u2029' {
			dst = append(dst, s[start:i]...)
			dst = append(dst, '\\', 'u', '2', '0', '2', hexDigits[c&0xF])
			i += size
			start = i
			continue
		}
		i += size
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}

// isValidNumber reports whether s is a JSON number literal (encoding/json's
// isValidNumber).
func isValidNumber(s string) bool {
	if s == "" {
		return false
	}
	if s[0] == '-' {
		s = s[1:]
		if s == "" {
			return false
		}
	}
	switch {
	default:
		return false
	case s[0] == '0':
		s = s[1:]
	case '1' <= s[0] && s[0] <= '9':
		s = s[1:]
		for len(s) > 0 && '0' <= s[0] && s[0] <= '9' {
			s = s[1:]
		}
	}
	if len(s) >= 2 && s[0] == '.' && '0' <= s[1] && s[1] <= '9' {
		s = s[2:]
		for len(s) > 0 && '0' <= s[0] && s[0] <= '9' {
			s = s[1:]
		}
	}
	if len(s) >= 2 && (s[0] == 'e' || s[0] == 'E') {
		s = s[1:]
		if s[0] == '+' || s[0] == '-' {
			s = s[1:]
			if s == "" {
				return false
			}
		}
		for len(s) > 0 && '0' <= s[0] && s[0] <= '9' {
			s = s[1:]
		}
	}
	return s == ""
}

// CopyAsDecoded returns what DecodeJSONObject(AppendJSON(nil, m)) returns
// — a deep copy of m, with the decoder's types — without writing and
// reading the JSON, and true; or false when that needs the JSON to tell:
// m holds a float64 (2.0 reads back as an int64), a type the decoder never
// makes (int, json.Number, []string, …), a nil map or list (they read back
// as null), or a string or key that is not valid UTF-8 (the encoder
// replaces its bad bytes). Strings are shared, as they cannot change.
//
// It is for objects the server builds itself and then decodes as a body
// (a server-side apply's merged object), where writing and reading the
// JSON cost as much as the copy many times over.
func CopyAsDecoded(m map[string]any) (map[string]any, bool) {
	if m == nil {
		return nil, false
	}
	out := make(map[string]any, len(m))
	for k, v := range m {
		if !utf8.ValidString(k) {
			return nil, false
		}
		c, ok := copyValueAsDecoded(v)
		if !ok {
			return nil, false
		}
		out[k] = c
	}
	return out, true
}

func copyValueAsDecoded(v any) (any, bool) {
	switch v := v.(type) {
	case nil, bool, int64:
		return v, true
	case string:
		return v, utf8.ValidString(v)
	case map[string]any:
		return CopyAsDecoded(v)
	case []any:
		if v == nil {
			return nil, false
		}
		out := make([]any, len(v))
		for i, e := range v {
			c, ok := copyValueAsDecoded(e)
			if !ok {
				return nil, false
			}
			out[i] = c
		}
		return out, true
	}
	return nil, false
}
