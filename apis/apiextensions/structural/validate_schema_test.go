package structural_test

import (
	"testing"

	"github.com/crdlab/crdlab/apis/apiextensions/structural"
	"github.com/crdlab/crdlab/apis/validation/field"
)

func TestValidateStructural(t *testing.T) {
	const p = "spec.versions[0].schema.openAPIV3Schema"
	root := field.NewPath("spec", "versions").Index(0).Child("schema", "openAPIV3Schema")
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
		// Issue 18, item 1: x-kubernetes-preserve-unknown-fields stands in
		// for the type, at a field and as array items.
		{"OKPreserveUnknownWithoutType", `{"type":"object","properties":{"x":{"x-kubernetes-preserve-unknown-fields":true}}}`, nil},
		{"OKPreserveUnknownItemsWithoutType", `{"type":"object","properties":{"l":{"type":"array","items":{"x-kubernetes-preserve-unknown-fields":true}}}}`, nil},
		{"OKPreserveUnknownRootWithoutType", `{"x-kubernetes-preserve-unknown-fields":true}`, nil},
		{"OKIntOrStringWithoutType", `{"type":"object","properties":{"x":{"x-kubernetes-int-or-string":true}}}`, nil},
		// As upstream, completeness follows the root's junctors only.
		{"OKNestedJunctorNotCompletenessChecked", `{"type":"object","properties":{"s":{"type":"object","properties":{"a":{"type":"string"}},"anyOf":[{"properties":{"b":{"minLength":1}}}]}}}`, nil},
		{"OKJunctorAdditionalPropertiesFalse", `{"type":"object","properties":{"s":{"type":"object","anyOf":[{"additionalProperties":false}]}}}`, nil},
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
		{"ErrMetadata", `{"type":"object","properties":{"metadata":{"type":"object","properties":{"labels":{"type":"object"}}}}}`,
			[]string{p + ".properties[metadata]: Forbidden: must not specify anything other than name and generateName, but metadata is implicitly specified"}},
		{"ErrMetadataDescription", `{"type":"object","properties":{"metadata":{"type":"object","description":"d"}}}`,
			[]string{p + ".properties[metadata]: Forbidden: must not specify anything other than name and generateName, but metadata is implicitly specified"}},
		{"ErrMetaTypes", `{"type":"object","properties":{"kind":{"type":"integer"},"apiVersion":{"type":"object"},"metadata":{"type":"string"}}}`,
			[]string{p + `.properties[apiVersion].type: Invalid value: "object": must be string`,
				p + `.properties[kind].type: Invalid value: "integer": must be string`,
				p + `.properties[metadata].type: Invalid value: "string": must be object`}},
		{"ErrJunctorGenerics", `{"type":"object","properties":{"a":{"type":"string","anyOf":[{"type":"string","nullable":true,"description":"d","default":"x","title":"t"}]}}}`,
			[]string{p + ".properties[a].anyOf[0].default: Forbidden: must be undefined to be structural",
				p + ".properties[a].anyOf[0].description: Forbidden: must be empty to be structural",
				p + ".properties[a].anyOf[0].nullable: Forbidden: must be false to be structural",
				p + ".properties[a].anyOf[0].title: Forbidden: must be empty to be structural",
				p + ".properties[a].anyOf[0].type: Forbidden: must be empty to be structural"}},
		{"ErrJunctorExtensions", `{"type":"object","properties":{"a":{"type":"object","allOf":[{"additionalProperties":true,"x-kubernetes-validations":[{"rule":"true"}],"x-kubernetes-map-type":"atomic"}]}}}`,
			[]string{p + ".properties[a].allOf[0].additionalProperties: Forbidden: must be undefined to be structural",
				p + ".properties[a].allOf[0].x-kubernetes-map-type: Forbidden: must be undefined to be structural",
				p + ".properties[a].allOf[0].x-kubernetes-validations: Forbidden: must be empty to be structural"}},
		{"ErrJunctorMetadata", `{"type":"object","properties":{"s":{"type":"object","properties":{"metadata":{"type":"object"}},"not":{"properties":{"metadata":{}}}}}}`,
			[]string{p + ".properties[s].not.properties[metadata]: Forbidden: must not be specified in a nested context"}},
		{"ErrRootJunctorUndeclaredField", `{"type":"object","properties":{"s":{"type":"object","properties":{"a":{"type":"string"}}}},"anyOf":[{"properties":{"s":{"properties":{"b":{"minLength":1}}}}}]}`,
			[]string{p + ".properties[s].properties[b]: Required value: because it is defined in " + p + ".anyOf[0].properties[s].properties[b]"}},
		{"ErrRootJunctorUndeclaredItems", `{"type":"object","properties":{"s":{"type":"object"}},"allOf":[{"properties":{"s":{"items":{"minLength":1}}}}]}`,
			[]string{p + ".properties[s].items: Required value: because it is defined in " + p + ".allOf[0].properties[s].items"}},
		{"ErrIntOrStringWithPreserve", `{"type":"object","properties":{"p":{"x-kubernetes-int-or-string":true,"x-kubernetes-preserve-unknown-fields":true}}}`,
			[]string{p + ".properties[p].x-kubernetes-preserve-unknown-fields: Invalid value: true: must be false if x-kubernetes-int-or-string is true"}},
		{"ErrEmbedded", `{"type":"object","properties":{"e":{"x-kubernetes-embedded-resource":true}}}`,
			[]string{p + ".properties[e].properties: Required value: must not be empty if x-kubernetes-embedded-resource is true without x-kubernetes-preserve-unknown-fields",
				p + ".properties[e].type: Required value: must be object if x-kubernetes-embedded-resource is true"}},
		{"ErrEmbeddedAdditionalProperties", `{"type":"object","properties":{"e":{"type":"object","x-kubernetes-embedded-resource":true,"x-kubernetes-preserve-unknown-fields":true,"additionalProperties":{"type":"string"}}}}`,
			[]string{p + ".properties[e].additionalProperties: Forbidden: must not be used if x-kubernetes-embedded-resource is set"}},
		{"ErrBadPattern", `{"type":"object","properties":{"p":{"type":"string","pattern":"("}}}`,
			[]string{p + ".properties[p].pattern: Invalid value: \"(\": must be a valid regular expression, but isn't: error parsing regexp: missing closing ): `(`"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			checkErrors(t, structural.ValidateStructural(root, mustSchema(t, tt.schema)), tt.want)
		})
	}
	if errs := structural.ValidateStructural(root, nil); errs != nil {
		t.Errorf("ValidateStructural(nil) = %v", errs)
	}
}

