package apiextensions

import (
	"encoding/json"
	"math"
	"reflect"
)

// EqualSpecs reports whether a and b are the same spec, field by field:
// what reflect.DeepEqual says, but with the schemas compared without
// reflection (a real-size schema has tens of thousands of nodes:
// reflect.DeepEqual takes longer than writing it) and numbers by their
// bits (0 and -0 are written differently). Equal specs convert and write
// as the same JSON; a JSON value of a type other than those decoding
// gives (nil, bool, string, int64, float64, json.Number, []any,
// map[string]any) is never equal. The CRD storage codec uses it to tell
// that a spec it read back is the one it wrote
// (registry/customresourcedefinition). TestEqualSpecs_EveryField checks
// that it looks at every field.
func EqualSpecs(a, b *CustomResourceDefinitionSpec) bool {
	if a == b {
		return true
	}
	if a == nil || b == nil || len(a.Versions) != len(b.Versions) || (a.Versions == nil) != (b.Versions == nil) {
		return false
	}
	ra, rb := withoutSchemas(a), withoutSchemas(b)
	if !reflect.DeepEqual(&ra, &rb) || !eqValidation(a.Validation, b.Validation) {
		return false
	}
	for i := range a.Versions {
		if !eqValidation(a.Versions[i].Schema, b.Versions[i].Schema) {
			return false
		}
	}
	return true
}

// withoutSchemas is a shallow copy of spec with every openAPIV3Schema
// left out (EqualSpecs compares them apart).
func withoutSchemas(spec *CustomResourceDefinitionSpec) CustomResourceDefinitionSpec {
	out := *spec
	if out.Validation != nil {
		v := *out.Validation
		v.OpenAPIV3Schema = nil
		out.Validation = &v
	}
	out.Versions = append([]CustomResourceDefinitionVersion(nil), spec.Versions...)
	for i := range out.Versions {
		if s := out.Versions[i].Schema; s != nil {
			v := *s
			v.OpenAPIV3Schema = nil
			out.Versions[i].Schema = &v
		}
	}
	return out
}

func eqValidation(a, b *CustomResourceValidation) bool {
	if a == nil || b == nil {
		return a == b
	}
	return EqualSchemas(a.OpenAPIV3Schema, b.OpenAPIV3Schema)
}

// EqualSchemas is EqualSpecs for one schema.
func EqualSchemas(a, b *JSONSchemaProps) bool {
	if a == b {
		return true
	}
	if a == nil || b == nil {
		return false
	}
	if a.ID != b.ID || a.Schema != b.Schema || !eqPtr(a.Ref, b.Ref) || a.Description != b.Description || a.Type != b.Type ||
		a.Nullable != b.Nullable || a.Format != b.Format || a.Title != b.Title || !eqJSONPtr(a.Default, b.Default) ||
		!eqFloat(a.Maximum, b.Maximum) || a.ExclusiveMaximum != b.ExclusiveMaximum || !eqFloat(a.Minimum, b.Minimum) ||
		a.ExclusiveMinimum != b.ExclusiveMinimum || !eqPtr(a.MaxLength, b.MaxLength) || !eqPtr(a.MinLength, b.MinLength) ||
		a.Pattern != b.Pattern || !eqPtr(a.MaxItems, b.MaxItems) || !eqPtr(a.MinItems, b.MinItems) ||
		a.UniqueItems != b.UniqueItems || !eqFloat(a.MultipleOf, b.MultipleOf) || !eqPtr(a.MaxProperties, b.MaxProperties) ||
		!eqPtr(a.MinProperties, b.MinProperties) || !eqStrings(a.Required, b.Required) || !eqPtr(a.ExternalDocs, b.ExternalDocs) ||
		!eqJSONPtr(a.Example, b.Example) || !eqPtr(a.XPreserveUnknownFields, b.XPreserveUnknownFields) ||
		a.XEmbeddedResource != b.XEmbeddedResource || a.XIntOrString != b.XIntOrString ||
		!eqStrings(a.XListMapKeys, b.XListMapKeys) || !eqPtr(a.XListType, b.XListType) || !eqPtr(a.XMapType, b.XMapType) {
		return false
	}
	if (a.Enum == nil) != (b.Enum == nil) || len(a.Enum) != len(b.Enum) {
		return false
	}
	for i := range a.Enum {
		if !eqJSON(a.Enum[i], b.Enum[i]) {
			return false
		}
	}
	if (a.XValidations == nil) != (b.XValidations == nil) || len(a.XValidations) != len(b.XValidations) {
		return false
	}
	for i := range a.XValidations {
		x, y := &a.XValidations[i], &b.XValidations[i]
		if x.Rule != y.Rule || x.Message != y.Message || x.MessageExpression != y.MessageExpression || !eqPtr(x.Reason, y.Reason) ||
			x.FieldPath != y.FieldPath || !eqPtr(x.OptionalOldSelf, y.OptionalOldSelf) {
			return false
		}
	}
	if (a.Items == nil) != (b.Items == nil) || (a.Items != nil && (!EqualSchemas(a.Items.Schema, b.Items.Schema) || !eqSchemaList(a.Items.JSONSchemas, b.Items.JSONSchemas))) {
		return false
	}
	if !eqSchemaList(a.AllOf, b.AllOf) || !eqSchemaList(a.OneOf, b.OneOf) || !eqSchemaList(a.AnyOf, b.AnyOf) || !EqualSchemas(a.Not, b.Not) ||
		!eqSchemaMap(a.Properties, b.Properties) || !eqOrBool(a.AdditionalProperties, b.AdditionalProperties) ||
		!eqSchemaMap(a.PatternProperties, b.PatternProperties) || !eqOrBool(a.AdditionalItems, b.AdditionalItems) ||
		!eqSchemaMap(a.Definitions, b.Definitions) {
		return false
	}
	if (a.Dependencies == nil) != (b.Dependencies == nil) || len(a.Dependencies) != len(b.Dependencies) {
		return false
	}
	for k, x := range a.Dependencies {
		y, ok := b.Dependencies[k]
		if !ok || !EqualSchemas(x.Schema, y.Schema) || !eqStrings(x.Property, y.Property) {
			return false
		}
	}
	return true
}

