package v1beta1

import (
	"github.com/crdlab/crdlab/apis/apiextensions"
)

// v1beta1 has the hub's shape: everything but the JSON values copies field
// by field (zz_conversion.go). Nothing folds or fans out here: that happens
// between the hub and v1.

// Convert_apiextensions_JSONSchemaProps_To_v1beta1_JSONSchemaProps converts a
// hub schema field by field (zz_conversion.go), then applies upstream's
// rule: a default or example holding JSON null is dropped (the external
// type cannot tell null from absent).
func Convert_apiextensions_JSONSchemaProps_To_v1beta1_JSONSchemaProps(in *apiextensions.JSONSchemaProps, out *JSONSchemaProps) error {
	if err := autoConvert_apiextensions_JSONSchemaProps_To_v1beta1_JSONSchemaProps(in, out); err != nil {
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

// Convert_v1beta1_JSON_To_apiextensions_JSON decodes raw JSON bytes into a Go
// value (whole numbers as int64, as upstream's util/json); empty or null
// Raw is no value.
func Convert_v1beta1_JSON_To_apiextensions_JSON(in *JSON, out *apiextensions.JSON) error {
	v, err := apiextensions.JSONFromRaw(in.Raw)
	if err != nil {
		return err
	}
	*out = v
	return nil
}

// Convert_apiextensions_JSON_To_v1beta1_JSON encodes a Go value as raw JSON
// bytes; null becomes empty Raw, as JSON.UnmarshalJSON treats it.
func Convert_apiextensions_JSON_To_v1beta1_JSON(in *apiextensions.JSON, out *JSON) error {
	raw, err := apiextensions.RawFromJSON(*in)
	if err != nil {
		return err
	}
	out.Raw = raw
	return nil
}
