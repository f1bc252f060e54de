package fastjson

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

// TestDecode pins each mode's numbers and what is handed back (ok ==
// false) to the caller's encoding/json path.
func TestDecode(t *testing.T) {
	for _, tc := range []struct {
		in      string
		numbers Numbers
		want    any
		ok      bool
	}{
		{`{"a":[1,1.5,-0,1e3]}`, UseNumber, map[string]any{"a": []any{json.Number("1"), json.Number("1.5"), json.Number("-0"), json.Number("1e3")}}, true},
		{`{"a":[1,1.5,-0,1e3]}`, Int64OrFloat64, map[string]any{"a": []any{int64(1), 1.5, int64(0), 1000.0}}, true},
		{`9223372036854775808`, Int64OrFloat64, 9223372036854775808.0, true},
		{`1e400`, UseNumber, json.Number("1e400"), true}, // UseNumber keeps any text
		{`1e400`, Int64OrFloat64, nil, false},            // out of range: encoding/json's path refuses it
		{` "caf\u00e9" `, UseNumber, "café", true},
		{`[true,false,null,{}]`, UseNumber, []any{true, false, nil, map[string]any{}}, true},
		{`{"dup":1,"dup":2}`, Int64OrFloat64, map[string]any{"dup": int64(2)}, true},
		{`{} {}`, UseNumber, nil, false},
		{`{"a":01}`, UseNumber, nil, false},
		{`[1,]`, UseNumber, nil, false},
		{"\"ctl\x01\"", UseNumber, nil, false},
		{strings.Repeat("[", maxDepth+1) + strings.Repeat("]", maxDepth+1), UseNumber, nil, false},
	} {
		got, ok := Decode([]byte(tc.in), tc.numbers)
		if ok != tc.ok || !reflect.DeepEqual(got, tc.want) {
			name := tc.in
			if len(name) > 40 {
				name = name[:40] + "…"
			}
			t.Errorf("Decode(%q, %d) = %#v, %v; want %#v, %v", name, tc.numbers, got, ok, tc.want, tc.ok)
		}
	}
	deepOK := strings.Repeat("[", maxDepth) + strings.Repeat("]", maxDepth)
	if _, ok := Decode([]byte(deepOK), UseNumber); !ok {
		t.Errorf("Decode of %d nested arrays failed; encoding/json accepts them", maxDepth)
	}
	if _, ok := DecodeObject([]byte(`[1]`), UseNumber); ok {
		t.Errorf("DecodeObject accepted an array")
	}
}
