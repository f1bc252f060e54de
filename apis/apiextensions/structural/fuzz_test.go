package structural_test

import (
	"testing"

	"github.com/crdlab/crdlab/apis/apiextensions/structural"
	"github.com/crdlab/crdlab/apis/meta/v1/unstructured"
	"github.com/crdlab/crdlab/apis/validation/field"
)

var fuzzSchemas = []string{
	cronTabSchema,
	`{"type":"object","properties":{"x":{"type":"string","anyOf":[{"maxLength":2},{"pattern":"^a"}]},"y":{"type":"integer","oneOf":[{"minimum":5},{"maximum":0}],"not":{"enum":[7]}}}}`,
	`{"type":"object","properties":{"m":{"type":"object","additionalProperties":false,"minProperties":1,"maxProperties":3},"n":{"type":"number","multipleOf":0.1}}}`,
	`{"type":"object","properties":{"e":{"type":"object","x-kubernetes-embedded-resource":true,"properties":{"a":{"type":"array","items":{"type":"array","items":{"type":"string"}},"x-kubernetes-list-type":"set"}}}}}`,
	`{"type":"object","properties":{"p":{"type":"string","pattern":"("},"a":{"type":"array"}}}`,
	`{}`,
}

var fuzzObjects = []string{
	`{"apiVersion":"v1","kind":"K","metadata":{"name":"x"},"spec":{"cronSpec":"* * * * *","replicas":3,"ports":[{"name":"a"},{"name":"a"}],"tags":["x","x"]}}`,
	`{"x":"bcd","y":7,"m":{"a":1,"b":2,"c":3,"d":4},"n":0.30000000000000004}`,
	`{"e":{"a":[["x"],["x"]],"kind":"bad kind","apiVersion":1}}`,
	`{"spec":null,"status":{"conditions":[null,{"type":1}]}}`,
	`{"p":"x","a":[1,{"b":null}]}`,
}

// FuzzValidate checks that FromJSON, ValidateStructural, Validate and
// Default never panic, whatever the schema and the object.
func FuzzValidate(f *testing.F) {
	for i, s := range fuzzSchemas {
		f.Add(s, fuzzObjects[i%len(fuzzObjects)])
	}
	f.Fuzz(func(t *testing.T, schema, object string) {
		s, err := structural.FromJSON([]byte(schema))
		if err != nil {
			return
		}
		_ = structural.ValidateStructural(field.NewPath("schema"), s)
		_ = structural.ValidateDefaults(field.NewPath("schema"), s, true, true)
		obj, err := unstructured.DecodeJSONObject([]byte(object))
		if err != nil {
			return
		}
		for _, e := range structural.Validate(s, obj) {
			_ = e.Error()
		}
		structural.Default(s, obj)
		_ = structural.Validate(s, obj)
	})
}

// FuzzPrune checks that Prune never panics, reports sorted paths, and is
// idempotent: pruning a pruned object drops nothing more.
func FuzzPrune(f *testing.F) {
	for i, s := range fuzzSchemas {
		f.Add(s, fuzzObjects[i%len(fuzzObjects)], i%2 == 0)
	}
	f.Fuzz(func(t *testing.T, schema, object string, root bool) {
		s, err := structural.FromJSON([]byte(schema))
		if err != nil {
			return
		}
		obj, err := unstructured.DecodeJSONObject([]byte(object))
		if err != nil {
			return
		}
		paths := structural.Prune(s, obj, root)
		for i := 1; i < len(paths); i++ {
			if paths[i-1] > paths[i] {
				t.Fatalf("paths not sorted: %q", paths)
			}
		}
		if again := structural.Prune(s, obj, root); len(again) != 0 {
			t.Fatalf("second Prune dropped %q", again)
		}
	})
}
