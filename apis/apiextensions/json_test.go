package apiextensions

import (
	"fmt"
	"reflect"
	"testing"
)

// FuzzJSONFromBytes checks that JSONFromBytes (internal/fastjson for
// well-formed input) gives what encoding/json's way gives: the same
// value, numbers of the same Go types, and an error exactly when it does.
func FuzzJSONFromBytes(f *testing.F) {
	for _, s := range []string{
		`null`, `true`, `false`, `0`, `-0`, `1`, `-12`, `1.5`, `1e3`, `1E-2`, `-0.0`,
		`9223372036854775807`, `9223372036854775808`, `-9223372036854775809`, `1e400`, `-1e400`,
		`"a"`, `"\u00e9\n"`, `"\ud800"`, "\"\xff\"", `""`,
		`[]`, `[1,"a",null,[true]]`, `{}`, `{"a":1,"a":2}`, `{"x":{"y":[1.0,2]}}`, ` {"a" : [ ] } `,
		`{"a":1}x`, `[1,]`, `{"a"}`, `01`, `1.`, `.5`, `+1`, `nul`, ``, `  `, `"abc`, `[1 2]`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		got, err := JSONFromBytes(raw)
		want, wantErr := jsonFromBytesSlow(raw)
		if (err != nil) != (wantErr != nil) {
			t.Fatalf("%q: error %v, encoding/json's way %v", raw, err, wantErr)
		}
		if err == nil && !reflect.DeepEqual(got, want) {
			t.Fatalf("%q: %s, encoding/json's way %s", raw, typed(got), typed(want))
		}
	})
}

// typed prints v with the Go type of every value.
func typed(v any) string {
	switch t := v.(type) {
	case map[string]any:
		s := "map{"
		for k, e := range t {
			s += fmt.Sprintf("%q: %s, ", k, typed(e))
		}
		return s + "}"
	case []any:
		s := "["
		for _, e := range t {
			s += typed(e) + ", "
		}
		return s + "]"
	}
	return fmt.Sprintf("%T(%v)", v, v)
}
