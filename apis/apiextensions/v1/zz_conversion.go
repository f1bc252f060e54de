// Code written by hand in the shape of upstream's generated
// zz_generated.conversion.go: field-for-field copies between v1 and the
// hub. The rules worth reading are in conversion.go.

package v1

import (
	"github.com/crdlab/crdlab/apis/apiextensions"
	"github.com/crdlab/crdlab/internal/deepcopy"
	"github.com/crdlab/crdlab/scheme"
)

// RegisterConversions adds the conversions of every type to and from the
// hub to s.
func RegisterConversions(s *scheme.Scheme) {
	scheme.AddConversion(s, Convert_v1_CustomResourceDefinition_To_apiextensions_CustomResourceDefinition)
	scheme.AddConversion(s, Convert_apiextensions_CustomResourceDefinition_To_v1_CustomResourceDefinition)
	scheme.AddConversion(s, Convert_v1_CustomResourceDefinitionList_To_apiextensions_CustomResourceDefinitionList)
	scheme.AddConversion(s, Convert_apiextensions_CustomResourceDefinitionList_To_v1_CustomResourceDefinitionList)
}

// Convert_v1_CustomResourceDefinition_To_apiextensions_CustomResourceDefinition converts a v1 CRD to the hub.
func Convert_v1_CustomResourceDefinition_To_apiextensions_CustomResourceDefinition(in *CustomResourceDefinition, out *apiextensions.CustomResourceDefinition) error {
	out.ObjectMeta = deepcopy.Copy(in.ObjectMeta)
	if err := Convert_v1_CustomResourceDefinitionSpec_To_apiextensions_CustomResourceDefinitionSpec(&in.Spec, &out.Spec); err != nil {
		return err
	}
	convertStatusToInternal(&in.Status, &out.Status)
	return nil
}

// Convert_apiextensions_CustomResourceDefinition_To_v1_CustomResourceDefinition converts a hub CRD to v1.
func Convert_apiextensions_CustomResourceDefinition_To_v1_CustomResourceDefinition(in *apiextensions.CustomResourceDefinition, out *CustomResourceDefinition) error {
	out.ObjectMeta = deepcopy.Copy(in.ObjectMeta)
	if err := Convert_apiextensions_CustomResourceDefinitionSpec_To_v1_CustomResourceDefinitionSpec(&in.Spec, &out.Spec); err != nil {
		return err
	}
	convertStatusFromInternal(&in.Status, &out.Status)
	return nil
}

// Convert_v1_CustomResourceDefinitionList_To_apiextensions_CustomResourceDefinitionList converts a list.
func Convert_v1_CustomResourceDefinitionList_To_apiextensions_CustomResourceDefinitionList(in *CustomResourceDefinitionList, out *apiextensions.CustomResourceDefinitionList) error {
	out.ListMeta = deepcopy.Copy(in.ListMeta)
	out.Items = nil
	if in.Items != nil {
		out.Items = make([]apiextensions.CustomResourceDefinition, len(in.Items))
	}
	for i := range in.Items {
		if err := Convert_v1_CustomResourceDefinition_To_apiextensions_CustomResourceDefinition(&in.Items[i], &out.Items[i]); err != nil {
			return err
		}
	}
	return nil
}

// Convert_apiextensions_CustomResourceDefinitionList_To_v1_CustomResourceDefinitionList converts a list.
func Convert_apiextensions_CustomResourceDefinitionList_To_v1_CustomResourceDefinitionList(in *apiextensions.CustomResourceDefinitionList, out *CustomResourceDefinitionList) error {
	out.ListMeta = deepcopy.Copy(in.ListMeta)
	out.Items = nil
	if in.Items != nil {
		out.Items = make([]CustomResourceDefinition, len(in.Items))
	}
	for i := range in.Items {
		if err := Convert_apiextensions_CustomResourceDefinition_To_v1_CustomResourceDefinition(&in.Items[i], &out.Items[i]); err != nil {
			return err
		}
	}
	return nil
}

