package storage

import (
	"encoding/json"

	"github.com/crdlab/crdlab/apis/meta/v1/unstructured"
)

// JSONCodec stores objects as JSON: Unstructured objects (custom
// resources) through unstructured.DecodeJSONObject, so that whole numbers
// come back as int64 as upstream's do; any other type through
// encoding/json.
//
// Mirrors the JSON serializer upstream stores custom resources with
// (etcd holds them as JSON, not protobuf).
type JSONCodec struct{}

var _ Codec = JSONCodec{}

// Encode writes obj as JSON. Map keys come out sorted, so equal objects
// encode to equal bytes (GuaranteedUpdate relies on it to skip no-op
// writes).
func (JSONCodec) Encode(obj Object) ([]byte, error) {
	if u, ok := obj.(*unstructured.Unstructured); ok {
		// The map itself, by the package's encoder (byte for byte
		// json.Marshal's output, without its reflection): json.Marshal(u)
		// would call u.MarshalJSON and then re-scan its output.
		return unstructured.AppendJSON(nil, u.Object)
	}
	return json.Marshal(obj)
}

// Decode reads data into into.
func (JSONCodec) Decode(data []byte, into Object) error {
	if u, ok := into.(*unstructured.Unstructured); ok {
		m, err := unstructured.DecodeJSONObject(data)
		if err != nil {
			return err
		}
		u.Object = m
		return nil
	}
	return json.Unmarshal(data, into)
}
