package customresourcedefinition

import (
	"reflect"

	"sigs.k8s.io/structured-merge-diff/v6/fieldpath"

	apiextensionsv1 "github.com/crdlab/crdlab/apis/apiextensions/v1"
	apiextensionsv1beta1 "github.com/crdlab/crdlab/apis/apiextensions/v1beta1"
	"github.com/crdlab/crdlab/machinery/openapi"
	"github.com/crdlab/crdlab/registry"
)

// What server-side apply needs to know about CRDs (registry's
// ResetFieldsStrategy and SchemaMarkersStrategy).

var (
	_ registry.ResetFieldsStrategy   = strategy{}
	_ registry.ResetFieldsStrategy   = statusStrategy{}
	_ registry.SchemaMarkersStrategy = strategy{}
)

// resetFields says that path belongs to the other endpoint in both
// versions.
func resetFields(path string) map[fieldpath.APIVersion]*fieldpath.Set {
	return map[fieldpath.APIVersion]*fieldpath.Set{
		"apiextensions.k8s.io/v1":      fieldpath.NewSet(fieldpath.MakePathOrDie(path)),
		"apiextensions.k8s.io/v1beta1": fieldpath.NewSet(fieldpath.MakePathOrDie(path)),
	}
}

// GetResetFields: status is written through /status only.
//
// Mirrors (strategy).GetResetFields in customresourcedefinition/strategy.go.
func (strategy) GetResetFields() map[fieldpath.APIVersion]*fieldpath.Set {
	return resetFields("status")
}

// GetResetFields: /status writes no spec (metadata is kept, as upstream's
// PrepareForUpdate keeps it: kubernetes#137681).
//
// Mirrors (statusStrategy).GetResetFields.
func (statusStrategy) GetResetFields() map[fieldpath.APIVersion]*fieldpath.Set {
	return resetFields("spec")
}

// SchemaMarkers are the list markers of upstream's apiextensions types
// that are not the defaults: conditions keyed by type, CEL rules keyed by
// rule. Every other list is atomic.
func (strategy) SchemaMarkers() openapi.Markers {
	return openapi.Markers{
		reflect.TypeFor[apiextensionsv1.CustomResourceDefinitionStatus]():      {"conditions": openapi.ListMap("type")},
		reflect.TypeFor[apiextensionsv1beta1.CustomResourceDefinitionStatus](): {"conditions": openapi.ListMap("type")},
		reflect.TypeFor[apiextensionsv1.JSONSchemaProps]():                     {"x-kubernetes-validations": openapi.ListMap("rule")},
		reflect.TypeFor[apiextensionsv1beta1.JSONSchemaProps]():                {"x-kubernetes-validations": openapi.ListMap("rule")},
	}
}
