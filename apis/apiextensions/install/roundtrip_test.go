package install_test

import (
	"bytes"
	"encoding/json"
	"os"
	"reflect"
	"strconv"
	"testing"

	"github.com/crdlab/crdlab/apis/apiextensions"
	"github.com/crdlab/crdlab/apis/apiextensions/install"
	v1 "github.com/crdlab/crdlab/apis/apiextensions/v1"
	"github.com/crdlab/crdlab/apis/apiextensions/v1beta1"
	metav1 "github.com/crdlab/crdlab/apis/meta/v1"
	"github.com/crdlab/crdlab/scheme"
)

func newCodecs(t testing.TB) scheme.CodecFactory {
	t.Helper()
	s := scheme.NewScheme()
	install.Install(s)
	return scheme.NewCodecFactory(s)
}

// loadDocs returns the YAML documents of a testdata file.
func loadDocs(t testing.TB, name string) [][]byte {
	t.Helper()
	data, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return scheme.SplitYAMLDocuments(data)
}

// normalize turns an object into generic JSON with every number as a
// float64, so that two encodings of the same value compare equal
// ("1.0" and "1"; upstream's JSON conversion does not keep the literal).
func normalize(t testing.TB, obj any) any {
	t.Helper()
	b, err := json.Marshal(obj)
	if err != nil {
		t.Fatalf("marshal: %v", err)
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		t.Fatalf("unmarshal: %v", err)
	}
	return floats(v)
}

func floats(v any) any {
	switch t := v.(type) {
	case map[string]any:
		for k, e := range t {
			t[k] = floats(e)
		}
	case []any:
		for i, e := range t {
			t[i] = floats(e)
		}
	case json.Number:
		f, _ := strconv.ParseFloat(string(t), 64) // ±Inf beyond range, on both sides
		return f
	}
	return v
}

func assertSameJSON(t testing.TB, got, want any) {
	t.Helper()
	g, w := normalize(t, got), normalize(t, want)
	if !reflect.DeepEqual(g, w) {
		gb, _ := json.MarshalIndent(got, "", "  ")
		wb, _ := json.MarshalIndent(want, "", "  ")
		t.Fatalf("round trip lost data:\n--- got\n%s\n--- want\n%s", gb, wb)
	}
}

func convert(t testing.TB, s *scheme.Scheme, obj scheme.Object, gv scheme.GroupVersion) scheme.Object {
	t.Helper()
	out, err := s.ConvertToVersion(obj, gv)
	if err != nil {
		t.Fatalf("convert to %v: %v", gv, err)
	}
	return out
}

// TestRoundTrip_V1beta1ThroughV1 walks each table case
// v1beta1 → internal → v1 → internal → v1beta1 and expects what it started
// with (after v1beta1 defaulting, which the decoder applies).
func TestRoundTrip_V1beta1ThroughV1(t *testing.T) {
	codecs := newCodecs(t)
	s := codecs.Scheme()
	for i, doc := range loadDocs(t, "testdata/crds-v1beta1.yaml") {
		obj, _, err := codecs.Decode(doc, scheme.DecodeOptions{Strict: true})
		if err != nil {
			t.Fatalf("case %d: %v", i, err)
		}
		original := obj.(*v1beta1.CustomResourceDefinition)
		t.Run(original.Name, func(t *testing.T) {
			hub := convert(t, s, original, apiextensions.SchemeGroupVersion)
			asV1 := convert(t, s, hub, v1.SchemeGroupVersion).(*v1.CustomResourceDefinition)
			// v1 has no top-level fields: every version carries its own.
			for _, v := range asV1.Spec.Versions {
				if original.Spec.Validation != nil && v.Schema == nil {
					t.Errorf("version %s: top-level validation not fanned out", v.Name)
				}
			}
			back := convert(t, s, convert(t, s, asV1, apiextensions.SchemeGroupVersion), v1beta1.SchemeGroupVersion)
			assertSameJSON(t, back, original)
		})
	}
}

// TestRoundTrip_V1ThroughV1beta1 walks v1 → internal → v1beta1 →
// internal → v1: v1 is the canonical shape, so it must come back unchanged.
func TestRoundTrip_V1ThroughV1beta1(t *testing.T) {
	codecs := newCodecs(t)
	s := codecs.Scheme()
	for _, doc := range loadDocs(t, "testdata/crds-v1beta1.yaml") {
		obj, _, err := codecs.Decode(doc, scheme.DecodeOptions{Strict: true})
		if err != nil {
			t.Fatal(err)
		}
		original := convert(t, s, obj, v1.SchemeGroupVersion).(*v1.CustomResourceDefinition)
		t.Run(original.Name, func(t *testing.T) {
			asBeta := convert(t, s, original, v1beta1.SchemeGroupVersion)
			back := convert(t, s, asBeta, v1.SchemeGroupVersion)
			assertSameJSON(t, back, original)
		})
	}
}