func convertNamesToInternal(in CustomResourceDefinitionNames) apiextensions.CustomResourceDefinitionNames {
	return apiextensions.CustomResourceDefinitionNames{
		Plural:     in.Plural,
		Singular:   in.Singular,
		ShortNames: deepcopy.Copy(in.ShortNames),
		Kind:       in.Kind,
		ListKind:   in.ListKind,
		Categories: deepcopy.Copy(in.Categories),
	}
}

func convertNamesFromInternal(in apiextensions.CustomResourceDefinitionNames) CustomResourceDefinitionNames {
	return CustomResourceDefinitionNames{
		Plural:     in.Plural,
		Singular:   in.Singular,
		ShortNames: deepcopy.Copy(in.ShortNames),
		Kind:       in.Kind,
		ListKind:   in.ListKind,
		Categories: deepcopy.Copy(in.Categories),
	}
}

func convertVersionToInternal(in *CustomResourceDefinitionVersion, out *apiextensions.CustomResourceDefinitionVersion) error {
	out.Name = in.Name
	out.Served = in.Served
	out.Storage = in.Storage
	out.Deprecated = in.Deprecated
	out.DeprecationWarning = deepcopy.Copy(in.DeprecationWarning)
	out.Schema = nil
	if in.Schema != nil {
		s, err := convertValidationToInternal(in.Schema)
		if err != nil {
			return err
		}
		out.Schema = s
	}
	out.Subresources = convertSubresourcesToInternal(in.Subresources)
	out.AdditionalPrinterColumns = convertColumnsToInternal(in.AdditionalPrinterColumns)
	out.SelectableFields = convertSelectableToInternal(in.SelectableFields)
	return nil
}

func convertVersionFromInternal(in *apiextensions.CustomResourceDefinitionVersion, out *CustomResourceDefinitionVersion) error {
	out.Name = in.Name
	out.Served = in.Served
	out.Storage = in.Storage
	out.Deprecated = in.Deprecated
	out.DeprecationWarning = deepcopy.Copy(in.DeprecationWarning)
	out.Schema = nil
	if in.Schema != nil {
		s, err := convertValidationFromInternal(in.Schema)
		if err != nil {
			return err
		}
		out.Schema = s
	}
	out.Subresources = convertSubresourcesFromInternal(in.Subresources)
	out.AdditionalPrinterColumns = convertColumnsFromInternal(in.AdditionalPrinterColumns)
	out.SelectableFields = convertSelectableFromInternal(in.SelectableFields)
	return nil
}

func convertValidationToInternal(in *CustomResourceValidation) (*apiextensions.CustomResourceValidation, error) {
	out := &apiextensions.CustomResourceValidation{}
	if in.OpenAPIV3Schema != nil {
		out.OpenAPIV3Schema = &apiextensions.JSONSchemaProps{}
		if err := Convert_v1_JSONSchemaProps_To_apiextensions_JSONSchemaProps(in.OpenAPIV3Schema, out.OpenAPIV3Schema); err != nil {
			return nil, err
		}
	}
	return out, nil
}

func convertValidationFromInternal(in *apiextensions.CustomResourceValidation) (*CustomResourceValidation, error) {
	out := &CustomResourceValidation{}
	if in.OpenAPIV3Schema != nil {
		out.OpenAPIV3Schema = &JSONSchemaProps{}
		if err := Convert_apiextensions_JSONSchemaProps_To_v1_JSONSchemaProps(in.OpenAPIV3Schema, out.OpenAPIV3Schema); err != nil {
			return nil, err
		}
	}
	return out, nil
}

func convertSubresourcesToInternal(in *CustomResourceSubresources) *apiextensions.CustomResourceSubresources {
	if in == nil {
		return nil
	}
	out := &apiextensions.CustomResourceSubresources{}
	if in.Status != nil {
		out.Status = &apiextensions.CustomResourceSubresourceStatus{}
	}
	if in.Scale != nil {
		out.Scale = &apiextensions.CustomResourceSubresourceScale{
			SpecReplicasPath:   in.Scale.SpecReplicasPath,
			StatusReplicasPath: in.Scale.StatusReplicasPath,
			LabelSelectorPath:  deepcopy.Copy(in.Scale.LabelSelectorPath),
		}
	}
	return out
}

