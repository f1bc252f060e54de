package nonstructuralschema

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/crdlab/crdlab/apis/apiextensions/helpers"
	apiextensionsv1 "github.com/crdlab/crdlab/apis/apiextensions/v1"
	metav1 "github.com/crdlab/crdlab/apis/meta/v1"
	"github.com/crdlab/crdlab/controller"
	"github.com/crdlab/crdlab/controller/internal/controllertest"
)

func withSchema(s *apiextensionsv1.JSONSchemaProps) *apiextensionsv1.CustomResourceDefinition {
	return &apiextensionsv1.CustomResourceDefinition{
		ObjectMeta: metav1.ObjectMeta{Name: "crontabs.stable.example.com", Generation: 1},
		Spec: apiextensionsv1.CustomResourceDefinitionSpec{
			Group: "stable.example.com",
			Versions: []apiextensionsv1.CustomResourceDefinitionVersion{{
				Name: "v1", Served: true, Storage: true,
				Schema: &apiextensionsv1.CustomResourceValidation{OpenAPIV3Schema: s},
			}},
		},
	}
}

var structuralSchema = &apiextensionsv1.JSONSchemaProps{
	Type: "object",
	Properties: map[string]apiextensionsv1.JSONSchemaProps{
		"spec": {Type: "object", Properties: map[string]apiextensionsv1.JSONSchemaProps{"cronSpec": {Type: "string"}}},
	},
}

// untyped misses the type of spec: not structural.
var untyped = &apiextensionsv1.JSONSchemaProps{
	Type:       "object",
	Properties: map[string]apiextensionsv1.JSONSchemaProps{"spec": {}},
}

func TestCalculateCondition(t *testing.T) {
	t.Run("Structural", func(t *testing.T) {
		assert.Nil(t, calculateCondition(withSchema(structuralSchema)))
	})
	t.Run("NoSchema", func(t *testing.T) {
		assert.Nil(t, calculateCondition(withSchema(nil)))
	})
	t.Run("Violations", func(t *testing.T) {
		got := calculateCondition(withSchema(untyped))
		require.NotNil(t, got)
		assert.Equal(t, apiextensionsv1.ConditionTrue, got.Status)
		assert.Equal(t, "Violations", got.Reason)
		assert.Contains(t, got.Message, "spec.versions[0].schema.openAPIV3Schema.properties[spec].type")
	})
	// Versions sharing one schema (as the loopback client shares them)
	// are checked on one structural schema, each under its own path; a
	// version whose schema differs is read on its own.
	t.Run("SharedSchemaEachVersion", func(t *testing.T) {
		crd := withSchema(untyped)
		shallow := *untyped // what controller.ShareSpecSchemas leaves
		crd.Spec.Versions = append(crd.Spec.Versions,
			apiextensionsv1.CustomResourceDefinitionVersion{Name: "v2", Served: true,
				Schema: &apiextensionsv1.CustomResourceValidation{OpenAPIV3Schema: &shallow}},
			apiextensionsv1.CustomResourceDefinitionVersion{Name: "v3", Served: true,
				Schema: &apiextensionsv1.CustomResourceValidation{OpenAPIV3Schema: structuralSchema}})
		got := calculateCondition(crd)
		require.NotNil(t, got)
		assert.Equal(t, "[spec.versions[0].schema.openAPIV3Schema.properties[spec].type: Required value: must not be empty for specified object fields, "+
			"spec.versions[1].schema.openAPIV3Schema.properties[spec].type: Required value: must not be empty for specified object fields]", got.Message)
	})
	t.Run("PreserveUnknownFields", func(t *testing.T) {
		crd := withSchema(structuralSchema)
		crd.Spec.PreserveUnknownFields = true
		got := calculateCondition(crd)
		require.NotNil(t, got)
		assert.Equal(t, "spec.preserveUnknownFields: Invalid value: true: must be false", got.Message)
	})
}

// TestNewConditionController runs the controller the server runs: it
// sets the condition on a non-structural CRD and removes it once an
// update (a new generation) fixes the schema.
func TestNewConditionController(t *testing.T) {
	inf := controllertest.NewInformer()
	client := controllertest.NewClient()
	c, err := NewConditionController(inf, client, controller.Options{})
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { c.Run(ctx, 1); close(done) }()
	defer func() { cancel(); <-done }()

	crd := client.Put(withSchema(untyped))
	inf.Add(crd)
	require.Eventually(t, func() bool {
		return helpers.IsCRDConditionTrue(client.Get(crd.Name), apiextensionsv1.NonStructuralSchema)
	}, 5*time.Second, time.Millisecond)

	fixed := client.Get(crd.Name)
	fixed.Spec = withSchema(structuralSchema).Spec
	fixed.Generation = 2
	inf.Update(client.Put(fixed))
	require.Eventually(t, func() bool {
		return helpers.FindCRDCondition(client.Get(crd.Name), apiextensionsv1.NonStructuralSchema) == nil
	}, 5*time.Second, time.Millisecond)
}
