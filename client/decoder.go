package client

import (
	"encoding/json"
	"reflect"

	"github.com/crdlab/crdlab/apis/meta/v1/unstructured"
	"github.com/crdlab/crdlab/scheme"
)

// ObjectDecoder turns the JSON of one object (a watch event's object, a
// response body) into an object of the right Go type.
//
// It plays the part of the decoder client-go negotiates from a
// NegotiatedSerializer.
type ObjectDecoder func(data []byte) (scheme.Object, error)

// UnstructuredDecoder decodes any object as an *unstructured.Unstructured,
// or an *unstructured.UnstructuredList when it has an "items" array. It is
// the default decoder of a Request and the one the dynamic client uses.
//
// Mirrors unstructured.UnstructuredJSONScheme.
func UnstructuredDecoder(data []byte) (scheme.Object, error) {
	m, err := unstructured.DecodeJSONObject(data)
	if err != nil {
		return nil, err
	}
	if _, isList := m["items"].([]any); isList {
		list := &unstructured.UnstructuredList{}
		if err := list.UnmarshalJSON(data); err != nil {
			return nil, err
		}
		return list, nil
	}
	return &unstructured.Unstructured{Object: m}, nil
}

// JSONDecoder decodes every object into a new object made by newObject,
// with encoding/json: for a typed client, whose resource has one Go type.
//
//	client.JSONDecoder(func() scheme.Object { return &apiextensionsv1.CustomResourceDefinition{} })
func JSONDecoder(newObject func() scheme.Object) ObjectDecoder {
	return func(data []byte) (scheme.Object, error) {
		obj := newObject()
		if err := scheme.DecodeJSON(data, obj, json.Unmarshal); err != nil {
			return nil, err
		}
		return obj, nil
	}
}

// CodecDecoder decodes each object into the Go type the scheme registers for
// its apiVersion and kind, and applies that type's defaults.
func CodecDecoder(codecs scheme.CodecFactory) ObjectDecoder {
	return func(data []byte) (scheme.Object, error) {
		obj, _, err := codecs.Decode(data, scheme.DecodeOptions{})
		return obj, err
	}
}

// decodeJSONInto clears obj and decodes data into it, so no field of an
// earlier value survives (encoding/json alone would merge into maps).
func decodeJSONInto(data []byte, obj scheme.Object) error {
	if v := reflect.ValueOf(obj); v.Kind() == reflect.Pointer && !v.IsNil() && v.Elem().CanSet() {
		v.Elem().SetZero()
	}
	return scheme.DecodeJSON(data, obj, json.Unmarshal)
}