func convertSubresourcesFromInternal(in *apiextensions.CustomResourceSubresources) *CustomResourceSubresources {
	if in == nil {
		return nil
	}
	out := &CustomResourceSubresources{}
	if in.Status != nil {
		out.Status = &CustomResourceSubresourceStatus{}
	}
	if in.Scale != nil {
		out.Scale = &CustomResourceSubresourceScale{
			SpecReplicasPath:   in.Scale.SpecReplicasPath,
			StatusReplicasPath: in.Scale.StatusReplicasPath,
			LabelSelectorPath:  deepcopy.Copy(in.Scale.LabelSelectorPath),
		}
	}
	return out
}

func convertColumnsToInternal(in []CustomResourceColumnDefinition) []apiextensions.CustomResourceColumnDefinition {
	if in == nil {
		return nil
	}
	out := make([]apiextensions.CustomResourceColumnDefinition, len(in))
	for i, c := range in {
		out[i] = apiextensions.CustomResourceColumnDefinition{Name: c.Name, Type: c.Type, Format: c.Format, Description: c.Description, Priority: c.Priority, JSONPath: c.JSONPath}
	}
	return out
}

func convertColumnsFromInternal(in []apiextensions.CustomResourceColumnDefinition) []CustomResourceColumnDefinition {
	if in == nil {
		return nil
	}
	out := make([]CustomResourceColumnDefinition, len(in))
	for i, c := range in {
		out[i] = CustomResourceColumnDefinition{Name: c.Name, Type: c.Type, Format: c.Format, Description: c.Description, Priority: c.Priority, JSONPath: c.JSONPath}
	}
	return out
}

func convertSelectableToInternal(in []SelectableField) []apiextensions.SelectableField {
	if in == nil {
		return nil
	}
	out := make([]apiextensions.SelectableField, len(in))
	for i, f := range in {
		out[i] = apiextensions.SelectableField{JSONPath: f.JSONPath}
	}
	return out
}

func convertSelectableFromInternal(in []apiextensions.SelectableField) []SelectableField {
	if in == nil {
		return nil
	}
	out := make([]SelectableField, len(in))
	for i, f := range in {
		out[i] = SelectableField{JSONPath: f.JSONPath}
	}
	return out
}

func convertClientConfigToInternal(in *WebhookClientConfig) *apiextensions.WebhookClientConfig {
	out := &apiextensions.WebhookClientConfig{URL: deepcopy.Copy(in.URL), CABundle: deepcopy.Copy(in.CABundle)}
	if in.Service != nil {
		out.Service = &apiextensions.ServiceReference{Namespace: in.Service.Namespace, Name: in.Service.Name, Path: deepcopy.Copy(in.Service.Path)}
		if in.Service.Port != nil {
			out.Service.Port = *in.Service.Port
		}
	}
	return out
}

func convertClientConfigFromInternal(in *apiextensions.WebhookClientConfig) *WebhookClientConfig {
	out := &WebhookClientConfig{URL: deepcopy.Copy(in.URL), CABundle: deepcopy.Copy(in.CABundle)}
	if in.Service != nil {
		port := in.Service.Port
		out.Service = &ServiceReference{Namespace: in.Service.Namespace, Name: in.Service.Name, Path: deepcopy.Copy(in.Service.Path), Port: &port}
	}
	return out
}

func convertStatusToInternal(in *CustomResourceDefinitionStatus, out *apiextensions.CustomResourceDefinitionStatus) {
	out.Conditions = nil
	if in.Conditions != nil {
		out.Conditions = make([]apiextensions.CustomResourceDefinitionCondition, len(in.Conditions))
	}
	for i, c := range in.Conditions {
		out.Conditions[i] = apiextensions.CustomResourceDefinitionCondition{
			Type:               apiextensions.CustomResourceDefinitionConditionType(c.Type),
			Status:             apiextensions.ConditionStatus(c.Status),
			LastTransitionTime: c.LastTransitionTime,
			Reason:             c.Reason,
			Message:            c.Message,
			ObservedGeneration: c.ObservedGeneration,
		}
	}
	out.AcceptedNames = convertNamesToInternal(in.AcceptedNames)
	out.StoredVersions = deepcopy.Copy(in.StoredVersions)
	out.ObservedGeneration = in.ObservedGeneration
}