// TestRoundTrip_KnownLosses pins down where upstream's conversion is not
// lossless, so that a change there is noticed.
func TestRoundTrip_KnownLosses(t *testing.T) {
	codecs := newCodecs(t)
	s := codecs.Scheme()
	t.Run("IdenticalPerVersionSchemasFoldToTopLevel", func(t *testing.T) {
		doc := []byte(`apiVersion: apiextensions.k8s.io/v1beta1
kind: CustomResourceDefinition
metadata: {name: as.x.io}
spec:
  group: x.io
  names: {plural: as, kind: A}
  versions:
  - {name: v1, served: true, storage: true, schema: {openAPIV3Schema: {type: object}}}
  - {name: v2, served: true, storage: false, schema: {openAPIV3Schema: {type: object}}}
`)
		obj, _, err := codecs.Decode(doc, scheme.DecodeOptions{Strict: true})
		if err != nil {
			t.Fatal(err)
		}
		back := convert(t, s, convert(t, s, obj, v1.SchemeGroupVersion), v1beta1.SchemeGroupVersion).(*v1beta1.CustomResourceDefinition)
		if back.Spec.Validation == nil || back.Spec.Versions[0].Schema != nil || back.Spec.Versions[1].Schema != nil {
			t.Errorf("identical per-version schemas should come back at the top level: %+v", back.Spec)
		}
	})
	t.Run("NullDefaultDropped", func(t *testing.T) {
		var null apiextensions.JSON
		in := &apiextensions.JSONSchemaProps{Type: "string", Default: &null}
		var out v1.JSONSchemaProps
		if err := v1.Convert_apiextensions_JSONSchemaProps_To_v1_JSONSchemaProps(in, &out); err != nil {
			t.Fatal(err)
		}
		if out.Default != nil {
			t.Errorf("a null default should be dropped, got %s", out.Default.Raw)
		}
	})
	t.Run("EmptyWebhookDropped", func(t *testing.T) {
		crd := &v1.CustomResourceDefinition{Spec: v1.CustomResourceDefinitionSpec{
			Conversion: &v1.CustomResourceConversion{Strategy: v1.NoneConverter, Webhook: &v1.WebhookConversion{}},
		}}
		back := convert(t, s, convert(t, s, crd, apiextensions.SchemeGroupVersion), v1.SchemeGroupVersion).(*v1.CustomResourceDefinition)
		if back.Spec.Conversion.Webhook != nil {
			t.Errorf("an empty webhook has no place in the hub and should be dropped")
		}
	})
}

// FuzzRoundTrip_V1 decodes arbitrary JSON as a v1 CRD and checks that the
// trip v1 → internal → v1beta1 (as JSON bytes) → internal → v1 keeps it.
// `go test` runs the seed corpus; `go test -fuzz FuzzRoundTrip_V1` explores.
func FuzzRoundTrip_V1(f *testing.F) {
	codecs := newCodecs(f)
	s := codecs.Scheme()
	for _, doc := range loadDocs(f, "testdata/crds-v1beta1.yaml") {
		obj, _, err := codecs.Decode(doc, scheme.DecodeOptions{})
		if err != nil {
			f.Fatal(err)
		}
		b, err := json.Marshal(convert(f, s, obj, v1.SchemeGroupVersion))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add([]byte(`{"spec":{"versions":[{"name":"a","schema":{"openAPIV3Schema":{"default":12345678901234567890,"enum":[1e400,null,"x"]}}},{"name":"b"}]}}`))
	f.Add([]byte(`{"spec":{"versions":[],"conversion":{"strategy":"Webhook","webhook":{"conversionReviewVersions":[]}}}}`))
	f.Add([]byte(`{"spec":{"versions":[{"name":"a","additionalPrinterColumns":[]},{"name":"b"}],"preserveUnknownFields":true}}`))
	f.Add([]byte(`{"spec":{"versions":[{"name":"a","schema":{"openAPIV3Schema":{"items":[{"type":"string"}],"additionalProperties":false,"dependencies":{"x":["y"]}}}}]}}`))

	f.Fuzz(func(t *testing.T, data []byte) {
		original := &v1.CustomResourceDefinition{}
		if err := json.Unmarshal(data, original); err != nil {
			return
		}
		// Defaults fill what the hub cannot tell from zero (a webhook
		// service's port), as the decoder always does.
		v1.SetObjectDefaults_CustomResourceDefinition(original)
		normalizeKnownLosses(original)
		original.TypeMeta = metav1.TypeMeta{} // set by the scheme, not by conversion

		hub := &apiextensions.CustomResourceDefinition{}
		if err := s.Convert(original, hub); err != nil {
			return // e.g. a default that is not valid JSON cannot reach the hub
		}
		beta := &v1beta1.CustomResourceDefinition{}
		if err := s.Convert(hub, beta); err != nil {
			t.Fatalf("hub → v1beta1: %v", err)
		}
		wire, err := json.Marshal(beta)
		if err != nil {
			t.Fatalf("marshal v1beta1: %v", err)
		}
		beta2 := &v1beta1.CustomResourceDefinition{}
		if err := json.Unmarshal(wire, beta2); err != nil {
			t.Fatalf("unmarshal v1beta1 %s: %v", wire, err)
		}
		hub2 := &apiextensions.CustomResourceDefinition{}
		if err := s.Convert(beta2, hub2); err != nil {
			t.Fatalf("v1beta1 → hub: %v", err)
		}
		back := &v1.CustomResourceDefinition{}
		if err := s.Convert(hub2, back); err != nil {
			t.Fatalf("hub → v1: %v", err)
		}
		assertSameJSON(t, back, original)
	})
}

// normalizeKnownLosses rewrites the shapes that have no lossless trip
// upstream either (see TestRoundTrip_KnownLosses).
func normalizeKnownLosses(crd *v1.CustomResourceDefinition) {
	if len(crd.Spec.Versions) == 0 {
		crd.Spec.Versions = nil // v1beta1 omits an empty list
	}
	if c := crd.Spec.Conversion; c != nil && c.Webhook != nil {
		if len(c.Webhook.ConversionReviewVersions) == 0 {
			c.Webhook.ConversionReviewVersions = nil // v1beta1 omits an empty list
		}
		if c.Webhook.ClientConfig == nil && c.Webhook.ConversionReviewVersions == nil {
			c.Webhook = nil // the hub has no place for an empty webhook
		}
	}
}
