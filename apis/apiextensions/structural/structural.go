package structural

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"regexp"
	"strconv"

	"github.com/crdlab/crdlab/apis/validation/field"
)

// Structural is one node of a structural schema: what a value at this place
// of a custom resource must be.
//
// Generic part: Type ("object", "array", "string", "integer", "number",
// "boolean"), Format, Description, Title, Nullable, Default, Example,
// ExternalDocs. Structure: Properties (named fields of an object),
// AdditionalProperties (the schema of every other field, making the object
// a map), Items (the schema of every array element). Value validations:
// Required, Enum, Minimum…, and the junctors AllOf, AnyOf, OneOf, Not,
// which hold further value validations of the same value. Extensions: the
// x-kubernetes-* fields.
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
	// Example and ExternalDocs are documentation only (nil when absent).
	Example      any
	ExternalDocs map[string]any

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
	// UniqueItems is not allowed in a CRD (the CRD validation says so) and
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
	// XValidations holds the x-kubernetes-validations (CEL rules) as read.
	XValidations []any

	// re is Pattern compiled by FromJSON (nil if it does not compile, or
	// if the Structural was built by hand); reErr is the compile error.
	re    *regexp.Regexp
	reSrc string
	reErr error
	// noEmbedded and noListSetMap are set by FromJSON when no node of
	// this subtree is an embedded resource, or a set or map list: Validate
	// then skips those walks of the object. (A Structural built by hand
	// has them false, and is walked.)
	noEmbedded, noListSetMap bool
}

// ErrInvalidSchema is wrapped by the errors FromJSON returns.
var ErrInvalidSchema = errors.New("invalid schema")

// SchemaError is a schema FromJSON cannot read: not JSON, a keyword with a
// value of the wrong JSON type, or a keyword a CRD schema may not use.
type SchemaError struct {
	// Path is where in the schema, e.g. "properties[spec].minLength".
	Path string
	Msg  string
}

func (e *SchemaError) Error() string {
	if e.Path == "" {
		return e.Msg
	}
	return e.Path + ": " + e.Msg
}

// Unwrap makes errors.Is(err, ErrInvalidSchema) true.
func (e *SchemaError) Unwrap() error { return ErrInvalidSchema }

// unsupportedKeywords are the JSON-Schema keywords a CRD schema may not
// use, with the JSON Go field names upstream's messages use.
var unsupportedKeywords = []struct{ key, name string }{
	{"id", "id"}, {"$schema", "schema"}, {"$ref", "$ref"}, {"patternProperties", "patternProperties"},
	{"dependencies", "dependencies"}, {"additionalItems", "additionalItems"}, {"definitions", "definitions"},
}

// FromJSON reads a schema from the JSON of a JSONSchemaProps (a CRD
// version's schema.openAPIV3Schema). It fails on what a structural schema
// cannot hold: not JSON, "minLength": "x", $ref and the other keywords a
// CRD may not use, items given as an array; whether the schema is
// structural is ValidateStructural's business. Whole numbers in default,
// enum and example become int64, others float64, as in an Unstructured
// object.
//
// Mirrors schema.NewStructural (reading JSON instead of the
// apiextensions.JSONSchemaProps type).
func FromJSON(schemaJSON []byte) (*Structural, error) {
	if v, ok := decodeSchemaJSON(schemaJSON); ok {
		return fromValue(v, nil)
	}
	dec := json.NewDecoder(bytes.NewReader(schemaJSON))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, &SchemaError{Msg: "invalid JSON: " + err.Error()}
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, &SchemaError{Msg: "invalid JSON: unexpected data after the schema"}
	}
	return fromValue(v, nil)
}

