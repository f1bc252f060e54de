package unstructured_test

import (
	"encoding/json"
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/crdlab/crdlab/apis/meta/v1/unstructured"
)

// TestAppendJSON checks that AppendJSON writes what encoding/json writes,
// byte for byte, for every kind of value a custom resource holds.
func TestAppendJSON(t *testing.T) {
	for name, v := range map[string]any{
		"Nil":         nil,
		"True":        true,
		"False":       false,
		"Int64":       int64(-9223372036854775808),
		"Int":         42,
		"Int32":       int32(-7),
		"Float":       1.5,
		"FloatWhole":  3.0,
		"FloatTiny":   1e-7,
		"FloatTiny2":  -1.25e-9,
		"FloatHuge":   1e21,
		"FloatBig":    1e20,
		"FloatMinus0": math.Copysign(0, -1),
		"Float32":     float32(0.1),
		"Float32Tiny": float32(1e-7),
		"String":      "plain",
		"HTML":        `<a href="x">&amp;</a>`,
		"Escapes":     "quote\" backslash\\ \b\f\n\r\t \x00\x01\x1f \x7f",
		"Unicode":     "héllo 世界 \u2028 \u2029 😀",
		"BadUTF8":     "a\xffb\xc0",
		"Number":      json.Number("12.5e3"),
		"Strings":     []string{"a", "<b>"},
		"NilStrings":  []string(nil),
		"StringMap":   map[string]string{"z": "1", "a": "&"},
		"NilMap":      map[string]any(nil),
		"NilSlice":    []any(nil),
		"EmptyMap":    map[string]any{},
		"EmptySlice":  []any{},
		"Other":       struct{ A int }{1},
		"Object": map[string]any{
			"apiVersion": "stable.example.com/v1", "kind": "CronTab",
			"metadata": map[string]any{"name": "x", "labels": map[string]any{"b": "2", "a": "1"}, "generation": int64(1)},
			"spec":     map[string]any{"list": []any{int64(1), 2.5, "s", nil, true, map[string]any{}}, "<k>": "v"},
		},
		"ManyKeys": func() map[string]any {
			m := map[string]any{}
			for _, k := range strings.Fields("q w e r t y u i o p a s d f g h j k l z x c v b n m") {
				m[k] = k
			}
			return m
		}(),
	} {
		t.Run(name, func(t *testing.T) {
			want, werr := json.Marshal(v)
			got, gerr := unstructured.AppendJSON([]byte("prefix"), v)
			if (werr != nil) != (gerr != nil) {
				t.Fatalf("error: got %v, encoding/json %v", gerr, werr)
			}
			if werr == nil && string(got) != "prefix"+string(want) {
				t.Errorf("got  %s\nwant prefix%s", got, want)
			}
		})
	}
}

func TestAppendJSON_Unsupported(t *testing.T) {
	for name, v := range map[string]any{
		"NaN":       math.NaN(),
		"Inf":       map[string]any{"a": math.Inf(1)},
		"BadNumber": json.Number("1.2.3"),
	} {
		t.Run(name, func(t *testing.T) {
			if _, err := unstructured.AppendJSON(nil, v); err == nil {
				t.Error("no error")
			}
		})
	}
}

