package openapi

import (
	"encoding"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
)

// The schemas of Go types, read by reflection: what encoding/json writes
// for a value of the type, described by the type's SwaggerDoc method. This
// is how the built-in apiextensions.k8s.io kinds (CustomResourceDefinition)
// get a schema without a hand-written copy that could drift from the Go
// structs.

// GoTypes says how SchemaOf names and documents Go types.
//
// Mirrors, at run time, what k8s.io/kube-openapi's openapi-gen generates
// at build time from Go types (zz_generated.openapi.go) and what
// apimachinery's swagger-doc generator writes from their comments
// (types_swagger_doc_generated.go: the SwaggerDoc methods).
type GoTypes struct {
	// Name is the components.schemas name of a named struct type (or of
	// a named type with its own JSON encoding), e.g.
	// "io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.CustomResourceDefinitionSpec".
	// A name that is one of the meta schemas every document holds
	// (ObjectMeta, ListMeta, Time…; see BuildGroupVersion) is referred
	// to and not generated. Required.
	Name func(t reflect.Type) string
	// Doc returns the descriptions of a type: "" for the type itself, a
	// JSON field name for that field. nil means the type's SwaggerDoc
	// method, if it has one (value or pointer receiver).
	Doc func(t reflect.Type) map[string]string
	// Markers are the extensions of a struct type's fields that say how
	// server-side apply merges them (ListMap("type"), ListSet, MapAtomic
	// …), by JSON field name, "" for the type itself. nil: none, so lists
	// are atomic and maps and structs granular, upstream's defaults.
	//
	// Mirrors the +listType, +listMapKey, +mapType and +structType
	// markers openapi-gen reads from upstream's Go types.
	Markers Markers
}

// Markers holds the server-side apply markers of struct types: for each
// type, its fields' extensions by JSON field name ("" for the type).
type Markers map[reflect.Type]map[string]map[string]any

// ListMap is the marker of a list merged by the values of keys
// (+listType=map, +listMapKey).
func ListMap(keys ...string) map[string]any {
	k := make([]any, len(keys))
	for i, key := range keys {
		k[i] = key
	}
	return map[string]any{"x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": k}
}

// ListSet is the marker of a list of unique scalars merged item by item
// (+listType=set).
func ListSet() map[string]any { return map[string]any{"x-kubernetes-list-type": "set"} }

// MapAtomic is the marker of a map or struct replaced as a whole
// (+mapType=atomic, +structType=atomic).
func MapAtomic() map[string]any { return map[string]any{"x-kubernetes-map-type": "atomic"} }

// swaggerDoc is implemented by types that describe themselves, as
// upstream's generated types_swagger_doc_generated.go do.
type swaggerDoc interface {
	SwaggerDoc() map[string]string
}

// openAPITyped is implemented by types with their own JSON encoding that
// say what it is (metav1.Time: "string", "date-time"). Mirrors
// kube-openapi's OpenAPISchemaType and OpenAPISchemaFormat.
type openAPITyped interface {
	OpenAPISchemaType() []string
	OpenAPISchemaFormat() string
}

// SwaggerDocOf returns the SwaggerDoc of t (or of *t), or nil if it has
// none.
func SwaggerDocOf(t reflect.Type) map[string]string {
	if d, ok := reflect.Zero(t).Interface().(swaggerDoc); ok {
		return d.SwaggerDoc()
	}
	if d, ok := reflect.New(t).Interface().(swaggerDoc); ok {
		return d.SwaggerDoc()
	}
	return nil
}

