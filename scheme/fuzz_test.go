package scheme_test

import (
	"bytes"
	"encoding/json"
	"os"
	"testing"

	"github.com/crdlab/crdlab/apis/apiextensions/install"
	"github.com/crdlab/crdlab/scheme"
)

// fuzzCodecs are the codecs the server decodes request bodies of CRDs
// with: apiextensions.k8s.io v1 and v1beta1 (and the internal hub).
func fuzzCodecs(f *testing.F) scheme.CodecFactory {
	f.Helper()
	s := scheme.NewScheme()
	install.Install(s)
	return scheme.NewCodecFactory(s)
}

// fuzzSeedDocs are the example CRD and object manifests plus a few hostile
// documents: wrong types, deep nesting, YAML anchors, trailing data.
func fuzzSeedDocs(f *testing.F) [][]byte {
	f.Helper()
	var docs [][]byte
	for _, p := range []string{"../examples/testdata/crontab-crd.yaml", "../examples/testdata/crontab.yaml"} {
		b, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		docs = append(docs, scheme.SplitYAMLDocuments(b)...)
	}
	docs = append(docs,
		[]byte(`{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition","metadata":{"name":"a.b"},"spec":{"versions":"nope"}}`),
		[]byte(`{"apiVersion":"apiextensions.k8s.io/v1beta1","kind":"CustomResourceDefinition","spec":{"validation":{"openAPIV3Schema":{"default":1e400}}}}`),
		[]byte(`{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition"} {}`),
		[]byte(`{"apiVersion":"apiextensions.k8s.io/__internal","kind":"CustomResourceDefinition"}`),
		[]byte("apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata: &a {name: x}\nspec: {names: *a}\n"),
		[]byte("apiVersion: [\nkind: 1"),
		[]byte(`[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[`),
		[]byte(`{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition","metadata":{"name":"\u0000/.."}}`),
	)
	return docs
}

// FuzzCodecFactory_DecodeJSON checks that Decode never panics on JSON, and
// that whatever it accepts encodes, and decodes again to the same bytes:
// what the server stores it can always serve back.
func FuzzCodecFactory_DecodeJSON(f *testing.F) {
	codecs := fuzzCodecs(f)
	for _, doc := range fuzzSeedDocs(f) {
		if j, err := scheme.ToJSON(doc); err == nil {
			f.Add(j, false)
			f.Add(j, true)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte, strict bool) {
		trimmed := bytes.TrimSpace(data)
		if len(trimmed) == 0 || trimmed[0] != '{' {
			return // YAML is FuzzCodecFactory_DecodeYAML's
		}
		roundTrip(t, codecs, data, strict)
	})
}

// FuzzCodecFactory_DecodeYAML is FuzzCodecFactory_DecodeJSON for YAML
// documents and multi-document streams (SplitYAMLDocuments, ToJSON).
func FuzzCodecFactory_DecodeYAML(f *testing.F) {
	codecs := fuzzCodecs(f)
	for _, doc := range fuzzSeedDocs(f) {
		f.Add(doc)
	}
	f.Add([]byte("---\n# only a comment\n---\napiVersion: v1\nkind: List\n--- \n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, doc := range scheme.SplitYAMLDocuments(data) {
			if len(bytes.TrimSpace(doc)) == 0 {
				t.Fatalf("SplitYAMLDocuments returned an empty document from %q", data)
			}
			j, err := scheme.ToJSON(doc)
			if err != nil {
				continue
			}
			trimmed := bytes.TrimSpace(doc)
			if len(trimmed) > 0 && trimmed[0] != '{' && trimmed[0] != '[' && !json.Valid(j) {
				t.Fatalf("ToJSON(%q) = %q, not JSON", doc, j)
			}
			roundTrip(t, codecs, doc, false)
		}
	})
}

// roundTrip decodes data; if that works, the object must encode to its
// own version, and that encoding must decode and encode to the same bytes.
func roundTrip(t *testing.T, codecs scheme.CodecFactory, data []byte, strict bool) {
	t.Helper()
	obj, gvk, err := codecs.Decode(data, scheme.DecodeOptions{Strict: strict})
	if err != nil {
		return
	}
	if gvk.Kind == "" || gvk.Version == "" {
		t.Fatalf("Decode(%q) accepted a document without kind or version: %v", data, gvk)
	}
	first, err := codecs.Encode(obj, gvk.GroupVersion())
	if err != nil {
		t.Fatalf("Decode(%q) accepted what Encode refuses: %v", data, err)
	}
	obj2, gvk2, err := codecs.Decode(first, scheme.DecodeOptions{Strict: true})
	if err != nil {
		t.Fatalf("Encode wrote %s, which Decode refuses: %v", first, err)
	}
	if gvk2 != gvk {
		t.Fatalf("kind changed in a round trip: %v → %v", gvk, gvk2)
	}
	second, err := codecs.Encode(obj2, gvk.GroupVersion())
	if err != nil {
		t.Fatalf("second Encode: %v", err)
	}
	if !bytes.Equal(first, second) {
		t.Fatalf("round trip not stable:\n%s\n%s", first, second)
	}
}