// fromValue builds the Structural of one decoded schema object. pth is
// where it sits, rendered only for an error: building the string at every
// level costs quadratic time and memory on a deeply nested schema.
func fromValue(v any, pth *field.Path) (*Structural, error) {
	m, ok := v.(map[string]any)
	if !ok {
		return nil, &SchemaError{Path: pathString(pth), Msg: "must be an object"}
	}
	for _, u := range unsupportedKeywords {
		if _, ok := m[u.key]; ok {
			return nil, &SchemaError{Path: pathString(pth), Msg: "OpenAPIV3Schema '" + u.name + "' is not supported"}
		}
	}
	s := &Structural{}
	r := reader{m: m, path: pth}
	s.Type = r.str("type")
	s.Format = r.str("format")
	s.Description = r.str("description")
	s.Title = r.str("title")
	s.Pattern = r.str("pattern")
	s.Nullable = r.boolean("nullable")
	s.UniqueItems = r.boolean("uniqueItems")
	s.ExclusiveMinimum = r.boolean("exclusiveMinimum")
	s.ExclusiveMaximum = r.boolean("exclusiveMaximum")
	s.XIntOrString = r.boolean("x-kubernetes-int-or-string")
	s.XEmbeddedResource = r.boolean("x-kubernetes-embedded-resource")
	// false is as good as absent here (upstream's NewStructural refuses
	// it; the CRD validation says "must be true or undefined").
	s.XPreserveUnknownFields = r.boolean("x-kubernetes-preserve-unknown-fields")
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
	if d, ok := m["example"]; ok {
		s.Example = normalize(d)
	}
	if d, ok := m["externalDocs"]; ok {
		if s.ExternalDocs, ok = d.(map[string]any); !ok && d != nil {
			r.fail("externalDocs", "must be an object")
		}
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
			return nil, &SchemaError{Path: pathString(pth.Child("properties")), Msg: "must be an object"}
		}
		if len(pm) > 0 {
			s.Properties = make(map[string]*Structural, len(pm))
		}
		for k, pv := range pm {
			if s.Properties[k], err = fromValue(pv, pth.Child("properties").Key(k)); err != nil {
				return nil, err
			}
		}
	}
	if it, ok := m["items"]; ok {
		if _, isArray := it.([]any); isArray {
			return nil, &SchemaError{Path: pathString(pth), Msg: "OpenAPIV3Schema 'items' must be a schema, but is an array"}
		}
		if s.Items, err = fromValue(it, pth.Child("items")); err != nil {
			return nil, err
		}
	}
	if ap, ok := m["additionalProperties"]; ok {
		if b, isBool := ap.(bool); isBool {
			s.AdditionalPropertiesBool = &b
		} else if s.AdditionalProperties, err = fromValue(ap, pth.Child("additionalProperties")); err != nil {
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
			return nil, &SchemaError{Path: pathString(pth.Child(j.key)), Msg: "must be an array"}
		}
		for i, x := range list {
			sub, err := fromValue(x, pth.Child(j.key).Index(i))
			if err != nil {
				return nil, err
			}
			*j.dst = append(*j.dst, sub)
		}
	}
	if n, ok := m["not"]; ok {
		if s.Not, err = fromValue(n, pth.Child("not")); err != nil {
			return nil, err
		}
	}
	s.finish()
	return s, nil
}

// finish sets what FromJSON and FromProps derive once a node's children
// are built: the compiled pattern, and whether the subtree has embedded
// resources or set or map lists.
func (s *Structural) finish() {
	if s.Pattern != "" {
		s.reSrc = s.Pattern
		s.re, s.reErr = regexp.Compile(s.Pattern)
	}
	s.noEmbedded = !s.XEmbeddedResource
	s.noListSetMap = s.XListType == nil || (*s.XListType != "set" && *s.XListType != "map")
	for _, c := range s.Properties {
		s.noEmbedded = s.noEmbedded && c.noEmbedded
		s.noListSetMap = s.noListSetMap && c.noListSetMap
	}
	for _, c := range []*Structural{s.Items, s.AdditionalProperties} {
		if c != nil {
			s.noEmbedded = s.noEmbedded && c.noEmbedded
			s.noListSetMap = s.noListSetMap && c.noListSetMap
		}
	}
}

// children are the structural nodes right below s (properties, items,
// additionalProperties), which the object walks follow.
func (s *Structural) children() []*Structural {
	out := make([]*Structural, 0, len(s.Properties)+2)
	for _, p := range s.Properties {
		out = append(out, p)
	}
	if s.Items != nil {
		out = append(out, s.Items)
	}
	if s.AdditionalProperties != nil {
		out = append(out, s.AdditionalProperties)
	}
	return out
}

// pathString renders a schema path for an error ("" at the root).
func pathString(p *field.Path) string {
	if p == nil {
		return ""
	}
	return p.String()
}

// reader reads typed keywords of one schema object, remembering the first
// error.
type reader struct {
	m    map[string]any
	path *field.Path
	err  error
}

func (r *reader) fail(key, msg string) {
	if r.err == nil {
		r.err = &SchemaError{Path: pathString(r.path.Child(key)), Msg: msg}
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
