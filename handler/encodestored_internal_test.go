package handler

import (
	"testing"

	"github.com/crdlab/crdlab/apis/meta/v1/unstructured"
	"github.com/crdlab/crdlab/handler/internal/check"
	"github.com/crdlab/crdlab/scheme"
	"github.com/crdlab/crdlab/storage"
)

// TestCRCodec_EncodeStored: a listed object stored in the URL's version
// goes out as its bytes with its resourceVersion; one stored in another
// version (written before the storage version changed) is converted as a
// get's would be, as is one the splice declines; each is what encoding
// the decoded object writes.
func TestCRCodec_EncodeStored(t *testing.T) {
	c := &crCodec{
		kind:      scheme.GroupVersionKind{Group: "lab.example.com", Version: "v2", Kind: "Widget"},
		storageGV: scheme.GroupVersion{Group: "lab.example.com", Version: "v2"},
	}
	stored := func(apiVersion string) []byte {
		data, err := storage.JSONCodec{}.Encode(&unstructured.Unstructured{Object: map[string]any{
			"apiVersion": apiVersion, "kind": "Widget",
			"metadata": map[string]any{"name": "a", "namespace": "ns"},
			"spec":     map[string]any{"size": int64(3), "note": "<b>"},
		}})
		check.NoError(t, err)
		return data
	}
	want := func(data []byte, rev int64) string {
		obj, err := storage.NewResource(storage.ResourceConfig{Prefix: "/x", Codec: storage.JSONCodec{},
			NewFunc: func() storage.Object { return &unstructured.Unstructured{} }}).DecodeNew("/x/a", data, rev)
		check.NoError(t, err)
		out, err := c.encodeOwned(obj)
		check.NoError(t, err)
		b, err := out.(*unstructured.Unstructured).AppendJSON(nil)
		check.NoError(t, err)
		return string(b)
	}
	for _, tc := range []struct {
		name string
		data []byte
	}{
		{"TheURLsVersion", stored("lab.example.com/v2")},
		{"AnotherVersion", stored("lab.example.com/v1")},
		{"DeclinedBytes", []byte(`{"apiVersion":"lab.example.com/v2","kind":"Widget","metadata":{"n\u0061me":"a"},"spec":{}}`)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := c.encodeStored([]byte("["), storage.ObjectJSON{Data: tc.data, Rev: 77})
			check.NoError(t, err)
			check.Equal(t, "["+want(tc.data, 77), string(got))
			check.Contains(t, string(got), `"apiVersion":"lab.example.com/v2"`)
			check.Contains(t, string(got), `"resourceVersion":"77"`)
		})
	}
	t.Run("ErrNotJSON", func(t *testing.T) {
		_, err := c.encodeStored(nil, storage.ObjectJSON{Data: []byte(`{"metadata":`), Rev: 1})
		check.True(t, err != nil, "no error for bytes that do not decode")
	})
}
