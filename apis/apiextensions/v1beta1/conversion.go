package v1beta1

import (
	"bytes"
	"encoding/json"

	"github.com/crdlab/crdlab/apis/apiextensions"
	"github.com/crdlab/crdlab/internal/deepcopy"
)

// v1beta1 has the hub's shape: the functions below copy field by field
// (upstream generates them all but the JSON ones). Nothing folds or fans
// out here: that happens between the hub and v1.

// Convert_v1beta1_CustomResourceDefinition_To_apiextensions_CustomResourceDefinition converts a v1beta1 CRD to the hub.
func Convert_v1beta1_CustomResourceDefinition_To_apiextensions_CustomResourceDefinition(in *CustomResourceDefinition, out *apiextensions.CustomResourceDefinition) error {
	out.ObjectMeta = deepcopy.Copy(in.ObjectMeta)
	if err := Convert_v1beta1_CustomResourceDefinitionSpec_To_apiextensions_CustomResourceDefinitionSpec(&in.Spec, &out.Spec); err != nil {
		return err
	}
	convertStatusToInternal(&in.Status, &out.Status)
	return nil
}

// Convert_apiextensions_CustomResourceDefinition_To_v1beta1_CustomResourceDefinition converts a hub CRD to v1beta1.
func Convert_apiextensions_CustomResourceDefinition_To_v1beta1_CustomResourceDefinition(in *apiextensions.CustomResourceDefinition, out *CustomResourceDefinition) error {
	out.ObjectMeta = deepcopy.Copy(in.ObjectMeta)
	if err := Convert_apiextensions_CustomResourceDefinitionSpec_To_v1beta1_CustomResourceDefinitionSpec(&in.Spec, &out.Spec); err != nil {
		return err
	}
	convertStatusFromInternal(&in.Status, &out.Status)
	return nil
}

// Convert_v1beta1_CustomResourceDefinitionList_To_apiextensions_CustomResourceDefinitionList converts a list.
func Convert_v1beta1_CustomResourceDefinitionList_To_apiextensions_CustomResourceDefinitionList(in *CustomResourceDefinitionList, out *apiextensions.CustomResourceDefinitionList) error {
	out.ListMeta = deepcopy.Copy(in.ListMeta)
	out.Items = nil
	if in.Items != nil {
		out.Items = make([]apiextensions.CustomResourceDefinition, len(in.Items))
	}
	for i := range in.Items {
		if err := Convert_v1beta1_CustomResourceDefinition_To_apiextensions_CustomResourceDefinition(&in.Items[i], &out.Items[i]); err != nil {
			return err
		}
	}
	return nil
}

// Convert_apiextensions_CustomResourceDefinitionList_To_v1beta1_CustomResourceDefinitionList converts a list.
func Convert_apiextensions_CustomResourceDefinitionList_To_v1beta1_CustomResourceDefinitionList(in *apiextensions.CustomResourceDefinitionList, out *CustomResourceDefinitionList) error {
	out.ListMeta = deepcopy.Copy(in.ListMeta)
	out.Items = nil
	if in.Items != nil {
		out.Items = make([]CustomResourceDefinition, len(in.Items))
	}
	for i := range in.Items {
		if err := Convert_apiextensions_CustomResourceDefinition_To_v1beta1_CustomResourceDefinition(&in.Items[i], &out.Items[i]); err != nil {
			return err
		}
	}
	return nil
}

// Convert_v1beta1_CustomResourceDefinitionSpec_To_apiextensions_CustomResourceDefinitionSpec copies a spec.
func Convert_v1beta1_CustomResourceDefinitionSpec_To_apiextensions_CustomResourceDefinitionSpec(in *CustomResourceDefinitionSpec, out *apiextensions.CustomResourceDefinitionSpec) error {
	out.Group = in.Group
	out.Version = in.Version
	out.Names = convertNamesToInternal(in.Names)
	out.Scope = apiextensions.ResourceScope(in.Scope)
	var err error
	if out.Validation, err = convertValidationToInternal(in.Validation); err != nil {
		return err
	}
	out.Subresources = convertSubresourcesToInternal(in.Subresources)
	out.Versions = nil
	if in.Versions != nil {
		out.Versions = make([]apiextensions.CustomResourceDefinitionVersion, len(in.Versions))
	}
	for i, v := range in.Versions {
		o := &out.Versions[i]
		o.Name, o.Served, o.Storage, o.Deprecated = v.Name, v.Served, v.Storage, v.Deprecated
		o.DeprecationWarning = deepcopy.Copy(v.DeprecationWarning)
		if o.Schema, err = convertValidationToInternal(v.Schema); err != nil {
			return err
		}
		o.Subresources = convertSubresourcesToInternal(v.Subresources)
		o.AdditionalPrinterColumns = convertColumnsToInternal(v.AdditionalPrinterColumns)
		o.SelectableFields = convertSelectableToInternal(v.SelectableFields)
	}
	out.AdditionalPrinterColumns = convertColumnsToInternal(in.AdditionalPrinterColumns)
	out.SelectableFields = convertSelectableToInternal(in.SelectableFields)
	out.Conversion = nil
	if in.Conversion != nil {
		out.Conversion = &apiextensions.CustomResourceConversion{
			Strategy:                 apiextensions.ConversionStrategyType(in.Conversion.Strategy),
			WebhookClientConfig:      convertClientConfigToInternal(in.Conversion.WebhookClientConfig),
			ConversionReviewVersions: deepcopy.Copy(in.Conversion.ConversionReviewVersions),
		}
	}
	out.PreserveUnknownFields = deepcopy.Copy(in.PreserveUnknownFields)
	return nil
}