// FuzzAppendJSON checks AppendJSON against encoding/json on whatever
// DecodeJSONObject accepts.
func FuzzAppendJSON(f *testing.F) {
	for _, s := range []string{
		`{"apiVersion":"stable.example.com/v1","kind":"CronTab","metadata":{"name":"x"},"spec":{"replicas":1,"f":1.5}}`,
		`{"a":[1,-0,1e3,9223372036854775807,1e-7,123456789012345678901234,0.000001]}`,
		`{"s":"<>&\u2028\u2029\ud800\u0000\"\\/é"}`,
		`{"a":{"b":{"c":[[],{},null,true,false]}}}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := unstructured.DecodeJSONObject(data)
		if err != nil {
			return
		}
		want, werr := json.Marshal(m)
		got, gerr := unstructured.AppendJSON(nil, m)
		if (werr != nil) != (gerr != nil) || string(got) != string(want) {
			t.Fatalf("AppendJSON(%q) = %s, %v; encoding/json: %s, %v", data, got, gerr, want, werr)
		}
	})
}

// customResource is a typical custom resource as the server holds it.
func customResource() *unstructured.Unstructured {
	m, err := unstructured.DecodeJSONObject([]byte(`{"apiVersion":"bench.crdlab.dev/v1","kind":"Widget",
"metadata":{"name":"w-000123","namespace":"bench","uid":"0b6c1a9e-8d4e-4f57-9d0a-3b1f2a6c9e11","resourceVersion":"12345",
"generation":1,"creationTimestamp":"2026-11-29T16:04:45Z","labels":{"app":"crdbench","shard":"s3"}},
"spec":{"size":123,"color":"blue","counter":123,"payload":"` + strings.Repeat("0123456789abcdef", 20) + `","tags":["alpha","beta","gamma"]}}`))
	if err != nil {
		panic(err)
	}
	return &unstructured.Unstructured{Object: m}
}

// BenchmarkMarshalJSON compares encoding a custom resource with
// encoding/json (what MarshalJSON did before AppendJSON) and AppendJSON.
func BenchmarkMarshalJSON(b *testing.B) {
	u := customResource()
	b.Run("encoding-json", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := json.Marshal(u.Object); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("AppendJSON", func(b *testing.B) {
		b.ReportAllocs()
		var buf []byte
		for b.Loop() {
			var err error
			if buf, err = unstructured.AppendJSON(buf[:0], u.Object); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// TestCopyAsDecoded checks that CopyAsDecoded returns what writing and
// reading the JSON returns, or false.
func TestCopyAsDecoded(t *testing.T) {
	viaJSON := func(t *testing.T, m map[string]any) map[string]any {
		t.Helper()
		b, err := unstructured.AppendJSON(nil, m)
		if err != nil {
			t.Fatal(err)
		}
		out, err := unstructured.DecodeJSONObject(b)
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	t.Run("SameAsJSON", func(t *testing.T) {
		for _, doc := range []string{
			`{}`,
			`{"a":{},"b":[],"c":null,"d":true,"e":false,"f":-12,"g":"x\u003c\u2028é","h":[[],{},[1,"2",null]]}`,
			`{"apiVersion":"v1","kind":"K","metadata":{"name":"n","labels":{"a":"b"},"managedFields":[{"manager":"m","fieldsV1":{"f:spec":{".":{},"k:{\"name\":\"p\"}":{}}}}]},` +
				`"spec":{"ports":[{"name":"p00","port":7000},{"name":"p01","port":9223372036854775807}],"tags":["a","b"]}}`,
		} {
			m, err := unstructured.DecodeJSONObject([]byte(doc))
			if err != nil {
				t.Fatal(err)
			}
			got, ok := unstructured.CopyAsDecoded(m)
			if !ok {
				t.Fatalf("%s: not copied", doc)
			}
			if want := viaJSON(t, m); !reflect.DeepEqual(got, want) {
				t.Fatalf("%s:\ngot  %#v\nwant %#v", doc, got, want)
			}
			// A deep copy: changing it leaves m as it was.
			before := viaJSON(t, m)
			scribble(got)
			if !reflect.DeepEqual(viaJSON(t, m), before) {
				t.Fatalf("%s: the copy shares parts of the original", doc)
			}
		}
	})
	t.Run("NeedsJSON", func(t *testing.T) {
		for name, v := range map[string]any{
			"Float":      2.0,
			"Int":        3,
			"Number":     json.Number("4"),
			"Strings":    []string{"a"},
			"NilMap":     map[string]any(nil),
			"NilList":    []any(nil),
			"BadUTF8":    "a\xffb",
			"NestedBad":  []any{map[string]any{"x": 1.5}},
			"StringsMap": map[string]string{"a": "b"},
		} {
			if _, ok := unstructured.CopyAsDecoded(map[string]any{"v": v}); ok {
				t.Errorf("%s: copied, but its JSON reads back otherwise", name)
			}
		}
		if _, ok := unstructured.CopyAsDecoded(map[string]any{"a\xff": "v"}); ok {
			t.Error("BadUTF8Key: copied")
		}
	})
}

// scribble changes every map and list inside v.
func scribble(v any) {
	switch v := v.(type) {
	case map[string]any:
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		for _, k := range keys {
			scribble(v[k])
			v[k] = "scribbled"
		}
		v["added"] = "scribbled"
	case []any:
		for i, e := range v {
			scribble(e)
			v[i] = "scribbled"
		}
	}
}
