package v1beta1

import (
	"github.com/crdlab/crdlab/apis/apiextensions"
	"github.com/crdlab/crdlab/internal/deepcopy"
)

// Convert_v1beta1_JSONSchemaProps_To_apiextensions_JSONSchemaProps converts a
// schema field by field; JSON values (default, example, enum) are decoded.
func Convert_v1beta1_JSONSchemaProps_To_apiextensions_JSONSchemaProps(in *JSONSchemaProps, out *apiextensions.JSONSchemaProps) error {
	*out = apiextensions.JSONSchemaProps{
		ID:                     in.ID,
		Schema:                 apiextensions.JSONSchemaURL(in.Schema),
		Ref:                    deepcopy.Copy(in.Ref),
		Description:            in.Description,
		Type:                   in.Type,
		Nullable:               in.Nullable,
		Format:                 in.Format,
		Title:                  in.Title,
		Maximum:                deepcopy.Copy(in.Maximum),
		ExclusiveMaximum:       in.ExclusiveMaximum,
		Minimum:                deepcopy.Copy(in.Minimum),
		ExclusiveMinimum:       in.ExclusiveMinimum,
		MaxLength:              deepcopy.Copy(in.MaxLength),
		MinLength:              deepcopy.Copy(in.MinLength),
		Pattern:                in.Pattern,
		MaxItems:               deepcopy.Copy(in.MaxItems),
		MinItems:               deepcopy.Copy(in.MinItems),
		UniqueItems:            in.UniqueItems,
		MultipleOf:             deepcopy.Copy(in.MultipleOf),
		MaxProperties:          deepcopy.Copy(in.MaxProperties),
		MinProperties:          deepcopy.Copy(in.MinProperties),
		Required:               deepcopy.Copy(in.Required),
		XPreserveUnknownFields: deepcopy.Copy(in.XPreserveUnknownFields),
		XEmbeddedResource:      in.XEmbeddedResource,
		XIntOrString:           in.XIntOrString,
		XListMapKeys:           deepcopy.Copy(in.XListMapKeys),
		XListType:              deepcopy.Copy(in.XListType),
		XMapType:               deepcopy.Copy(in.XMapType),
	}
	var err error
	if in.Default != nil {
		out.Default = new(apiextensions.JSON)
		if err = Convert_v1beta1_JSON_To_apiextensions_JSON(in.Default, out.Default); err != nil {
			return err
		}
	}
	if in.Example != nil {
		out.Example = new(apiextensions.JSON)
		if err = Convert_v1beta1_JSON_To_apiextensions_JSON(in.Example, out.Example); err != nil {
			return err
		}
	}
	if in.Enum != nil {
		out.Enum = make([]apiextensions.JSON, len(in.Enum))
		for i := range in.Enum {
			if err = Convert_v1beta1_JSON_To_apiextensions_JSON(&in.Enum[i], &out.Enum[i]); err != nil {
				return err
			}
		}
	}
	if in.Items != nil {
		out.Items = &apiextensions.JSONSchemaPropsOrArray{}
		if out.Items.Schema, err = schemaPtrToInternal(in.Items.Schema); err != nil {
			return err
		}
		if out.Items.JSONSchemas, err = schemaSliceToInternal(in.Items.JSONSchemas); err != nil {
			return err
		}
	}
	if out.AllOf, err = schemaSliceToInternal(in.AllOf); err != nil {
		return err
	}
	if out.OneOf, err = schemaSliceToInternal(in.OneOf); err != nil {
		return err
	}
	if out.AnyOf, err = schemaSliceToInternal(in.AnyOf); err != nil {
		return err
	}
	if out.Not, err = schemaPtrToInternal(in.Not); err != nil {
		return err
	}
	if out.Properties, err = schemaMapToInternal(in.Properties); err != nil {
		return err
	}
	if out.PatternProperties, err = schemaMapToInternal(in.PatternProperties); err != nil {
		return err
	}
	if out.Definitions, err = schemaMapToInternal(in.Definitions); err != nil {
		return err
	}
	if out.AdditionalProperties, err = schemaOrBoolToInternal(in.AdditionalProperties); err != nil {
		return err
	}
	if out.AdditionalItems, err = schemaOrBoolToInternal(in.AdditionalItems); err != nil {
		return err
	}
	if in.Dependencies != nil {
		out.Dependencies = apiextensions.JSONSchemaDependencies{}
		for k, d := range in.Dependencies {
			s, err := schemaPtrToInternal(d.Schema)
			if err != nil {
				return err
			}
			out.Dependencies[k] = apiextensions.JSONSchemaPropsOrStringArray{Schema: s, Property: deepcopy.Copy(d.Property)}
		}
	}
	if in.ExternalDocs != nil {
		out.ExternalDocs = &apiextensions.ExternalDocumentation{Description: in.ExternalDocs.Description, URL: in.ExternalDocs.URL}
	}
	if in.XValidations != nil {
		out.XValidations = make(apiextensions.ValidationRules, len(in.XValidations))
		for i, r := range in.XValidations {
			out.XValidations[i] = apiextensions.ValidationRule{
				Rule:              r.Rule,
				Message:           r.Message,
				MessageExpression: r.MessageExpression,
				Reason:            (*apiextensions.FieldValueErrorReason)(deepcopy.Copy(r.Reason)),
				FieldPath:         r.FieldPath,
				OptionalOldSelf:   deepcopy.Copy(r.OptionalOldSelf),
			}
		}
	}
	return nil
}

