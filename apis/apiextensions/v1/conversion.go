package v1

import (
	"reflect"

	"github.com/crdlab/crdlab/apis/apiextensions"
	"github.com/crdlab/crdlab/internal/deepcopy"
)

// The conversions upstream writes by hand (its conversion.go); the
// field-for-field rest is in zz_conversion.go. The rules:
//   - spec: v1 keeps schema, subresources, columns and selectable fields
//     per version; the hub folds those every version shares to the top
//     level, and fans them out again (the CustomResourceDefinitionSpec
//     pair);
//   - conversion: v1 nests the webhook settings under webhook;
//   - JSON values (default, example, enum) are raw bytes in v1, decoded
//     Go values in the hub; a null default or example is dropped.

// Convert_v1_CustomResourceDefinitionSpec_To_apiextensions_CustomResourceDefinitionSpec
// folds per-version fields back to the top level.
//
// Upstream rule: Version becomes Versions[0].Name, and each of schema,
// subresources, additionalPrinterColumns and selectableFields that is the
// same in every version moves to the top level (selectableFields only when
// the schemas moved too), leaving the per-version fields nil.
func Convert_v1_CustomResourceDefinitionSpec_To_apiextensions_CustomResourceDefinitionSpec(in *CustomResourceDefinitionSpec, out *apiextensions.CustomResourceDefinitionSpec) error {
	out.Group = in.Group
	out.Names = convertNamesToInternal(in.Names)
	out.Scope = apiextensions.ResourceScope(in.Scope)
	out.Versions = nil
	if in.Versions != nil {
		out.Versions = make([]apiextensions.CustomResourceDefinitionVersion, len(in.Versions))
	}
	for i := range in.Versions {
		if err := convertVersionToInternal(&in.Versions[i], &out.Versions[i]); err != nil {
			return err
		}
	}
	out.Conversion = nil
	if in.Conversion != nil {
		out.Conversion = convertConversionToInternal(in.Conversion)
	}
	pu := in.PreserveUnknownFields
	out.PreserveUnknownFields = &pu

	if len(out.Versions) == 0 {
		return nil
	}
	out.Version = out.Versions[0].Name

	first := out.Versions[0]
	subresourcesIdentical, validationIdentical, columnsIdentical, selectableIdentical := true, true, true, true
	for _, v := range out.Versions {
		subresourcesIdentical = subresourcesIdentical && semanticEqual(v.Subresources, first.Subresources)
		validationIdentical = validationIdentical && semanticEqual(v.Schema, first.Schema)
		columnsIdentical = columnsIdentical && semanticEqual(v.AdditionalPrinterColumns, first.AdditionalPrinterColumns)
		selectableIdentical = selectableIdentical && semanticEqual(v.SelectableFields, first.SelectableFields)
	}
	if subresourcesIdentical {
		out.Subresources = first.Subresources
	}
	if validationIdentical {
		out.Validation = first.Schema
	}
	if columnsIdentical {
		out.AdditionalPrinterColumns = first.AdditionalPrinterColumns
	}
	if validationIdentical && selectableIdentical {
		out.SelectableFields = first.SelectableFields
	}
	for i := range out.Versions {
		if subresourcesIdentical {
			out.Versions[i].Subresources = nil
		}
		if validationIdentical {
			out.Versions[i].Schema = nil
		}
		if columnsIdentical {
			out.Versions[i].AdditionalPrinterColumns = nil
		}
		if validationIdentical && selectableIdentical {
			out.Versions[i].SelectableFields = nil
		}
	}
	return nil
}

// Convert_apiextensions_CustomResourceDefinitionSpec_To_v1_CustomResourceDefinitionSpec
// fans top-level fields out to every version.
//
// Upstream rule: with no versions but a Version, one served storage
// version of that name is made; then each top-level schema (validation),
// subresources, additionalPrinterColumns and selectableFields is copied to
// every version. The internal Version field has no v1 counterpart.
func Convert_apiextensions_CustomResourceDefinitionSpec_To_v1_CustomResourceDefinitionSpec(in *apiextensions.CustomResourceDefinitionSpec, out *CustomResourceDefinitionSpec) error {
	out.Group = in.Group
	out.Names = convertNamesFromInternal(in.Names)
	out.Scope = ResourceScope(in.Scope)
	out.Versions = nil
	if in.Versions != nil {
		out.Versions = make([]CustomResourceDefinitionVersion, len(in.Versions))
	}
	for i := range in.Versions {
		if err := convertVersionFromInternal(&in.Versions[i], &out.Versions[i]); err != nil {
			return err
		}
	}
	out.Conversion = nil
	if in.Conversion != nil {
		out.Conversion = convertConversionFromInternal(in.Conversion)
	}
	out.PreserveUnknownFields = in.PreserveUnknownFields != nil && *in.PreserveUnknownFields

	if len(out.Versions) == 0 && len(in.Version) > 0 {
		out.Versions = []CustomResourceDefinitionVersion{{Name: in.Version, Served: true, Storage: true}}
	}
	for i := range out.Versions {
		if in.Subresources != nil {
			out.Versions[i].Subresources = convertSubresourcesFromInternal(in.Subresources)
		}
		if in.Validation != nil {
			schema, err := convertValidationFromInternal(in.Validation)
			if err != nil {
				return err
			}
			out.Versions[i].Schema = schema
		}
		if in.AdditionalPrinterColumns != nil {
			out.Versions[i].AdditionalPrinterColumns = convertColumnsFromInternal(in.AdditionalPrinterColumns)
		}
		if in.SelectableFields != nil {
			out.Versions[i].SelectableFields = convertSelectableFromInternal(in.SelectableFields)
		}
	}
	return nil
}

