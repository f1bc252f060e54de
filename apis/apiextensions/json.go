package apiextensions

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
)

// JSONFromBytes decodes one JSON value the way upstream's
// k8s.io/apimachinery/pkg/util/json.Unmarshal does: whole numbers become
// int64 (so large integers keep every digit), other numbers float64, and a
// number beyond float64's range stays a json.Number.
func JSONFromBytes(raw []byte) (JSON, error) {
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