// Convert_apiextensions_JSONSchemaProps_To_v1beta1_JSONSchemaProps converts a
// hub schema field by field; JSON values are encoded.
//
// Upstream rule: a default or example holding JSON null is dropped.
func Convert_apiextensions_JSONSchemaProps_To_v1beta1_JSONSchemaProps(in *apiextensions.JSONSchemaProps, out *JSONSchemaProps) error {
	*out = JSONSchemaProps{
		ID:                     in.ID,
		Schema:                 JSONSchemaURL(in.Schema),
		Ref:                    deepcopy.Copy(in.Ref),
		Description:            in.Description,
		Type:                   in.Type,
		Nullable:               in.Nullable,
		Format:                 in.Format,
		Title:                  in.Title,
		Maximum:                deepcopy.Copy(in.Maximum),
		ExclusiveMaximum:       in.ExclusiveMaximum,
		Minimum:                deepcopy.Copy(in.Minimum),
		ExclusiveMinimum:       in.ExclusiveMinimum,
		MaxLength:              deepcopy.Copy(in.MaxLength),
		MinLength:              deepcopy.Copy(in.MinLength),
		Pattern:                in.Pattern,
		MaxItems:               deepcopy.Copy(in.MaxItems),
		MinItems:               deepcopy.Copy(in.MinItems),
		UniqueItems:            in.UniqueItems,
		MultipleOf:             deepcopy.Copy(in.MultipleOf),
		MaxProperties:          deepcopy.Copy(in.MaxProperties),
		MinProperties:          deepcopy.Copy(in.MinProperties),
		Required:               deepcopy.Copy(in.Required),
		XPreserveUnknownFields: deepcopy.Copy(in.XPreserveUnknownFields),
		XEmbeddedResource:      in.XEmbeddedResource,
		XIntOrString:           in.XIntOrString,
		XListMapKeys:           deepcopy.Copy(in.XListMapKeys),
		XListType:              deepcopy.Copy(in.XListType),
		XMapType:               deepcopy.Copy(in.XMapType),
	}
	var err error
	if in.Default != nil && *in.Default != nil {
		out.Default = &JSON{}
		if err = Convert_apiextensions_JSON_To_v1beta1_JSON(in.Default, out.Default); err != nil {
			return err
		}
	}
	if in.Example != nil && *in.Example != nil {
		out.Example = &JSON{}
		if err = Convert_apiextensions_JSON_To_v1beta1_JSON(in.Example, out.Example); err != nil {
			return err
		}
	}
	if in.Enum != nil {
		out.Enum = make([]JSON, len(in.Enum))
		for i := range in.Enum {
			if err = Convert_apiextensions_JSON_To_v1beta1_JSON(&in.Enum[i], &out.Enum[i]); err != nil {
				return err
			}
		}
	}
	if in.Items != nil {
		out.Items = &JSONSchemaPropsOrArray{}
		if out.Items.Schema, err = schemaPtrFromInternal(in.Items.Schema); err != nil {
			return err
		}
		if out.Items.JSONSchemas, err = schemaSliceFromInternal(in.Items.JSONSchemas); err != nil {
			return err
		}
	}
	if out.AllOf, err = schemaSliceFromInternal(in.AllOf); err != nil {
		return err
	}
	if out.OneOf, err = schemaSliceFromInternal(in.OneOf); err != nil {
		return err
	}
	if out.AnyOf, err = schemaSliceFromInternal(in.AnyOf); err != nil {
		return err
	}
	if out.Not, err = schemaPtrFromInternal(in.Not); err != nil {
		return err
	}
	if out.Properties, err = schemaMapFromInternal(in.Properties); err != nil {
		return err
	}
	if out.PatternProperties, err = schemaMapFromInternal(in.PatternProperties); err != nil {
		return err
	}
	if out.Definitions, err = schemaMapFromInternal(in.Definitions); err != nil {
		return err
	}
	if out.AdditionalProperties, err = schemaOrBoolFromInternal(in.AdditionalProperties); err != nil {
		return err
	}
	if out.AdditionalItems, err = schemaOrBoolFromInternal(in.AdditionalItems); err != nil {
		return err
	}
	if in.Dependencies != nil {
		out.Dependencies = JSONSchemaDependencies{}
		for k, d := range in.Dependencies {
			s, err := schemaPtrFromInternal(d.Schema)
			if err != nil {
				return err
			}
			out.Dependencies[k] = JSONSchemaPropsOrStringArray{Schema: s, Property: deepcopy.Copy(d.Property)}
		}
	}
	if in.ExternalDocs != nil {
		out.ExternalDocs = &ExternalDocumentation{Description: in.ExternalDocs.Description, URL: in.ExternalDocs.URL}
	}
	if in.XValidations != nil {
		out.XValidations = make(ValidationRules, len(in.XValidations))
		for i, r := range in.XValidations {
			out.XValidations[i] = ValidationRule{
				Rule:              r.Rule,
				Message:           r.Message,
				MessageExpression: r.MessageExpression,
				Reason:            (*FieldValueErrorReason)(deepcopy.Copy(r.Reason)),
				FieldPath:         r.FieldPath,
				OptionalOldSelf:   deepcopy.Copy(r.OptionalOldSelf),
			}
		}
	}
	return nil
}

