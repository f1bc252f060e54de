package v1

import (
	"bytes"
	"math"
	"reflect"
)

// EqualSchemas reports whether a and b are the same schema, field by
// field: what reflect.DeepEqual says, but without reflection (a real-size
// schema has tens of thousands of nodes) and with numbers compared by
// their bits (0 and -0 are written differently). Equal schemas are written
// as the same JSON. TestEqualSchemas_EveryField checks that it looks at
// every field.
func EqualSchemas(a, b *JSONSchemaProps) bool {
	if a == b {
		return true
	}
	if a == nil || b == nil {
		return false
	}
	if a.ID != b.ID || a.Schema != b.Schema || !eqPtr(a.Ref, b.Ref) || a.Description != b.Description || a.Type != b.Type ||
		a.Format != b.Format || a.Title != b.Title || !eqRawPtr(a.Default, b.Default) || !eqFloat(a.Maximum, b.Maximum) ||
		a.ExclusiveMaximum != b.ExclusiveMaximum || !eqFloat(a.Minimum, b.Minimum) || a.ExclusiveMinimum != b.ExclusiveMinimum ||
		!eqPtr(a.MaxLength, b.MaxLength) || !eqPtr(a.MinLength, b.MinLength) || a.Pattern != b.Pattern ||
		!eqPtr(a.MaxItems, b.MaxItems) || !eqPtr(a.MinItems, b.MinItems) || a.UniqueItems != b.UniqueItems ||
		!eqFloat(a.MultipleOf, b.MultipleOf) || !eqPtr(a.MaxProperties, b.MaxProperties) || !eqPtr(a.MinProperties, b.MinProperties) ||
		!eqStrings(a.Required, b.Required) || a.Nullable != b.Nullable || !eqPtr(a.ExternalDocs, b.ExternalDocs) ||
		!eqRawPtr(a.Example, b.Example) || !eqPtr(a.XPreserveUnknownFields, b.XPreserveUnknownFields) ||
		a.XEmbeddedResource != b.XEmbeddedResource || a.XIntOrString != b.XIntOrString || !eqStrings(a.XListMapKeys, b.XListMapKeys) ||
		!eqPtr(a.XListType, b.XListType) || !eqPtr(a.XMapType, b.XMapType) {
		return false
	}
	if (a.Enum == nil) != (b.Enum == nil) || len(a.Enum) != len(b.Enum) {
		return false
	}
	for i := range a.Enum {
		if !eqRaw(a.Enum[i].Raw, b.Enum[i].Raw) {
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
		!EqualSchemaMaps(a.Properties, b.Properties) || !eqOrBool(a.AdditionalProperties, b.AdditionalProperties) ||
		!EqualSchemaMaps(a.PatternProperties, b.PatternProperties) || !eqOrBool(a.AdditionalItems, b.AdditionalItems) ||
		!EqualSchemaMaps(a.Definitions, b.Definitions) {
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

// EqualSchemaMaps is EqualSchemas for maps of schemas (properties).
func EqualSchemaMaps[M ~map[string]JSONSchemaProps](a, b M) bool {
	if (a == nil) != (b == nil) || len(a) != len(b) {
		return false
	}
	// One map (versions sharing a schema, controller.ShareSpecSchemas).
	if reflect.ValueOf(a).UnsafePointer() == reflect.ValueOf(b).UnsafePointer() {
		return true
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

func eqRawPtr(a, b *JSON) bool {
	if a == nil || b == nil {
		return a == b
	}
	return eqRaw(a.Raw, b.Raw)
}

func eqRaw(a, b []byte) bool { return (a == nil) == (b == nil) && bytes.Equal(a, b) }

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
