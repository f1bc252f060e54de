package openapi_test

import (
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/crdlab/crdlab/machinery/openapi"
)

// The types of TestGoTypes_SchemaOf: a kind with a spec, a recursive
// type, a type with its own JSON, an inlined struct and the meta fields.

type kindMeta struct {
	Kind       string `json:"kind,omitempty"`
	APIVersion string `json:"apiVersion,omitempty"`
}

type objectMeta struct {
	Name string `json:"name,omitempty"`
}

type widget struct {
	kindMeta   `json:",inline"`
	objectMeta `json:"metadata,omitempty"`
	Spec       widgetSpec    `json:"spec"`
	Status     *widgetStatus `json:"status,omitempty"`
	internal   int
}

func (widget) SwaggerDoc() map[string]string {
	return map[string]string{"": "A widget.", "spec": "What the widget should be."}
}

type color string

type widgetSpec struct {
	Color    color             `json:"color"`
	Size     int32             `json:"size,omitempty"`
	Weight   float64           `json:"weight,omitzero"`
	Tags     []string          `json:"tags,omitempty"`
	Labels   map[string]string `json:"labels,omitempty"`
	Data     []byte            `json:"data,omitempty"`
	Parts    []part            `json:"parts,omitempty"`
	Any      any               `json:"any,omitempty"`
	Raw      rawJSON           `json:"raw,omitempty"`
	When     stamp             `json:"when,omitempty"`
	Ignored  string            `json:"-"`
	Untagged bool
}

// part refers to itself: its schema must end.
type part struct {
	Name  string `json:"name"`
	Parts []part `json:"parts,omitempty"`
}

func (*part) SwaggerDoc() map[string]string { return map[string]string{"": "A part of parts."} }

type widgetStatus struct {
	Ready bool `json:"ready"`
}

// rawJSON writes itself: any JSON value.
type rawJSON struct{ b []byte }

func (r rawJSON) MarshalJSON() ([]byte, error) { return r.b, nil }

// stamp writes itself and says how, as metav1.Time does.
type stamp struct{ time.Time }

func (stamp) OpenAPISchemaType() []string { return []string{"string"} }
func (stamp) OpenAPISchemaFormat() string { return "date-time" }

func testName(t reflect.Type) string {
	if t == reflect.TypeFor[objectMeta]() {
		return "io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta" // a meta schema: not generated
	}
	return "test." + t.Name()
}

