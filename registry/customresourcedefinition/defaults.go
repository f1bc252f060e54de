package customresourcedefinition

import (
	"encoding/json"
	"fmt"

	"github.com/crdlab/crdlab/apis/apiextensions"
	"github.com/crdlab/crdlab/apis/apiextensions/structural"
	apiextensionsv1 "github.com/crdlab/crdlab/apis/apiextensions/v1"
	"github.com/crdlab/crdlab/apis/validation/field"
)

// validateDefaults checks the defaults of every structural schema of crd:
// each must validate against its own node and have no fields pruning would
// drop (a default of the wrong type would otherwise make every custom
// resource that gets it invalid). Non-structural schemas are left to the
// NonStructuralSchema condition, as upstream.
//
// Mirrors the call of defaulting.ValidateDefaults in upstream's
// validateCustomResourceDefinitionValidation (validation.go), which runs
// when the schema is structural.
func validateDefaults(crd *apiextensions.CustomResourceDefinition) field.ErrorList {
	var errs field.ErrorList
	check := func(v *apiextensions.CustomResourceValidation, path string) {
		if v == nil || v.OpenAPIV3Schema == nil {
			return
		}
		var ext apiextensionsv1.JSONSchemaProps
		if apiextensionsv1.Convert_apiextensions_JSONSchemaProps_To_v1_JSONSchemaProps(v.OpenAPIV3Schema, &ext) != nil {
			return
		}
		raw, err := json.Marshal(&ext)
		if err != nil {
			return
		}
		s, err := structural.FromJSON(raw)
		if err != nil {
			return // not structural: reported elsewhere
		}
		for _, e := range structural.ValidateDefaults(s, path) {
			errs = append(errs, &field.Error{Type: field.ErrorType(e.Type), Field: e.Field, BadValue: e.BadValue, Detail: e.Detail})
		}
	}
	check(crd.Spec.Validation, "spec.validation.openAPIV3Schema")
	for i, v := range crd.Spec.Versions {
		check(v.Schema, fmt.Sprintf("spec.versions[%d].schema.openAPIV3Schema", i))
	}
	return errs
}
