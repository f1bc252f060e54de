package apiextensions

import (
	"encoding/json"
	"math"
	"reflect"
)

// SpecWritesAsRead reports whether spec, converted to
// apiextensions.k8s.io/v1, written as JSON and read back (with v1's
// defaults, converted again), is spec again, as EqualSpecs tells, given
// that spec was itself read that way: from a request body or from
// storage. The CRD storage codec then takes a spec it has just written as
// the spec its read-back would decode, and does not decode it
// (registry/customresourcedefinition, Codec.Decode).
//
// Such a spec writes as read except where JSON keeps no trace of a
// difference: a list or map that is empty but not nil is left out
// (omitempty) and read back as nil; a schema's items,
// additionalProperties, additionalItems or dependency that is neither
// one schema nor a non-empty list reads back as another shape; a JSON
// value (default, example, enum) holding a float64 with an integral value
// is written as an integer and read back as an int64 (jsonWritesAsRead);
// a default or example that is there but null reads back as none; and a
// spec without versions loses what every version shares. It returns
// false for any of those, so the caller reads the spec back as upstream
// does. Everything else round-trips: strings, the schema's numbers
// (written in their shortest form, read back as the same bits) and the
// rest of the JSON values. TestSpecWritesAsRead_EveryList checks that
// every list and map of a schema is looked at;
// TestSpecWritesAsRead_RoundTrip that specs it accepts round-trip and
// that the ones it refuses do not; FuzzSpecWritesAsRead searches for a
// spec it accepts that does not.
//
// crdlab only: upstream decodes every value it stores back from the
// bytes it wrote (etcd3 store's Create).
func SpecWritesAsRead(spec *CustomResourceDefinitionSpec) bool {
	// Without versions, v1 has nowhere to write the fields every version
	// shares (validation refuses such a spec; this is for any other
	// caller).
	if len(spec.Versions) == 0 {
		return false
	}
	rest := withoutSchemas(spec)
	if hasEmptyList(reflect.ValueOf(&rest).Elem()) {
		return false
	}
	if v := spec.Validation; v != nil && v.OpenAPIV3Schema != nil && !schemaWritesAsRead(v.OpenAPIV3Schema) {
		return false
	}
	for i := range spec.Versions {
		if v := spec.Versions[i].Schema; v != nil && v.OpenAPIV3Schema != nil && !schemaWritesAsRead(v.OpenAPIV3Schema) {
			return false
		}
	}
	return true
}

// hasEmptyList reports whether v holds a slice or map that is empty but
// not nil (the spec without its schemas: small, so reflection will do).
func hasEmptyList(v reflect.Value) bool {
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		return !v.IsNil() && hasEmptyList(v.Elem())
	case reflect.Struct:
		for i := range v.NumField() {
			if hasEmptyList(v.Field(i)) {
				return true
			}
		}
	case reflect.Slice:
		if v.IsNil() {
			return false
		}
		if v.Len() == 0 {
			return true
		}
		if v.Type().Elem().Kind() == reflect.Uint8 {
			return false
		}
		for i := range v.Len() {
			if hasEmptyList(v.Index(i)) {
				return true
			}
		}
	case reflect.Map:
		if v.IsNil() {
			return false
		}
		if v.Len() == 0 {
			return true
		}
		for it := v.MapRange(); it.Next(); {
			if hasEmptyList(it.Value()) {
				return true
			}
		}
	}
	return false
}

// emptyNotNil reports whether a list (or map) of length n is empty but
// not nil.
func emptyNotNil(isNil bool, n int) bool { return !isNil && n == 0 }

