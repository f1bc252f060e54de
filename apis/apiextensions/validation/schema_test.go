package validation_test

import (
	"encoding/json"
	"runtime"
	"strings"
	"testing"

	"github.com/crdlab/crdlab/apis/apiextensions"
	apiextensionsv1 "github.com/crdlab/crdlab/apis/apiextensions/v1"
	"github.com/crdlab/crdlab/apis/apiextensions/validation"
)

// withSchema is validCRD with its schema replaced by the hub form of a
// v1 openAPIV3Schema written as JSON.
func withSchema(t *testing.T, schemaJSON string) *apiextensions.CustomResourceDefinition {
	t.Helper()
	var ext apiextensionsv1.JSONSchemaProps
	if err := json.Unmarshal([]byte(schemaJSON), &ext); err != nil {
		t.Fatalf("schema: %v", err)
	}
	var in apiextensions.JSONSchemaProps
	if err := apiextensionsv1.Convert_v1_JSONSchemaProps_To_apiextensions_JSONSchemaProps(&ext, &in); err != nil {
		t.Fatalf("convert: %v", err)
	}
	crd := validCRD()
	crd.Spec.Validation.OpenAPIV3Schema = &in
	return crd
}

// TestValidateCustomResourceDefinition_Schema covers the schema rules:
// structural ones (package structural) and the OpenAPI subset a CRD may use,
// with upstream's paths and messages.
func TestValidateCustomResourceDefinition_Schema(t *testing.T) {
	const p = "spec.validation.openAPIV3Schema"
	for _, tc := range []struct {
		name, schema string
		want         []string // the whole error list, in order
	}{
		{"OKPreserveUnknownFieldsWithoutType", `{"type":"object","properties":{"config":{"x-kubernetes-preserve-unknown-fields":true},
			"list":{"type":"array","items":{"x-kubernetes-preserve-unknown-fields":true}}}}`, nil},
		{"OKEmbeddedWithDefault", `{"type":"object","properties":{"t":{"type":"object","x-kubernetes-embedded-resource":true,
			"x-kubernetes-preserve-unknown-fields":true,"default":{"apiVersion":"v1","kind":"Pod"}}}}`, nil},
		{"ErrNonStructuralType", `{"type":"object","properties":{"spec":{"properties":{"a":{"type":"string"}}}}}`,
			[]string{p + ".properties[spec].type: Required value: must not be empty for specified object fields"}},
		{"ErrUnsupported", `{"type":"object","properties":{"a":{"$ref":"#/x","type":"string"},"b":{"type":"array","items":[{"type":"string"}]},"c":{"type":"array","items":{"type":"string"},"uniqueItems":true}}}`,
			[]string{p + ".properties[a].$ref: Forbidden: $ref is not supported",
				p + ".properties[b].items: Forbidden: items must be a schema object and not an array",
				p + ".properties[c].uniqueItems: Forbidden: uniqueItems cannot be set to true since the runtime complexity becomes quadratic"}},
		{"ErrTypeName", `{"type":"object","properties":{"a":{"type":"int"},"b":{"type":"null"}}}`,
			[]string{p + `.properties[a].type: Unsupported value: "int": supported values: "array", "boolean", "integer", "number", "object", "string"`,
				p + `.properties[b].type: Unsupported value: "null": supported values: "array", "boolean", "integer", "number", "object", "string"`,
				p + ".properties[b].type: Forbidden: type cannot be set to null, use nullable as an alternative"}},
		{"ErrBothPropertiesAndAdditional", `{"type":"object","properties":{"m":{"type":"object","properties":{"a":{"type":"string"}},"additionalProperties":{"type":"string"}}}}`,
			[]string{p + ".properties[m].additionalProperties: Forbidden: additionalProperties and properties are mutual exclusive"}},
		{"ErrPreserveUnknownFieldsFalse", `{"type":"object","properties":{"a":{"type":"object","x-kubernetes-preserve-unknown-fields":false}}}`,
			[]string{p + ".properties[a].x-kubernetes-preserve-unknown-fields: Invalid value: false: must be true or undefined"}},
		{"ErrNullableRoot", `{"type":"object","nullable":true}`,
			[]string{p + ".nullable: Forbidden: nullable cannot be true at the root"}},
		{"ErrDefaultInMetadata", `{"type":"object","properties":{"metadata":{"type":"object","properties":{"name":{"type":"string","default":"x"}}}}}`,
			[]string{p + ".properties[metadata].properties[name].default: Forbidden: must not be set in top-level metadata"}},
		{"ErrMapType", `{"type":"object","properties":{"a":{"type":"string","x-kubernetes-map-type":"tree"}}}`,
			[]string{p + `.properties[a].type: Invalid value: "string": must be object if x-kubernetes-map-type is specified`,
				p + `.properties[a].x-kubernetes-map-type: Unsupported value: "tree": supported values: "atomic", "granular"`}},
		{"ErrListType", `{"type":"object","properties":{
			"a":{"type":"array","items":{"type":"string"},"x-kubernetes-list-type":"map"},
			"b":{"type":"array","items":{"type":"string"},"x-kubernetes-list-type":"bag"},
			"c":{"type":"array","items":{"type":"object","required":["k"],"properties":{"k":{"type":"object"}}},"x-kubernetes-list-type":"map","x-kubernetes-list-map-keys":["k","missing"]},
			"d":{"type":"array","items":{"type":"string"},"x-kubernetes-list-map-keys":["k"]},
			"e":{"type":"string","x-kubernetes-list-type":"set"}}}`,
			[]string{p + ".properties[a].x-kubernetes-list-map-keys: Required value: must not be empty if x-kubernetes-list-type is map",
				p + `.properties[a].items.type: Invalid value: "string": must be object if parent array's x-kubernetes-list-type is map`,
				p + `.properties[b].x-kubernetes-list-type: Unsupported value: "bag": supported values: "atomic", "set", "map"`,
				p + `.properties[c].items.properties[k].type: Invalid value: "object": must be a scalar type if parent array's x-kubernetes-list-type is map`,
				p + `.properties[c].x-kubernetes-list-map-keys: Invalid value: ["k","missing"]: entries must all be names of item properties`,
				p + `.properties[d].x-kubernetes-list-type: Required value: must be map if x-kubernetes-list-map-keys is non-empty`,
				p + `.properties[e].type: Invalid value: "string": must be array if x-kubernetes-list-type is specified`}},
		{"ErrListMapKeyNotRequired", `{"type":"object","properties":{"l":{"type":"array","x-kubernetes-list-type":"map","x-kubernetes-list-map-keys":["name"],
			"items":{"type":"object","nullable":true,"properties":{"name":{"type":"string","nullable":true}}}}}}`,
			[]string{p + ".properties[l].items.nullable: Forbidden: cannot be nullable when x-kubernetes-list-type is map",
				p + ".properties[l].items.properties[name].default: Required value: this property is in x-kubernetes-list-map-keys, so it must have a default or be a required property",
				p + ".properties[l].items.properties[name].nullable: Forbidden: this property is in x-kubernetes-list-map-keys, so it cannot be nullable"}},
		{"ErrSetOfGranularObjects", `{"type":"object","properties":{"s":{"type":"array","x-kubernetes-list-type":"set","items":{"type":"object","properties":{"a":{"type":"string"}}}}}}`,
			[]string{p + ".properties[s].items.x-kubernetes-map-type: Invalid value: null: must be atomic as item of a list with x-kubernetes-list-type=set"}},
		{"ErrDefault", `{"type":"object","properties":{"a":{"type":"integer","default":"x"},"b":{"type":"object","properties":{"c":{"type":"string"}},"default":{"c":"ok","d":1}}}}`,
			[]string{p + `.properties[a].default: Invalid value: "string":  in body must be of type integer: "string"`,
				p + `.properties[b].default: Invalid value: {"c":"ok","d":1}: must not have unknown fields`}},
		// Sibling properties are checked through one copy of their
		// schema: each error keeps its own property's values.
		{"ErrSiblingsKeepTheirValues", `{"type":"object","properties":{
			"a":{"type":"array","items":{"type":"object","required":["k"],"properties":{"k":{"type":"string"}}},"x-kubernetes-list-type":"map","x-kubernetes-list-map-keys":["k","x"]},
			"b":{"type":"array","items":{"type":"object","required":["k"],"properties":{"k":{"type":"string"}}},"x-kubernetes-list-type":"map","x-kubernetes-list-map-keys":["k","y"]},
			"c":{"type":"object","properties":{"d":{"type":"int"},"e":{"type":"object","properties":{"f":{"type":"bool"}}}}}}}`,
			[]string{p + `.properties[a].x-kubernetes-list-map-keys: Invalid value: ["k","x"]: entries must all be names of item properties`,
				p + `.properties[b].x-kubernetes-list-map-keys: Invalid value: ["k","y"]: entries must all be names of item properties`,
				p + `.properties[c].properties[d].type: Unsupported value: "int": supported values: "array", "boolean", "integer", "number", "object", "string"`,
				p + `.properties[c].properties[e].properties[f].type: Unsupported value: "bool": supported values: "array", "boolean", "integer", "number", "object", "string"`}},
		// Structural errors hide the defaults' (defaults of a
		// non-structural schema are not looked at).
		{"ErrStructuralBeforeDefaults", `{"type":"object","properties":{"a":{"default":"x"}}}`,
			[]string{p + ".properties[a].type: Required value: must not be empty for specified object fields"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := fields(validation.ValidateCustomResourceDefinition(withSchema(t, tc.schema)))
			if want := strings.Join(tc.want, "\n"); got != want {
				t.Errorf("errors:\n got:\n%s\nwant:\n%s", got, want)
			}
		})
	}
}

