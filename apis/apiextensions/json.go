package apiextensions

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"

	"github.com/crdlab/crdlab/internal/fastjson"
)

// JSONFromBytes decodes one JSON value the way upstream's
// k8s.io/apimachinery/pkg/util/json.Unmarshal does: whole numbers become
// int64 (so large integers keep every digit), other numbers float64, and a
// number beyond float64's range stays a json.Number.
//
// Well-formed input is read in one pass by internal/fastjson (its
// Int64OrFloat64 mode is this conversion); anything else, and a number
// out of float64's range, goes through encoding/json as before, which
// words the error. A real-size CRD has thousands of these values
// (enums, defaults, examples): a Decoder each, with its own buffer, was
// a twentieth of what a CRD's create to Established allocated.
// FuzzJSONFromBytes compares the two ways.
func JSONFromBytes(raw []byte) (JSON, error) {
	if v, ok := fastjson.Decode(raw, fastjson.Int64OrFloat64); ok {
		return v, nil
	}
	return jsonFromBytesSlow(raw)
}

// jsonFromBytesSlow is JSONFromBytes through encoding/json.
func jsonFromBytesSlow(raw []byte) (JSON, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("unexpected data after the JSON value")
	}
	return convertNumbers(v), nil
}

var nullJSON = []byte("null")

// JSONFromRaw is the hub value of an external JSON's Raw bytes: empty Raw
// and JSON null are both no value (nil). Convert_v1_JSON_To_apiextensions_JSON
// and its v1beta1 twin call it.
//
// Mirrors the body of Convert_v1_JSON_To_apiextensions_JSON in
// k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1/conversion.go.
func JSONFromRaw(raw []byte) (JSON, error) {
	if len(raw) == 0 || bytes.Equal(raw, nullJSON) {
		return nil, nil
	}
	return JSONFromBytes(raw)
}

// RawFromJSON is the external Raw bytes of a hub value: null becomes empty
// Raw, as JSON.UnmarshalJSON treats it.
//
// Mirrors the body of Convert_apiextensions_JSON_To_v1_JSON (same file).
func RawFromJSON(v JSON) ([]byte, error) {
	raw, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	if len(raw) == 0 || bytes.Equal(raw, nullJSON) {
		return nil, nil
	}
	return raw, nil
}

func convertNumbers(v any) any {
	switch t := v.(type) {
	case map[string]any:
		for k, e := range t {
			t[k] = convertNumbers(e)
		}
		return t
	case []any:
		for i, e := range t {
			t[i] = convertNumbers(e)
		}
		return t
	case json.Number:
		if i, err := t.Int64(); err == nil {
			return i
		}
		if f, err := t.Float64(); err == nil {
			return f
		}
		return t // out of float64's range: kept as its literal
	default:
		return v
	}
}
