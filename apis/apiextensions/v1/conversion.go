package v1

import (
	"bytes"
	"encoding/json"
	"reflect"

	"github.com/crdlab/crdlab/apis/apiextensions"
	"github.com/crdlab/crdlab/internal/deepcopy"
)

// The functions below convert between this version and the internal hub.
// Upstream generates most of them (zz_generated.conversion.go) and writes
// the interesting ones by hand (conversion.go); here every one is written
// out, and the hand-written rules are marked "upstream rule".

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

var nullJSON = []byte("null")

// Convert_v1_JSON_To_apiextensions_JSON decodes raw JSON bytes into a Go
// value (whole numbers as int64, as upstream's util/json).
func Convert_v1_JSON_To_apiextensions_JSON(in *JSON, out *apiextensions.JSON) error {
	var i apiextensions.JSON
	if len(in.Raw) > 0 && !bytes.Equal(in.Raw, nullJSON) {
		v, err := apiextensions.JSONFromBytes(in.Raw)
		if err != nil {
			return err
		}
		i = v
	}
	*out = i
	return nil
}

// Convert_apiextensions_JSON_To_v1_JSON encodes a Go value as raw JSON
// bytes; null becomes empty Raw, as JSON.UnmarshalJSON treats it.
func Convert_apiextensions_JSON_To_v1_JSON(in *apiextensions.JSON, out *JSON) error {
	raw, err := json.Marshal(*in)
	if err != nil {
		return err
	}
	if len(raw) == 0 || bytes.Equal(raw, nullJSON) {
		out.Raw = nil
	} else {
		out.Raw = raw
	}
	return nil
}
