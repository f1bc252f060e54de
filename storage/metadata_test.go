package storage

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/crdlab/crdlab/apis/meta/v1/unstructured"
)

// decodedMetadata is what the decoded path writes for a metadata-only
// watcher: the object decoded as storage reads it (Resource.Decode, its
// resourceVersion set), then its metadata encoded.
func decodedMetadata(t *testing.T, data []byte, rv int64) string {
	t.Helper()
	r := NewResource(ResourceConfig{Prefix: "/x", NewFunc: func() Object { return &unstructured.Unstructured{} }, Codec: JSONCodec{}})
	obj, err := r.DecodeNew("/x/a", data, rv)
	require.NoError(t, err)
	out, err := unstructured.AppendJSON(nil, obj.(*unstructured.Unstructured).Object["metadata"])
	require.NoError(t, err)
	return string(out)
}

// stored is obj as JSONCodec stores it.
func stored(t *testing.T, obj map[string]any) []byte {
	t.Helper()
	data, err := JSONCodec{}.Encode(&unstructured.Unstructured{Object: obj})
	require.NoError(t, err)
	return data
}

func TestJSONCodec_AppendMetadata(t *testing.T) {
	managed := []any{map[string]any{
		"manager": "kubectl", "operation": "Update", "apiVersion": "stable.example.com/v1",
		"time": "2026-12-02T21:00:00Z", "fieldsType": "FieldsV1",
		"fieldsV1": map[string]any{"f:spec": map[string]any{"f:size": map[string]any{}, `f:a"}{`: map[string]any{}}},
	}}
	for _, tc := range []struct {
		name string
		meta map[string]any
	}{
		{"Empty", map[string]any{}},
		{"OnlyKeysBefore", map[string]any{"name": "a", "namespace": "ns"}},
		{"KeysAfter", map[string]any{"name": "a", "uid": "u-1", "selfLink": "/x"}},
		{"Everything", map[string]any{
			"name": "a", "namespace": "ns", "uid": "u-1", "generation": int64(3),
			"creationTimestamp": "2026-12-02T21:00:00Z", "deletionTimestamp": "2026-12-02T21:01:00Z",
			"deletionGracePeriodSeconds": int64(0),
			"labels":                     map[string]any{"app": "x", "tier": "a<b>&c"},
			"annotations":                map[string]any{"note": `quote " and \ backslash }]`, "resourceVersion": "not the key"},
			"finalizers":                 []any{"foregroundDeletion", "example.com/x"},
			"ownerReferences": []any{map[string]any{
				"apiVersion": "v1", "kind": "ConfigMap", "name": "owner", "uid": "u-0",
				"controller": true, "blockOwnerDeletion": true,
			}},
			"managedFields": managed,
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			data := stored(t, map[string]any{
				"apiVersion": "stable.example.com/v1", "kind": "CronTab", "metadata": tc.meta,
				"spec": map[string]any{"size": int64(3), "metadata": map[string]any{"name": "not this one"}},
			})
			got, ok := JSONCodec{}.AppendMetadata([]byte("prefix:"), data, 42)
			require.True(t, ok, "%s", data)
			want := decodedMetadata(t, data, 42)
			require.Equal(t, "prefix:"+want, string(got), "byte for byte what the decoded object's metadata encodes to")
		})
	}
	t.Run("ReplacesAResourceVersion", func(t *testing.T) {
		data := []byte(`{"metadata":{"name":"a","resourceVersion":"7","uid":"u"}}`)
		got, ok := JSONCodec{}.AppendMetadata(nil, data, 9)
		require.True(t, ok)
		require.Equal(t, `{"name":"a","resourceVersion":"9","uid":"u"}`, string(got))
	})
	t.Run("WhiteSpace", func(t *testing.T) {
		data := []byte(" {\n \"kind\" : \"X\" , \"metadata\" : { \"name\" : \"a\" } , \"n\" : [ 1 , true , null ] }\n")
		got, ok := JSONCodec{}.AppendMetadata(nil, data, 3)
		require.True(t, ok)
		require.JSONEq(t, `{"name":"a","resourceVersion":"3"}`, string(got))
	})
	for _, tc := range []struct{ name, data string }{
		{"ErrNoMetadata", `{"kind":"X"}`},
		{"ErrMetadataNotAnObject", `{"metadata":"x"}`},
		{"ErrNotAnObject", `[{"metadata":{}}]`},
		{"ErrTruncated", `{"metadata":{"name":"a"`},
		{"ErrTrailingBytes", `{"metadata":{}}x`},
		{"ErrEscapedKey", `{"metadata":{"n\u0061me":"a"}}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, ok := JSONCodec{}.AppendMetadata(nil, []byte(tc.data), 1)
			require.False(t, ok)
		})
	}
}

func TestNewMetadataJSON(t *testing.T) {
	data := stored(t, map[string]any{"kind": "X", "metadata": map[string]any{"name": "a"}})
	m := NewMetadataJSON(JSONCodec{}, data, 5)
	require.NotNil(t, m)
	require.Equal(t, `{"name":"a","resourceVersion":"5"}`, string(m.RawMetadata()))
	require.Equal(t, "PartialObjectMetadata", m.GetObjectKind().GroupVersionKind().Kind)
	cp := m.DeepCopyObject().(*MetadataJSON)
	cp.Raw[2] = 'X'
	require.Equal(t, `{"name":"a","resourceVersion":"5"}`, string(m.RawMetadata()), "the copy has its own bytes")

	t.Run("ErrCodecCannotCut", func(t *testing.T) {
		require.Nil(t, NewMetadataJSON(opaqueCodec{}, data, 5))
	})
}

// opaqueCodec is a Codec that cannot cut metadata out.
type opaqueCodec struct{}

func (opaqueCodec) Encode(obj Object) ([]byte, error)     { return JSONCodec{}.Encode(obj) }
func (opaqueCodec) Decode(data []byte, into Object) error { return JSONCodec{}.Decode(data, into) }

// FuzzJSONCodec_AppendMetadata: for any object JSONCodec stores, the
// metadata cut from its bytes is what decoding it and encoding its
// metadata writes, unless a metadata key is written escaped (then the cut
// declines); any other input does not make it panic.
func FuzzJSONCodec_AppendMetadata(f *testing.F) {
	f.Add([]byte(`{"metadata":{"name":"a","uid":"u","labels":{"x":"y"}},"spec":{"a":[1,2.5,"}"]}}`))
	f.Add([]byte(`{"metadata":{}}`))
	f.Add([]byte(`{"kind":"X","metadata":{"annotations":{"a":"\"\\"},"zz":null}}`))
	f.Fuzz(func(t *testing.T, in []byte) {
		JSONCodec{}.AppendMetadata(nil, in, 12)
		obj, err := unstructured.DecodeJSONObject(in)
		if err != nil {
			return
		}
		meta, isMap := obj["metadata"].(map[string]any)
		data := stored(t, obj)
		got, ok := JSONCodec{}.AppendMetadata(nil, data, 12)
		if !isMap {
			require.False(t, ok, "%s", data)
			return
		}
		if !ok {
			for k := range meta {
				if b, _ := json.Marshal(k); string(b) != `"`+k+`"` {
					return // an escaped key: declined
				}
			}
			t.Fatalf("declined %s", data)
		}
		require.Equal(t, decodedMetadata(t, data, 12), string(got), "%s", data)
	})
}

// TestMetadataSpan: the metadata object of stored bytes is found after
// keys of any kind, and refused where there is none or the keys before it
// do not read.
func TestMetadataSpan(t *testing.T) {
	for _, c := range []struct {
		data, want string
		ok         bool
	}{
		{`{"kind":"A","apiVersion":"v1","metadata":{"name":"x","uid":"u"},"spec":{}}`, `{"name":"x","uid":"u"}`, true},
		{`{"a":[1,{"b":"}"}],"metadata":{},"z":1}`, `{}`, true},
		{`{ "metadata" : {"name":"x"} }`, `{"name":"x"}`, true},
		{`{"spec":{}}`, "", false},
		{`{"metadata":"x"}`, "", false},
		{`{"meta\u0064ata":{}}`, "", false},
		{`{"kind":"A" "metadata":{}}`, "", false},
		{`[]`, "", false},
	} {
		start, end, ok := MetadataSpan([]byte(c.data))
		if ok != c.ok || (ok && c.data[start:end] != c.want) {
			t.Errorf("MetadataSpan(%s) = %q, %v; want %q, %v", c.data, c.data[start:end], ok, c.want, c.ok)
		}
	}
}

// TestStructMetaSplice: the resourceVersion goes right after the uid, as
// ObjectMeta's Go struct writes it, and nowhere else.
func TestStructMetaSplice(t *testing.T) {
	for _, c := range []struct {
		meta, want string
	}{
		{`{"name":"x","uid":"u","generation":1}`, `{"name":"x","uid":"u","resourceVersion":"7","generation":1}`},
		{`{"name":"x","namespace":"n","uid":"u"}`, `{"name":"x","namespace":"n","uid":"u","resourceVersion":"7"}`},
		{`{"name":"x","generation":1}`, ""},                                                // no uid
		{`{"name":"x","uid":"u","resourceVersion":"3"}`, ""},                               // one already there
		{`{"labels":{},"uid":"u"}`, ""},                                                    // not in the struct's order
		{`{"name":"a\"b}","uid":"u"}`, `{"name":"a\"b}","uid":"u","resourceVersion":"7"}`}, // an escape in a value
		{`{"n\u0061me":"x","uid":"u"}`, ""},                                                // an escape in a key
		{`{"name":"x","uid":1}`, ""},                                                       // not a string
	} {
		at, ok := StructMetaSplice([]byte(c.meta))
		got := ""
		if ok {
			got = c.meta[:at] + `,"resourceVersion":"7"` + c.meta[at:]
		}
		if got != c.want {
			t.Errorf("StructMetaSplice(%s): %q, want %q", c.meta, got, c.want)
		}
	}
}
