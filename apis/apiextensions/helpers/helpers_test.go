package helpers_test

import (
	"errors"
	"testing"
	"time"

	"github.com/crdlab/crdlab/apis/apiextensions/helpers"
	v1 "github.com/crdlab/crdlab/apis/apiextensions/v1"
)

func crdWithVersions() *v1.CustomResourceDefinition {
	schema := &v1.CustomResourceValidation{OpenAPIV3Schema: &v1.JSONSchemaProps{Type: "object"}}
	return &v1.CustomResourceDefinition{
		Spec: v1.CustomResourceDefinitionSpec{Versions: []v1.CustomResourceDefinitionVersion{
			{Name: "v1", Served: true, Storage: true, Schema: schema,
				Subresources:             &v1.CustomResourceSubresources{Status: &v1.CustomResourceSubresourceStatus{}},
				AdditionalPrinterColumns: []v1.CustomResourceColumnDefinition{{Name: "A", Type: "string", JSONPath: ".a"}},
				SelectableFields:         []v1.SelectableField{{JSONPath: ".spec.a"}}},
			{Name: "v2", Served: false, Deprecated: true},
		}},
		Status: v1.CustomResourceDefinitionStatus{StoredVersions: []string{"v1"}},
	}
}

func TestSetCRDCondition(t *testing.T) {
	crd := &v1.CustomResourceDefinition{}
	t0 := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	t1 := t0.Add(time.Minute)

	helpers.SetCRDConditionAt(crd, v1.CustomResourceDefinitionCondition{Type: v1.Established, Status: v1.ConditionFalse, Reason: "Installing"}, t0)
	if len(crd.Status.Conditions) != 1 || !crd.Status.Conditions[0].LastTransitionTime.Time.Equal(t0) {
		t.Fatalf("add: %+v", crd.Status.Conditions)
	}
	t.Run("SameStatusKeepsTime", func(t *testing.T) {
		helpers.SetCRDConditionAt(crd, v1.CustomResourceDefinitionCondition{Type: v1.Established, Status: v1.ConditionFalse, Reason: "StillInstalling"}, t1)
		c := helpers.FindCRDCondition(crd, v1.Established)
		if !c.LastTransitionTime.Time.Equal(t0) || c.Reason != "StillInstalling" {
			t.Errorf("got %+v", c)
		}
	})
	t.Run("NewStatusMovesTime", func(t *testing.T) {
		helpers.SetCRDConditionAt(crd, v1.CustomResourceDefinitionCondition{Type: v1.Established, Status: v1.ConditionTrue, Reason: "InitialNamesAccepted"}, t1)
		c := helpers.FindCRDCondition(crd, v1.Established)
		if !c.LastTransitionTime.Time.Equal(t1) || len(crd.Status.Conditions) != 1 {
			t.Errorf("got %+v", crd.Status.Conditions)
		}
		if !helpers.IsCRDConditionTrue(crd, v1.Established) || helpers.IsCRDConditionFalse(crd, v1.Established) {
			t.Error("Established should be True")
		}
		if !helpers.IsCRDConditionPresentAndEqual(crd, v1.Established, v1.ConditionTrue) || helpers.IsCRDConditionPresentAndEqual(crd, v1.NamesAccepted, v1.ConditionTrue) {
			t.Error("IsCRDConditionPresentAndEqual")
		}
	})
	t.Run("Remove", func(t *testing.T) {
		helpers.SetCRDCondition(crd, v1.CustomResourceDefinitionCondition{Type: v1.NamesAccepted, Status: v1.ConditionTrue})
		helpers.RemoveCRDCondition(crd, v1.Established)
		if helpers.FindCRDCondition(crd, v1.Established) != nil || helpers.FindCRDCondition(crd, v1.NamesAccepted) == nil {
			t.Errorf("got %+v", crd.Status.Conditions)
		}
	})
}

func TestIsCRDConditionEquivalent(t *testing.T) {
	a := &v1.CustomResourceDefinitionCondition{Type: v1.Established, Status: v1.ConditionTrue, Reason: "r"}
	b := *a
	b.LastTransitionTime.Time = time.Now()
	if !helpers.IsCRDConditionEquivalent(a, &b) {
		t.Error("time should not matter")
	}
	b.Reason = "other"
	if helpers.IsCRDConditionEquivalent(a, &b) || !helpers.IsCRDConditionEquivalent(nil, nil) || helpers.IsCRDConditionEquivalent(a, nil) {
		t.Error("equivalence")
	}
}