func convertStatusFromInternal(in *apiextensions.CustomResourceDefinitionStatus, out *CustomResourceDefinitionStatus) {
	out.Conditions = nil
	if in.Conditions != nil {
		out.Conditions = make([]CustomResourceDefinitionCondition, len(in.Conditions))
	}
	for i, c := range in.Conditions {
		out.Conditions[i] = CustomResourceDefinitionCondition{
			Type:               CustomResourceDefinitionConditionType(c.Type),
			Status:             ConditionStatus(c.Status),
			LastTransitionTime: c.LastTransitionTime,
			Reason:             c.Reason,
			Message:            c.Message,
			ObservedGeneration: c.ObservedGeneration,
		}
	}
	out.AcceptedNames = convertNamesFromInternal(in.AcceptedNames)
	out.StoredVersions = deepcopy.Copy(in.StoredVersions)
	out.ObservedGeneration = in.ObservedGeneration
}

// Convert_v1_JSONSchemaProps_To_apiextensions_JSONSchemaProps converts a
// schema field by field; JSON values (default, example, enum) are decoded.
func Convert_v1_JSONSchemaProps_To_apiextensions_JSONSchemaProps(in *JSONSchemaProps, out *apiextensions.JSONSchemaProps) error {
	*out = apiextensions.JSONSchemaProps{
		ID:                     in.ID,
		Schema:                 apiextensions.JSONSchemaURL(in.Schema),
		Ref:                    copyPtr(in.Ref),
		Description:            in.Description,
		Type:                   in.Type,
		Nullable:               in.Nullable,
		Format:                 in.Format,
		Title:                  in.Title,
		Maximum:                copyPtr(in.Maximum),
		ExclusiveMaximum:       in.ExclusiveMaximum,
		Minimum:                copyPtr(in.Minimum),
		ExclusiveMinimum:       in.ExclusiveMinimum,
		MaxLength:              copyPtr(in.MaxLength),
		MinLength:              copyPtr(in.MinLength),
		Pattern:                in.Pattern,
		MaxItems:               copyPtr(in.MaxItems),
		MinItems:               copyPtr(in.MinItems),
		UniqueItems:            in.UniqueItems,
		MultipleOf:             copyPtr(in.MultipleOf),
		MaxProperties:          copyPtr(in.MaxProperties),
		MinProperties:          copyPtr(in.MinProperties),
		Required:               copyStrings(in.Required),
		XPreserveUnknownFields: copyPtr(in.XPreserveUnknownFields),
		XEmbeddedResource:      in.XEmbeddedResource,
		XIntOrString:           in.XIntOrString,
		XListMapKeys:           copyStrings(in.XListMapKeys),
		XListType:              copyPtr(in.XListType),
		XMapType:               copyPtr(in.XMapType),
	}
	var err error
	if in.Default != nil {
		out.Default = new(apiextensions.JSON)
		if err = Convert_v1_JSON_To_apiextensions_JSON(in.Default, out.Default); err != nil {
			return err
		}
	}
	if in.Example != nil {
		out.Example = new(apiextensions.JSON)
		if err = Convert_v1_JSON_To_apiextensions_JSON(in.Example, out.Example); err != nil {
			return err
		}
	}
	if in.Enum != nil {
		out.Enum = make([]apiextensions.JSON, len(in.Enum))
		for i := range in.Enum {
			if err = Convert_v1_JSON_To_apiextensions_JSON(&in.Enum[i], &out.Enum[i]); err != nil {
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
			out.Dependencies[k] = apiextensions.JSONSchemaPropsOrStringArray{Schema: s, Property: copyStrings(d.Property)}
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
				Reason:            (*apiextensions.FieldValueErrorReason)(copyPtr(r.Reason)),
				FieldPath:         r.FieldPath,
				OptionalOldSelf:   copyPtr(r.OptionalOldSelf),
			}
		}
	}
	return nil
}

