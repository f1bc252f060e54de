package structural_test

import (
	"encoding/json"
	"fmt"

	"github.com/crdlab/crdlab/apis/apiextensions/structural"
	"github.com/crdlab/crdlab/apis/validation/field"
)

// Example walks a custom resource through what the server does on create:
// prune unknown fields, apply defaults, validate.
func Example() {
	s, err := structural.FromJSON([]byte(`{
		"type": "object",
		"properties": {
			"spec": {
				"type": "object",
				"required": ["cronSpec"],
				"properties": {
					"cronSpec": {"type": "string"},
					"replicas": {"type": "integer", "minimum": 1, "default": 1},
					"mode":     {"type": "string", "enum": ["a", "b"]}
				}
			}
		}
	}`))
	if err != nil {
		panic(err)
	}
	fmt.Println(structural.ValidateStructural(field.NewPath("spec", "versions").Index(0).Child("schema", "openAPIV3Schema"), s))

	obj := map[string]any{
		"apiVersion": "stable.example.com/v1",
		"kind":       "CronTab",
		"metadata":   map[string]any{"name": "my-cron"},
		"spec":       map[string]any{"mode": "c", "foo": "bar"},
	}
	fmt.Println(structural.Prune(s, obj, true))
	structural.Default(s, obj)
	out, _ := json.Marshal(obj["spec"])
	fmt.Println(string(out))
	for _, e := range structural.Validate(s, obj) {
		fmt.Println(e)
	}
	// Output:
	// []
	// [spec.foo]
	// {"mode":"c","replicas":1}
	// spec.mode: Unsupported value: "c": supported values: "a", "b"
	// spec.cronSpec: Required value
}

func ExampleValidateStructural() {
	s, _ := structural.FromJSON([]byte(`{"type":"object","properties":{"spec":{"properties":{"x":{"type":"string"}}}}}`))
	for _, e := range structural.ValidateStructural(field.NewPath("spec", "versions").Index(0).Child("schema", "openAPIV3Schema"), s) {
		fmt.Println(e)
	}
	// Output:
	// spec.versions[0].schema.openAPIV3Schema.properties[spec].type: Required value: must not be empty for specified object fields
}
