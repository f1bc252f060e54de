package apiextensions_test

import (
	"math"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/crdlab/crdlab/apis/apiextensions"
	"github.com/crdlab/crdlab/apis/apiextensions/install"
	"github.com/crdlab/crdlab/internal/crdgen"
	"github.com/crdlab/crdlab/internal/deepcopy/deepcopytest"
	"github.com/crdlab/crdlab/scheme"
)

// TestEqualSpecs_EveryField checks that EqualSchemas and EqualSpecs look
// at every field (a value with every field set differs from its copy with
// any one field cleared), tell apart what is written differently (0 and
// -0, int64 and float64, nil and empty), and agree with reflect.DeepEqual
// on decoded real-size specs and on random CRDs.
func TestEqualSpecs_EveryField(t *testing.T) {
	for seed := range uint64(5) {
		s := &apiextensions.JSONSchemaProps{}
		deepcopytest.Fill(s, rand.New(rand.NewPCG(seed, 1)), 3)
		if !apiextensions.EqualSchemas(s, s.DeepCopy()) {
			t.Fatalf("seed %d: a schema differs from its copy", seed)
		}
		typ := reflect.TypeFor[apiextensions.JSONSchemaProps]()
		for i := range typ.NumField() {
			c := *s
			reflect.ValueOf(&c).Elem().Field(i).SetZero()
			if apiextensions.EqualSchemas(s, &c) != reflect.DeepEqual(s, &c) {
				t.Errorf("seed %d: with %s cleared: EqualSchemas %v, reflect.DeepEqual %v", seed, typ.Field(i).Name,
					apiextensions.EqualSchemas(s, &c), reflect.DeepEqual(s, &c))
			}
		}

		crd := &apiextensions.CustomResourceDefinition{}
		deepcopytest.Fill(crd, rand.New(rand.NewPCG(seed, 2)), 5)
		cp := crd.DeepCopy()
		if !apiextensions.EqualSpecs(&crd.Spec, &cp.Spec) {
			t.Fatalf("seed %d: a spec differs from its copy", seed)
		}
		styp := reflect.TypeFor[apiextensions.CustomResourceDefinitionSpec]()
		for i := range styp.NumField() {
			c := crd.Spec
			reflect.ValueOf(&c).Elem().Field(i).SetZero()
			if got, want := apiextensions.EqualSpecs(&crd.Spec, &c), reflect.DeepEqual(&crd.Spec, &c); got != want {
				t.Errorf("seed %d: with spec.%s cleared: EqualSpecs %v, reflect.DeepEqual %v", seed, styp.Field(i).Name, got, want)
			}
		}
	}

	zero, negZero := 0.0, math.Copysign(0, -1)
	var one, oneF apiextensions.JSON = int64(1), float64(1)
	var nilList, emptyList apiextensions.JSON = []any(nil), []any{}
	for name, pair := range map[string][2]*apiextensions.JSONSchemaProps{
		"MinimumZeroAndNegativeZero": {{Minimum: &zero}, {Minimum: &negZero}},
		"DefaultInt64AndFloat64":     {{Default: &one}, {Default: &oneF}},
		"DefaultNilAndEmptyList":     {{Default: &nilList}, {Default: &emptyList}},
		"RequiredNilAndEmpty":        {{Required: nil}, {Required: []string{}}},
		"EnumNilAndEmpty":            {{Enum: nil}, {Enum: []apiextensions.JSON{}}},
	} {
		if apiextensions.EqualSchemas(pair[0], pair[1]) {
			t.Errorf("%s: equal, though written differently", name)
		}
	}

	// Real-size specs, decoded twice, then changed deep inside.
	s := scheme.NewScheme()
	install.Install(s)
	codecs := scheme.NewCodecFactory(s)
	decode := func(body []byte) *apiextensions.CustomResourceDefinition {
		obj, err := codecs.DecodeToVersion(body, scheme.GroupVersion{Group: apiextensions.GroupName, Version: scheme.APIVersionInternal}, scheme.DecodeOptions{})
		if err != nil {
			t.Fatal(err)
		}
		return obj.(*apiextensions.CustomResourceDefinition)
	}
	body := crdgen.CRD(0, crdgen.Options{Bytes: 100 << 10, Versions: 2, Seed: 1})
	a, b := decode(body), decode(body)
	if !apiextensions.EqualSpecs(&a.Spec, &b.Spec) || !reflect.DeepEqual(a.Spec, b.Spec) {
		t.Fatal("one body decoded twice: specs differ")
	}
	for k, p := range b.Spec.Versions[1].Schema.OpenAPIV3Schema.Properties["spec"].Properties {
		p.Description += "x"
		b.Spec.Versions[1].Schema.OpenAPIV3Schema.Properties["spec"].Properties[k] = p
		break
	}
	if apiextensions.EqualSpecs(&a.Spec, &b.Spec) {
		t.Error("equal with a property's description changed")
	}
	other := decode(crdgen.CRD(1, crdgen.Options{Bytes: 100 << 10, Versions: 2, Seed: 1}))
	if apiextensions.EqualSpecs(&a.Spec, &other.Spec) {
		t.Error("two generated CRDs' specs are equal")
	}
}
