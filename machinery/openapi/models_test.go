package openapi_test

import (
	"reflect"
	"testing"

	"github.com/crdlab/crdlab/machinery/openapi"
)

func TestModels(t *testing.T) {
	t.Run("KindsOfEveryVersionAndTheMetaSchemas", func(t *testing.T) {
		res := func(v, schema string) openapi.Resource {
			return openapi.Resource{Group: "example.com", Version: v, Kind: "Widget", Plural: "widgets", SchemaJSON: []byte(schema)}
		}
		models, err := openapi.Models([]openapi.Resource{
			res("v1", `{"type":"object","properties":{"spec":{"type":"object"}}}`),
			res("v2", ""),
		})
		if err != nil {
			t.Fatal(err)
		}
		v1 := models["com.example.v1.Widget"].(map[string]any)
		props := v1["properties"].(map[string]any)
		for _, p := range []string{"apiVersion", "kind", "metadata", "spec"} {
			if props[p] == nil {
				t.Errorf("v1 has no %s", p)
			}
		}
		gvk := v1["x-kubernetes-group-version-kind"].([]any)[0].(map[string]any)
		if gvk["version"] != "v1" || gvk["kind"] != "Widget" {
			t.Errorf("v1's gvk %v", gvk)
		}
		// Without a schema, an object of any fields, as upstream.
		want := map[string]any{"type": "object", "x-kubernetes-group-version-kind": []any{
			map[string]any{"group": "example.com", "version": "v2", "kind": "Widget"}}}
		if got := models["com.example.v2.Widget"]; !reflect.DeepEqual(got, want) {
			t.Errorf("v2: %v, want %v", got, want)
		}
		for _, name := range []string{"io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta", "io.k8s.api.autoscaling.v1.Scale"} {
			if models[name] == nil {
				t.Errorf("no %s", name)
			}
		}
	})
	t.Run("EmbeddedResourcesGetTypeAndObjectMeta", func(t *testing.T) {
		models, err := openapi.Models([]openapi.Resource{{Group: "example.com", Version: "v1", Kind: "Widget", Plural: "widgets",
			SchemaJSON: []byte(`{"type":"object","properties":{"spec":{"type":"object","properties":{
				"template":{"type":"object","x-kubernetes-embedded-resource":true,"properties":{"spec":{"type":"object"}}},
				"items":{"type":"array","items":{"type":"object","x-kubernetes-embedded-resource":true,"x-kubernetes-preserve-unknown-fields":true}}}}}}`)}})
		if err != nil {
			t.Fatal(err)
		}
		spec := models["com.example.v1.Widget"].(map[string]any)["properties"].(map[string]any)["spec"].(map[string]any)["properties"].(map[string]any)
		tmpl := spec["template"].(map[string]any)["properties"].(map[string]any)
		item := spec["items"].(map[string]any)["items"].(map[string]any)["properties"].(map[string]any)
		for _, props := range []map[string]any{tmpl, item} {
			for _, p := range []string{"apiVersion", "kind", "metadata"} {
				if props[p] == nil {
					t.Errorf("embedded resource without %s: %v", p, props)
				}
			}
		}
	})
	t.Run("ConflictingDefinitionsAreRefused", func(t *testing.T) {
		_, err := openapi.Models([]openapi.Resource{
			{Group: "g", Version: "v1", Kind: "A", Plural: "as", SchemaJSON: []byte(`{"type":"object"}`), Definitions: map[string]any{"x": map[string]any{"type": "string"}}},
			{Group: "g", Version: "v1", Kind: "B", Plural: "bs", SchemaJSON: []byte(`{"type":"object"}`), Definitions: map[string]any{"x": map[string]any{"type": "integer"}}},
		})
		if err == nil {
			t.Fatal("two definitions of x were accepted")
		}
	})
}

type markedSpec struct {
	Conditions []markedCondition `json:"conditions,omitempty"`
	Tags       []string          `json:"tags,omitempty"`
	Ref        markedCondition   `json:"ref"`
	Labels     map[string]string `json:"labels,omitempty"`
}

type markedCondition struct {
	Type string `json:"type"`
}

func TestGoTypes_Markers(t *testing.T) {
	g := openapi.GoTypes{
		Name: func(t reflect.Type) string { return "test." + t.Name() },
		Markers: openapi.Markers{
			reflect.TypeFor[markedSpec](): {
				"conditions": openapi.ListMap("type"),
				"tags":       openapi.ListSet(),
				"ref":        openapi.MapAtomic(),
			},
			reflect.TypeFor[markedCondition](): {"": openapi.MapAtomic()},
		},
	}
	s, defs, err := g.SchemaOf(reflect.TypeFor[markedSpec]())
	if err != nil {
		t.Fatal(err)
	}
	props := s["properties"].(map[string]any)
	if c := props["conditions"].(map[string]any); c["x-kubernetes-list-type"] != "map" || !reflect.DeepEqual(c["x-kubernetes-list-map-keys"], []any{"type"}) {
		t.Errorf("conditions: %v", c)
	}
	if tags := props["tags"].(map[string]any); tags["x-kubernetes-list-type"] != "set" {
		t.Errorf("tags: %v", tags)
	}
	// A $ref takes no siblings: the marker wraps it in an allOf.
	ref := props["ref"].(map[string]any)
	if ref["x-kubernetes-map-type"] != "atomic" || ref["$ref"] != nil || ref["allOf"] == nil {
		t.Errorf("ref: %v", ref)
	}
	if c := defs["test.markedCondition"].(map[string]any); c["x-kubernetes-map-type"] != "atomic" {
		t.Errorf("markedCondition: %v", c)
	}
	if l := props["labels"].(map[string]any); l["x-kubernetes-map-type"] != nil {
		t.Errorf("labels got a marker: %v", l)
	}
}
