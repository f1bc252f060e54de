package apiextensions

import (
	"reflect"
	"testing"
)

// TestSpecWritesAsRead_EveryList: a spec whose schema has any list or
// map of a schema empty but not nil, at the root or two levels down,
// does not write as read; a field added to JSONSchemaProps without a
// check in schemaWritesAsRead fails here.
func TestSpecWritesAsRead_EveryList(t *testing.T) {
	typ := reflect.TypeFor[JSONSchemaProps]()
	lists := 0
	for i := range typ.NumField() {
		f := typ.Field(i)
		if f.Type.Kind() != reflect.Slice && f.Type.Kind() != reflect.Map {
			continue
		}
		lists++
		for _, deep := range []bool{false, true} {
			s := &JSONSchemaProps{Type: "object"}
			target := s
			if deep {
				inner := JSONSchemaProps{Type: "object"}
				s.Properties = map[string]JSONSchemaProps{"a": {Type: "array", Items: &JSONSchemaPropsOrArray{Schema: &inner}}}
				target = &inner
			}
			v := reflect.ValueOf(target).Elem().Field(i)
			if f.Type.Kind() == reflect.Slice {
				v.Set(reflect.MakeSlice(f.Type, 0, 0))
			} else {
				v.Set(reflect.MakeMap(f.Type))
			}
			spec := &CustomResourceDefinitionSpec{Versions: []CustomResourceDefinitionVersion{{Name: "v1",
				Schema: &CustomResourceValidation{OpenAPIV3Schema: s}}}}
			if SpecWritesAsRead(spec) {
				t.Errorf("%s empty (deep %v): SpecWritesAsRead true", f.Name, deep)
			}
		}
	}
	if lists < 11 {
		t.Errorf("found %d lists and maps in JSONSchemaProps, want at least 11", lists)
	}
	// A default that is there but null.
	var null JSON
	spec := &CustomResourceDefinitionSpec{Versions: []CustomResourceDefinitionVersion{{Name: "v1",
		Schema: &CustomResourceValidation{OpenAPIV3Schema: &JSONSchemaProps{Type: "object", Default: &null}}}}}
	if SpecWritesAsRead(spec) {
		t.Error("a null default: SpecWritesAsRead true")
	}
	// And outside the schemas.
	spec = &CustomResourceDefinitionSpec{Versions: []CustomResourceDefinitionVersion{{Name: "v1", AdditionalPrinterColumns: []CustomResourceColumnDefinition{}}}}
	if SpecWritesAsRead(spec) {
		t.Error("an empty printer columns list: SpecWritesAsRead true")
	}
	spec = &CustomResourceDefinitionSpec{Versions: []CustomResourceDefinitionVersion{{Name: "v1"}},
		Conversion: &CustomResourceConversion{WebhookClientConfig: &WebhookClientConfig{CABundle: []byte{}}}}
	if SpecWritesAsRead(spec) {
		t.Error("an empty caBundle: SpecWritesAsRead true")
	}
	spec.Conversion = nil
	if !SpecWritesAsRead(spec) {
		t.Error("a plain spec: SpecWritesAsRead false")
	}
}
