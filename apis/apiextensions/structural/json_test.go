package structural

import (
	"bytes"
	"encoding/json"
	"io"
	"reflect"
	"strings"
	"testing"
)

// decodeWithEncodingJSON is FromJSON's reference reading: a Decoder with
// UseNumber, and nothing after the value.
func decodeWithEncodingJSON(b []byte) (any, bool) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var v any
	if dec.Decode(&v) != nil {
		return nil, false
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, false
	}
	return v, true
}

var schemaJSONCases = []string{
	cronTabJSON,
	`{"type":"object","properties":{"a":{"type":"integer","minimum":-0,"maximum":1e400,"default":1.50,"enum":[1,2.0,-3e2,null,true,"x"]}}}`,
	` {"description":"caf\u00e9 \"q\" \\ tab\t","title":"naïve","x":"\ud800"} `,
	`{"a":1,"a":2}`,
	`{"a":[],"b":{},"c":[[]],"d":[{}]}`,
	`{"a":"b"} x`,
	`{"a":01}`,
	`{"a":1.}`,
	`{"a":-}`,
	`{"a":"\x01"}`,
	`{"a":tru}`,
	`[1,2]`,
	`"s"`,
	``,
	`{"a":1,}`,
	`{"a" 1}`,
	"{\"a\":\"\xff\"}",
	strings.Repeat("[", 10001) + strings.Repeat("]", 10001),
}

const cronTabJSON = `{"type":"object","properties":{"spec":{"type":"object","properties":{"cronSpec":{"type":"string","pattern":"^(\\d+|\\*)(/\\d+)?(\\s+(\\d+|\\*)(/\\d+)?){4}$"},"replicas":{"type":"integer","minimum":1,"maximum":10}}}}}`

// TestDecodeSchemaJSON_SameAsEncodingJSON: where the fast reader reads
// a schema, it reads what encoding/json reads (and it reads whatever
// encoding/json reads); where encoding/json fails, so does it (and
// FromJSON then words encoding/json's error).
func TestDecodeSchemaJSON_SameAsEncodingJSON(t *testing.T) {
	for _, c := range schemaJSONCases {
		checkSameDecode(t, []byte(c))
	}
}

func checkSameDecode(t *testing.T, b []byte) {
	t.Helper()
	got, ok := decodeSchemaJSON(b)
	want, wantOK := decodeWithEncodingJSON(b)
	if !wantOK {
		if ok {
			t.Errorf("%.80q: encoding/json fails, the fast reader gives %v", b, got)
		}
		return
	}
	if !ok {
		t.Errorf("%.80q: encoding/json reads it, the fast reader gives up", b)
		return
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("%.80q: fast reader %#v, encoding/json %#v", b, got, want)
	}
}

func FuzzDecodeSchemaJSON(f *testing.F) {
	for _, c := range schemaJSONCases {
		f.Add(c)
	}
	f.Fuzz(func(t *testing.T, s string) {
		checkSameDecode(t, []byte(s))
	})
}
