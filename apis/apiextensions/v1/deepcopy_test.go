package v1_test

import (
	"math/rand/v2"
	"reflect"
	"testing"

	apiextensions "github.com/crdlab/crdlab/apis/apiextensions/v1"
	"github.com/crdlab/crdlab/internal/deepcopy/deepcopytest"
)

// TestJSONSchemaPropsDeepCopy checks the hand-written copy of a schema on
// schemas with every field set: the copy equals the original (a field it
// forgot would be left zero) and shares no memory with it; through a CRD
// (deepcopy.Copy uses it for the schema pointers) too.
func TestJSONSchemaPropsDeepCopy(t *testing.T) {
	for seed := range uint64(10) {
		in := &apiextensions.JSONSchemaProps{}
		deepcopytest.Fill(in, rand.New(rand.NewPCG(seed, 1)), 3)
		out := in.DeepCopy()
		if !reflect.DeepEqual(in, out) {
			t.Fatalf("seed %d: the copy differs from the original", seed)
		}
		if s := deepcopytest.Shared(in, out); len(s) > 0 {
			t.Fatalf("seed %d: the copy shares memory with the original at %v", seed, s)
		}

		crd := &apiextensions.CustomResourceDefinition{}
		deepcopytest.Fill(crd, rand.New(rand.NewPCG(seed, 2)), 5)
		c := crd.DeepCopy()
		if !reflect.DeepEqual(crd, c) {
			t.Fatalf("seed %d: the CRD's copy differs from the original", seed)
		}
		if s := deepcopytest.Shared(crd, c); len(s) > 0 {
			t.Fatalf("seed %d: the CRD's copy shares memory with the original at %v", seed, s)
		}
	}
	if (*apiextensions.JSONSchemaProps)(nil).DeepCopy() != nil {
		t.Error("the copy of a nil schema is not nil")
	}
}