func eqSchemaMap[M ~map[string]JSONSchemaProps](a, b M) bool {
	if (a == nil) != (b == nil) || len(a) != len(b) {
		return false
	}
	for k := range a {
		x := a[k]
		y, ok := b[k]
		if !ok || !EqualSchemas(&x, &y) {
			return false
		}
	}
	return true
}

func eqSchemaList(a, b []JSONSchemaProps) bool {
	if (a == nil) != (b == nil) || len(a) != len(b) {
		return false
	}
	for i := range a {
		if !EqualSchemas(&a[i], &b[i]) {
			return false
		}
	}
	return true
}

func eqOrBool(a, b *JSONSchemaPropsOrBool) bool {
	if a == nil || b == nil {
		return a == b
	}
	return a.Allows == b.Allows && EqualSchemas(a.Schema, b.Schema)
}

func eqJSONPtr(a, b *JSON) bool {
	if a == nil || b == nil {
		return a == b
	}
	return eqJSON(*a, *b)
}

// eqJSON compares two decoded JSON values: the same types, float64s by
// their bits, nil and empty lists and maps apart.
func eqJSON(a, b any) bool {
	switch x := a.(type) {
	case nil:
		return b == nil
	case bool:
		y, ok := b.(bool)
		return ok && x == y
	case string:
		y, ok := b.(string)
		return ok && x == y
	case int64:
		y, ok := b.(int64)
		return ok && x == y
	case float64:
		y, ok := b.(float64)
		return ok && math.Float64bits(x) == math.Float64bits(y)
	case json.Number:
		y, ok := b.(json.Number)
		return ok && x == y
	case []any:
		y, ok := b.([]any)
		if !ok || (x == nil) != (y == nil) || len(x) != len(y) {
			return false
		}
		for i := range x {
			if !eqJSON(x[i], y[i]) {
				return false
			}
		}
		return true
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok || (x == nil) != (y == nil) || len(x) != len(y) {
			return false
		}
		for k, v := range x {
			w, ok := y[k]
			if !ok || !eqJSON(v, w) {
				return false
			}
		}
		return true
	}
	return false
}

func eqPtr[T comparable](a, b *T) bool {
	if a == nil || b == nil {
		return a == b
	}
	return *a == *b
}

func eqFloat(a, b *float64) bool {
	if a == nil || b == nil {
		return a == b
	}
	return math.Float64bits(*a) == math.Float64bits(*b)
}

func eqStrings(a, b []string) bool {
	if (a == nil) != (b == nil) || len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
