package structural

import (
	"bytes"
	"encoding/json"
	"io"
	"regexp"
	"strconv"
)

// Structural is one node of a structural schema: what a value at this place
// of a custom resource must be.
//
// Generic part: Type ("object", "array", "string", "integer", "number",
// "boolean"), Format, Description, Title, Nullable, Default. Structure:
// Properties (named fields of an object), AdditionalProperties (the schema of
// every other field, making the object a map), Items (the schema of every
// array element). Value validations: Required, Enum, Minimum…, and the
// junctors AllOf, AnyOf, OneOf, Not, which hold further value validations
// of the same value. Extensions: the x-kubernetes-* fields.
//
// A Structural is read-only once built: Validate, Default and Prune may run
// on it from many goroutines.
//
// Mirrors schema.Structural (with Generic, Extensions, ValueValidation and
// NestedValueValidation flattened into one type).
type Structural struct {
	Type        string
	Format      string
	Description string
	Title       string
	// Nullable lets the value be null.
	Nullable bool
	// Default is the value a missing field gets; nil means no default (a
	// JSON `default: null` is no default, as upstream).
	Default any

	Properties map[string]*Structural
	Items      *Structural
	// AdditionalProperties is the schema of the fields not in Properties.
	AdditionalProperties *Structural
	// AdditionalPropertiesBool is set when additionalProperties was a
	// boolean instead of a schema: true allows any field (with no schema
	// below it), false forbids fields not in Properties.
	AdditionalPropertiesBool *bool

	Required         []string
	Enum             []any
	Minimum          *float64
	Maximum          *float64
	ExclusiveMinimum bool
	ExclusiveMaximum bool
	MultipleOf       *float64
	MinLength        *int64
	MaxLength        *int64
	Pattern          string
	MinItems         *int64
	MaxItems         *int64
	// UniqueItems is not allowed in a CRD (ValidateStructural says so) and
	// is not checked.
	UniqueItems   bool
	MinProperties *int64
	MaxProperties *int64

	AllOf []*Structural
	AnyOf []*Structural
	OneOf []*Structural
	Not   *Structural

	XPreserveUnknownFields bool
	XIntOrString           bool
	XEmbeddedResource      bool
	// XListType is "atomic", "set" or "map" for arrays.
	XListType *string
	// XListMapKeys are the fields that identify an element of a
	// list-type map.
	XListMapKeys []string
	// XMapType is "granular" or "atomic" for objects.
	XMapType *string
	// XValidations holds the x-kubernetes-validations (CEL rules) as read;
	// they are not evaluated.
	XValidations []any

	// unsupported lists the keywords found that a CRD schema may not use
	// ("$ref", "patternProperties"…), for ValidateStructural.
	unsupported []string
	// re is Pattern compiled by FromJSON (nil if it does not compile, or
	// if the Structural was built by hand); reErr is the compile error.
	re    *regexp.Regexp
	reSrc string
	reErr error
}

// FromJSON reads a schema from the JSON of a JSONSchemaProps (a CRD
// version's schema.openAPIV3Schema). It fails only on what cannot be read
// (not JSON, "minLength": "x"…); whether the schema is structural is
// ValidateStructural's business. Whole numbers in default and enum become
// int64, others float64, as in an Unstructured object.
//
// Mirrors schema.NewStructural (reading JSON instead of the
// apiextensions.JSONSchemaProps type).
func FromJSON(schemaJSON []byte) (*Structural, error) {
	dec := json.NewDecoder(bytes.NewReader(schemaJSON))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, &SchemaError{Msg: "invalid JSON: " + err.Error()}
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, &SchemaError{Msg: "invalid JSON: unexpected data after the schema"}
	}
	return fromValue(v, "")
}