func schemaPtrToInternal(in *JSONSchemaProps) (*apiextensions.JSONSchemaProps, error) {
	if in == nil {
		return nil, nil
	}
	out := &apiextensions.JSONSchemaProps{}
	return out, Convert_v1beta1_JSONSchemaProps_To_apiextensions_JSONSchemaProps(in, out)
}

func schemaPtrFromInternal(in *apiextensions.JSONSchemaProps) (*JSONSchemaProps, error) {
	if in == nil {
		return nil, nil
	}
	out := &JSONSchemaProps{}
	return out, Convert_apiextensions_JSONSchemaProps_To_v1beta1_JSONSchemaProps(in, out)
}

func schemaSliceToInternal(in []JSONSchemaProps) ([]apiextensions.JSONSchemaProps, error) {
	if in == nil {
		return nil, nil
	}
	out := make([]apiextensions.JSONSchemaProps, len(in))
	for i := range in {
		if err := Convert_v1beta1_JSONSchemaProps_To_apiextensions_JSONSchemaProps(&in[i], &out[i]); err != nil {
			return nil, err
		}
	}
	return out, nil
}

func schemaSliceFromInternal(in []apiextensions.JSONSchemaProps) ([]JSONSchemaProps, error) {
	if in == nil {
		return nil, nil
	}
	out := make([]JSONSchemaProps, len(in))
	for i := range in {
		if err := Convert_apiextensions_JSONSchemaProps_To_v1beta1_JSONSchemaProps(&in[i], &out[i]); err != nil {
			return nil, err
		}
	}
	return out, nil
}

func schemaMapToInternal(in map[string]JSONSchemaProps) (map[string]apiextensions.JSONSchemaProps, error) {
	if in == nil {
		return nil, nil
	}
	out := make(map[string]apiextensions.JSONSchemaProps, len(in))
	for k := range in {
		v := in[k]
		var o apiextensions.JSONSchemaProps
		if err := Convert_v1beta1_JSONSchemaProps_To_apiextensions_JSONSchemaProps(&v, &o); err != nil {
			return nil, err
		}
		out[k] = o
	}
	return out, nil
}

func schemaMapFromInternal(in map[string]apiextensions.JSONSchemaProps) (map[string]JSONSchemaProps, error) {
	if in == nil {
		return nil, nil
	}
	out := make(map[string]JSONSchemaProps, len(in))
	for k := range in {
		v := in[k]
		var o JSONSchemaProps
		if err := Convert_apiextensions_JSONSchemaProps_To_v1beta1_JSONSchemaProps(&v, &o); err != nil {
			return nil, err
		}
		out[k] = o
	}
	return out, nil
}

func schemaOrBoolToInternal(in *JSONSchemaPropsOrBool) (*apiextensions.JSONSchemaPropsOrBool, error) {
	if in == nil {
		return nil, nil
	}
	s, err := schemaPtrToInternal(in.Schema)
	return &apiextensions.JSONSchemaPropsOrBool{Allows: in.Allows, Schema: s}, err
}

func schemaOrBoolFromInternal(in *apiextensions.JSONSchemaPropsOrBool) (*JSONSchemaPropsOrBool, error) {
	if in == nil {
		return nil, nil
	}
	s, err := schemaPtrFromInternal(in.Schema)
	return &JSONSchemaPropsOrBool{Allows: in.Allows, Schema: s}, err
}
