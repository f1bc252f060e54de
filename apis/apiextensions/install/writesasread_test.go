package install_test

import (
	"bytes"
	"testing"

	"github.com/crdlab/crdlab/apis/apiextensions"
	v1 "github.com/crdlab/crdlab/apis/apiextensions/v1"
	"github.com/crdlab/crdlab/apis/apiextensions/validation"
	"github.com/crdlab/crdlab/internal/crdgen"
	"github.com/crdlab/crdlab/scheme"
)

// writeAndRead decodes body as the handler decodes a request (to the
// internal version, with the body's version's defaults), then writes the
// spec as the CRD storage codec does (v1 JSON) and reads that back.
func writeAndRead(t *testing.T, codecs scheme.CodecFactory, body []byte) (read, back *apiextensions.CustomResourceDefinition, ok bool) {
	t.Helper()
	obj, err := codecs.DecodeToVersion(body, apiextensions.SchemeGroupVersion, scheme.DecodeOptions{})
	if err != nil {
		return nil, nil, false
	}
	read = obj.(*apiextensions.CustomResourceDefinition)
	wire, err := codecs.Encode(read, v1.SchemeGroupVersion)
	if err != nil {
		return nil, nil, false // not writable: never stored
	}
	obj, err = codecs.DecodeToVersion(wire, apiextensions.SchemeGroupVersion, scheme.DecodeOptions{})
	if err != nil {
		t.Fatalf("reading back what was written: %v\n%s", err, wire)
	}
	return read, obj.(*apiextensions.CustomResourceDefinition), true
}

// TestSpecWritesAsRead_RoundTrip: the specs of real-shaped CRDs (crdgen's,
// v1 and v1beta1 table cases) write as read, and SpecWritesAsRead says
// so; specs with an empty list or an integral float in a JSON value do
// not, and SpecWritesAsRead says that too.
func TestSpecWritesAsRead_RoundTrip(t *testing.T) {
	codecs := newCodecs(t)
	bodies := loadDocs(t, "testdata/crds-v1beta1.yaml")
	for i, o := range []crdgen.Options{{Bytes: 60 << 10, Versions: 1, Seed: 1}, {Bytes: 265 << 10, Versions: 2, Seed: 2}, {Bytes: 100 << 10, Versions: 3, Seed: 3}} {
		bodies = append(bodies, crdgen.CRD(i, o))
	}
	for i, body := range bodies {
		read, back, ok := writeAndRead(t, codecs, body)
		if !ok {
			t.Fatalf("body %d: not decoded or written", i)
		}
		if !apiextensions.SpecWritesAsRead(&read.Spec) {
			t.Errorf("body %d: SpecWritesAsRead false for a spec without an empty list", i)
		}
		if !apiextensions.EqualSpecs(&read.Spec, &back.Spec) {
			t.Errorf("body %d: the spec read back differs from the one written", i)
		}
	}

	// What does not write as read, and SpecWritesAsRead says so.
	for _, tc := range []struct{ name, from, to string }{
		{"EmptyList", `"type":"object"`, `"required":[],"type":"object"`},
		{"IntegralFloatDefault", `"type":"object"`, `"type":"object","default":{},"x-kubernetes-preserve-unknown-fields":true,"example":2.0`},
		{"NegativeZeroInEnum", `"type":"object"`, `"type":"object","x-kubernetes-preserve-unknown-fields":true,"enum":[{"a":[1.5,-0.0]}]`},
	} {
		body := bytes.Replace(crdgen.CRD(0, crdgen.Options{Bytes: 20 << 10, Versions: 2, Seed: 4}), []byte(tc.from), []byte(tc.to), 1)
		read, back, ok := writeAndRead(t, codecs, body)
		if !ok {
			t.Fatalf("%s: not decoded or written", tc.name)
		}
		if apiextensions.EqualSpecs(&read.Spec, &back.Spec) {
			t.Errorf("%s: read back as written: the case lost its point", tc.name)
		}
		if apiextensions.SpecWritesAsRead(&read.Spec) {
			t.Errorf("%s: SpecWritesAsRead true", tc.name)
		}
	}
}