// fromValue builds the Structural of one decoded schema object.
func fromValue(v any, path string) (*Structural, error) {
	m, ok := v.(map[string]any)
	if !ok {
		return nil, &SchemaError{Path: path, Msg: "must be an object"}
	}
	s := &Structural{}
	r := reader{m: m, path: path}
	s.Type = r.str("type")
	s.Format = r.str("format")
	s.Description = r.str("description")
	s.Title = r.str("title")
	s.Pattern = r.str("pattern")
	s.Nullable = r.boolean("nullable")
	s.UniqueItems = r.boolean("uniqueItems")
	s.ExclusiveMinimum = r.boolean("exclusiveMinimum")
	s.ExclusiveMaximum = r.boolean("exclusiveMaximum")
	s.XPreserveUnknownFields = r.boolean("x-kubernetes-preserve-unknown-fields")
	s.XIntOrString = r.boolean("x-kubernetes-int-or-string")
	s.XEmbeddedResource = r.boolean("x-kubernetes-embedded-resource")
	s.Minimum = r.number("minimum")
	s.Maximum = r.number("maximum")
	s.MultipleOf = r.number("multipleOf")
	s.MinLength = r.integer("minLength")
	s.MaxLength = r.integer("maxLength")
	s.MinItems = r.integer("minItems")
	s.MaxItems = r.integer("maxItems")
	s.MinProperties = r.integer("minProperties")
	s.MaxProperties = r.integer("maxProperties")
	s.Required = r.strings("required")
	s.XListMapKeys = r.strings("x-kubernetes-list-map-keys")
	if _, ok := m["x-kubernetes-list-type"]; ok {
		t := r.str("x-kubernetes-list-type")
		s.XListType = &t
	}
	if _, ok := m["x-kubernetes-map-type"]; ok {
		t := r.str("x-kubernetes-map-type")
		s.XMapType = &t
	}
	if d, ok := m["default"]; ok {
		s.Default = normalize(d)
	}
	if e, ok := m["enum"]; ok {
		list, ok := e.([]any)
		if !ok {
			r.fail("enum", "must be an array")
		}
		for _, x := range list {
			s.Enum = append(s.Enum, normalize(x))
		}
	}
	if x, ok := m["x-kubernetes-validations"]; ok {
		list, ok := x.([]any)
		if !ok {
			r.fail("x-kubernetes-validations", "must be an array")
		}
		s.XValidations = list
	}
	if r.err != nil {
		return nil, r.err
	}

	var err error
	if p, ok := m["properties"]; ok {
		pm, ok := p.(map[string]any)
		if !ok {
			return nil, &SchemaError{Path: path + ".properties", Msg: "must be an object"}
		}
		s.Properties = make(map[string]*Structural, len(pm))
		for k, pv := range pm {
			if s.Properties[k], err = fromValue(pv, path+".properties["+k+"]"); err != nil {
				return nil, err
			}
		}
	}
	if it, ok := m["items"]; ok {
		if _, isArray := it.([]any); isArray {
			s.unsupported = append(s.unsupported, "items")
		} else if s.Items, err = fromValue(it, path+".items"); err != nil {
			return nil, err
		}
	}
	if ap, ok := m["additionalProperties"]; ok {
		if b, isBool := ap.(bool); isBool {
			s.AdditionalPropertiesBool = &b
		} else if s.AdditionalProperties, err = fromValue(ap, path+".additionalProperties"); err != nil {
			return nil, err
		}
	}
	for _, j := range []struct {
		key string
		dst *[]*Structural
	}{{"allOf", &s.AllOf}, {"anyOf", &s.AnyOf}, {"oneOf", &s.OneOf}} {
		raw, ok := m[j.key]
		if !ok {
			continue
		}
		list, ok := raw.([]any)
		if !ok {
			return nil, &SchemaError{Path: path + "." + j.key, Msg: "must be an array"}
		}
		for i, x := range list {
			sub, err := fromValue(x, path+"."+j.key+"["+strconv.Itoa(i)+"]")
			if err != nil {
				return nil, err
			}
			*j.dst = append(*j.dst, sub)
		}
	}
	if n, ok := m["not"]; ok {
		if s.Not, err = fromValue(n, path+".not"); err != nil {
			return nil, err
		}
	}
	for _, k := range []string{"$ref", "definitions", "patternProperties", "dependencies", "additionalItems"} {
		if _, ok := m[k]; ok {
			s.unsupported = append(s.unsupported, k)
		}
	}
	if s.Pattern != "" {
		s.reSrc = s.Pattern
		s.re, s.reErr = regexp.Compile(s.Pattern)
	}
	return s, nil
}

