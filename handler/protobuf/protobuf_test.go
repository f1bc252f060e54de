package protobuf_test

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"testing"

	apiextensionsv1 "github.com/crdlab/crdlab/apis/apiextensions/v1"
	authorizationv1 "github.com/crdlab/crdlab/apis/authorization/v1"
	coordinationv1 "github.com/crdlab/crdlab/apis/coordination/v1"
	corev1 "github.com/crdlab/crdlab/apis/core/v1"
	eventsv1 "github.com/crdlab/crdlab/apis/events/v1"
	metav1 "github.com/crdlab/crdlab/apis/meta/v1"
	"github.com/crdlab/crdlab/handler/internal/check"
	"github.com/crdlab/crdlab/handler/protobuf"
)

// The fixtures in testdata are written by upstream's protobuf serializer
// (e2e's TestProtobufFixtures keeps them true): X.pb is the body the typed
// apiextensions clientset sends, X.json upstream's JSON of the same object.

func readFixture(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	check.NoError(t, err)
	return b
}

// decodeBoth decodes the fixture's protobuf (through ToJSON) and its JSON
// into fresh values made by newObj, for comparison.
func decodeBoth[T any](t *testing.T, name string) (fromProto, fromJSON *T, raw map[string]any) {
	t.Helper()
	j, err := protobuf.ToJSON(readFixture(t, name+".pb"))
	check.NoError(t, err)
	fromProto, fromJSON = new(T), new(T)
	check.NoError(t, json.Unmarshal(j, fromProto), string(j))
	check.NoError(t, json.Unmarshal(readFixture(t, name+".json"), fromJSON))
	check.NoError(t, json.Unmarshal(j, &raw))
	return fromProto, fromJSON, raw
}

func get(obj any, keys ...any) any {
	for _, k := range keys {
		switch k := k.(type) {
		case string:
			m, _ := obj.(map[string]any)
			obj = m[k]
		case int:
			l, _ := obj.([]any)
			if k >= len(l) {
				return nil
			}
			obj = l[k]
		}
	}
	return obj
}

func TestToJSON(t *testing.T) {
	t.Run("CRD", func(t *testing.T) {
		got, want, raw := decodeBoth[apiextensionsv1.CustomResourceDefinition](t, "crd-crontab")
		check.Equal(t, want, got)
		check.Equal(t, "apiextensions.k8s.io/v1", raw["apiVersion"])
		check.Equal(t, "CustomResourceDefinition", raw["kind"])
		// Zero values of non-pointer fields are left out, as upstream's
		// JSON leaves them out: no "exclusiveMaximum": false everywhere.
		spec := get(raw, "spec", "versions", 0, "schema", "openAPIV3Schema", "properties", "spec")
		check.Equal(t, nil, get(spec, "exclusiveMaximum"))
		check.Equal(t, float64(10), get(spec, "properties", "replicas", "maximum"))
		check.Equal(t, float64(1), get(spec, "properties", "replicas", "default"))
		// A zero creationTimestamp is no timestamp.
		check.Equal(t, nil, get(raw, "metadata", "creationTimestamp"))
	})
	t.Run("CRDEveryField", func(t *testing.T) {
		got, want, raw := decodeBoth[apiextensionsv1.CustomResourceDefinition](t, "crd-kitchen-sink")
		want.TypeMeta = got.TypeMeta // upstream's JSON of the Go object has no type
		// managedFields' field sets are raw JSON: compare them as values.
		var wantMF, gotMF any
		wb, _ := json.Marshal(want.ManagedFields)
		gb, _ := json.Marshal(got.ManagedFields)
		check.NoError(t, json.Unmarshal(wb, &wantMF))
		check.NoError(t, json.Unmarshal(gb, &gotMF))
		check.Equal(t, wantMF, gotMF)
		want.ManagedFields, got.ManagedFields = nil, nil
		check.Equal(t, want, got)
		// Zero values of pointer fields differ from absent, and stay.
		props := get(raw, "spec", "versions", 0, "schema", "openAPIV3Schema", "properties")
		check.Equal(t, float64(0), get(props, "n", "maximum"))
		check.Equal(t, float64(0), get(props, "s", "maxLength"))
		check.Equal(t, false, get(props, "free", "x-kubernetes-preserve-unknown-fields"))
		check.Equal(t, false, get(props, "closed", "additionalProperties"))
		check.Equal(t, "string", get(props, "m", "additionalProperties", "type"))
		check.Equal(t, []any{"a", "ab"}, get(props, "s", "enum"))
		check.Equal(t, "integer", get(props, "tuple", "items", 1, "type"))
		check.Equal(t, "", get(raw, "spec", "versions", 0, "subresources", "scale", "labelSelectorPath"))
		check.Equal(t, map[string]any{}, get(raw, "spec", "versions", 0, "subresources", "status"))
		check.Equal(t, float64(0), get(raw, "metadata", "deletionGracePeriodSeconds"))
		check.Equal(t, "2026-11-29T12:30:45Z", get(raw, "metadata", "creationTimestamp"))
		check.Equal(t, "AAEC/w==", get(raw, "spec", "conversion", "webhook", "clientConfig", "caBundle"))
		check.Equal(t, map[string]any{"f:spec": map[string]any{}}, get(raw, "metadata", "managedFields", 0, "fieldsV1"))
	})
	t.Run("DeleteOptions", func(t *testing.T) {
		got, want, raw := decodeBoth[metav1.DeleteOptions](t, "delete-options")
		want.TypeMeta = got.TypeMeta // upstream's JSON of a bare DeleteOptions has no type
		check.Equal(t, want, got)
		check.Equal(t, "DeleteOptions", raw["kind"])
		check.Equal(t, float64(0), raw["gracePeriodSeconds"])
	})
	t.Run("UnknownFieldSkipped", func(t *testing.T) {
		raw := cat(pbString(1, pbMsg(pbString(1, []byte("x")), pbString(99, []byte("from a newer client")))))
		j, err := protobuf.ToJSON(envelope("apiextensions.k8s.io/v1", "CustomResourceDefinition", raw))
		check.NoError(t, err)
		check.Equal(t, `{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition","metadata":{"name":"x"}}`, string(j))
	})
	t.Run("LastValueWins", func(t *testing.T) {
		raw := pbString(1, pbMsg(pbString(1, []byte("x")), pbString(1, []byte("y"))))
		j, err := protobuf.ToJSON(envelope("apiextensions.k8s.io/v1", "CustomResourceDefinition", raw))
		check.NoError(t, err)
		check.Equal(t, `{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition","metadata":{"name":"y"}}`, string(j))
	})
}

