package bolt

import (
	"testing"

	"github.com/stretchr/testify/require"

	metav1 "github.com/crdlab/crdlab/apis/meta/v1"
	"github.com/crdlab/crdlab/apis/meta/v1/unstructured"
)

func TestCopyInto(t *testing.T) {
	src := &unstructured.Unstructured{Object: map[string]any{"a": map[string]any{"b": "c"}}}
	dst := &unstructured.Unstructured{}
	require.True(t, copyInto(dst, src))
	require.Equal(t, src.Object, dst.Object)
	dst.Object["a"].(map[string]any)["b"] = "changed"
	require.Equal(t, "c", src.Object["a"].(map[string]any)["b"], "a deep copy")
	require.False(t, copyInto(&metav1.PartialObjectMetadata{}, src), "another type")
}