// reader reads typed keywords of one schema object, remembering the first
// error.
type reader struct {
	m    map[string]any
	path string
	err  error
}

func (r *reader) fail(key, msg string) {
	if r.err == nil {
		r.err = &SchemaError{Path: r.path + "." + key, Msg: msg}
	}
}

func (r *reader) str(key string) string {
	v, ok := r.m[key]
	if !ok || v == nil {
		return ""
	}
	s, ok := v.(string)
	if !ok {
		r.fail(key, "must be a string")
	}
	return s
}

func (r *reader) boolean(key string) bool {
	v, ok := r.m[key]
	if !ok || v == nil {
		return false
	}
	b, ok := v.(bool)
	if !ok {
		r.fail(key, "must be a boolean")
	}
	return b
}

func (r *reader) number(key string) *float64 {
	v, ok := r.m[key]
	if !ok || v == nil {
		return nil
	}
	n, ok := v.(json.Number)
	if !ok {
		r.fail(key, "must be a number")
		return nil
	}
	f, err := n.Float64()
	if err != nil {
		r.fail(key, "must be a number")
		return nil
	}
	return &f
}

func (r *reader) integer(key string) *int64 {
	v, ok := r.m[key]
	if !ok || v == nil {
		return nil
	}
	n, ok := v.(json.Number)
	if !ok {
		r.fail(key, "must be an integer")
		return nil
	}
	i, err := n.Int64()
	if err != nil {
		r.fail(key, "must be an integer")
		return nil
	}
	return &i
}

func (r *reader) strings(key string) []string {
	v, ok := r.m[key]
	if !ok || v == nil {
		return nil
	}
	list, ok := v.([]any)
	if !ok {
		r.fail(key, "must be an array of strings")
		return nil
	}
	out := make([]string, 0, len(list))
	for _, e := range list {
		s, ok := e.(string)
		if !ok {
			r.fail(key, "must be an array of strings")
			return nil
		}
		out = append(out, s)
	}
	return out
}

// normalize turns json.Number into int64 (whole numbers) or float64, as
// unstructured.DecodeJSONObject does.
func normalize(v any) any {
	switch v := v.(type) {
	case map[string]any:
		for k, e := range v {
			v[k] = normalize(e)
		}
		return v
	case []any:
		for i, e := range v {
			v[i] = normalize(e)
		}
		return v
	case json.Number:
		if i, err := strconv.ParseInt(string(v), 10, 64); err == nil {
			return i
		}
		f, _ := strconv.ParseFloat(string(v), 64)
		return f
	}
	return v
}

// pattern returns the compiled Pattern.
func (s *Structural) pattern() (*regexp.Regexp, error) {
	if s.re != nil && s.reSrc == s.Pattern {
		return s.re, nil
	}
	if s.reErr != nil && s.reSrc == s.Pattern {
		return nil, s.reErr
	}
	return regexp.Compile(s.Pattern)
}

// deepCopyJSON copies a JSON value (maps, slices, scalars).
func deepCopyJSON(v any) any {
	switch v := v.(type) {
	case map[string]any:
		m := make(map[string]any, len(v))
		for k, e := range v {
			m[k] = deepCopyJSON(e)
		}
		return m
	case []any:
		s := make([]any, len(v))
		for i, e := range v {
			s[i] = deepCopyJSON(e)
		}
		return s
	}
	return v
}
