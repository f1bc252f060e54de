package v1_test

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	v1 "github.com/crdlab/crdlab/apis/apiextensions/v1"
)

// TestSwaggerDoc checks the descriptions against the Go types, so they
// cannot drift: every struct type a CRD (or CRD list) holds describes
// itself and each of its fields, and names no field it does not have.
func TestSwaggerDoc(t *testing.T) {
	pkg := reflect.TypeFor[v1.CustomResourceDefinition]().PkgPath()
	seen := map[reflect.Type]bool{}
	var walk func(reflect.Type)
	walk = func(typ reflect.Type) {
		for typ.Kind() == reflect.Pointer || typ.Kind() == reflect.Slice || typ.Kind() == reflect.Map {
			typ = typ.Elem()
		}
		if typ.Kind() != reflect.Struct || typ.PkgPath() != pkg || seen[typ] {
			return
		}
		seen[typ] = true
		doc, ok := reflect.Zero(typ).Interface().(interface{ SwaggerDoc() map[string]string })
		if !ok {
			t.Errorf("%s has no SwaggerDoc method", typ.Name())
			return
		}
		docs := doc.SwaggerDoc()
		if docs[""] == "" {
			t.Errorf("%s: no description of the type", typ.Name())
		}
		_, custom := reflect.New(typ).Interface().(json.Marshaler)
		if _, asFields := reflect.New(typ).Interface().(interface{ MarshalsAsFields() }); asFields {
			custom = false // a faster encoder of the fields' JSON
		}
		fields := map[string]bool{}
		for i := range typ.NumField() {
			f := typ.Field(i)
			name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
			if !f.IsExported() || name == "-" || name == "" && f.Anonymous {
				continue // not in the JSON, or inlined (TypeMeta: its own doc)
			}
			if custom {
				// Written by MarshalJSON: the fields are not properties.
				walk(f.Type)
				continue
			}
			if name == "" {
				name = f.Name
			}
			fields[name] = true
			if docs[name] == "" {
				t.Errorf("%s: field %q has no description", typ.Name(), name)
			}
			walk(f.Type)
		}
		for key := range docs {
			if key != "" && !fields[key] {
				t.Errorf("%s: SwaggerDoc describes %q, which is not one of its JSON fields", typ.Name(), key)
			}
		}
	}
	walk(reflect.TypeFor[v1.CustomResourceDefinition]())
	walk(reflect.TypeFor[v1.CustomResourceDefinitionList]())
	if len(seen) < 20 {
		t.Errorf("walked %d types; the walk missed some", len(seen))
	}
}
