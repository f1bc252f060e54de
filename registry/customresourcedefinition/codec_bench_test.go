package customresourcedefinition_test

import (
	"testing"

	"github.com/crdlab/crdlab/apis/apiextensions"
	"github.com/crdlab/crdlab/apis/apiextensions/install"
	apiextensionsv1 "github.com/crdlab/crdlab/apis/apiextensions/v1"
	"github.com/crdlab/crdlab/internal/crdgen"
	"github.com/crdlab/crdlab/registry/customresourcedefinition"
	"github.com/crdlab/crdlab/scheme"
)

// BenchmarkCodec measures the steps every write and watch event of a
// real-size CRD (internal/crdgen, 265 KB, 2 versions) goes through:
// reading it from storage, writing it, copying it, converting it to v1,
// sniffing its kind.
//
//	go test -run '^$' -bench Codec -benchmem ./registry/customresourcedefinition/
func BenchmarkCodec(b *testing.B) {
	s := scheme.NewScheme()
	install.Install(s)
	c := customresourcedefinition.NewCodec(s)
	data := crdgen.CRD(0, crdgen.Options{Group: "svc0.provider.example.io", Bytes: 265 << 10, Versions: 2, Seed: 1})
	crd := &apiextensions.CustomResourceDefinition{}
	if err := c.Decode(data, crd); err != nil {
		b.Fatal(err)
	}
	stored, err := c.Encode(crd)
	if err != nil {
		b.Fatal(err)
	}
	b.Run("Decode", func(b *testing.B) {
		for b.Loop() {
			if err := c.Decode(stored, &apiextensions.CustomResourceDefinition{}); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("Encode", func(b *testing.B) {
		for b.Loop() {
			if _, err := c.Encode(crd); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("DeepCopy", func(b *testing.B) {
		for b.Loop() {
			crd.DeepCopyObject()
		}
	})
	b.Run("ToV1", func(b *testing.B) {
		for b.Loop() {
			if err := s.Convert(crd, &apiextensionsv1.CustomResourceDefinition{}); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("Kind", func(b *testing.B) {
		for b.Loop() {
			if _, err := scheme.Kind(stored); err != nil {
				b.Fatal(err)
			}
		}
	})
}
