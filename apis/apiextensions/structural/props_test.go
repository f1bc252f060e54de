package structural_test

import (
	"encoding/json"
	"errors"
	"math"
	"reflect"
	"testing"

	"github.com/crdlab/crdlab/apis/apiextensions"
	"github.com/crdlab/crdlab/apis/apiextensions/structural"
	apiextensionsv1 "github.com/crdlab/crdlab/apis/apiextensions/v1"
	"github.com/crdlab/crdlab/internal/crdgen"
)

// viaJSON is the JSON way FromProps stands for: the hub schema converted
// to v1, written, and read by FromJSON.
func viaJSON(t *testing.T, p *apiextensions.JSONSchemaProps) (*structural.Structural, error) {
	t.Helper()
	var ext apiextensionsv1.JSONSchemaProps
	if err := apiextensionsv1.Convert_apiextensions_JSONSchemaProps_To_v1_JSONSchemaProps(p, &ext); err != nil {
		return nil, err
	}
	raw, err := json.Marshal(&ext)
	if err != nil {
		return nil, err
	}
	return structural.FromJSON(raw)
}

// hubSchema reads a v1 schema's JSON into the hub type, as a CRD's
// request body is.
func hubSchema(t *testing.T, js string) *apiextensions.JSONSchemaProps {
	t.Helper()
	var ext apiextensionsv1.JSONSchemaProps
	if err := json.Unmarshal([]byte(js), &ext); err != nil {
		t.Fatalf("%s: %v", js, err)
	}
	var p apiextensions.JSONSchemaProps
	if err := apiextensionsv1.Convert_v1_JSONSchemaProps_To_apiextensions_JSONSchemaProps(&ext, &p); err != nil {
		t.Fatal(err)
	}
	return &p
}

func ptr[T any](v T) *T { return &v }

// TestFromProps_SameAsFromJSON: FromProps gives the Structural (every
// field, the derived ones too) and the error the JSON way gives, or
// says it cannot (a value JSON would change).
func TestFromProps_SameAsFromJSON(t *testing.T) {
	var real apiextensionsv1.CustomResourceDefinition
	if err := json.Unmarshal(crdgen.CRD(3, crdgen.Options{Group: "g.example.io", Bytes: 64 << 10, Versions: 2, Seed: 1}), &real); err != nil {
		t.Fatal(err)
	}
	type tc struct {
		name string
		p    *apiextensions.JSONSchemaProps
	}
	cases := []tc{
		{"crontab", hubSchema(t, cronTabSchema)},
		{"everything", hubSchema(t, `{"type":"object","description":"d\u00e9 <&>","title":"t","nullable":true,
			"externalDocs":{"url":"u"},"example":{"a":[1,2.5,"x",null]},"required":["a"],
			"x-kubernetes-validations":[{"rule":"self.a > 0","message":"m","reason":"FieldValueInvalid","fieldPath":".a","optionalOldSelf":true},{"rule":"true"}],
			"properties":{
				"a":{"type":"integer","minimum":-0,"maximum":10,"exclusiveMaximum":true,"multipleOf":0.5,"default":3,"enum":[1,2,3]},
				"s":{"type":"string","pattern":"^a+$","minLength":1,"maxLength":3,"format":"byte"},
				"bad":{"type":"string","pattern":"("},
				"l":{"type":"array","items":{"type":"object","properties":{"k":{"type":"string"}},"required":["k"]},"x-kubernetes-list-type":"map","x-kubernetes-list-map-keys":["k"],"minItems":0,"maxItems":4,"uniqueItems":false},
				"m":{"type":"object","additionalProperties":{"type":"string"},"x-kubernetes-map-type":"granular","minProperties":1,"maxProperties":2},
				"f":{"type":"object","additionalProperties":false},
				"e":{"type":"object","x-kubernetes-embedded-resource":true,"x-kubernetes-preserve-unknown-fields":true},
				"i":{"x-kubernetes-int-or-string":true,"anyOf":[{"type":"integer"},{"type":"string"}],"allOf":[{"not":{"enum":[null,"x"]}}],"oneOf":[{"minimum":1}]},
				"p":{"type":"object","x-kubernetes-preserve-unknown-fields":false},
				"d":{"type":"number","default":2.0},
				"z":{"type":"object","default":{"a":{"b":1e3}}}}}`)},
		{"items array", &apiextensions.JSONSchemaProps{Type: "array", Items: &apiextensions.JSONSchemaPropsOrArray{JSONSchemas: []apiextensions.JSONSchemaProps{{Type: "string"}}}}},
		{"items null", &apiextensions.JSONSchemaProps{Type: "array", Items: &apiextensions.JSONSchemaPropsOrArray{}}},
		{"nested $ref", &apiextensions.JSONSchemaProps{Type: "object", Properties: map[string]apiextensions.JSONSchemaProps{"x": {Ref: ptr("#/a")}}}},
		{"dependencies", &apiextensions.JSONSchemaProps{Dependencies: apiextensions.JSONSchemaDependencies{"a": {Property: []string{"b"}}}}},
		{"empty lists", &apiextensions.JSONSchemaProps{Required: []string{}, Enum: []apiextensions.JSON{}, XValidations: apiextensions.ValidationRules{}, Properties: map[string]apiextensions.JSONSchemaProps{}}},
		{"null default and enum", &apiextensions.JSONSchemaProps{Default: ptr[apiextensions.JSON](nil), Example: ptr[apiextensions.JSON](map[string]any(nil)), Enum: []apiextensions.JSON{nil, float64(2), int64(3), "x"}}},
		{"empty external docs", &apiextensions.JSONSchemaProps{ExternalDocs: &apiextensions.ExternalDocumentation{}}},
	}
	for _, v := range real.Spec.Versions {
		var p apiextensions.JSONSchemaProps
		if err := apiextensionsv1.Convert_v1_JSONSchemaProps_To_apiextensions_JSONSchemaProps(v.Schema.OpenAPIV3Schema, &p); err != nil {
			t.Fatal(err)
		}
		cases = append(cases, tc{"crdgen " + v.Name, &p})
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := structural.FromProps(c.p)
			want, wantErr := viaJSON(t, c.p)
			if (err == nil) != (wantErr == nil) || err != nil && err.Error() != wantErr.Error() {
				t.Fatalf("error %v, the JSON way %v", err, wantErr)
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("FromProps and the JSON way differ:\n%#v\n%#v", got, want)
			}
		})
	}
}

// TestFromProps_NotJSON: a schema that its JSON would change is refused
// (the CRD validation then takes the JSON way).
func TestFromProps_NotJSON(t *testing.T) {
	for name, p := range map[string]*apiextensions.JSONSchemaProps{
		"NaN minimum":           {Minimum: ptr(math.NaN())},
		"infinite multipleOf":   {Properties: map[string]apiextensions.JSONSchemaProps{"a": {MultipleOf: ptr(math.Inf(1))}}},
		"not UTF-8 description": {Description: "\xff"},
		"not UTF-8 key":         {Properties: map[string]apiextensions.JSONSchemaProps{"\xff": {}}},
		"default of a channel":  {Default: ptr[apiextensions.JSON](make(chan int))},
	} {
		if s, err := structural.FromProps(p); err == nil || errors.Is(err, structural.ErrInvalidSchema) {
			t.Errorf("%s: FromProps gave %v, %v; want the not-JSON error", name, s, err)
		}
	}
}
