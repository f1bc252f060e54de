package validation_test

import (
	"encoding/json"
	"testing"

	"github.com/crdlab/crdlab/apis/apiextensions"
	apiextensionsv1 "github.com/crdlab/crdlab/apis/apiextensions/v1"
	"github.com/crdlab/crdlab/apis/apiextensions/validation"
	"github.com/crdlab/crdlab/internal/crdgen"
	"github.com/crdlab/crdlab/scheme"
)

// BenchmarkCreateSteps measures the steps a create of a real-size CRD
// (internal/crdgen, 265 KiB, 2 versions) goes through in the server
// before storage: reading the request body (scheme.DecodeJSON), the
// conversion to the hub type, and ValidateCustomResourceDefinition
// (docs/crd-memory.md, "Passes over a CRD's schema").
//
//	go test -run '^$' -bench CreateSteps -benchmem ./apis/apiextensions/validation/
func BenchmarkCreateSteps(b *testing.B) {
	body := crdgen.CRD(0, crdgen.Options{Group: "svc0.provider.example.io", Bytes: 265 << 10, Versions: 2, Seed: 1})
	decode := func() *apiextensionsv1.CustomResourceDefinition {
		v1 := &apiextensionsv1.CustomResourceDefinition{}
		if err := scheme.DecodeJSON(body, v1, json.Unmarshal); err != nil {
			b.Fatal(err)
		}
		apiextensionsv1.SetObjectDefaults_CustomResourceDefinition(v1)
		return v1
	}
	toInternal := func(v1 *apiextensionsv1.CustomResourceDefinition) *apiextensions.CustomResourceDefinition {
		crd := &apiextensions.CustomResourceDefinition{}
		if err := apiextensionsv1.Convert_v1_CustomResourceDefinition_To_apiextensions_CustomResourceDefinition(v1, crd); err != nil {
			b.Fatal(err)
		}
		return crd
	}
	v1 := decode()
	crd := toInternal(v1)
	if errs := validation.ValidateCustomResourceDefinition(crd); len(errs) > 0 {
		b.Fatal(errs)
	}
	b.Run("Decode", func(b *testing.B) {
		for b.Loop() {
			decode()
		}
	})
	b.Run("ToInternal", func(b *testing.B) {
		for b.Loop() {
			toInternal(v1)
		}
	})
	b.Run("Validate", func(b *testing.B) {
		for b.Loop() {
			validation.ValidateCustomResourceDefinition(crd)
		}
	})
	b.Run("Encode", func(b *testing.B) {
		for b.Loop() {
			if _, err := v1.AppendJSON(nil); err != nil {
				b.Fatal(err)
			}
		}
	})
}
