package controller_test

import (
	"bytes"
	"encoding/json"
	"reflect"
	"testing"

	apiextensionsv1 "github.com/crdlab/crdlab/apis/apiextensions/v1"
	"github.com/crdlab/crdlab/controller"
	"github.com/crdlab/crdlab/internal/crdgen"
)

// decodeGenerated returns a generated provider-shaped CRD with versions
// versions (each later one adds a parameter), decoded as the client does.
func decodeGenerated(t testing.TB, kib, versions int) (*apiextensionsv1.CustomResourceDefinition, []byte) {
	t.Helper()
	b := crdgen.CRD(0, crdgen.Options{Bytes: kib << 10, Versions: versions, Seed: 3})
	crd := &apiextensionsv1.CustomResourceDefinition{}
	if err := json.Unmarshal(b, crd); err != nil {
		t.Fatal(err)
	}
	return crd, b
}

func schemaAt(crd *apiextensionsv1.CustomResourceDefinition, version int, path ...string) apiextensionsv1.JSONSchemaProps {
	s := *crd.Spec.Versions[version].Schema.OpenAPIV3Schema
	for _, p := range path {
		s = s.Properties[p]
	}
	return s
}

func TestShareVersionSchemas(t *testing.T) {
	crd, raw := decodeGenerated(t, 200, 3)
	before, _ := json.Marshal(crd)
	if _, err := controller.ShareVersionSchemas(crd); err != nil {
		t.Fatal(err)
	}

	t.Run("SameCRD", func(t *testing.T) {
		after, _ := json.Marshal(crd)
		if !bytes.Equal(before, after) {
			t.Fatal("the CRD changed")
		}
		if !bytes.Contains(raw, []byte(`"forProvider"`)) {
			t.Fatal("not a provider-shaped CRD")
		}
	})
	t.Run("EqualPartsShared", func(t *testing.T) {
		// initProvider differs between versions (a later version adds a
		// parameter), but its unchanged parameters are shared; status
		// conditions are equal and shared whole.
		for v := 1; v < 3; v++ {
			ca, cb := schemaAt(crd, 0, "status", "conditions"), schemaAt(crd, v, "status", "conditions")
			if ca.Items.Schema != cb.Items.Schema {
				t.Errorf("version %d: status.conditions.items not shared", v)
			}
			shared := 0
			pa, pb := schemaAt(crd, 0, "spec", "initProvider"), schemaAt(crd, v, "spec", "initProvider")
			for k, p := range pb.Properties {
				if q, ok := pa.Properties[k]; ok && p.Description == q.Description && len(q.Properties) > 0 &&
					reflect.ValueOf(p.Properties).Pointer() == reflect.ValueOf(q.Properties).Pointer() {
					shared++
				}
			}
			if shared == 0 {
				t.Errorf("version %d: no nested parameter of initProvider shares its properties with version 0", v)
			}
		}
	})
	t.Run("EqualMapsSharedAcrossPaths", func(t *testing.T) {
		// forProvider and initProvider hold the same parameters.
		fp, ip := schemaAt(crd, 0, "spec", "forProvider"), schemaAt(crd, 0, "spec", "initProvider")
		if reflect.ValueOf(fp.Properties).Pointer() != reflect.ValueOf(ip.Properties).Pointer() {
			t.Error("forProvider's and initProvider's equal parameters are not shared")
		}
	})
	t.Run("DeepCopyUnshares", func(t *testing.T) {
		cp := crd.DeepCopy()
		cond := cp.Spec.Versions[1].Schema.OpenAPIV3Schema.Properties["status"].Properties["conditions"]
		cond.Items.Schema.Description = "changed in the copy"
		if schemaAt(crd, 0, "status", "conditions").Items.Schema.Description == "changed in the copy" ||
			schemaAt(cp, 0, "status", "conditions").Items.Schema.Description == "changed in the copy" {
			t.Error("a change to one version of a copy reached another version")
		}
	})
	t.Run("Idempotent", func(t *testing.T) {
		if _, err := controller.ShareVersionSchemas(crd); err != nil {
			t.Fatal(err)
		}
		after, _ := json.Marshal(crd)
		if !bytes.Equal(before, after) {
			t.Fatal("a second pass changed the CRD")
		}
	})
	t.Run("OtherObjects", func(t *testing.T) {
		for _, obj := range []any{nil, "x", (*apiextensionsv1.CustomResourceDefinition)(nil), &apiextensionsv1.CustomResourceDefinition{}} {
			if got, err := controller.ShareVersionSchemas(obj); err != nil || got != obj {
				t.Errorf("ShareVersionSchemas(%#v) = %v, %v; want it back unchanged", obj, got, err)
			}
		}
	})
}

