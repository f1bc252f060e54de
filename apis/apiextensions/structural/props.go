package structural

import (
	"encoding/json"
	"errors"
	"math"
	"unicode/utf8"

	"github.com/crdlab/crdlab/apis/apiextensions"
	"github.com/crdlab/crdlab/apis/validation/field"
)

// errNotJSON is FromProps' error for a schema whose JSON would not be
// itself: a float JSON cannot write (NaN, an infinity), a string that is
// not UTF-8, a default or an example json.Marshal refuses.
var errNotJSON = errors.New("schema holds a value JSON cannot write as it is")

// FromProps builds the structural schema of a hub schema: the same
// Structural, and an error exactly where, FromJSON gives for the schema's
// v1 JSON (Convert_apiextensions_JSONSchemaProps_To_v1_JSONSchemaProps,
// then json.Marshal) — without writing and reading that JSON, which for a
// real-size CRD was half of its validation's CPU. On a schema that JSON
// would change (errNotJSON) it fails, and the caller takes the JSON way;
// the CRD validation does (validation.newStructural).
// TestFromProps_SameAsFromJSON compares the two.
//
// Mirrors schema.NewStructural, which reads the hub type too.
func FromProps(p *apiextensions.JSONSchemaProps) (*Structural, error) {
	return fromProps(p, nil)
}