// FuzzSpecWritesAsRead: whenever SpecWritesAsRead says a decoded spec
// writes as read, it does. `go test` runs the seeds; `go test -fuzz
// FuzzSpecWritesAsRead ./apis/apiextensions/install/` explores.
func FuzzSpecWritesAsRead(f *testing.F) {
	codecs := newCodecs(f)
	for _, doc := range loadDocs(f, "testdata/crds-v1beta1.yaml") {
		f.Add(doc)
	}
	for i := range 3 {
		f.Add(crdgen.CRD(i, crdgen.Options{Bytes: 4 << 10, Versions: i + 1, Seed: uint64(5 + i)}))
	}
	for _, s := range []string{
		`{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition","spec":{"versions":[{"name":"a","schema":{"openAPIV3Schema":{"default":12345678901234567890,"enum":[1e400,null,"x",[],{}],"example":-0}}},{"name":"b"}]}}`,
		`{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition","spec":{"versions":[],"conversion":{"strategy":"Webhook","webhook":{"conversionReviewVersions":[],"clientConfig":{"caBundle":""}}}}}`,
		`{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition","spec":{"versions":[{"name":"a","additionalPrinterColumns":[]},{"name":"b"}],"preserveUnknownFields":true}}`,
		`{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition","spec":{"versions":[{"name":"a","schema":{"openAPIV3Schema":{"items":[{"type":"string"}],"additionalProperties":false,"dependencies":{"x":["y"],"z":{"type":"object"}},"properties":{"p":{"items":{"type":"string"},"additionalItems":true,"x-kubernetes-list-map-keys":[],"x-kubernetes-validations":[]}}}}}]}}`,
		`{"apiVersion":"apiextensions.k8s.io/v1beta1","kind":"CustomResourceDefinition","spec":{"version":"v1","validation":{"openAPIV3Schema":{"type":"object","properties":{}}},"additionalPrinterColumns":[{"name":"A","type":"string","JSONPath":".a"}]}}`,
		`{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition","metadata":{"name":"as.example.com"},"spec":{"group":"example.com","scope":"Namespaced","names":{"plural":"as","kind":"A"},"versions":[{"name":"v1","served":true,"storage":true,"schema":{"openAPIV3Schema":{"type":"object","properties":{"n":{"type":"number","default":2.0,"enum":[1.0,-0.0,1.5,1e21,12345678901234567890],"example":-0}}}}}]}}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		read, back, ok := writeAndRead(t, codecs, body)
		// Only a spec that passed validation is ever written (a create's;
		// an update's rules are the same but for those the stored CRD
		// already broke).
		if !ok || len(validation.ValidateCustomResourceDefinition(read)) > 0 || !apiextensions.SpecWritesAsRead(&read.Spec) {
			return
		}
		if !apiextensions.EqualSpecs(&read.Spec, &back.Spec) {
			t.Errorf("SpecWritesAsRead true, but the spec read back differs from the one written:\n%s", body)
		}
	})
}

// BenchmarkSpecWritesAsRead: the check on a real-size spec (265 KiB of
// JSON, two versions), next to the decode it saves (BenchmarkCodec in
// registry/customresourcedefinition).
func BenchmarkSpecWritesAsRead(b *testing.B) {
	codecs := newCodecs(b)
	obj, err := codecs.DecodeToVersion(crdgen.CRD(0, crdgen.Options{Bytes: 265 << 10, Versions: 2, Seed: 2}), apiextensions.SchemeGroupVersion, scheme.DecodeOptions{})
	if err != nil {
		b.Fatal(err)
	}
	spec := &obj.(*apiextensions.CustomResourceDefinition).Spec
	b.ReportAllocs()
	for b.Loop() {
		if !apiextensions.SpecWritesAsRead(spec) {
			b.Fatal("false")
		}
	}
}
