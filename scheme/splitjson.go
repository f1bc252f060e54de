package scheme

import (
	"encoding/json"
	"reflect"
)

// JSONSplitter is implemented by types with a few large subtrees that a
// parser of their own reads much faster than encoding/json (a CRD's
// schemas: see apiextensions/v1.(*CustomResourceDefinition).SplitJSON).
// SplitJSON returns data with those subtrees replaced by null, and fill,
// which puts them into the object once rest is decoded into it; ok is
// false when data must be decoded whole.
type JSONSplitter interface {
	SplitJSON(data []byte) (rest []byte, fill func() bool, ok bool)
}

// DecodeJSON decodes data into into with decode (json.Unmarshal, or a
// codec's decoder), through into's SplitJSON when it has one and is still
// its zero value: the object, and the error, are those decode gives for
// data.
func DecodeJSON(data []byte, into any, decode func([]byte, any) error) error {
	if s, ok := into.(JSONSplitter); ok {
		v := reflect.ValueOf(into)
		if v.Kind() == reflect.Pointer && !v.IsNil() && v.Elem().IsZero() {
			if rest, fill, ok := s.SplitJSON(data); ok {
				if decode(rest, into) == nil && fill() {
					return nil
				}
				v.Elem().SetZero()
			}
		}
	}
	return decode(data, into)
}

// JSONAppender is an object that writes its own JSON: AppendJSON appends
// exactly what json.Marshal writes for it, without encoding/json scanning
// the output of a MarshalJSON method again (a CRD,
// apiextensions/v1.(*CustomResourceDefinition).AppendJSON; unstructured
// objects).
type JSONAppender interface {
	AppendJSON(dst []byte) ([]byte, error)
}

// MarshalJSON is json.Marshal(v), through v's AppendJSON if it has one.
func MarshalJSON(v any) ([]byte, error) {
	return AppendJSON(nil, v)
}

// AppendJSON appends json.Marshal(v) to dst, through v's AppendJSON if it
// has one: a caller done with the JSON before it writes again can reuse
// dst.
func AppendJSON(dst []byte, v any) ([]byte, error) {
	if a, ok := v.(JSONAppender); ok {
		return a.AppendJSON(dst)
	}
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	if dst == nil {
		return b, nil
	}
	return append(dst, b...), nil
}
