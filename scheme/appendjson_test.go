package scheme_test

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/crdlab/crdlab/apis/meta/v1/unstructured"
	"github.com/crdlab/crdlab/scheme"
)

// TestAppendJSON: what follows dst is what json.Marshal writes, through
// the object's own writer or encoding/json, and dst's bytes are kept.
func TestAppendJSON(t *testing.T) {
	for name, v := range map[string]any{
		"Appender": &unstructured.Unstructured{Object: map[string]any{"kind": "Widget", "spec": map[string]any{"a": []any{int64(1), "x", nil}}}},
		"Plain":    map[string]any{"b": 2.5, "a": "<&>"},
	} {
		t.Run(name, func(t *testing.T) {
			if _, ok := v.(scheme.JSONAppender); ok != (name == "Appender") {
				t.Fatalf("JSONAppender: %v", ok)
			}
			want, err := json.Marshal(v)
			if err != nil {
				t.Fatal(err)
			}
			for _, dst := range [][]byte{nil, []byte("prefix"), make([]byte, 0, 1)} {
				got, err := scheme.AppendJSON(bytes.Clone(dst), v)
				if err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(got, append(bytes.Clone(dst), want...)) {
					t.Errorf("after %q: %s, want %s", dst, got, want)
				}
			}
		})
	}
}
