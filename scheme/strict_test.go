package scheme_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/crdlab/crdlab/scheme"
)

// strictToy is a typed object for StrictErrors: nested structs, a slice of
// structs, a map, an inline struct, a field with its own UnmarshalJSON,
// raw JSON and an interface.
type strictToy struct {
	strictMeta `json:",inline"`
	Spec       struct {
		Size  int               `json:"size"`
		Items []strictItem      `json:"items,omitempty"`
		Tags  map[string]string `json:"tags,omitempty"`
		Fancy *strictFancy      `json:"fancy,omitempty"`
		Raw   json.RawMessage   `json:"raw,omitempty"`
		Any   any               `json:"any,omitempty"`
		Skip  string            `json:"-"`
	} `json:"spec"`
}

type strictMeta struct {
	Kind string `json:"kind"`
}

type strictItem struct {
	Name string `json:"name"`
}

// strictFancy decodes any shape itself.
type strictFancy struct{}

func (*strictFancy) UnmarshalJSON([]byte) error { return nil }

func TestStrictErrors(t *testing.T) {
	for _, c := range []struct {
		name, doc       string
		typed           bool
		unknown, duplic []string
	}{
		{"None", `{"a":1,"b":{"a":2},"c":[{"a":1},{"a":2}]}`, false, nil, nil},
		{"Top", `{"a":1,"a":2}`, false, nil, []string{"a"}},
		{"Nested", `{"spec":{"replicas":1,"image":"x","replicas":2}}`, false, nil, []string{"spec.replicas"}},
		{"InArray", `{"spec":{"items":[{"n":1},{"n":1,"n":2}]}}`, false, nil, []string{"spec.items[1].n"}},
		{"ArrayOfArrays", `{"m":[[{"k":1,"k":2}]]}`, false, nil, []string{"m[0][0].k"}},
		{"Twice", `{"a":1,"a":2,"a":3}`, false, nil, []string{"a", "a"}},
		{"Escaped", `{"a":1,"\u0061":2}`, false, nil, []string{"a"}},
		{"QuotesInStrings", `{"a":"x\"y","b":"}","a":"{"}`, false, nil, []string{"a"}},
		{"Spaces", "{ \"a\" : 1 ,\n\t\"a\" : [ 1 , 2 ] }", false, nil, []string{"a"}},
		{"Literals", `{"a":true,"b":null,"c":-1.5e3,"b":false}`, false, nil, []string{"b"}},
		{"EmptyObjects", `{"a":{},"b":[],"a":{}}`, false, nil, []string{"a"}},
		{"TypedKnown", `{"kind":"Toy","spec":{"size":1,"items":[{"name":"a"}],"tags":{"x":"y"}}}`, true, nil, nil},
		{"TypedUnknown", `{"kind":"Toy","spec":{"sise":1,"size":2},"extra":{"a":1}}`, true, []string{"extra", "spec.sise"}, nil},
		{"TypedInArray", `{"spec":{"items":[{"name":"a"},{"nmae":"b"}]}}`, true, []string{"spec.items[1].nmae"}, nil},
		{"TypedCaseSensitive", `{"Kind":"Toy"}`, true, []string{"Kind"}, nil},
		{"TypedSkipped", `{"spec":{"Skip":"x"}}`, true, []string{"spec.Skip"}, nil},
		{"TypedAnyBelowMapRawInterfaceUnmarshaler", `{"spec":{"tags":{"anything":"x"},"raw":{"a":1},"any":{"b":2},"fancy":{"c":3}}}`, true, nil, nil},
		{"TypedBoth", `{"spec":{"size":1,"size":2,"nope":3}}`, true, []string{"spec.nope"}, []string{"spec.size"}},
		{"TypedDuplicateBelowUnknown", `{"x":{"a":1,"a":2}}`, true, []string{"x"}, []string{"x.a"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			var v any
			if c.typed {
				v = &strictToy{}
			}
			se := scheme.StrictErrors([]byte(c.doc), v)
			if c.unknown == nil && c.duplic == nil {
				if se != nil {
					t.Fatalf("got %v, want nil", se)
				}
				return
			}
			if se == nil {
				t.Fatalf("got nil, want unknown %q, duplicate %q", c.unknown, c.duplic)
			}
			if fmt.Sprint(se.Unknown) != fmt.Sprint(c.unknown) || fmt.Sprint(se.Duplicate) != fmt.Sprint(c.duplic) {
				t.Fatalf("got unknown %q, duplicate %q; want %q, %q", se.Unknown, se.Duplicate, c.unknown, c.duplic)
			}
		})
	}
}

// TestStrictErrors_ManyKeys checks an object past the keys compared one by
// one, where they go into a map.
func TestStrictErrors_ManyKeys(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{"spec":{`)
	for i := range 1000 {
		fmt.Fprintf(&b, `"k%d":%d,`, i, i)
	}
	b.WriteString(`"k3":0,"k999":1}}`)
	se := scheme.StrictErrors([]byte(b.String()), nil)
	if se == nil || fmt.Sprint(se.Duplicate) != "[spec.k3 spec.k999]" {
		t.Fatalf("got %v", se)
	}
}

func TestStrictDecodingError_Error(t *testing.T) {
	se := &scheme.StrictDecodingError{Unknown: []string{"spec.foo"}, Duplicate: []string{"spec.a"}}
	if got, want := se.Error(), `strict decoding error: duplicate field "spec.a", unknown field "spec.foo"`; got != want {
		t.Fatalf("got %q, want %q", got, want)
	}
}

// FuzzStrictErrors checks that StrictErrors never panics nor loops on any
// input, and that on a well-formed document it finds no repeated key when
// the document is what encoding/json writes for a map (keys unique).
func FuzzStrictErrors(f *testing.F) {
	for _, s := range []string{`{"a":1,"a":2}`, `{"spec":{"items":[{"n":1},{"n":2}]}}`, `[}`, `{"a":`, `{"\`, `{"a":1,"b":[1,{"c":"\""}]}`, `{"kind":"x","spec":{"size":1,"nope":[]}}`} {
		f.Add([]byte(s), false)
		f.Add([]byte(s), true)
	}
	f.Fuzz(func(t *testing.T, data []byte, typed bool) {
		var v any
		if typed {
			v = &strictToy{}
		}
		_ = scheme.StrictErrors(data, v)
		var doc any
		if json.Unmarshal(data, &doc) != nil {
			return
		}
		canonical, err := json.Marshal(doc)
		if err != nil {
			t.Fatal(err)
		}
		if se := scheme.StrictErrors(canonical, nil); se != nil {
			t.Fatalf("%s: repeated keys found in %s: %v", data, canonical, se)
		}
	})
}

func BenchmarkStrictErrors(b *testing.B) {
	doc := []byte(`{"apiVersion":"stable.example.com/v1","kind":"CronTab","metadata":{"name":"c1","namespace":"default","labels":{"app":"x","tier":"y"}},"spec":{"cronSpec":"* * * * */5","image":"my-awesome-cron-image","replicas":3,"items":[{"a":1},{"b":2}]}}`)
	b.ReportAllocs()
	for b.Loop() {
		if scheme.StrictErrors(doc, nil) != nil {
			b.Fatal("found")
		}
	}
}