func TestValidateDefaults(t *testing.T) {
	const p = "spec.versions[0].schema.openAPIV3Schema"
	root := field.NewPath("spec", "versions").Index(0).Child("schema", "openAPIV3Schema")
	tests := []struct {
		name, schema string
		pruned       bool
		want         []string
	}{
		{"OK", `{"type":"object","properties":{"a":{"type":"integer","default":1},"b":{"type":"object","properties":{"c":{"type":"string"}},"default":{"c":"x"}}}}`, true, nil},
		{"ErrType", `{"type":"object","properties":{"a":{"type":"integer","default":"x"}}}`, true,
			[]string{p + `.properties[a].default: Invalid value: "string":  in body must be of type integer: "string"`}},
		{"ErrUnknownFields", `{"type":"object","properties":{"b":{"type":"object","properties":{"c":{"type":"string"}},"default":{"c":"ok","d":1}}}}`, true,
			[]string{p + `.properties[b].default: Invalid value: {"c":"ok","d":1}: must not have unknown fields`}},
		{"UnknownFieldsRatcheted", `{"type":"object","properties":{"b":{"type":"object","properties":{"c":{"type":"string"}},"default":{"c":"ok","d":1}}}}`, false, nil},
		{"ErrNested", `{"type":"object","properties":{"l":{"type":"array","items":{"type":"object","properties":{"n":{"type":"integer","maximum":3,"default":4}}}}}}`, true,
			[]string{p + `.properties[l].items.properties[n].default: Invalid value: 4:  in body should be less than or equal to 3`}},
		{"ErrEmbeddedKind", `{"type":"object","properties":{"e":{"type":"object","x-kubernetes-embedded-resource":true,"x-kubernetes-preserve-unknown-fields":true,"default":{"apiVersion":"v1"}}}}`, true,
			[]string{p + `.properties[e].default.kind: Required value`}},
		{"AdditionalPropertiesNotFollowed", `{"type":"object","properties":{"m":{"type":"object","additionalProperties":{"type":"integer","default":"x"}}}}`, true, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			checkErrors(t, structural.ValidateDefaults(root, mustSchema(t, tt.schema), true, tt.pruned), tt.want)
		})
	}
}