func TestGoTypes_SchemaOf(t *testing.T) {
	schema, defs, err := openapi.GoTypes{Name: testName}.SchemaOf(reflect.TypeFor[widget]())
	if err != nil {
		t.Fatal(err)
	}
	got := func(v any) string { b, _ := json.Marshal(v); return string(b) }
	props := schema["properties"].(map[string]any)

	for _, tc := range []struct{ name, got, want string }{
		{"Root", got(map[string]any{"type": schema["type"], "description": schema["description"], "required": schema["required"]}),
			`{"description":"A widget.","required":["spec"],"type":"object"}`},
		{"Inlined", got([]any{props["kind"], props["apiVersion"]}), `[{"type":"string"},{"type":"string"}]`},
		{"KnownMetaReferredTo", got(props["metadata"]), `{"$ref":"#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta"}`},
		{"DescribedRefInAllOf", got(props["spec"]), `{"allOf":[{"$ref":"#/components/schemas/test.widgetSpec"}],"description":"What the widget should be."}`},
		{"PointerIsItsElement", got(props["status"]), `{"$ref":"#/components/schemas/test.widgetStatus"}`},
		{"UnexportedLeftOut", got(props["internal"]), `null`},
		{"Spec", got(defs["test.widgetSpec"]), `{"properties":{` +
			`"Untagged":{"type":"boolean"},` +
			`"any":{},` +
			`"color":{"type":"string"},` +
			`"data":{"format":"byte","type":"string"},` +
			`"labels":{"additionalProperties":{"type":"string"},"type":"object"},` +
			`"parts":{"items":{"$ref":"#/components/schemas/test.part"},"type":"array"},` +
			`"raw":{"$ref":"#/components/schemas/test.rawJSON"},` +
			`"size":{"format":"int32","type":"integer"},` +
			`"tags":{"items":{"type":"string"},"type":"array"},` +
			`"weight":{"format":"double","type":"number"},` +
			`"when":{"$ref":"#/components/schemas/test.stamp"}` +
			`},"required":["color","Untagged"],"type":"object"}`},
		{"Recursive", got(defs["test.part"]), `{"description":"A part of parts.","properties":{` +
			`"name":{"type":"string"},"parts":{"items":{"$ref":"#/components/schemas/test.part"},"type":"array"}},` +
			`"required":["name"],"type":"object"}`},
		{"CustomJSONIsAnyValue", got(defs["test.rawJSON"]), `{}`},
		{"CustomJSONSaysWhatItIs", got(defs["test.stamp"]), `{"format":"date-time","type":"string"}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.got != tc.want {
				t.Errorf("got  %s\nwant %s", tc.got, tc.want)
			}
		})
	}
	if _, ok := defs["io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta"]; ok {
		t.Error("a meta schema was generated")
	}
	if len(defs) != 5 {
		t.Errorf("definitions: %d, want 5 (spec, status, part, rawJSON, stamp)", len(defs))
	}

	t.Run("Docs", func(t *testing.T) {
		docs := func(t reflect.Type) map[string]string { return map[string]string{"": "from Doc: " + t.Name()} }
		schema, defs, err := openapi.GoTypes{Name: testName, Doc: docs}.SchemaOf(reflect.TypeFor[widget]())
		if err != nil {
			t.Fatal(err)
		}
		if schema["description"] != "from Doc: widget" || defs["test.part"].(map[string]any)["description"] != "from Doc: part" {
			t.Errorf("Doc not used: %v, %v", schema["description"], defs["test.part"])
		}
	})
}

func TestGoTypes_SchemaOf_Errors(t *testing.T) {
	type withChan struct {
		C chan int `json:"c"`
	}
	type withIntMap struct {
		M map[int]string `json:"m"`
	}
	type a struct {
		X int `json:"x"`
	}
	type twoNamed struct {
		A a     `json:"a"`
		B color `json:"b"`
		P part  `json:"p"`
	}
	sameName := func(reflect.Type) string { return "same" }
	for _, tc := range []struct {
		name  string
		types openapi.GoTypes
		t     reflect.Type
		want  string
	}{
		{"ErrNotStruct", openapi.GoTypes{Name: testName}, reflect.TypeFor[color](), "not a struct"},
		{"ErrChannel", openapi.GoTypes{Name: testName}, reflect.TypeFor[withChan](), "no JSON form"},
		{"ErrMapKey", openapi.GoTypes{Name: testName}, reflect.TypeFor[withIntMap](), "not a string"},
		{"ErrNameTaken", openapi.GoTypes{Name: sameName}, reflect.TypeFor[twoNamed](), `both named "same"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := tc.types.SchemaOf(tc.t)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err = %v, want one containing %q", err, tc.want)
			}
		})
	}
}

func TestBuildGroupVersion_Definitions(t *testing.T) {
	defs := map[string]any{"test.Spec": map[string]any{"type": "object"}}
	r := cluster
	r.SchemaJSON = []byte(`{"type":"object","properties":{"spec":{"$ref":"#/components/schemas/test.Spec"}}}`)
	r.Definitions = defs
	doc := build(t, r)
	if got := obj(obj(doc["components"])["schemas"])["test.Spec"]; got == nil {
		t.Fatal("definition not in the document")
	}

	t.Run("ErrDifferentSchemaOneName", func(t *testing.T) {
		other := cronTab
		other.Definitions = map[string]any{"test.Spec": map[string]any{"type": "string"}}
		_, err := openapi.BuildGroupVersion("stable.example.com", "v1", []openapi.Resource{r, other})
		if !errors.Is(err, openapi.ErrInvalidResource) {
			t.Errorf("err = %v, want ErrInvalidResource", err)
		}
	})
	t.Run("SameSchemaTwice", func(t *testing.T) {
		other := cronTab
		other.Definitions = defs
		if _, err := openapi.BuildGroupVersion("stable.example.com", "v1", []openapi.Resource{r, other}); err != nil {
			t.Error(err)
		}
	})
}
