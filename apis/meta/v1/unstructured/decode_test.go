package unstructured

import (
	"reflect"
	"strings"
	"testing"
)

var decodeSeeds = []string{
	`{"apiVersion":"stable.example.com/v1","kind":"CronTab","metadata":{"name":"x","labels":{"a":"b"}},"spec":{"replicas":1,"f":1.5,"l":[1,"a",null,true,false,{},[]]}}`,
	`{"a":[1,-0,0,1e3,1E+3,-1.5e-7,9223372036854775807,9223372036854775808,-9223372036854775808,-9223372036854775809,0.1,123456789012345678901234567890]}`,
	`{"big":1e400}`, `{"small":1e-400}`, `{"neg":-1e400}`,
	`{}]`, `{} {}`, `{"a":1}x`, `[]`, `null`, `"s"`, `1`, ``, `{`, `{"a"}`, `{"a":}`, `{"a":1,}`, `{,}`, `[1,]`,
	`{"a":01}`, `{"a":-}`, `{"a":1.}`, `{"a":.5}`, `{"a":1e}`, `{"a":+1}`, `{"a":tru}`, `{"a":nul}`,
	`{"a":"\ud800"}`, `{"a":"\ud83d\ude00"}`, `{"a":"\u00e9\n\t\"\\\/"}`, "{\"a\":\"caf\xc3\xa9\"}", "{\"a\":\"bad\xff\"}",
	"{\"a\":\"ctl\x01\"}", `{"a":"\x"}`, `{"a":"\u12"}`,
	`{"a":{"a":{"a":{"a":{"a":{"a":{"a":{"a":{}}}}}}}}}`,
	`{"dup":1,"dup":2}`, ` 	{ "a" : [ 1 , 2 ] } 
`, `{"é":1}`,
}

// TestDecodeObjectFast checks the fast decoder against encoding/json's
// path on the seeds: the same value when it accepts, and it accepts every
// document encoding/json's path accepts but those it hands over.
func TestDecodeObjectFast(t *testing.T) {
	for _, s := range decodeSeeds {
		checkFast(t, []byte(s))
	}
	deep := strings.Repeat(`{"a":`, 10001) + "1" + strings.Repeat("}", 10001)
	if _, ok := decodeObjectFast([]byte(deep)); ok {
		t.Error("nesting deeper than encoding/json allows was accepted")
	}
}

func checkFast(t *testing.T, data []byte) {
	t.Helper()
	fast, ok := decodeObjectFast(data)
	slow, err := decodeJSONObject(data)
	if ok && err != nil {
		t.Fatalf("%q: fast path accepted what encoding/json rejects (%v)", data, err)
	}
	if ok && !reflect.DeepEqual(fast, slow) {
		t.Fatalf("%q: fast %#v, encoding/json %#v", data, fast, slow)
	}
	if !ok && err == nil {
		t.Errorf("%q: a document encoding/json accepts was not handled by the fast path", data)
	}
}

// FuzzDecodeObjectFast compares decodeObjectFast with encoding/json's path.
func FuzzDecodeObjectFast(f *testing.F) {
	for _, s := range decodeSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		fast, ok := decodeObjectFast(data)
		slow, err := decodeJSONObject(data)
		if ok && err != nil {
			t.Fatalf("%q: fast path accepted what encoding/json rejects (%v)", data, err)
		}
		if ok && !reflect.DeepEqual(fast, slow) {
			t.Fatalf("%q: fast %#v, encoding/json %#v", data, fast, slow)
		}
		if !ok && err == nil {
			t.Fatalf("%q: a document encoding/json accepts was not handled by the fast path", data)
		}
	})
}

// BenchmarkDecodeJSONObject decodes a typical custom resource with
// encoding/json's path (what DecodeJSONObject did before) and the fast one.
func BenchmarkDecodeJSONObject(b *testing.B) {
	doc := []byte(`{"apiVersion":"bench.crdlab.dev/v1","kind":"Widget","metadata":{"name":"w-000123","namespace":"bench","labels":{"app":"crdbench","shard":"s3"}},"spec":{"size":123,"color":"blue","counter":123,"payload":"` + strings.Repeat("0123456789abcdef", 20) + `","tags":["alpha","beta","gamma"]}}`)
	b.Run("encoding-json", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := decodeJSONObject(doc); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("fast", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, ok := decodeObjectFast(doc); !ok {
				b.Fatal("not decoded")
			}
		}
	})
}