// SchemaOf returns the schema of t, which must be a struct (the kind of a
// resource), and the component schemas it refers to, by name; put them in
// Resource.SchemaJSON and Resource.Definitions.
//
// How Go maps to OpenAPI, following encoding/json:
//   - a struct is an object whose properties are its exported fields,
//     named by their json tags (a field tagged "-" is left out, an
//     embedded struct without a name is inlined); a field without
//     omitempty (or omitzero) that is not a pointer is required;
//   - a named struct type below the root is a component, referred to by
//     $ref (so recursive types such as JSONSchemaProps end), in an allOf
//     when the field has a description (OpenAPI 3.0 ignores a $ref's
//     siblings);
//   - a type with its own JSON encoding (json.Marshaler,
//     encoding.TextMarshaler) is what its OpenAPISchemaType and
//     OpenAPISchemaFormat methods say, or any JSON value without them —
//     unless it has a MarshalsAsFields method: its MarshalJSON writes
//     what encoding/json writes for its fields, only faster
//     (JSONSchemaProps);
//   - bool, integers, floats and strings are boolean, integer (int32 or
//     int64), number (float or double) and string; []byte is a base64
//     string (format byte); a slice is an array, a map an object with
//     additionalProperties, a pointer its element; an interface is any
//     JSON value.
//
// It returns an error for the types JSON cannot hold (channels,
// functions, maps with non-string keys) and for two types with one name.
func (g GoTypes) SchemaOf(t reflect.Type) (schema, definitions map[string]any, err error) {
	if t.Kind() != reflect.Struct {
		return nil, nil, fmt.Errorf("SchemaOf %s: not a struct", t)
	}
	r := &goReflector{types: g, defs: map[string]any{}, named: map[string]reflect.Type{}, known: map[string]bool{}}
	for name := range metaSchemas(true) {
		r.known[name] = true
	}
	schema, err = r.object(t)
	if err != nil {
		return nil, nil, err
	}
	return schema, r.defs, nil
}

// goReflector walks one root type.
type goReflector struct {
	types GoTypes
	// defs holds the component schemas built so far; named maps each of
	// their names to its type (a name is claimed before its schema is
	// built, so a recursive type refers to itself and ends).
	defs  map[string]any
	named map[string]reflect.Type
	// known are the meta schemas' names: referred to, never built.
	known map[string]bool
}

var (
	jsonMarshaler = reflect.TypeFor[json.Marshaler]()
	textMarshaler = reflect.TypeFor[encoding.TextMarshaler]()
	byteSlice     = reflect.TypeFor[[]byte]()
)

func (r *goReflector) doc(t reflect.Type) map[string]string {
	if r.types.Doc != nil {
		return r.types.Doc(t)
	}
	return SwaggerDocOf(t)
}

// asFields is a type whose MarshalJSON writes what encoding/json writes
// for its fields (a faster encoder of the same JSON): its schema is its
// fields'.
type asFields interface{ MarshalsAsFields() }

var asFieldsType = reflect.TypeFor[asFields]()

// customJSON reports whether t writes its own JSON.
func customJSON(t reflect.Type) bool {
	if t.Implements(asFieldsType) || reflect.PointerTo(t).Implements(asFieldsType) {
		return false
	}
	return t.Implements(jsonMarshaler) || reflect.PointerTo(t).Implements(jsonMarshaler) ||
		t.Implements(textMarshaler) || reflect.PointerTo(t).Implements(textMarshaler)
}

// object is the schema of struct t, inline: its fields as properties.
func (r *goReflector) object(t reflect.Type) (map[string]any, error) {
	docs := r.doc(t)
	props := map[string]any{}
	var required []any
	if err := r.fields(t, docs, props, &required); err != nil {
		return nil, err
	}
	s := map[string]any{"type": "object"}
	if len(props) > 0 {
		s["properties"] = props
	}
	if len(required) > 0 {
		s["required"] = required
	}
	if d := docs[""]; d != "" {
		s["description"] = d
	}
	for k, v := range r.types.Markers[t][""] {
		s[k] = v
	}
	return s, nil
}

// fields adds the properties of struct t (and of the structs it inlines)
// to props; docs describes t's own fields.
func (r *goReflector) fields(t reflect.Type, docs map[string]string, props map[string]any, required *[]any) error {
	for i := range t.NumField() {
		f := t.Field(i)
		tag := f.Tag.Get("json")
		if tag == "-" {
			continue
		}
		name, opts, _ := strings.Cut(tag, ",")
		ft := f.Type
		if f.Anonymous {
			et := ft
			if et.Kind() == reflect.Pointer {
				et = et.Elem()
			}
			if !f.IsExported() && et.Kind() != reflect.Struct {
				continue
			}
			if name == "" && et.Kind() == reflect.Struct {
				// Inlined, as encoding/json does; its fields are described
				// by its own doc.
				if err := r.fields(et, r.doc(et), props, required); err != nil {
					return err
				}
				continue
			}
		} else if !f.IsExported() {
			continue
		}
		if name == "" {
			name = f.Name
		}
		s, err := r.schema(ft, docs[name])
		if err != nil {
			return fmt.Errorf("%s.%s: %w", t, f.Name, err)
		}
		if m := r.types.Markers[t][name]; len(m) > 0 {
			if _, isRef := s["$ref"]; isRef {
				s = map[string]any{"allOf": []any{s}} // a $ref has no siblings
			}
			for k, v := range m {
				s[k] = v
			}
		}
		props[name] = s
		optional := strings.Contains(","+opts+",", ",omitempty,") || strings.Contains(","+opts+",", ",omitzero,")
		if !optional && ft.Kind() != reflect.Pointer {
			*required = append(*required, name)
		}
	}
	return nil
}

