package v1

import (
	"math"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/crdlab/crdlab/internal/deepcopy/deepcopytest"
)

// TestEqualSchemas_EveryField checks that EqualSchemas looks at every
// field (a schema with every field set differs from its copy with any one
// field cleared, or changed deep inside) and agrees with reflect.DeepEqual
// on random schemas and their copies.
func TestEqualSchemas_EveryField(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	s := &JSONSchemaProps{}
	deepcopytest.Fill(s, r, 3)
	if !EqualSchemas(s, s.DeepCopy()) {
		t.Fatal("a schema differs from its copy")
	}
	typ := reflect.TypeFor[JSONSchemaProps]()
	for i := range typ.NumField() {
		c := *s
		reflect.ValueOf(&c).Elem().Field(i).SetZero()
		if EqualSchemas(s, &c) {
			t.Errorf("equal with %s cleared", typ.Field(i).Name)
		}
	}
	deep := s.DeepCopy()
	for k, p := range deep.Properties {
		p.Description += "x"
		deep.Properties[k] = p
		break
	}
	if EqualSchemas(s, deep) {
		t.Error("equal with a property's description changed")
	}
	zero, negZero := 0.0, math.Copysign(0, -1)
	if EqualSchemas(&JSONSchemaProps{Minimum: &zero}, &JSONSchemaProps{Minimum: &negZero}) {
		t.Error("minimum 0 and -0 are equal: they are written differently")
	}
	for i := range 200 {
		a := randomSchema(r, 2)
		b := a.DeepCopy()
		if i%2 == 1 {
			b = randomSchema(r, 2)
		}
		if got, want := EqualSchemas(a, b), reflect.DeepEqual(a, b); got != want {
			t.Fatalf("schema pair %d: EqualSchemas %v, reflect.DeepEqual %v", i, got, want)
		}
	}
}
