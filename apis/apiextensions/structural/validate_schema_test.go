package structural_test

import (
	"testing"

	"github.com/crdlab/crdlab/apis/apiextensions/structural"
)

func TestValidateStructural(t *testing.T) {
	const p = "spec.versions[0].schema.openAPIV3Schema"
	tests := []struct {
		name, schema string
		want         []string
	}{
		{"OKCronTab", cronTabSchema, nil},
		{"OKMetadataEmptyProperties", `{"type":"object","properties":{"metadata":{"type":"object","properties":{}}}}`, nil},
		{"OKMetadataName", `{"type":"object","properties":{"metadata":{"type":"object","properties":{"name":{"type":"string","maxLength":10}}}}}`, nil},
		{"OKIntOrStringAnyOf", `{"type":"object","properties":{"p":{"x-kubernetes-int-or-string":true,"anyOf":[{"type":"integer"},{"type":"string"}]}}}`, nil},
		{"OKIntOrStringAllOf", `{"type":"object","properties":{"p":{"x-kubernetes-int-or-string":true,"allOf":[{"anyOf":[{"type":"integer"},{"type":"string"}]},{"pattern":"^\\d+%?$"}]}}}`, nil},
		{"OKJunctorOnDeclaredFields", `{"type":"object","properties":{"s":{"type":"object","properties":{"a":{"type":"string"}},"oneOf":[{"required":["a"]},{"properties":{"a":{"maxLength":2}}}]}}}`, nil},
		{"OKPreserveUnknownWithoutType", `{"type":"object","properties":{"x":{"x-kubernetes-preserve-unknown-fields":true}}}`, nil},
		{"ErrFieldType", `{"type":"object","properties":{"spec":{"properties":{"a":{"type":"string"}}}}}`,
			[]string{p + ".properties[spec].type: Required value: must not be empty for specified object fields"}},
		{"ErrRootType", `{"properties":{"a":{"type":"string"}}}`,
			[]string{p + ".type: Required value: must not be empty at the root"}},
		{"ErrItemsType", `{"type":"object","properties":{"a":{"type":"array","items":{}}}}`,
			[]string{p + ".properties[a].items.type: Required value: must not be empty for specified array items"}},
		{"ErrNoItems", `{"type":"object","properties":{"a":{"type":"array"}}}`,
			[]string{p + ".properties[a].items: Required value: must be specified"}},
		{"ErrRootNotObject", `{"type":"string"}`,
			[]string{p + ".type: Invalid value: \"string\": must be object at the root"}},
		{"ErrRootAdditionalProperties", `{"type":"object","additionalProperties":{"type":"string"}}`,
			[]string{p + ".additionalProperties: Forbidden: must not be used at the root"}},
		{"ErrBothPropertiesAndAdditional", `{"type":"object","properties":{"m":{"type":"object","properties":{"a":{"type":"string"}},"additionalProperties":{"type":"string"}}}}`,
			[]string{p + ".properties[m].additionalProperties: Forbidden: additionalProperties and properties are mutual exclusive"}},
		{"ErrMetadata", `{"type":"object","properties":{"metadata":{"type":"object","properties":{"labels":{"type":"object"}}}}}`,
			[]string{p + ".properties[metadata]: Forbidden: must not specify anything other than name and generateName, but metadata is implicitly specified"}},
		{"ErrMetaTypes", `{"type":"object","properties":{"kind":{"type":"integer"},"apiVersion":{"type":"object"},"metadata":{"type":"string"}}}`,
			[]string{p + `.properties[kind].type: Invalid value: "integer": must be string`,
				p + `.properties[apiVersion].type: Invalid value: "object": must be string`,
				p + `.properties[metadata].type: Invalid value: "string": must be object`}},
		{"ErrJunctorGenerics", `{"type":"object","properties":{"a":{"type":"string","anyOf":[{"type":"string","nullable":true,"description":"d","default":"x"}]}}}`,
			[]string{p + ".properties[a].anyOf[0].type: Forbidden: must be empty to be structural",
				p + ".properties[a].anyOf[0].default: Forbidden: must be undefined to be structural",
				p + ".properties[a].anyOf[0].description: Forbidden: must be empty to be structural",
				p + ".properties[a].anyOf[0].nullable: Forbidden: must be false to be structural"}},
		{"ErrJunctorMetadata", `{"type":"object","properties":{"s":{"type":"object","properties":{"metadata":{"type":"object"}},"not":{"properties":{"metadata":{}}}}}}`,
			[]string{p + ".properties[s].not.properties[metadata]: Forbidden: must not be specified in a nested context"}},
		{"ErrJunctorUndeclaredField", `{"type":"object","properties":{"s":{"type":"object","properties":{"a":{"type":"string"}},"anyOf":[{"properties":{"b":{"minLength":1}}}]}}}`,
			[]string{p + ".properties[s].properties[b]: Required value: because it is defined in " + p + ".properties[s].anyOf[0].properties[b]"}},
		{"ErrIntOrStringWithPreserve", `{"type":"object","properties":{"p":{"x-kubernetes-int-or-string":true,"x-kubernetes-preserve-unknown-fields":true}}}`,
			[]string{p + ".properties[p].x-kubernetes-preserve-unknown-fields: Invalid value: true: must be false if x-kubernetes-int-or-string is true"}},
		{"ErrEmbedded", `{"type":"object","properties":{"e":{"x-kubernetes-embedded-resource":true}}}`,
			[]string{p + ".properties[e].type: Required value: must be object if x-kubernetes-embedded-resource is true",
				p + ".properties[e].properties: Required value: must not be empty if x-kubernetes-embedded-resource is true without x-kubernetes-preserve-unknown-fields"}},
		{"ErrUnsupported", `{"type":"object","properties":{"a":{"$ref":"#/x","type":"string"},"b":{"type":"array","items":[{"type":"string"}]},"c":{"type":"array","items":{"type":"string"},"uniqueItems":true}}}`,
			[]string{p + ".properties[a].$ref: Forbidden: $ref is not supported",
				p + ".properties[b].items: Forbidden: items must be a schema object and not an array",
				p + ".properties[c].uniqueItems: Forbidden: uniqueItems cannot be set to true since the runtime complexity becomes quadratic",
				p + ".properties[b].items: Required value: must be specified"}},
		{"ErrTypeName", `{"type":"object","properties":{"a":{"type":"int"},"b":{"type":"null"}}}`,
			[]string{p + `.properties[a].type: Unsupported value: "int": supported values: "array", "boolean", "integer", "number", "object", "string"`,
				p + ".properties[b].type: Forbidden: type cannot be set to null, use nullable as an alternative"}},
		{"ErrListType", `{"type":"object","properties":{
			"a":{"type":"array","items":{"type":"string"},"x-kubernetes-list-type":"map"},
			"b":{"type":"array","items":{"type":"string"},"x-kubernetes-list-type":"bag"},
			"c":{"type":"array","items":{"type":"object","properties":{"k":{"type":"object"}}},"x-kubernetes-list-type":"map","x-kubernetes-list-map-keys":["k","missing"]},
			"d":{"type":"array","items":{"type":"string"},"x-kubernetes-list-map-keys":["k"]}}}`,
			[]string{p + ".properties[a].x-kubernetes-list-map-keys: Required value: must not be empty if x-kubernetes-list-type is map",
				p + `.properties[a].items.type: Invalid value: "string": must be object if parent array's x-kubernetes-list-type is map`,
				p + `.properties[b].x-kubernetes-list-type: Unsupported value: "bag": supported values: "atomic", "set", "map"`,
				p + `.properties[c].items.properties[k].type: Invalid value: "object": must be a scalar type if parent array's x-kubernetes-list-type is map`,
				p + ".properties[c].items.properties[missing]: Required value: must be present as item property if parent array's x-kubernetes-list-map-keys contains it",
				p + ".properties[d].x-kubernetes-list-map-keys: Forbidden: must be empty if x-kubernetes-list-type is not map"}},
		{"ErrDefault", `{"type":"object","properties":{"a":{"type":"integer","default":"x"},"b":{"type":"object","properties":{"c":{"type":"string"}},"default":{"c":"ok","d":1}}}}`,
			[]string{p + `.properties[a].default: Invalid value: "string":  in body must be of type integer: "string"`,
				p + `.properties[b].default: Invalid value: {"c":"ok","d":1}: must not have unknown fields`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			checkErrors(t, structural.ValidateStructural(mustSchema(t, tt.schema), p), tt.want)
		})
	}
	if errs := structural.ValidateStructural(nil, p); errs != nil {
		t.Errorf("ValidateStructural(nil) = %v", errs)
	}
}