// schemaWritesAsRead is SpecWritesAsRead for one schema and everything
// below it (by hand: a real-size schema has thousands of nodes).
func schemaWritesAsRead(s *JSONSchemaProps) bool {
	if emptyNotNil(s.Enum == nil, len(s.Enum)) || emptyNotNil(s.Required == nil, len(s.Required)) ||
		emptyNotNil(s.AllOf == nil, len(s.AllOf)) || emptyNotNil(s.OneOf == nil, len(s.OneOf)) ||
		emptyNotNil(s.AnyOf == nil, len(s.AnyOf)) || emptyNotNil(s.Properties == nil, len(s.Properties)) ||
		emptyNotNil(s.PatternProperties == nil, len(s.PatternProperties)) ||
		emptyNotNil(s.Dependencies == nil, len(s.Dependencies)) || emptyNotNil(s.Definitions == nil, len(s.Definitions)) ||
		emptyNotNil(s.XListMapKeys == nil, len(s.XListMapKeys)) || emptyNotNil(s.XValidations == nil, len(s.XValidations)) {
		return false
	}
	// A default or example that is there but null is written as null
	// and read back as none.
	for _, p := range []*JSON{s.Default, s.Example} {
		if p != nil && (*p == nil || !jsonWritesAsRead(*p)) {
			return false
		}
	}
	for _, v := range s.Enum {
		if !jsonWritesAsRead(v) {
			return false
		}
	}
	if it := s.Items; it != nil {
		if (it.Schema == nil) == (len(it.JSONSchemas) == 0) {
			return false
		}
		if it.Schema != nil && !schemaWritesAsRead(it.Schema) {
			return false
		}
		if !schemaListWritesAsRead(it.JSONSchemas) {
			return false
		}
	}
	for _, ob := range []*JSONSchemaPropsOrBool{s.AdditionalProperties, s.AdditionalItems} {
		if ob == nil {
			continue
		}
		if ob.Schema != nil && (!ob.Allows || !schemaWritesAsRead(ob.Schema)) {
			return false
		}
	}
	if s.Not != nil && !schemaWritesAsRead(s.Not) {
		return false
	}
	if !schemaListWritesAsRead(s.AllOf) || !schemaListWritesAsRead(s.OneOf) || !schemaListWritesAsRead(s.AnyOf) ||
		!schemaMapWritesAsRead(s.Properties) || !schemaMapWritesAsRead(s.PatternProperties) ||
		!schemaMapWritesAsRead(s.Definitions) {
		return false
	}
	for _, d := range s.Dependencies {
		if (d.Schema == nil) == (len(d.Property) == 0) {
			return false
		}
		if d.Schema != nil && !schemaWritesAsRead(d.Schema) {
			return false
		}
	}
	return true
}

func schemaListWritesAsRead(l []JSONSchemaProps) bool {
	for i := range l {
		if !schemaWritesAsRead(&l[i]) {
			return false
		}
	}
	return true
}

func schemaMapWritesAsRead(m map[string]JSONSchemaProps) bool {
	if len(m) == 0 {
		return true
	}
	// One copy for the map's values (a map value has no address): a
	// copy per value went to the heap.
	s := new(JSONSchemaProps)
	for k := range m {
		*s = m[k]
		if !schemaWritesAsRead(s) {
			return false
		}
	}
	return true
}

// jsonWritesAsRead reports whether a JSON value (default, example, an
// enum's) reads back as itself once written (RawFromJSON, then
// JSONFromRaw): a number is read as an int64 when its JSON is an integer,
// so a float64 with an integral value in int64's range (a body's 2.0, or
// -0) is written as 2 and read back as int64(2); and only the types
// decoding gives come back as they are.
func jsonWritesAsRead(v any) bool {
	switch t := v.(type) {
	case nil, bool, string, int64, json.Number:
		return true
	case float64:
		return t != math.Trunc(t) || t < math.MinInt64 || t >= math.MaxInt64
	case []any:
		for _, e := range t {
			if !jsonWritesAsRead(e) {
				return false
			}
		}
		return true
	case map[string]any:
		for _, e := range t {
			if !jsonWritesAsRead(e) {
				return false
			}
		}
		return true
	}
	return false
}
