package structural_test

import (
	"encoding/json"
	"errors"
	"reflect"
	"testing"

	"github.com/crdlab/crdlab/apis/apiextensions/structural"
)

func TestDefault(t *testing.T) {
	tests := []struct {
		name, schema, obj, want string
	}{
		{"MissingField", `{"type":"object","properties":{"a":{"type":"integer","default":1}}}`, `{}`, `{"a":1}`},
		{"PresentKept", `{"type":"object","properties":{"a":{"type":"integer","default":1}}}`, `{"a":5}`, `{"a":5}`},
		{"NonNullableNullReplaced", `{"type":"object","properties":{"a":{"type":"integer","default":1}}}`, `{"a":null}`, `{"a":1}`},
		{"NullableNullKept", `{"type":"object","properties":{"a":{"type":"integer","nullable":true,"default":1}}}`, `{"a":null}`, `{"a":null}`},
		{"NestedInDefault", `{"type":"object","properties":{"s":{"type":"object","default":{},"properties":{"r":{"type":"integer","default":3}}}}}`,
			`{}`, `{"s":{"r":3}}`},
		{"NotIntoMissingParent", `{"type":"object","properties":{"s":{"type":"object","properties":{"r":{"type":"integer","default":3}}}}}`,
			`{}`, `{}`},
		{"ArrayItems", `{"type":"object","properties":{"ports":{"type":"array","items":{"type":"object","properties":{"protocol":{"type":"string","default":"TCP"}}}}}}`,
			`{"ports":[{"port":80},{"port":53,"protocol":"UDP"}]}`, `{"ports":[{"port":80,"protocol":"TCP"},{"port":53,"protocol":"UDP"}]}`},
		{"ArrayNullItem", `{"type":"object","properties":{"l":{"type":"array","items":{"type":"string","default":"x"}}}}`,
			`{"l":["a",null]}`, `{"l":["a","x"]}`},
		{"AdditionalProperties", `{"type":"object","properties":{"m":{"type":"object","additionalProperties":{"type":"object","properties":{"on":{"type":"boolean","default":true}}}}}}`,
			`{"m":{"a":{},"b":{"on":false}}}`, `{"m":{"a":{"on":true},"b":{"on":false}}}`},
		{"AdditionalPropertiesNull", `{"type":"object","properties":{"m":{"type":"object","additionalProperties":{"type":"string","default":"d"}}}}`,
			`{"m":{"a":null}}`, `{"m":{"a":"d"}}`},
		{"ObjectDefault", `{"type":"object","properties":{"spec":{"type":"object","properties":{"x":{"type":"object","default":{"a":[1,2]},"properties":{"a":{"type":"array","items":{"type":"integer"}}}}}}}}`,
			`{"spec":{}}`, `{"spec":{"x":{"a":[1,2]}}}`},
		{"UnknownFieldsUntouched", `{"type":"object","properties":{"a":{"type":"integer","default":1}}}`, `{"b":{"c":null}}`, `{"a":1,"b":{"c":null}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			obj := mustObject(t, tt.obj)
			structural.Default(mustSchema(t, tt.schema), obj)
			if want := mustObject(t, tt.want); !reflect.DeepEqual(obj, want) {
				got, _ := json.Marshal(obj)
				t.Errorf("got %s, want %s", got, tt.want)
			}
		})
	}
	t.Run("DeepCopies", func(t *testing.T) {
		s := mustSchema(t, `{"type":"object","properties":{"x":{"type":"object","default":{"a":[1]},"properties":{"a":{"type":"array","items":{"type":"integer"}}}}}}`)
		o1, o2 := map[string]any{}, map[string]any{}
		structural.Default(s, o1)
		structural.Default(s, o2)
		o1["x"].(map[string]any)["a"].([]any)[0] = int64(99)
		if got := o2["x"].(map[string]any)["a"].([]any)[0]; got != int64(1) {
			t.Errorf("defaults are shared: %v", got)
		}
		if got := s.Properties["x"].Default.(map[string]any)["a"].([]any)[0]; got != int64(1) {
			t.Errorf("schema default changed: %v", got)
		}
	})
	t.Run("NilSchema", func(t *testing.T) {
		structural.Default(nil, map[string]any{"a": 1})
	})
}

func TestPrune(t *testing.T) {
	tests := []struct {
		name, schema, obj string
		root              bool
		want              string
		paths             []string
	}{
		{"RootKeepsMeta", cronTabSchema, `{"apiVersion":"v","kind":"K","metadata":{"name":"n","x":1},"foo":1,"spec":{"cronSpec":"x","bar":{"a":1}}}`, true,
			`{"apiVersion":"v","kind":"K","metadata":{"name":"n","x":1},"spec":{"cronSpec":"x"}}`, []string{"foo", "spec.bar"}},
		{"NotRootDropsMetaSilently", `{"type":"object","properties":{"a":{"type":"string"}}}`, `{"kind":"K","a":"x","b":1}`, false,
			`{"a":"x"}`, []string{"b"}},
		{"ArrayItems", cronTabSchema, `{"spec":{"ports":[{"name":"a","extra":1},{"name":"b","more":{"x":1}}]}}`, true,
			`{"spec":{"ports":[{"name":"a"},{"name":"b"}]}}`, []string{"spec.ports[0].extra", "spec.ports[1].more"}},
		{"PreserveUnknownKeepsButPrunesDeclared", cronTabSchema, `{"status":{"anything":{"deep":1},"conditions":[{"type":"Ready","junk":1}]}}`, true,
			`{"status":{"anything":{"deep":1},"conditions":[{"type":"Ready"}]}}`, []string{"status.conditions[0].junk"}},
		{"AdditionalPropertiesKeepsKeys", cronTabSchema, `{"spec":{"labels":{"a":"1","b":"2"}}}`, true,
			`{"spec":{"labels":{"a":"1","b":"2"}}}`, nil},
		{"EmbeddedKeepsMeta", `{"type":"object","properties":{"t":{"type":"object","x-kubernetes-embedded-resource":true,"properties":{"spec":{"type":"object"}}}}}`,
			`{"t":{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"x":1},"status":{}}}`, false,
			`{"t":{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{}}}`, []string{"t.spec.x", "t.status"}},
		{"EmbeddedMetaAsObjectMeta", `{"type":"object","properties":{"t":{"type":"object","x-kubernetes-embedded-resource":true,"properties":{"spec":{"type":"object"}}},
		  "u":{"type":"object","x-kubernetes-embedded-resource":true,"x-kubernetes-preserve-unknown-fields":true}}}`,
			`{"t":{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p","junk":1,"labels":{},"generation":0,"creationTimestamp":null,"finalizers":[],"deletionGracePeriodSeconds":0}},
			  "u":{"apiVersion":"v1","kind":"Pod","metadata":{"name":"q","annotations":{"a":"b"},"junk":{"x":1}},"other":1}}`, false,
			`{"t":{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p","deletionGracePeriodSeconds":0}},
			  "u":{"apiVersion":"v1","kind":"Pod","metadata":{"name":"q","annotations":{"a":"b"}},"other":1}}`, []string{"t.metadata.junk", "u.metadata.junk"}},
		{"NestedMetaFieldsReported", `{"type":"object","properties":{"s":{"type":"object"}}}`, `{"s":{"kind":"x"}}`, false,
			`{"s":{}}`, []string{"s.kind"}},
		{"ScalarsUntouched", `{"type":"object","properties":{"a":{"type":"string"}}}`, `{"a":"x"}`, true, `{"a":"x"}`, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			obj := mustObject(t, tt.obj)
			paths := structural.Prune(mustSchema(t, tt.schema), obj, tt.root)
			if want := mustObject(t, tt.want); !reflect.DeepEqual(obj, want) {
				got, _ := json.Marshal(obj)
				t.Errorf("got %s, want %s", got, tt.want)
			}
			if !reflect.DeepEqual(paths, tt.paths) {
				t.Errorf("paths = %q, want %q", paths, tt.paths)
			}
		})
	}
	t.Run("NilSchemaAtRoot", func(t *testing.T) {
		obj := map[string]any{"apiVersion": "v", "kind": "K", "metadata": map[string]any{}, "spec": map[string]any{}}
		if paths := structural.Prune(nil, obj, true); !reflect.DeepEqual(paths, []string{"spec"}) || len(obj) != 3 {
			t.Errorf("paths = %v, obj = %v", paths, obj)
		}
	})
}

func TestFromJSON(t *testing.T) {
	t.Run("OK", func(t *testing.T) {
		s := mustSchema(t, cronTabSchema)
		spec := s.Properties["spec"]
		if spec.Type != "object" || spec.Required[0] != "cronSpec" {
			t.Fatalf("spec = %+v", spec)
		}
		r := spec.Properties["replicas"]
		if *r.Minimum != 1 || *r.Maximum != 10 || r.Default != int64(1) {
			t.Errorf("replicas = %+v", r)
		}
		if !spec.Properties["port"].XIntOrString || *spec.Properties["tags"].XListType != "set" ||
			spec.Properties["ports"].XListMapKeys[0] != "name" || spec.Properties["labels"].AdditionalProperties.Type != "string" ||
			!spec.Properties["template"].XEmbeddedResource || !s.Properties["status"].XPreserveUnknownFields {
			t.Errorf("extensions not read")
		}
		if got := spec.Properties["mode"].Enum; !reflect.DeepEqual(got, []any{"a", "b"}) {
			t.Errorf("enum = %v", got)
		}
	})
	t.Run("AdditionalPropertiesBool", func(t *testing.T) {
		s := mustSchema(t, `{"type":"object","additionalProperties":false}`)
		if s.AdditionalPropertiesBool == nil || *s.AdditionalPropertiesBool || s.AdditionalProperties != nil {
			t.Errorf("additionalProperties = %v, %v", s.AdditionalPropertiesBool, s.AdditionalProperties)
		}
	})
	t.Run("DefaultNullIsNoDefault", func(t *testing.T) {
		if s := mustSchema(t, `{"type":"string","default":null}`); s.Default != nil {
			t.Errorf("Default = %v", s.Default)
		}
	})
	for _, tt := range []struct{ name, schema, msg string }{
		{"ErrNotJSON", `{`, "invalid JSON: unexpected EOF"},
		{"ErrTrailing", `{} {}`, "invalid JSON: unexpected data after the schema"},
		{"ErrNotObject", `[]`, "must be an object"},
		{"ErrMinLength", `{"properties":{"a":{"minLength":"3"}}}`, "properties[a].minLength: must be an integer"},
		{"ErrMinLengthFraction", `{"minLength":1.5}`, "minLength: must be an integer"},
		{"ErrType", `{"type":1}`, "type: must be a string"},
		{"ErrRequired", `{"required":"a"}`, "required: must be an array of strings"},
		{"ErrMinimum", `{"minimum":"1"}`, "minimum: must be a number"},
		{"ErrNullable", `{"nullable":"yes"}`, "nullable: must be a boolean"},
		{"ErrProperties", `{"properties":[]}`, "properties: must be an object"},
		{"ErrAllOf", `{"allOf":{}}`, "allOf: must be an array"},
		{"ErrItem", `{"items":{"items":3}}`, "items.items: must be an object"},
		{"ErrEnum", `{"enum":3}`, "enum: must be an array"},
		{"ErrRef", `{"properties":{"a":{"$ref":"#/x"}}}`, "properties[a]: OpenAPIV3Schema '$ref' is not supported"},
		{"ErrID", `{"id":"x"}`, "OpenAPIV3Schema 'id' is not supported"},
		{"ErrSchema", `{"$schema":"x"}`, "OpenAPIV3Schema 'schema' is not supported"},
		{"ErrPatternProperties", `{"patternProperties":{}}`, "OpenAPIV3Schema 'patternProperties' is not supported"},
		{"ErrDependencies", `{"dependencies":{}}`, "OpenAPIV3Schema 'dependencies' is not supported"},
		{"ErrAdditionalItems", `{"additionalItems":false}`, "OpenAPIV3Schema 'additionalItems' is not supported"},
		{"ErrDefinitions", `{"definitions":{}}`, "OpenAPIV3Schema 'definitions' is not supported"},
		{"ErrItemsArray", `{"items":[{}]}`, "OpenAPIV3Schema 'items' must be a schema, but is an array"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := structural.FromJSON([]byte(tt.schema))
			if err == nil || err.Error() != tt.msg {
				t.Errorf("err = %v, want %s", err, tt.msg)
			}
			if !errors.Is(err, structural.ErrInvalidSchema) {
				t.Errorf("errors.Is(err, ErrInvalidSchema) = false")
			}
		})
	}
}