func TestToJSON_Errors(t *testing.T) {
	crd := func(raw []byte) []byte { return envelope("apiextensions.k8s.io/v1", "CustomResourceDefinition", raw) }
	for _, tc := range []struct {
		name string
		body []byte
		kind error // ErrMalformed, or nil for an *UnsupportedKindError
	}{
		{"ErrNoMagic", []byte(`{"kind":"CustomResourceDefinition"}`), protobuf.ErrMalformed},
		{"ErrTruncated", crd(pbString(1, pbMsg(pbString(1, []byte("x")))))[:20], protobuf.ErrMalformed},
		{"ErrWireType", crd(pbVarint(1, 5)), protobuf.ErrMalformed},
		{"ErrGroup", crd([]byte{0x0b}), protobuf.ErrMalformed},
		{"ErrContentEncoding", append(envelope("apiextensions.k8s.io/v1", "CustomResourceDefinition", nil), pbString(3, []byte("gzip"))...), protobuf.ErrMalformed},
		{"ErrBadJSONDefault", crd(pbString(2, pbMsg(pbString(7, pbMsg(pbString(4, pbMsg(pbString(1,
			pbMsg(pbString(8, pbMsg(pbString(1, []byte("{not json"))))))))))))), protobuf.ErrMalformed},
		{"ErrUnsupportedKind", envelope("apps/v1", "Deployment", nil), nil},
		{"ErrUnsupportedV1beta1", envelope("apiextensions.k8s.io/v1beta1", "CustomResourceDefinition", nil), nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := protobuf.ToJSON(tc.body)
			check.Error(t, err)
			if tc.kind != nil {
				check.True(t, errors.Is(err, tc.kind), err)
				return
			}
			var uk *protobuf.UnsupportedKindError
			check.True(t, errors.As(err, &uk), err)
		})
	}
}

func FuzzToJSON(f *testing.F) {
	for _, name := range []string{"crd-crontab.pb", "crd-kitchen-sink.pb", "delete-options.pb"} {
		b, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		j, err := protobuf.ToJSON(body)
		if err != nil {
			return
		}
		if !json.Valid(j) {
			t.Fatalf("ToJSON returned invalid JSON %q", j)
		}
	})
}

// A tiny protobuf encoder for the tests.

func tag(num, wire int) []byte { return binary.AppendUvarint(nil, uint64(num<<3|wire)) }

func pbVarint(num int, v uint64) []byte { return binary.AppendUvarint(tag(num, 0), v) }

// pbString encodes a length-delimited field: a string, bytes or a message.
func pbString(num int, b []byte) []byte {
	return append(binary.AppendUvarint(tag(num, 2), uint64(len(b))), b...)
}

func pbMsg(fields ...[]byte) []byte { return cat(fields...) }

func cat(parts ...[]byte) []byte {
	var out []byte
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}

// envelope wraps raw in "k8s\x00" and a runtime.Unknown.
func envelope(apiVersion, kind string, raw []byte) []byte {
	typeMeta := pbMsg(pbString(1, []byte(apiVersion)), pbString(2, []byte(kind)))
	return cat([]byte("k8s\x00"), pbString(1, typeMeta), pbString(2, raw))
}

// The built-in kinds controller-runtime sends as protobuf decode to what
// upstream's JSON of the same object decodes to, in crdlab's types.
func TestToJSON_Builtin(t *testing.T) {
	for _, tc := range []struct {
		name string
		new  func() any
	}{
		{"secret", func() any { return new(corev1.Secret) }},
		{"configmap", func() any { return new(corev1.ConfigMap) }},
		{"namespace", func() any { return new(corev1.Namespace) }},
		{"lease", func() any { return new(coordinationv1.Lease) }},
		{"event-core", func() any { return new(corev1.Event) }},
		{"event-v1", func() any { return new(eventsv1.Event) }},
		{"self-access", func() any { return new(authorizationv1.SelfSubjectAccessReview) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			j, err := protobuf.ToJSON(readFixture(t, tc.name+".pb"))
			check.NoError(t, err)
			fromProto, fromJSON := tc.new(), tc.new()
			check.NoError(t, json.Unmarshal(j, fromProto), string(j))
			check.NoError(t, json.Unmarshal(readFixture(t, tc.name+".json"), fromJSON))
			check.Equal(t, fromJSON, fromProto)
		})
	}
}
