// Code written by hand in the shape of upstream's generated
// zz_generated.deepcopy.go: upstream generates field-by-field copies,
// crdlab copies by reflection (internal/deepcopy), except a schema, which
// is copied field by field below: a real-size CRD's schema has tens of
// thousands of nodes, and the reflective copy of one took ~8 ms (every
// write of a CRD copies it more than once). Nothing to learn here.

package apiextensions

import (
	"github.com/crdlab/crdlab/internal/deepcopy"
	"github.com/crdlab/crdlab/scheme"
)

func init() { deepcopy.Register((*JSONSchemaProps).DeepCopy) }

func (in *CustomResourceDefinition) DeepCopyObject() scheme.Object     { return deepcopy.Copy(in) }
func (in *CustomResourceDefinitionList) DeepCopyObject() scheme.Object { return deepcopy.Copy(in) }

// DeepCopy returns a copy sharing no memory with in.
func (in *CustomResourceDefinition) DeepCopy() *CustomResourceDefinition { return deepcopy.Copy(in) }

// DeepCopy returns a copy of a schema sharing no memory with in (nil for
// nil). TestJSONSchemaPropsDeepCopy checks that it copies every field.
func (in *JSONSchemaProps) DeepCopy() *JSONSchemaProps {
	if in == nil {
		return nil
	}
	out := new(JSONSchemaProps)
	in.deepCopyInto(out)
	return out
}

func (in *JSONSchemaProps) deepCopyInto(out *JSONSchemaProps) {
	*out = *in
	out.Ref = copyPtr(in.Ref)
	out.Default = copyJSONPtr(in.Default)
	out.Maximum = copyPtr(in.Maximum)
	out.Minimum = copyPtr(in.Minimum)
	out.MaxLength = copyPtr(in.MaxLength)
	out.MinLength = copyPtr(in.MinLength)
	out.MaxItems = copyPtr(in.MaxItems)
	out.MinItems = copyPtr(in.MinItems)
	out.MultipleOf = copyPtr(in.MultipleOf)
	if in.Enum != nil {
		out.Enum = make([]JSON, len(in.Enum))
		for i, v := range in.Enum {
			out.Enum[i] = copyJSON(v)
		}
	}
	out.MaxProperties = copyPtr(in.MaxProperties)
	out.MinProperties = copyPtr(in.MinProperties)
	out.Required = copyStrings(in.Required)
	if in.Items != nil {
		out.Items = &JSONSchemaPropsOrArray{Schema: in.Items.Schema.DeepCopy(), JSONSchemas: copySchemas(in.Items.JSONSchemas)}
	}
	out.AllOf = copySchemas(in.AllOf)
	out.OneOf = copySchemas(in.OneOf)
	out.AnyOf = copySchemas(in.AnyOf)
	out.Not = in.Not.DeepCopy()
	out.Properties = copySchemaMap(in.Properties)
	out.AdditionalProperties = copyOrBool(in.AdditionalProperties)
	out.PatternProperties = copySchemaMap(in.PatternProperties)
	if in.Dependencies != nil {
		out.Dependencies = make(JSONSchemaDependencies, len(in.Dependencies))
		for k, v := range in.Dependencies {
			out.Dependencies[k] = JSONSchemaPropsOrStringArray{Schema: v.Schema.DeepCopy(), Property: copyStrings(v.Property)}
		}
	}
	out.AdditionalItems = copyOrBool(in.AdditionalItems)
	out.Definitions = copySchemaMap(in.Definitions)
	out.ExternalDocs = copyPtr(in.ExternalDocs)
	out.Example = copyJSONPtr(in.Example)
	out.XPreserveUnknownFields = copyPtr(in.XPreserveUnknownFields)
	out.XListMapKeys = copyStrings(in.XListMapKeys)
	out.XListType = copyPtr(in.XListType)
	out.XMapType = copyPtr(in.XMapType)
	if in.XValidations != nil {
		out.XValidations = make(ValidationRules, len(in.XValidations))
		for i, r := range in.XValidations {
			r.Reason = copyPtr(r.Reason)
			r.OptionalOldSelf = copyPtr(r.OptionalOldSelf)
			out.XValidations[i] = r
		}
	}
}

// copyPtr copies what p points to (a scalar or a struct of scalars).
func copyPtr[T any](p *T) *T {
	if p == nil {
		return nil
	}
	c := *p
	return &c
}

func copyStrings(s []string) []string {
	if s == nil {
		return nil
	}
	return append(make([]string, 0, len(s)), s...)
}

func copySchemas(s []JSONSchemaProps) []JSONSchemaProps {
	if s == nil {
		return nil
	}
	out := make([]JSONSchemaProps, len(s))
	for i := range s {
		s[i].deepCopyInto(&out[i])
	}
	return out
}

func copySchemaMap[M ~map[string]JSONSchemaProps](m M) M {
	if m == nil {
		return nil
	}
	out := make(M, len(m))
	for k, v := range m {
		var c JSONSchemaProps
		v.deepCopyInto(&c)
		out[k] = c
	}
	return out
}

func copyOrBool(in *JSONSchemaPropsOrBool) *JSONSchemaPropsOrBool {
	if in == nil {
		return nil
	}
	return &JSONSchemaPropsOrBool{Allows: in.Allows, Schema: in.Schema.DeepCopy()}
}

func copyJSONPtr(p *JSON) *JSON {
	if p == nil {
		return nil
	}
	c := copyJSON(*p)
	return &c
}

// copyJSON copies a decoded JSON value; a value of another type (which
// decoding does not make) is copied by reflection.
func copyJSON(v JSON) JSON {
	switch x := v.(type) {
	case nil, bool, string, float64, int64:
		return v
	case map[string]any:
		m := make(map[string]any, len(x))
		for k, e := range x {
			m[k] = copyJSON(e)
		}
		return m
	case []any:
		s := make([]any, len(x))
		for i, e := range x {
			s[i] = copyJSON(e)
		}
		return s
	}
	return deepcopy.Copy(v)
}