func TestFinalizers(t *testing.T) {
	crd := &v1.CustomResourceDefinition{}
	crd.Finalizers = []string{v1.CustomResourceCleanupFinalizer, "other"}
	if !helpers.CRDHasFinalizer(crd, v1.CustomResourceCleanupFinalizer) {
		t.Error("has")
	}
	helpers.CRDRemoveFinalizer(crd, v1.CustomResourceCleanupFinalizer)
	if helpers.CRDHasFinalizer(crd, v1.CustomResourceCleanupFinalizer) || len(crd.Finalizers) != 1 {
		t.Errorf("remove: %v", crd.Finalizers)
	}
}

func TestVersions(t *testing.T) {
	crd := crdWithVersions()
	if !helpers.HasServedCRDVersion(crd, "v1") || helpers.HasServedCRDVersion(crd, "v2") || helpers.HasServedCRDVersion(crd, "v3") {
		t.Error("HasServedCRDVersion")
	}
	if v, err := helpers.GetCRDStorageVersion(crd); err != nil || v != "v1" {
		t.Errorf("GetCRDStorageVersion = %q, %v", v, err)
	}
	if _, err := helpers.GetCRDStorageVersion(&v1.CustomResourceDefinition{}); !errors.Is(err, helpers.ErrNoStorageVersion) {
		t.Errorf("want ErrNoStorageVersion, got %v", err)
	}
	if !helpers.IsStoredVersion(crd, "v1") || helpers.IsStoredVersion(crd, "v2") {
		t.Error("IsStoredVersion")
	}
}

func TestGetForVersion(t *testing.T) {
	crd := crdWithVersions()
	crd.Name = "as.x.io"
	t.Run("OK", func(t *testing.T) {
		if s, err := helpers.GetSchemaForVersion(crd, "v1"); err != nil || s == nil || s.OpenAPIV3Schema.Type != "object" {
			t.Errorf("schema: %v %v", s, err)
		}
		if s, err := helpers.GetSubresourcesForVersion(crd, "v1"); err != nil || s.Status == nil {
			t.Errorf("subresources: %v %v", s, err)
		}
		if c, err := helpers.GetColumnsForVersion(crd, "v1"); err != nil || len(c) != 1 {
			t.Errorf("columns: %v %v", c, err)
		}
		if f, err := helpers.GetSelectableFieldsForVersion(crd, "v1"); err != nil || len(f) != 1 {
			t.Errorf("selectable fields: %v %v", f, err)
		}
		if s, err := helpers.GetSchemaForVersion(crd, "v2"); err != nil || s != nil {
			t.Errorf("v2 has no schema: %v %v", s, err)
		}
	})
	t.Run("ErrVersionNotFound", func(t *testing.T) {
		_, err := helpers.GetSchemaForVersion(crd, "v9")
		var nf *helpers.VersionNotFoundError
		if !errors.As(err, &nf) || err.Error() != "version v9 not found in apiextensionsv1.CustomResourceDefinition: as.x.io" {
			t.Errorf("got %v", err)
		}
	})
	t.Run("DeprecationWarning", func(t *testing.T) {
		crd.Spec.Group, crd.Spec.Names.Kind = "x.io", "A"
		if w, _ := helpers.GetDeprecationWarning(crd, "v2"); w == nil || *w != "x.io/v2 A is deprecated" {
			t.Errorf("got %v", w)
		}
		if w, _ := helpers.GetDeprecationWarning(crd, "v1"); w != nil {
			t.Errorf("v1 is not deprecated: %v", *w)
		}
	})
	// Issue 18: upstream names the best later version that is served and
	// not deprecated ("; use G/V Kind").
	t.Run("DeprecationWarningUse", func(t *testing.T) {
		c := &v1.CustomResourceDefinition{Spec: v1.CustomResourceDefinitionSpec{Group: "x.io", Names: v1.CustomResourceDefinitionNames{Kind: "A"},
			Versions: []v1.CustomResourceDefinitionVersion{
				{Name: "v1beta1", Served: true, Deprecated: true},
				{Name: "v1", Served: true},
				{Name: "v2beta1", Served: true},
				{Name: "v3", Served: false},
				{Name: "v2", Served: true, Deprecated: true},
				{Name: "v1alpha1", Served: true},
			}}}
		for version, want := range map[string]string{
			"v1beta1": "x.io/v1beta1 A is deprecated; use x.io/v1 A",
			"v2":      "x.io/v2 A is deprecated",
		} {
			if w, _ := helpers.GetDeprecationWarning(c, version); w == nil || *w != want {
				t.Errorf("%s: got %v, want %q", version, w, want)
			}
		}
	})
}