// TestShareVersionSchemas_Memory checks what sharing is for, counting
// what a CRD holds on the heap: the property maps' entries (a 512-byte
// JSONSchemaProps each, and everything below it), each distinct map once.
// In a two-version CRD whose versions differ in one parameter, the maps
// of the levels that differ stay one per version, and everything below
// them is shared; forProvider, initProvider and atProvider share their
// equal parameters too: here 752 entries become 274 (524 when only the
// same paths of the versions were shared).
func TestShareVersionSchemas_Memory(t *testing.T) {
	entries := func(crd *apiextensionsv1.CustomResourceDefinition) int {
		seen := map[uintptr]bool{}
		n := 0
		var walk func(s *apiextensionsv1.JSONSchemaProps)
		walk = func(s *apiextensionsv1.JSONSchemaProps) {
			if s.Properties != nil {
				p := reflect.ValueOf(s.Properties).Pointer()
				if seen[p] {
					return
				}
				seen[p] = true
				n += len(s.Properties)
			}
			for _, c := range s.Properties {
				walk(&c)
			}
			if s.Items != nil && s.Items.Schema != nil {
				walk(s.Items.Schema)
			}
			if s.AdditionalProperties != nil && s.AdditionalProperties.Schema != nil {
				walk(s.AdditionalProperties.Schema)
			}
		}
		for _, v := range crd.Spec.Versions {
			walk(v.Schema.OpenAPIV3Schema)
		}
		return n
	}
	crd, _ := decodeGenerated(t, 200, 2)
	before := entries(crd)
	controller.ShareVersionSchemas(crd) //nolint:errcheck
	after := entries(crd)
	t.Logf("a 200 KB two-version CRD: %d property entries, %d once shared", before, after)
	if after > before/2 {
		t.Errorf("shared, the CRD holds %d property entries, more than half the %d it held", after, before)
	}
}

// TestCopyForStatus checks that the copy shares the spec and nothing else:
// changing its metadata and status leaves the original as it was, and a
// field added to the CRD type fails the test until CopyForStatus decides
// whether to copy it.
func TestCopyForStatus(t *testing.T) {
	crd, _ := decodeGenerated(t, 20, 2)
	crd.Finalizers = []string{"a"}
	crd.Labels = map[string]string{"l": "1"}
	crd.Status.StoredVersions = []string{"v1"}
	crd.Status.Conditions = []apiextensionsv1.CustomResourceDefinitionCondition{{Type: "NamesAccepted", Status: "False"}}
	want := crd.DeepCopy()

	cp := controller.CopyForStatus(crd)
	if !reflect.DeepEqual(cp, crd) {
		t.Fatal("the copy differs from the original")
	}
	if &cp.Spec.Versions[0] != &crd.Spec.Versions[0] {
		t.Error("the copy's spec is not the original's")
	}
	cp.Finalizers[0], cp.Labels["l"] = "b", "2"
	cp.Status.StoredVersions[0], cp.Status.Conditions[0].Status = "v2", "True"
	if !reflect.DeepEqual(crd, want) {
		t.Error("changing the copy's metadata or status changed the original")
	}
	var fields []string
	for f := range reflect.TypeFor[apiextensionsv1.CustomResourceDefinition]().Fields() {
		fields = append(fields, f.Name)
	}
	if !reflect.DeepEqual(fields, []string{"TypeMeta", "ObjectMeta", "Spec", "Status"}) {
		t.Errorf("CustomResourceDefinition has the fields %v: does CopyForStatus copy them?", fields)
	}
}
