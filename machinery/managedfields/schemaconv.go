package managedfields

import (
	"encoding/json"
	"errors"
	"fmt"
	"path"
	"sort"
	"strings"

	"sigs.k8s.io/structured-merge-diff/v6/schema"
)

// This file turns OpenAPI v3 schemas into the typed schema the merge
// engine works with. The input is the JSON form of the schemas (what
// package openapi builds and /openapi/v3 serves, or a CRD's
// openAPIV3Schema), as structural schemas: every node says its type.
//
// How a schema maps to a typed schema (upstream's rules, which
// TestToSchemaFromOpenAPI checks):
//   - type object → a map: properties are its fields; unknown keys have
//     additionalProperties' type, or a deduced type when additionalProperties
//     is true, when the object has no properties, or below
//     x-kubernetes-preserve-unknown-fields; otherwise none are allowed.
//     x-kubernetes-map-type atomic makes it one value, granular (or
//     nothing) lets each key have its own owner.
//   - type array → a list: x-kubernetes-list-type atomic (the default),
//     set, or map keyed by x-kubernetes-list-map-keys; without a list type,
//     x-kubernetes-patch-strategy merge (with a merge key: a map) is read
//     instead, as built-in types' schemas have it.
//   - integer and number are numeric, boolean boolean, string string;
//     strings with a format other than byte (date-time, int-or-string…)
//     and schemas without a type (x-kubernetes-int-or-string) are untyped
//     scalars.
//   - a $ref (alone, or in a one-element allOf) names another model.
//   - a "deduced" type (__untyped_deduced_) is a granular map of deduced
//     values whose lists and scalars are atomic: what schemaless custom
//     resources and preserved unknown fields get.

// The names of the two types every converted schema holds.
const (
	untypedName = "__untyped_atomic_"
	deducedName = "__untyped_deduced_"
)

// The models upstream hard-codes rather than converts.
const (
	quantityModel     = "io.k8s.apimachinery.pkg.api.resource.Quantity"
	rawExtensionModel = "io.k8s.apimachinery.pkg.runtime.RawExtension"
)

func namePtr(s string) *string { return &s }

var untypedScalar = schema.Scalar("untyped")

// untypedDef is an atomic value of any JSON type.
var untypedDef = schema.TypeDef{
	Name: untypedName,
	Atom: schema.Atom{
		Scalar: &untypedScalar,
		List:   &schema.List{ElementType: schema.TypeRef{NamedType: namePtr(untypedName)}, ElementRelationship: schema.Atomic},
		Map:    &schema.Map{ElementType: schema.TypeRef{NamedType: namePtr(untypedName)}, ElementRelationship: schema.Atomic},
	},
}

// deducedDef is a value of any JSON type whose maps are granular.
var deducedDef = schema.TypeDef{
	Name: deducedName,
	Atom: schema.Atom{
		Scalar: &untypedScalar,
		List:   &schema.List{ElementType: schema.TypeRef{NamedType: namePtr(untypedName)}, ElementRelationship: schema.Atomic},
		Map:    &schema.Map{ElementType: schema.TypeRef{NamedType: namePtr(deducedName)}, ElementRelationship: schema.Separable},
	},
}

// ToSchemaFromOpenAPI converts OpenAPI v3 models, keyed by the names
// their $refs use ("#/components/schemas/<name>"), to a typed schema with
// one named type per model. preserveUnknownFields makes every object
// accept unknown fields (a CRD with spec.preserveUnknownFields). Models
// that are only a $ref are skipped. Every problem found is reported in
// one error.
//
// Mirrors ToSchemaFromOpenAPI in k8s.io/kube-openapi/pkg/schemaconv
// (openapi.go, smd.go).
func ToSchemaFromOpenAPI(models map[string]any, preserveUnknownFields bool) (*schema.Schema, error) {
	c := &converter{preserveUnknownFields: preserveUnknownFields, out: &schema.Schema{}}
	names := make([]string, 0, len(models))
	for name := range models {
		names = append(names, name)
	}
	sort.Strings(names) // the same schema for the same models
	for _, name := range names {
		m, ok := models[name].(map[string]any)
		if !ok {
			c.errs = append(c.errs, fmt.Sprintf("%s: not a schema object", name))
			continue
		}
		if ref, _ := m["$ref"].(string); ref != "" {
			continue
		}
		var a schema.Atom
		switch name {
		case quantityModel:
			a = schema.Atom{Scalar: untypedDef.Atom.Scalar}
		case rawExtensionModel:
			a = untypedDef.Atom
		default:
			a = c.child(name).visit(m)
		}
		if a != (schema.Atom{}) {
			c.out.Types = append(c.out.Types, schema.TypeDef{Name: name, Atom: a})
		}
	}
	if len(c.errs) > 0 {
		return nil, errors.New(strings.Join(c.errs, "\n"))
	}
	c.out.Types = append(c.out.Types, untypedDef, deducedDef)
	return c.out, nil
}

