package openapi

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/crdlab/crdlab/internal/crdgen"
)

// TestBuildGroupVersion_SameBytes: the document's own encoder
// (document.appendJSON) writes exactly what encoding/json writes for it:
// keys sorted, <, > and & escaped, numbers as written, the definitions'
// Go values (ints, string lists) as encoding/json writes them.
func TestBuildGroupVersion_SameBytes(t *testing.T) {
	opts := crdgen.Options{Group: "svc.provider.example.io", Bytes: 40 << 10, Versions: 1, Seed: 1}
	var crd struct {
		Spec struct {
			Versions []struct {
				Schema struct {
					OpenAPIV3Schema json.RawMessage `json:"openAPIV3Schema"`
				} `json:"schema"`
			} `json:"versions"`
		} `json:"spec"`
	}
	if err := json.Unmarshal(crdgen.CRD(0, opts), &crd); err != nil {
		t.Fatal(err)
	}
	hand := []byte(`{"type":"object","description":"a <b> & \"c\" é \u2028","properties":{
		"spec":{"type":"object","properties":{
			"n":{"type":"number","default":1.0,"maximum":1e3,"enum":[1.50,-0,2E-2]},
			"inner":{"type":"object","x-kubernetes-embedded-resource":true,"x-kubernetes-preserve-unknown-fields":true},
			"list":{"type":"array","items":{"type":"string"},"x-kubernetes-list-type":"set"}}},
		"metadata":{"type":"object"}}}`)
	resources := []Resource{
		{Group: opts.Group, Version: "v1", Kind: "Generated", Plural: "generateds", Namespaced: true, HasStatus: true,
			SchemaJSON: crd.Spec.Versions[0].Schema.OpenAPIV3Schema},
		{Group: opts.Group, Version: "v1", Kind: "Hand", Plural: "hands", SchemaJSON: hand,
			Scale: &ScaleInfo{SpecReplicasPath: ".spec.replicas", StatusReplicasPath: ".status.replicas"}},
		{Group: opts.Group, Version: "v1", Kind: "NoSchema", Plural: "noschemas"},
		{Group: opts.Group, Version: "v1", Kind: "Typed", Plural: "typeds", Verbs: []string{"create"},
			SchemaJSON: []byte(`{"$ref":"#/components/schemas/x.Typed"}`),
			Definitions: map[string]any{"x.Typed": map[string]any{"type": "object", "required": []string{"a<b"},
				"properties": map[string]any{"a<b": map[string]any{"type": "integer", "maximum": 7, "minimum": int64(-3), "x-ok": true}}}}},
	}
	doc, err := buildDocument(opts.Group, "v1", resources)
	if err != nil {
		t.Fatal(err)
	}
	want, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	got, err := doc.appendJSON(nil)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		i := 0
		for i < len(got) && i < len(want) && got[i] == want[i] {
			i++
		}
		t.Fatalf("appendJSON differs from json.Marshal at byte %d of %d/%d: %.80q against %.80q", i, len(got), len(want), got[i:], want[i:])
	}
	built, err := BuildGroupVersion(opts.Group, "v1", resources)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(built, want) {
		t.Fatalf("BuildGroupVersion wrote %d bytes, json.Marshal of its document %d", len(built), len(want))
	}
	if !bytes.Contains(want, []byte(`"default":1.0`)) || !bytes.Contains(want, []byte(`\u003cb\u003e \u0026`)) {
		t.Fatalf("the document lost a number's text or the escapes: %.300s", want)
	}
}