func fromProps(p *apiextensions.JSONSchemaProps, pth *field.Path) (*Structural, error) {
	for _, u := range []struct {
		present bool
		name    string
	}{
		{p.ID != "", "id"}, {p.Schema != "", "schema"}, {p.Ref != nil, "$ref"},
		{len(p.PatternProperties) > 0, "patternProperties"}, {len(p.Dependencies) > 0, "dependencies"},
		{p.AdditionalItems != nil, "additionalItems"}, {len(p.Definitions) > 0, "definitions"},
	} {
		if u.present {
			return nil, &SchemaError{Path: pathString(pth), Msg: "OpenAPIV3Schema '" + u.name + "' is not supported"}
		}
	}
	for _, str := range []string{p.Type, p.Format, p.Description, p.Title, p.Pattern} {
		if !utf8.ValidString(str) {
			return nil, errNotJSON
		}
	}
	s := &Structural{
		Type: p.Type, Format: p.Format, Description: p.Description, Title: p.Title, Pattern: p.Pattern,
		Nullable: p.Nullable, UniqueItems: p.UniqueItems,
		ExclusiveMinimum: p.ExclusiveMinimum, ExclusiveMaximum: p.ExclusiveMaximum,
		XIntOrString: p.XIntOrString, XEmbeddedResource: p.XEmbeddedResource,
		XPreserveUnknownFields: p.XPreserveUnknownFields != nil && *p.XPreserveUnknownFields,
		MinLength:              cloneInt(p.MinLength), MaxLength: cloneInt(p.MaxLength),
		MinItems: cloneInt(p.MinItems), MaxItems: cloneInt(p.MaxItems),
		MinProperties: cloneInt(p.MinProperties), MaxProperties: cloneInt(p.MaxProperties),
	}
	var ok bool
	if s.Minimum, ok = cloneFloat(p.Minimum); !ok {
		return nil, errNotJSON
	}
	if s.Maximum, ok = cloneFloat(p.Maximum); !ok {
		return nil, errNotJSON
	}
	if s.MultipleOf, ok = cloneFloat(p.MultipleOf); !ok {
		return nil, errNotJSON
	}
	if s.Required, ok = cloneStrings(p.Required); !ok {
		return nil, errNotJSON
	}
	if s.XListMapKeys, ok = cloneStrings(p.XListMapKeys); !ok {
		return nil, errNotJSON
	}
	if p.XListType != nil {
		if !utf8.ValidString(*p.XListType) {
			return nil, errNotJSON
		}
		t := *p.XListType
		s.XListType = &t
	}
	if p.XMapType != nil {
		if !utf8.ValidString(*p.XMapType) {
			return nil, errNotJSON
		}
		t := *p.XMapType
		s.XMapType = &t
	}
	if p.Default != nil {
		if s.Default, ok = jsonValue(*p.Default); !ok {
			return nil, errNotJSON
		}
	}
	if p.Example != nil {
		if s.Example, ok = jsonValue(*p.Example); !ok {
			return nil, errNotJSON
		}
	}
	if d := p.ExternalDocs; d != nil {
		if !utf8.ValidString(d.Description) || !utf8.ValidString(d.URL) {
			return nil, errNotJSON
		}
		s.ExternalDocs = map[string]any{}
		if d.Description != "" {
			s.ExternalDocs["description"] = d.Description
		}
		if d.URL != "" {
			s.ExternalDocs["url"] = d.URL
		}
	}
	for _, e := range p.Enum {
		v, ok := jsonValue(e)
		if !ok {
			return nil, errNotJSON
		}
		s.Enum = append(s.Enum, v)
	}
	if len(p.XValidations) > 0 {
		s.XValidations = make([]any, len(p.XValidations))
		for i, r := range p.XValidations {
			m := map[string]any{"rule": r.Rule}
			if r.Message != "" {
				m["message"] = r.Message
			}
			if r.MessageExpression != "" {
				m["messageExpression"] = r.MessageExpression
			}
			if r.Reason != nil {
				m["reason"] = string(*r.Reason)
			}
			if r.FieldPath != "" {
				m["fieldPath"] = r.FieldPath
			}
			if r.OptionalOldSelf != nil {
				m["optionalOldSelf"] = *r.OptionalOldSelf
			}
			for _, v := range m {
				if str, isString := v.(string); isString && !utf8.ValidString(str) {
					return nil, errNotJSON
				}
			}
			s.XValidations[i] = m
		}
	}

	var err error
	if len(p.Properties) > 0 {
		s.Properties = make(map[string]*Structural, len(p.Properties))
		// One copy of a property's schema for all of them (a copy each
		// escaped: a third of a real-size CRD's validation's bytes), and
		// one path to them: fromProps keeps neither.
		c, pp := new(apiextensions.JSONSchemaProps), pth.Child("properties")
		for k := range p.Properties {
			if !utf8.ValidString(k) {
				return nil, errNotJSON
			}
			*c = p.Properties[k]
			if s.Properties[k], err = fromProps(c, pp.Key(k)); err != nil {
				return nil, err
			}
		}
	}
	if it := p.Items; it != nil {
		switch {
		case len(it.JSONSchemas) > 0:
			return nil, &SchemaError{Path: pathString(pth), Msg: "OpenAPIV3Schema 'items' must be a schema, but is an array"}
		case it.Schema == nil: // written as null
			return nil, &SchemaError{Path: pathString(pth.Child("items")), Msg: "must be an object"}
		}
		if s.Items, err = fromProps(it.Schema, pth.Child("items")); err != nil {
			return nil, err
		}
	}
	if ap := p.AdditionalProperties; ap != nil {
		if ap.Schema == nil {
			b := ap.Allows
			s.AdditionalPropertiesBool = &b
		} else if s.AdditionalProperties, err = fromProps(ap.Schema, pth.Child("additionalProperties")); err != nil {
			return nil, err
		}
	}
	for _, j := range []struct {
		key  string
		list []apiextensions.JSONSchemaProps
		dst  *[]*Structural
	}{{"allOf", p.AllOf, &s.AllOf}, {"anyOf", p.AnyOf, &s.AnyOf}, {"oneOf", p.OneOf, &s.OneOf}} {
		for i := range j.list {
			sub, err := fromProps(&j.list[i], pth.Child(j.key).Index(i))
			if err != nil {
				return nil, err
			}
			*j.dst = append(*j.dst, sub)
		}
	}
	if p.Not != nil {
		if s.Not, err = fromProps(p.Not, pth.Child("not")); err != nil {
			return nil, err
		}
	}
	s.finish()
	return s, nil
}

func cloneInt(v *int64) *int64 {
	if v == nil {
		return nil
	}
	c := *v
	return &c
}

// cloneFloat copies a float; ok is false for one JSON cannot write.
func cloneFloat(v *float64) (*float64, bool) {
	if v == nil {
		return nil, true
	}
	if math.IsNaN(*v) || math.IsInf(*v, 0) {
		return nil, false
	}
	c := *v
	return &c, true
}

// cloneStrings copies a list as its JSON reads back: an empty list is
// not written, so it reads as none.
func cloneStrings(list []string) ([]string, bool) {
	if len(list) == 0 {
		return nil, true
	}
	for _, s := range list {
		if !utf8.ValidString(s) {
			return nil, false
		}
	}
	return append([]string(nil), list...), true
}

// jsonValue is what FromJSON reads for a hub JSON value (a default, an
// example, an enum entry): written by json.Marshal, read back and
// normalized (a float64 2 becomes int64 2, as in the JSON way).
func jsonValue(v apiextensions.JSON) (any, bool) {
	if v == nil {
		return nil, true
	}
	b, err := json.Marshal(v)
	if err != nil {
		return nil, false
	}
	d, ok := decodeSchemaJSON(b)
	if !ok {
		return nil, false
	}
	return normalize(d), true
}