// converter converts one schema; a child converter converts what it
// contains, inheriting preserveUnknownFields.
type converter struct {
	preserveUnknownFields bool
	out                   *schema.Schema
	name                  string // where we are, for errors
	errs                  []string
	parent                *converter
}

func (c *converter) child(name string) *converter {
	return &converter{preserveUnknownFields: c.preserveUnknownFields, out: c.out, name: name, parent: c}
}

func (c *converter) errorf(format string, args ...any) {
	root := c
	for root.parent != nil {
		root = root.parent
	}
	root.errs = append(root.errs, c.name+": "+fmt.Sprintf(format, args...))
}

// visit converts one schema node; x-kubernetes-preserve-unknown-fields
// on it holds for everything below.
func (c *converter) visit(m map[string]any) schema.Atom {
	if b, _ := m["x-kubernetes-preserve-unknown-fields"].(bool); b {
		c.preserveUnknownFields = true
	}
	typ := ""
	switch t := m["type"].(type) {
	case string:
		typ = t
	case []any: // OpenAPI allows a list; Kubernetes writes one type
		if len(t) > 0 {
			typ, _ = t[0].(string)
		}
	}
	switch typ {
	case "":
		// Any type: an untyped scalar, or a list or map.
		return schema.Atom{Scalar: &untypedScalar, List: c.list(m), Map: c.object(m)}
	case "object":
		return schema.Atom{Map: c.object(m)}
	case "array":
		return schema.Atom{List: c.list(m)}
	case "integer", "number":
		return schema.Atom{Scalar: scalarPtr(schema.Numeric)}
	case "boolean":
		return schema.Atom{Scalar: scalarPtr(schema.Boolean)}
	case "string":
		switch format, _ := m["format"].(string); format {
		case "", "byte":
			return schema.Atom{Scalar: scalarPtr(schema.String)}
		}
		return schema.Atom{Scalar: &untypedScalar}
	}
	c.errorf("unrecognized type: '%v'", typ)
	return schema.Atom{Scalar: &untypedScalar}
}

func scalarPtr(s schema.Scalar) *schema.Scalar { return &s }

// ref is the type of a property, item or additionalProperties: a named
// type for a $ref, else the schema converted in place.
func (c *converter) ref(m map[string]any) schema.TypeRef {
	nullable, _ := m["nullable"].(bool)
	refString, _ := m["$ref"].(string)
	if refString == "" {
		if all, ok := m["allOf"].([]any); ok && len(all) == 1 {
			if one, ok := all[0].(map[string]any); ok {
				refString, _ = one["$ref"].(string)
			}
		}
	}
	if _, name := path.Split(refString); name != "" {
		tr := schema.TypeRef{NamedType: &name, Nullable: nullable}
		rel, err := mapRelationship(m)
		if err != nil {
			c.errorf("%v", err)
		}
		if rel != "" {
			tr.ElementRelationship = &rel
		}
		return tr
	}
	return schema.TypeRef{Inlined: c.child("inlined in " + c.name).visit(m), Nullable: nullable}
}

// object converts the map side of a schema.
func (c *converter) object(m map[string]any) *schema.Map {
	props, _ := m["properties"].(map[string]any)
	names := make([]string, 0, len(props))
	for n := range props {
		names = append(names, n)
	}
	sort.Strings(names)
	var fields []schema.StructField
	for _, n := range names {
		p, ok := props[n].(map[string]any)
		if !ok {
			c.errorf("property %q is not a schema object", n)
			continue
		}
		fields = append(fields, schema.StructField{Name: n, Type: c.ref(p), Default: jsonValue(p["default"])})
	}
	var elem schema.TypeRef
	switch ap := m["additionalProperties"].(type) {
	case nil:
		// No additionalProperties: an object without properties is free
		// form; one with properties accepts no other keys, unless they
		// are preserved.
		if c.preserveUnknownFields || len(props) == 0 {
			elem = schema.TypeRef{NamedType: namePtr(deducedName)}
		}
	case map[string]any:
		elem = c.ref(ap)
	case bool:
		if ap {
			elem = schema.TypeRef{NamedType: namePtr(deducedName)}
		}
	default:
		c.errorf("additionalProperties is neither a schema nor a boolean")
	}
	rel, err := mapRelationship(m)
	if err != nil {
		c.errorf("%v", err)
	}
	return &schema.Map{Fields: fields, ElementRelationship: rel, ElementType: elem}
}

