package storage

import (
	"testing"

	"github.com/stretchr/testify/require"

	metav1 "github.com/crdlab/crdlab/apis/meta/v1"
	"github.com/crdlab/crdlab/apis/meta/v1/unstructured"
)

func TestJSONCodec(t *testing.T) {
	t.Run("Unstructured", func(t *testing.T) {
		in := &unstructured.Unstructured{Object: map[string]any{
			"kind": "CronTab", "spec": map[string]any{"replicas": int64(3), "ratio": 0.5, "tags": []any{"a"}},
		}}
		data, err := JSONCodec{}.Encode(in)
		require.NoError(t, err)
		require.JSONEq(t, `{"kind":"CronTab","spec":{"replicas":3,"ratio":0.5,"tags":["a"]}}`, string(data))
		out := &unstructured.Unstructured{}
		require.NoError(t, JSONCodec{}.Decode(data, out))
		require.Equal(t, in.Object, out.Object, "whole numbers come back as int64")
	})
	t.Run("Typed", func(t *testing.T) {
		in := &metav1.PartialObjectMetadata{ObjectMeta: metav1.ObjectMeta{Name: "a", Labels: map[string]string{"x": "y"}}}
		data, err := JSONCodec{}.Encode(in)
		require.NoError(t, err)
		out := &metav1.PartialObjectMetadata{}
		require.NoError(t, JSONCodec{}.Decode(data, out))
		require.Equal(t, in, out)
	})
	t.Run("ErrNotAnObject", func(t *testing.T) {
		require.Error(t, JSONCodec{}.Decode([]byte(`[1]`), &unstructured.Unstructured{}))
	})
}