// autoConvert_apiextensions_JSONSchemaProps_To_v1_JSONSchemaProps converts a
// hub schema field by field; JSON values are encoded.
func autoConvert_apiextensions_JSONSchemaProps_To_v1_JSONSchemaProps(in *apiextensions.JSONSchemaProps, out *JSONSchemaProps) error {
	*out = JSONSchemaProps{
		ID:                     in.ID,
		Schema:                 JSONSchemaURL(in.Schema),
		Ref:                    copyPtr(in.Ref),
		Description:            in.Description,
		Type:                   in.Type,
		Nullable:               in.Nullable,
		Format:                 in.Format,
		Title:                  in.Title,
		Maximum:                copyPtr(in.Maximum),
		ExclusiveMaximum:       in.ExclusiveMaximum,
		Minimum:                copyPtr(in.Minimum),
		ExclusiveMinimum:       in.ExclusiveMinimum,
		MaxLength:              copyPtr(in.MaxLength),
		MinLength:              copyPtr(in.MinLength),
		Pattern:                in.Pattern,
		MaxItems:               copyPtr(in.MaxItems),
		MinItems:               copyPtr(in.MinItems),
		UniqueItems:            in.UniqueItems,
		MultipleOf:             copyPtr(in.MultipleOf),
		MaxProperties:          copyPtr(in.MaxProperties),
		MinProperties:          copyPtr(in.MinProperties),
		Required:               copyStrings(in.Required),
		XPreserveUnknownFields: copyPtr(in.XPreserveUnknownFields),
		XEmbeddedResource:      in.XEmbeddedResource,
		XIntOrString:           in.XIntOrString,
		XListMapKeys:           copyStrings(in.XListMapKeys),
		XListType:              copyPtr(in.XListType),
		XMapType:               copyPtr(in.XMapType),
	}
	var err error
	if in.Default != nil {
		out.Default = &JSON{}
		if err = Convert_apiextensions_JSON_To_v1_JSON(in.Default, out.Default); err != nil {
			return err
		}
	}
	if in.Example != nil {
		out.Example = &JSON{}
		if err = Convert_apiextensions_JSON_To_v1_JSON(in.Example, out.Example); err != nil {
			return err
		}
	}
	if in.Enum != nil {
		out.Enum = make([]JSON, len(in.Enum))
		for i := range in.Enum {
			if err = Convert_apiextensions_JSON_To_v1_JSON(&in.Enum[i], &out.Enum[i]); err != nil {
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
			out.Dependencies[k] = JSONSchemaPropsOrStringArray{Schema: s, Property: copyStrings(d.Property)}
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
				Reason:            (*FieldValueErrorReason)(copyPtr(r.Reason)),
				FieldPath:         r.FieldPath,
				OptionalOldSelf:   copyPtr(r.OptionalOldSelf),
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
	return out, Convert_v1_JSONSchemaProps_To_apiextensions_JSONSchemaProps(in, out)
}

func schemaPtrFromInternal(in *apiextensions.JSONSchemaProps) (*JSONSchemaProps, error) {
	if in == nil {
		return nil, nil
	}
	out := &JSONSchemaProps{}
	return out, Convert_apiextensions_JSONSchemaProps_To_v1_JSONSchemaProps(in, out)
}

func schemaSliceToInternal(in []JSONSchemaProps) ([]apiextensions.JSONSchemaProps, error) {
	if in == nil {
		return nil, nil
	}
	out := make([]apiextensions.JSONSchemaProps, len(in))
	for i := range in {
		if err := Convert_v1_JSONSchemaProps_To_apiextensions_JSONSchemaProps(&in[i], &out[i]); err != nil {
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
		if err := Convert_apiextensions_JSONSchemaProps_To_v1_JSONSchemaProps(&in[i], &out[i]); err != nil {
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
		if err := Convert_v1_JSONSchemaProps_To_apiextensions_JSONSchemaProps(&v, &o); err != nil {
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
		if err := Convert_apiextensions_JSONSchemaProps_To_v1_JSONSchemaProps(&v, &o); err != nil {
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