// list converts the list side of a schema.
func (c *converter) list(m map[string]any) *schema.List {
	rel, keys, err := listRelationship(m)
	if err != nil {
		c.errorf("%v", err)
	}
	var elem schema.TypeRef
	switch items := m["items"].(type) {
	case map[string]any:
		elem = c.ref(items)
	case nil:
		if t, _ := m["type"].(string); t != "" {
			c.errorf("`items` must be specified on arrays")
		}
		elem = schema.TypeRef{NamedType: namePtr(untypedName)}
	default:
		c.errorf("structural schema arrays must have exactly one member subtype")
		elem = schema.TypeRef{NamedType: namePtr(deducedName)}
	}
	return &schema.List{ElementRelationship: rel, Keys: keys, ElementType: elem}
}

// listRelationship reads x-kubernetes-list-type (and its map keys), or
// failing that x-kubernetes-patch-strategy; lists are atomic by default.
//
// Mirrors getListElementRelationship in schemaconv/smd.go.
func listRelationship(m map[string]any) (schema.ElementRelationship, []string, error) {
	if v, ok := m["x-kubernetes-list-type"]; ok {
		switch v {
		case "atomic":
			return schema.Atomic, nil, nil
		case "set":
			return schema.Associative, nil, nil
		case "map":
			raw, ok := m["x-kubernetes-list-map-keys"]
			if !ok {
				return schema.Associative, nil, errors.New("missing map keys")
			}
			keys, ok := stringSlice(raw)
			if !ok {
				return schema.Associative, nil, fmt.Errorf("uninterpreted map keys: %#v", raw)
			}
			return schema.Associative, keys, nil
		default:
			return schema.Atomic, nil, fmt.Errorf("unknown list type %v", v)
		}
	}
	if v, ok := m["x-kubernetes-patch-strategy"]; ok {
		switch v {
		case "merge", "merge,retainKeys":
			if key, ok := m["x-kubernetes-patch-merge-key"]; ok {
				k, ok := key.(string)
				if !ok {
					return schema.Associative, nil, fmt.Errorf("uninterpreted merge key: %#v", key)
				}
				return schema.Associative, []string{k}, nil
			}
			return schema.Associative, nil, nil // a set
		case "retainKeys":
			return schema.Atomic, nil, nil
		default:
			return schema.Atomic, nil, fmt.Errorf("unknown patch strategy %v", v)
		}
	}
	return schema.Atomic, nil, nil
}

// mapRelationship reads x-kubernetes-map-type: "" when unset (granular).
//
// Mirrors getMapElementRelationship in schemaconv/smd.go.
func mapRelationship(m map[string]any) (schema.ElementRelationship, error) {
	v, ok := m["x-kubernetes-map-type"]
	if !ok {
		return "", nil
	}
	switch v {
	case "atomic":
		return schema.Atomic, nil
	case "granular":
		return schema.Separable, nil
	}
	return "", fmt.Errorf("unknown map type %v", v)
}

func stringSlice(v any) ([]string, bool) {
	switch t := v.(type) {
	case []string:
		return t, true
	case []any:
		out := make([]string, 0, len(t))
		for _, e := range t {
			if s, ok := e.(string); ok {
				out = append(out, s)
			}
		}
		return out, true
	}
	return nil, false
}

// jsonValue turns a default decoded with UseNumber into the int64 or
// float64 the merge engine compares key values with.
func jsonValue(v any) any {
	switch t := v.(type) {
	case json.Number:
		if i, err := t.Int64(); err == nil {
			return i
		}
		if f, err := t.Float64(); err == nil {
			return f
		}
		return t.String()
	case float64:
		if t == float64(int64(t)) {
			return int64(t)
		}
		return t
	case int:
		return int64(t)
	case map[string]any:
		out := make(map[string]any, len(t))
		for k, e := range t {
			out[k] = jsonValue(e)
		}
		return out
	case []any:
		out := make([]any, len(t))
		for i, e := range t {
			out[i] = jsonValue(e)
		}
		return out
	}
	return v
}
