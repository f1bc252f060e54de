package storage

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/crdlab/crdlab/apis/meta/v1/unstructured"
)

// decodedObject is what the decoded path writes for a list item: the
// object decoded as storage reads it (Resource.Decode, its
// resourceVersion set), then encoded.
func decodedObject(t *testing.T, data []byte, rv int64) string {
	t.Helper()
	r := NewResource(ResourceConfig{Prefix: "/x", NewFunc: func() Object { return &unstructured.Unstructured{} }, Codec: JSONCodec{}})
	obj, err := r.DecodeNew("/x/a", data, rv)
	require.NoError(t, err)
	out, err := unstructured.AppendJSON(nil, obj.(*unstructured.Unstructured).Object)
	require.NoError(t, err)
	return string(out)
}

func TestObjectJSON_AppendJSON(t *testing.T) {
	for _, tc := range []struct {
		name string
		obj  map[string]any
	}{
		{"Minimal", map[string]any{"apiVersion": "stable.example.com/v1", "kind": "CronTab", "metadata": map[string]any{"name": "a"}}},
		{"KeysBeforeKind", map[string]any{
			"apiVersion": "v1", "data": map[string]any{"k": "v"}, "binaryData": map[string]any{}, "kind": "ConfigMap",
			"metadata": map[string]any{"name": "a", "uid": "u-1"},
		}},
		{"Everything", map[string]any{
			"apiVersion": "stable.example.com/v1", "kind": "CronTab",
			"metadata": map[string]any{
				"name": "a", "namespace": "ns", "uid": "u-1", "generation": int64(3),
				"labels":      map[string]any{"tier": "a<b>&c", "ü": "ß"},
				"annotations": map[string]any{"note": `quote " and \ backslash }]`, "resourceVersion": "not the key"},
				"finalizers":  []any{"example.com/x"},
			},
			"spec": map[string]any{
				"size": int64(3), "ratio": 2.5, "big": int64(1) << 60, "none": nil, "on": true,
				"metadata": map[string]any{"name": "not this one"},
				"list":     []any{"}", "{", map[string]any{"a": []any{}}},
			},
			"status": map[string]any{"phase": "Running\u2028\n"},
		}},
		{"NoKind", map[string]any{"metadata": map[string]any{"name": "a"}, "spec": map[string]any{}}},
		{"EmptyMetadata", map[string]any{"kind": "X", "metadata": map[string]any{}}},
		{"OnlyKeysBeforeIt", map[string]any{"kind": "X", "metadata": map[string]any{"name": "a", "namespace": "b"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			data := stored(t, tc.obj)
			got, apiVersion, kind, ok := ObjectJSON{Data: data, Rev: 42}.AppendJSON([]byte("prefix:"))
			require.True(t, ok, "%s", data)
			require.Equal(t, "prefix:"+decodedObject(t, data, 42), string(got), "byte for byte what decoding and encoding write")
			sp := FindSplice(data)
			require.NotZero(t, sp)
			cached, _, _, ok := ObjectJSON{Data: data, Rev: 42, Splice: sp}.AppendJSON([]byte("prefix:"))
			require.True(t, ok)
			require.Equal(t, string(got), string(cached), "the same with the splice found before")
			wantAV, _ := tc.obj["apiVersion"].(string)
			wantKind, _ := tc.obj["kind"].(string)
			require.Equal(t, wantAV, string(apiVersion))
			require.Equal(t, wantKind, string(kind))
		})
	}
	for _, tc := range []struct{ name, data string }{
		{"ErrNoMetadata", `{"apiVersion":"v1","kind":"X"}`},
		{"ErrMetadataNotAnObject", `{"metadata":"x"}`},
		{"ErrNotAnObject", `[{"metadata":{}}]`},
		{"ErrTruncated", `{"metadata":{"name":"a"`},
		{"ErrEscapedMetadataKey", `{"metadata":{"n\u0061me":"a"}}`},
		{"ErrEscapedAPIVersion", `{"apiVersion":"v\u0031","metadata":{}}`},
		{"ErrKindNotAString", `{"kind":7,"metadata":{}}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, _, _, ok := ObjectJSON{Data: []byte(tc.data), Rev: 1}.AppendJSON([]byte("keep"))
			require.False(t, ok)
			require.Equal(t, "keep", string(got), "dst is returned as it was")
		})
	}
}

// FuzzObjectJSON_AppendJSON: for any object JSONCodec stores, AppendJSON
// writes what decoding it and encoding it writes, unless a metadata key,
// apiVersion or kind is written escaped or metadata is not an object
// (then it declines); any other input does not make it panic.
func FuzzObjectJSON_AppendJSON(f *testing.F) {
	f.Add([]byte(`{"apiVersion":"a/v1","kind":"K","metadata":{"name":"a","uid":"u","labels":{"x":"y"}},"spec":{"a":[1,2.5,"}"]}}`))
	f.Add([]byte(`{"metadata":{}}`))
	f.Add([]byte(`{"kind":"X","metadata":{"annotations":{"a":"\"\\"},"zz":null}}`))
	f.Fuzz(func(t *testing.T, in []byte) {
		ObjectJSON{Data: in, Rev: 12}.AppendJSON(nil)
		obj, err := unstructured.DecodeJSONObject(in)
		if err != nil {
			return
		}
		meta, isMap := obj["metadata"].(map[string]any)
		data := stored(t, obj)
		got, _, _, ok := ObjectJSON{Data: data, Rev: 12}.AppendJSON(nil)
		if !isMap {
			require.False(t, ok, "%s", data)
			return
		}
		if !ok {
			plain := func(s string) bool { b, _ := json.Marshal(s); return string(b) == `"`+s+`"` }
			for k := range meta {
				if !plain(k) {
					return // an escaped metadata key: declined
				}
			}
			for k := range obj {
				if !plain(k) {
					return // an escaped key before metadata: declined
				}
			}
			for _, k := range []string{"apiVersion", "kind"} {
				if v, has := obj[k]; has {
					if s, isString := v.(string); !isString || !plain(s) {
						return
					}
				}
			}
			t.Fatalf("declined %s", data)
		}
		require.Equal(t, decodedObject(t, data, 12), string(got), "%s", data)
		if sp := FindSplice(data); sp != 0 {
			cached, _, _, ok := ObjectJSON{Data: data, Rev: 12, Splice: sp}.AppendJSON(nil)
			require.True(t, ok)
			require.Equal(t, string(got), string(cached), "%s", data)
		}
	})
}

func TestFindSplice(t *testing.T) {
	for _, tc := range []struct{ name, data string }{
		{"NoMetadata", `{"kind":"X"}`},
		{"AResourceVersionStored", `{"metadata":{"name":"a","resourceVersion":"7"}}`},
		{"EscapedKey", `{"metadata":{"n\u0061me":"a"}}`},
		{"Truncated", `{"metadata":{"name":"a"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			require.Zero(t, FindSplice([]byte(tc.data)))
		})
	}
	t.Run("ReplacesAStoredResourceVersion", func(t *testing.T) {
		got, _, _, ok := ObjectJSON{Data: []byte(`{"metadata":{"name":"a","resourceVersion":"7","uid":"u"}}`), Rev: 9}.AppendJSON(nil)
		require.True(t, ok)
		require.Equal(t, `{"metadata":{"name":"a","resourceVersion":"9","uid":"u"}}`, string(got))
	})
	t.Run("ASpliceOutsideMetadataIsNotUsed", func(t *testing.T) {
		data := []byte(`{"kind":"X","metadata":{"name":"a"}}`)
		got, _, _, ok := ObjectJSON{Data: data, Rev: 3, Splice: newSplice(2, spliceBefore)}.AppendJSON(nil)
		require.True(t, ok)
		require.Equal(t, `{"kind":"X","metadata":{"name":"a","resourceVersion":"3"}}`, string(got))
	})
}

// BenchmarkObjectJSON_AppendJSON: one object of the many-objects bench
// (about 2.4 KB, with managedFields), walked anew and with its splice
// known (what bolt keeps on the record after the first list).
func BenchmarkObjectJSON_AppendJSON(b *testing.B) {
	payload := make([]byte, 2048)
	for i := range payload {
		payload[i] = "0123456789abcdef"[i%16]
	}
	data, err := JSONCodec{}.Encode(&unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "bench.crdlab.dev/v1", "kind": "Objwidget",
		"metadata": map[string]any{
			"creationTimestamp": "2026-12-03T09:25:17Z", "generation": int64(3), "name": "o-000000", "namespace": "objects",
			"uid": "926dddcb-d3e4-4602-8d6a-d9eafbbd91f8", "labels": map[string]any{"app": "crdbench", "shard": "s0"},
			"managedFields": []any{map[string]any{
				"apiVersion": "bench.crdlab.dev/v1", "fieldsType": "FieldsV1", "manager": "Go-http-client", "operation": "Update",
				"time": "2026-12-03T09:26:32Z",
				"fieldsV1": map[string]any{
					"f:metadata": map[string]any{"f:labels": map[string]any{".": map[string]any{}, "f:app": map[string]any{}, "f:shard": map[string]any{}}},
					"f:spec": map[string]any{".": map[string]any{}, "f:color": map[string]any{}, "f:counter": map[string]any{},
						"f:payload": map[string]any{}, "f:size": map[string]any{}, "f:tags": map[string]any{}},
				},
			}},
		},
		"spec": map[string]any{"color": "blue", "counter": int64(1000000), "payload": string(payload), "size": int64(3), "tags": []any{"a", "b"}},
	}})
	if err != nil {
		b.Fatal(err)
	}
	dst := make([]byte, 0, 2*len(data))
	for _, bc := range []struct {
		name   string
		splice Splice
	}{{"Walk", 0}, {"SpliceKnown", FindSplice(data)}} {
		b.Run(bc.name, func(b *testing.B) {
			o := ObjectJSON{Data: data, Rev: 123456, Splice: bc.splice}
			b.SetBytes(int64(len(data)))
			for b.Loop() {
				if _, _, _, ok := o.AppendJSON(dst); !ok {
					b.Fatal("declined")
				}
			}
		})
	}
}