// Convert_apiextensions_CustomResourceDefinitionSpec_To_v1beta1_CustomResourceDefinitionSpec copies a spec.
func Convert_apiextensions_CustomResourceDefinitionSpec_To_v1beta1_CustomResourceDefinitionSpec(in *apiextensions.CustomResourceDefinitionSpec, out *CustomResourceDefinitionSpec) error {
	out.Group = in.Group
	out.Version = in.Version
	out.Names = convertNamesFromInternal(in.Names)
	out.Scope = ResourceScope(in.Scope)
	var err error
	if out.Validation, err = convertValidationFromInternal(in.Validation); err != nil {
		return err
	}
	out.Subresources = convertSubresourcesFromInternal(in.Subresources)
	out.Versions = nil
	if in.Versions != nil {
		out.Versions = make([]CustomResourceDefinitionVersion, len(in.Versions))
	}
	for i, v := range in.Versions {
		o := &out.Versions[i]
		o.Name, o.Served, o.Storage, o.Deprecated = v.Name, v.Served, v.Storage, v.Deprecated
		o.DeprecationWarning = deepcopy.Copy(v.DeprecationWarning)
		if o.Schema, err = convertValidationFromInternal(v.Schema); err != nil {
			return err
		}
		o.Subresources = convertSubresourcesFromInternal(v.Subresources)
		o.AdditionalPrinterColumns = convertColumnsFromInternal(v.AdditionalPrinterColumns)
		o.SelectableFields = convertSelectableFromInternal(v.SelectableFields)
	}
	out.AdditionalPrinterColumns = convertColumnsFromInternal(in.AdditionalPrinterColumns)
	out.SelectableFields = convertSelectableFromInternal(in.SelectableFields)
	out.Conversion = nil
	if in.Conversion != nil {
		out.Conversion = &CustomResourceConversion{
			Strategy:                 ConversionStrategyType(in.Conversion.Strategy),
			WebhookClientConfig:      convertClientConfigFromInternal(in.Conversion.WebhookClientConfig),
			ConversionReviewVersions: deepcopy.Copy(in.Conversion.ConversionReviewVersions),
		}
	}
	out.PreserveUnknownFields = deepcopy.Copy(in.PreserveUnknownFields)
	return nil
}

func convertNamesToInternal(in CustomResourceDefinitionNames) apiextensions.CustomResourceDefinitionNames {
	return apiextensions.CustomResourceDefinitionNames{
		Plural: in.Plural, Singular: in.Singular, ShortNames: deepcopy.Copy(in.ShortNames),
		Kind: in.Kind, ListKind: in.ListKind, Categories: deepcopy.Copy(in.Categories),
	}
}

func convertNamesFromInternal(in apiextensions.CustomResourceDefinitionNames) CustomResourceDefinitionNames {
	return CustomResourceDefinitionNames{
		Plural: in.Plural, Singular: in.Singular, ShortNames: deepcopy.Copy(in.ShortNames),
		Kind: in.Kind, ListKind: in.ListKind, Categories: deepcopy.Copy(in.Categories),
	}
}

func convertValidationToInternal(in *CustomResourceValidation) (*apiextensions.CustomResourceValidation, error) {
	if in == nil {
		return nil, nil
	}
	out := &apiextensions.CustomResourceValidation{}
	var err error
	out.OpenAPIV3Schema, err = schemaPtrToInternal(in.OpenAPIV3Schema)
	return out, err
}

func convertValidationFromInternal(in *apiextensions.CustomResourceValidation) (*CustomResourceValidation, error) {
	if in == nil {
		return nil, nil
	}
	out := &CustomResourceValidation{}
	var err error
	out.OpenAPIV3Schema, err = schemaPtrFromInternal(in.OpenAPIV3Schema)
	return out, err
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
	if in == nil {
		return nil
	}
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
	if in == nil {
		return nil
	}
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

// Convert_v1beta1_JSON_To_apiextensions_JSON decodes raw JSON bytes into a
// Go value (whole numbers as int64, as upstream's util/json).
func Convert_v1beta1_JSON_To_apiextensions_JSON(in *JSON, out *apiextensions.JSON) error {
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

// Convert_apiextensions_JSON_To_v1beta1_JSON encodes a Go value as raw JSON bytes.
func Convert_apiextensions_JSON_To_v1beta1_JSON(in *apiextensions.JSON, out *JSON) error {
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
