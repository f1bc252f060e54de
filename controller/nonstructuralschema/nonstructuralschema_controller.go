package nonstructuralschema

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/crdlab/crdlab/apis/apiextensions"
	"github.com/crdlab/crdlab/apis/apiextensions/structural"
	apiextensionsv1 "github.com/crdlab/crdlab/apis/apiextensions/v1"
	"github.com/crdlab/crdlab/apis/validation/field"
	"github.com/crdlab/crdlab/controller"
	"github.com/crdlab/crdlab/informer"
)

// upstreamSync is the upstream function sync mirrors, named in traces.
const upstreamSync = "k8s.io/apiextensions-apiserver/pkg/controller/nonstructuralschema.(*ConditionController).sync"

// NewConditionController returns the controller that keeps the
// NonStructuralSchema condition of every CRD in step with its schemas,
// fed by crdInformer's events (it registers its handlers now: call it
// before the informer starts).
//
// Mirrors NewConditionController in
// k8s.io/apiextensions-apiserver/pkg/controller/nonstructuralschema/nonstructuralschema_controller.go;
// its loop (sync, Run) is controller.ConditionController, shared with
// the apiapproval controller.
func NewConditionController(crdInformer informer.SharedIndexInformer, crdClient controller.CRDClient, opts controller.Options) (*controller.ConditionController, error) {
	return controller.NewConditionController(crdInformer, crdClient, opts, controller.Condition{
		Name:      "nonstructuralschema",
		Queue:     "non_structural_schema_condition_controller",
		Type:      apiextensionsv1.NonStructuralSchema,
		Calculate: calculateCondition,
		// A schema fixed by an update drops the condition.
		RemoveWhenNone: true,
		// Schemas are spec: each generation is looked at once.
		Input: func(crd *apiextensionsv1.CustomResourceDefinition) string {
			return strconv.FormatInt(crd.Generation, 10)
		},
		Upstream: upstreamSync,
	})
}

// calculateCondition returns the NonStructuralSchema condition in should
// have, or nil if every schema is structural.
//
// Mirrors calculateCondition in nonstructuralschema_controller.go.
func calculateCondition(in *apiextensionsv1.CustomResourceDefinition) *apiextensionsv1.CustomResourceDefinitionCondition {
	cond := &apiextensionsv1.CustomResourceDefinitionCondition{
		Type:   apiextensionsv1.NonStructuralSchema,
		Status: apiextensionsv1.ConditionUnknown,
	}
	var allErrs []string
	if in.Spec.PreserveUnknownFields {
		allErrs = append(allErrs, "spec.preserveUnknownFields: Invalid value: true: must be false")
	}
	// read are the schemas read so far: a version repeating one (most
	// multi-version CRDs; the loopback client shares them,
	// controller.ShareSpecSchemas) is checked on the structural schema
	// read before, under its own path (crdlab only: upstream converts and
	// reads each version's).
	type readSchema struct {
		props *apiextensionsv1.JSONSchemaProps
		s     *structural.Structural
	}
	var read []readSchema
versions:
	for i, v := range in.Spec.Versions {
		if v.Schema == nil || v.Schema.OpenAPIV3Schema == nil {
			continue
		}
		path := field.NewPath("spec", "versions").Index(i).Child("schema", "openAPIV3Schema")
		for _, r := range read {
			if apiextensionsv1.EqualSchemas(r.props, v.Schema.OpenAPIV3Schema) {
				for _, e := range structural.ValidateStructural(path, r.s) {
					allErrs = append(allErrs, e.Error())
				}
				continue versions
			}
		}
		// As upstream: converted to the internal type and read from it
		// (structural.FromProps), a fraction of writing and reading its
		// JSON; a schema FromProps refuses goes the JSON way, whose error
		// is the condition's message.
		var hub apiextensions.JSONSchemaProps
		if apiextensionsv1.Convert_v1_JSONSchemaProps_To_apiextensions_JSONSchemaProps(v.Schema.OpenAPIV3Schema, &hub) == nil {
			if s, err := structural.FromProps(&hub); err == nil {
				read = append(read, readSchema{v.Schema.OpenAPIV3Schema, s})
				for _, e := range structural.ValidateStructural(path, s) {
					allErrs = append(allErrs, e.Error())
				}
				continue
			}
		}
		// MarshalJSON writes what json.Marshal does, without encoding/json
		// checking and compacting the output again (a real-size schema is
		// hundreds of KB); its error comes from json.Marshal, as before.
		raw, err := v.Schema.OpenAPIV3Schema.MarshalJSON()
		if err != nil {
			raw, err = json.Marshal(v.Schema.OpenAPIV3Schema)
		}
		if err == nil {
			var s *structural.Structural
			if s, err = structural.FromJSON(raw); err == nil {
				read = append(read, readSchema{v.Schema.OpenAPIV3Schema, s})
				for _, e := range structural.ValidateStructural(path, s) {
					allErrs = append(allErrs, e.Error())
				}
				continue
			}
		}
		cond.Reason = "StructuralError"
		cond.Message = fmt.Sprintf("failed to check validation schema for version %s: %v", v.Name, err)
		return cond
	}
	if len(allErrs) == 0 {
		return nil
	}
	cond.Status = apiextensionsv1.ConditionTrue
	cond.Reason = "Violations"
	// As upstream's field.ErrorList.ToAggregate().Error().
	cond.Message = allErrs[0]
	if len(allErrs) > 1 {
		cond.Message = "[" + strings.Join(allErrs, ", ") + "]"
	}
	return cond
}
