package jsonskim

import (
	"strings"
	"testing"
)

// TestSkip: a value of each kind ends where it should, white space before
// it skipped; what is not a value is refused.
func TestSkip(t *testing.T) {
	for _, c := range []struct {
		in, rest string
		ok       bool
	}{
		{` "a\"}b" ,x`, ` ,x`, true},
		{`{"a":[1,{"b":"]"}],"c":null}x`, `x`, true},
		{`[[],{}] `, ` `, true},
		{`-1.5e3}`, `}`, true},
		{`true,`, `,`, true},
		{`{"a":1`, ``, false},          // unclosed
		{`"a` + "\n" + `"`, ``, false}, // a raw control character
		{`:`, ``, false},
		{``, ``, false},
	} {
		s := Scanner{B: []byte(c.in)}
		ok := s.Skip()
		if ok != c.ok || (ok && string(s.B[s.I:]) != c.rest) {
			t.Errorf("Skip(%q) = %v, rest %q; want %v, rest %q", c.in, ok, s.B[s.I:], c.ok, c.rest)
		}
	}
}

// TestObject: each key is handed over raw with KeyAt at its quote,
// Escaped says a key had an escape, and a field that returns false stops
// the walk.
func TestObject(t *testing.T) {
	in := `{ "a" : 1, "b\"c":{"d":2}, "e":[3] }`
	s := Scanner{B: []byte(in)}
	var keys []string
	ok := s.Object(func(key []byte) bool {
		keys = append(keys, string(key)+"@"+in[s.KeyAt:s.KeyAt+1])
		return s.Skip()
	})
	if !ok || !s.End() || strings.Join(keys, " ") != `a@" b\"c@" e@"` || !s.Escaped {
		t.Errorf("Object: %v, keys %q, escaped %v", ok, keys, s.Escaped)
	}
	s = Scanner{B: []byte(in)}
	n := 0
	if s.Object(func([]byte) bool { n++; return false }) || n != 1 {
		t.Errorf("Object went on after its field said stop (%d keys)", n)
	}
	for _, bad := range []string{`{"a" 1}`, `{"a":1,}`, `{a:1}`, `["a"]`} {
		s := Scanner{B: []byte(bad)}
		if s.Object(func([]byte) bool { return s.Skip() }) {
			t.Errorf("Object(%q) read it", bad)
		}
	}
}

// TestArray: each element's span, and refusals.
func TestArray(t *testing.T) {
	s := Scanner{B: []byte(` [ {"a":[1]} , "x,]" ,null ] `)}
	spans, ok := s.Array()
	var got []string
	for _, sp := range spans {
		got = append(got, string(sp))
	}
	if !ok || strings.Join(got, "|") != `{"a":[1]}|"x,]"|null` || !s.End() {
		t.Errorf("Array: %v %q", ok, got)
	}
	for _, bad := range []string{`[1,]`, `[1 2]`, `{}`, `[`} {
		s := Scanner{B: []byte(bad)}
		if _, ok := s.Array(); ok {
			t.Errorf("Array(%q) read it", bad)
		}
	}
}