// semanticEqual mirrors apiequality.Semantic.DeepEqual as far as these
// fields need: nil and empty slices are equal.
func semanticEqual(a, b any) bool {
	return reflect.DeepEqual(normalizeEmpty(a), normalizeEmpty(b))
}

func normalizeEmpty(v any) any {
	rv := reflect.ValueOf(v)
	if rv.Kind() == reflect.Slice && rv.Len() == 0 {
		return nil
	}
	return v
}

// convertConversionToInternal flattens spec.conversion.webhook.
//
// Upstream rule (Convert_v1_CustomResourceConversion_To_apiextensions_CustomResourceConversion):
// webhook.clientConfig becomes webhookClientConfig and
// webhook.conversionReviewVersions becomes conversionReviewVersions.
func convertConversionToInternal(in *CustomResourceConversion) *apiextensions.CustomResourceConversion {
	out := &apiextensions.CustomResourceConversion{Strategy: apiextensions.ConversionStrategyType(in.Strategy)}
	if in.Webhook != nil {
		out.ConversionReviewVersions = deepcopy.Copy(in.Webhook.ConversionReviewVersions)
		if in.Webhook.ClientConfig != nil {
			out.WebhookClientConfig = convertClientConfigToInternal(in.Webhook.ClientConfig)
		}
	}
	return out
}

// convertConversionFromInternal nests the webhook fields under webhook,
// made when either is set.
func convertConversionFromInternal(in *apiextensions.CustomResourceConversion) *CustomResourceConversion {
	out := &CustomResourceConversion{Strategy: ConversionStrategyType(in.Strategy)}
	if in.WebhookClientConfig != nil || in.ConversionReviewVersions != nil {
		out.Webhook = &WebhookConversion{ConversionReviewVersions: deepcopy.Copy(in.ConversionReviewVersions)}
		if in.WebhookClientConfig != nil {
			out.Webhook.ClientConfig = convertClientConfigFromInternal(in.WebhookClientConfig)
		}
	}
	return out
}

// Convert_apiextensions_JSONSchemaProps_To_v1_JSONSchemaProps converts a
// hub schema field by field (zz_conversion.go), then applies upstream's
// rule: a default or example holding JSON null is dropped (the external
// type cannot tell null from absent).
func Convert_apiextensions_JSONSchemaProps_To_v1_JSONSchemaProps(in *apiextensions.JSONSchemaProps, out *JSONSchemaProps) error {
	if err := autoConvert_apiextensions_JSONSchemaProps_To_v1_JSONSchemaProps(in, out); err != nil {
		return err
	}
	if in.Default != nil && *in.Default == nil {
		out.Default = nil
	}
	if in.Example != nil && *in.Example == nil {
		out.Example = nil
	}
	return nil
}

// Convert_v1_JSON_To_apiextensions_JSON decodes raw JSON bytes into a Go
// value (whole numbers as int64, as upstream's util/json); empty or null
// Raw is no value.
func Convert_v1_JSON_To_apiextensions_JSON(in *JSON, out *apiextensions.JSON) error {
	v, err := apiextensions.JSONFromRaw(in.Raw)
	if err != nil {
		return err
	}
	*out = v
	return nil
}

// Convert_apiextensions_JSON_To_v1_JSON encodes a Go value as raw JSON
// bytes; null becomes empty Raw, as JSON.UnmarshalJSON treats it.
func Convert_apiextensions_JSON_To_v1_JSON(in *apiextensions.JSON, out *JSON) error {
	raw, err := apiextensions.RawFromJSON(*in)
	if err != nil {
		return err
	}
	out.Raw = raw
	return nil
}