// schema is the schema of a value of type t, described by description.
func (r *goReflector) schema(t reflect.Type, description string) (map[string]any, error) {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t.Name() != "" && (t.Kind() == reflect.Struct || customJSON(t)) {
		ref, err := r.component(t)
		if err != nil {
			return nil, err
		}
		if description == "" {
			return ref, nil
		}
		return map[string]any{"allOf": []any{ref}, "description": description}, nil
	}
	s, err := r.inline(t)
	if err != nil {
		return nil, err
	}
	if description != "" {
		s["description"] = description
	}
	return s, nil
}

// component returns a $ref to the component of named type t, building the
// component first if needed.
func (r *goReflector) component(t reflect.Type) (map[string]any, error) {
	name := r.types.Name(t)
	if name == "" {
		return nil, fmt.Errorf("type %s has no name", t)
	}
	if r.known[name] {
		return ref(name), nil
	}
	if other, ok := r.named[name]; ok {
		if other != t {
			return nil, fmt.Errorf("types %s and %s are both named %q", other, t, name)
		}
		return ref(name), nil
	}
	r.named[name] = t
	var s map[string]any
	var err error
	if customJSON(t) {
		s = r.custom(t)
	} else {
		s, err = r.object(t)
	}
	if err != nil {
		return nil, err
	}
	r.defs[name] = s
	return ref(name), nil
}

// custom is the schema of a type with its own JSON encoding.
func (r *goReflector) custom(t reflect.Type) map[string]any {
	s := map[string]any{}
	v := reflect.New(t).Interface()
	if typed, ok := v.(openAPITyped); ok {
		if types := typed.OpenAPISchemaType(); len(types) == 1 {
			s["type"] = types[0]
		}
		if f := typed.OpenAPISchemaFormat(); f != "" {
			s["format"] = f
		}
	}
	if d := r.doc(t)[""]; d != "" {
		s["description"] = d
	}
	return s
}

// inline is the schema of an unnamed type, or of a named type that is not
// a struct (a string enum, a list, a map), written in place.
func (r *goReflector) inline(t reflect.Type) (map[string]any, error) {
	if customJSON(t) {
		return r.custom(t), nil
	}
	switch t.Kind() {
	case reflect.Bool:
		return map[string]any{"type": "boolean"}, nil
	case reflect.Int8, reflect.Int16, reflect.Int32, reflect.Uint8, reflect.Uint16:
		return map[string]any{"type": "integer", "format": "int32"}, nil
	case reflect.Int, reflect.Int64, reflect.Uint, reflect.Uint32, reflect.Uint64:
		return map[string]any{"type": "integer", "format": "int64"}, nil
	case reflect.Float32:
		return map[string]any{"type": "number", "format": "float"}, nil
	case reflect.Float64:
		return map[string]any{"type": "number", "format": "double"}, nil
	case reflect.String:
		return map[string]any{"type": "string"}, nil
	case reflect.Interface:
		return map[string]any{}, nil
	case reflect.Struct:
		return r.object(t)
	case reflect.Slice, reflect.Array:
		if t.ConvertibleTo(byteSlice) && t.Elem().Kind() == reflect.Uint8 {
			return map[string]any{"type": "string", "format": "byte"}, nil
		}
		items, err := r.schema(t.Elem(), "")
		if err != nil {
			return nil, err
		}
		return map[string]any{"type": "array", "items": items}, nil
	case reflect.Map:
		if t.Key().Kind() != reflect.String {
			return nil, fmt.Errorf("map key of %s is not a string", t)
		}
		values, err := r.schema(t.Elem(), "")
		if err != nil {
			return nil, err
		}
		return map[string]any{"type": "object", "additionalProperties": values}, nil
	}
	return nil, fmt.Errorf("type %s has no JSON form", t)
}
