package unstructured_test

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/crdlab/crdlab/apis/meta/v1/unstructured"
)

// FuzzDecodeJSONObject checks that DecodeJSONObject never panics, accepts
// only valid JSON objects, and that what it accepts encodes and decodes
// back to the same value: every body the server takes in can be stored
// and served back.
func FuzzDecodeJSONObject(f *testing.F) {
	for _, s := range []string{
		`{"apiVersion":"stable.example.com/v1","kind":"CronTab","metadata":{"name":"x"},"spec":{"replicas":1,"f":1.5}}`,
		`{"a":[1,-0,1e3,9223372036854775807,9223372036854775808,-9223372036854775809]}`,
		`{"big":1e400}`,
		`{"small":1e-400}`,
		`{}]`,
		`{} {}`,
		`{"a":1}x`,
		`[]`,
		`null`,
		`{"a":"\ud800"}`,
		`{"a":{"a":{"a":{"a":{"a":{"a":{"a":{"a":{}}}}}}}}}`,
		`{"dup":1,"dup":2}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := unstructured.DecodeJSONObject(data)
		if err != nil {
			return
		}
		if !json.Valid(data) {
			t.Fatalf("DecodeJSONObject accepted %q, which is not valid JSON", data)
		}
		b, err := json.Marshal(m)
		if err != nil {
			t.Fatalf("DecodeJSONObject(%q) = %v, which does not encode: %v", data, m, err)
		}
		m2, err := unstructured.DecodeJSONObject(b)
		if err != nil {
			t.Fatalf("decoding the encoding %s: %v", b, err)
		}
		// 1e3 decodes as float64 1000, which encodes as 1000 and decodes
		// as int64 (upstream does the same): compare the encodings.
		b2, err := json.Marshal(m2)
		if err != nil {
			t.Fatalf("encoding %v: %v", m2, err)
		}
		if !bytes.Equal(b, b2) {
			t.Fatalf("round trip changed the value:\n%s\n%s", b, b2)
		}
	})
}