// TestValidateCustomResourceDefinition_StatusRoot: with the status
// subresource on, the root may only set fields that survive cutting
// status out.
func TestValidateCustomResourceDefinition_StatusRoot(t *testing.T) {
	crd := withSchema(t, `{"type":"object","anyOf":[{"required":["spec"]}],"properties":{"spec":{"type":"object"}}}`)
	crd.Spec.Subresources = &apiextensions.CustomResourceSubresources{Status: &apiextensions.CustomResourceSubresourceStatus{}}
	got := fields(validation.ValidateCustomResourceDefinition(crd))
	if !strings.Contains(got, "spec.validation.openAPIV3Schema: Invalid value: ") || !strings.Contains(got, "only [Description Type Format Title Maximum ExclusiveMaximum Minimum ExclusiveMinimum MaxLength MinLength Pattern MaxItems MinItems UniqueItems MultipleOf Required Items Properties ExternalDocs Example XPreserveUnknownFields XValidations] fields are allowed at the root of the schema if the status subresource is enabled") {
		t.Errorf("got %s", got)
	}
}

// TestValidateCustomResourceDefinitionUpdate_Ratcheting: a rule the stored
// CRD already broke is not enforced on update; one it kept is.
func TestValidateCustomResourceDefinitionUpdate_Ratcheting(t *testing.T) {
	const unpruned = `{"type":"object","properties":{"b":{"type":"object","properties":{"c":{"type":"string"}},"default":{"c":"ok","d":1}}}}`
	const pruned = `{"type":"object","properties":{"b":{"type":"object","properties":{"c":{"type":"string"}},"default":{"c":"ok"}}}}`
	const unknownType = `{"type":"object","properties":{"a":{"type":"int"}}}`
	for _, tc := range []struct {
		name, old, new string
		want           string
	}{
		{"UnprunedDefaultKept", unpruned, unpruned, ""},
		{"ErrUnprunedDefaultAdded", pruned, unpruned, `spec.validation.openAPIV3Schema.properties[b].default: Invalid value: {"c":"ok","d":1}: must not have unknown fields`},
		{"UnknownTypeKept", unknownType, unknownType, ""},
		{"ErrUnknownTypeAdded", pruned, unknownType, `spec.validation.openAPIV3Schema.properties[a].type: Unsupported value: "int"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			old := withSchema(t, tc.old)
			old.ResourceVersion = "1"
			n := withSchema(t, tc.new)
			n.ResourceVersion = "1"
			got := fields(validation.ValidateCustomResourceDefinitionUpdate(n, old))
			if tc.want == "" && got != "" || !strings.Contains(got, tc.want) {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}

// TestValidateCustomResourceDefinition_DeepSchema: a schema nested 3,000
// levels is checked in linear time and memory (issue 21, finding 7: the
// paths of the structural checks used to be rebuilt as strings at every
// level).
func TestValidateCustomResourceDefinition_DeepSchema(t *testing.T) {
	var b strings.Builder
	for range 3000 {
		b.WriteString(`{"type":"object","properties":{"a":`)
	}
	b.WriteString(`{"type":"string","default":"x"}`)
	b.WriteString(strings.Repeat("}}", 3000))
	crd := withSchema(t, `{"type":"object","properties":{"spec":`+b.String()+`}}`)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	errs := validation.ValidateCustomResourceDefinition(crd)
	runtime.ReadMemStats(&after)
	if len(errs) != 0 {
		t.Fatal(fields(errs))
	}
	if n := after.TotalAlloc - before.TotalAlloc; n > 64<<20 {
		t.Errorf("validating a 3,000-level schema allocated %d MB", n>>20)
	}
}
