package validation_test

import (
	"strings"
	"testing"

	metav1 "github.com/crdlab/crdlab/apis/meta/v1"
	"github.com/crdlab/crdlab/apis/validation"
	"github.com/crdlab/crdlab/apis/validation/field"
)

func TestValidateObjectMeta(t *testing.T) {
	t.Run("OK", func(t *testing.T) {
		m := &metav1.ObjectMeta{Name: "a", Namespace: "ns", Labels: map[string]string{"app": "x"}, Finalizers: []string{"example.com/f"}}
		if errs := validation.ValidateObjectMeta(m, true, validation.NameIsDNSSubdomain, field.NewPath("metadata")); len(errs) != 0 {
			t.Error(errs)
		}
	})
	t.Run("ErrNameRequired", func(t *testing.T) {
		errs := validation.ValidateObjectMeta(&metav1.ObjectMeta{}, false, validation.NameIsDNSSubdomain, field.NewPath("metadata"))
		if len(errs) != 1 || errs[0].Error() != "metadata.name: Required value: name or generateName is required" {
			t.Errorf("got %v", errs)
		}
	})
	t.Run("ErrNamespace", func(t *testing.T) {
		errs := validation.ValidateObjectMeta(&metav1.ObjectMeta{Name: "a", Namespace: "ns"}, false, validation.NameIsDNSSubdomain, field.NewPath("metadata"))
		if len(errs) != 1 || errs[0].Error() != "metadata.namespace: Forbidden: not allowed on this type" {
			t.Errorf("got %v", errs)
		}
		errs = validation.ValidateObjectMeta(&metav1.ObjectMeta{Name: "a"}, true, validation.NameIsDNSSubdomain, field.NewPath("metadata"))
		if len(errs) != 1 || errs[0].Type != field.ErrorTypeRequired || errs[0].Field != "metadata.namespace" {
			t.Errorf("got %v", errs)
		}
	})
	t.Run("GenerateNameWithDash", func(t *testing.T) {
		m := &metav1.ObjectMeta{GenerateName: "web-", Name: "web-x1"}
		if errs := validation.ValidateObjectMeta(m, false, validation.NameIsDNSSubdomain, field.NewPath("metadata")); len(errs) != 0 {
			t.Error(errs)
		}
	})
	t.Run("ErrLabels", func(t *testing.T) {
		m := &metav1.ObjectMeta{Name: "a", Labels: map[string]string{"-bad": "ok", "good": "-bad"}}
		errs := validation.ValidateObjectMeta(m, false, validation.NameIsDNSSubdomain, field.NewPath("metadata"))
		if len(errs) != 2 || errs[0].Field != "metadata.labels" {
			t.Errorf("got %v", errs)
		}
	})
}

func TestValidateObjectMetaUpdate(t *testing.T) {
	old := &metav1.ObjectMeta{Name: "a", UID: "u1", ResourceVersion: "1", Generation: 2}
	t.Run("OK", func(t *testing.T) {
		n := old.DeepCopy()
		n.Labels = map[string]string{"x": "y"}
		if errs := validation.ValidateObjectMetaUpdate(n, old, field.NewPath("metadata")); len(errs) != 0 {
			t.Error(errs)
		}
	})
	t.Run("ErrImmutable", func(t *testing.T) {
		n := old.DeepCopy()
		n.Name, n.UID, n.Generation, n.ResourceVersion = "b", "u2", 1, ""
		errs := validation.ValidateObjectMetaUpdate(n, old, field.NewPath("metadata"))
		var got []string
		for _, e := range errs {
			got = append(got, e.Field)
		}
		if strings.Join(got, ",") != "metadata.resourceVersion,metadata.generation,metadata.name,metadata.uid" {
			t.Errorf("got %v", errs)
		}
	})
	t.Run("ErrNewFinalizerWhileDeleting", func(t *testing.T) {
		o := old.DeepCopy()
		now := metav1.Now()
		o.DeletionTimestamp = &now
		n := o.DeepCopy()
		n.Finalizers = []string{"x.io/f"}
		errs := validation.ValidateObjectMetaUpdate(n, o, field.NewPath("metadata"))
		if len(errs) != 1 || errs[0].Type != field.ErrorTypeForbidden {
			t.Errorf("got %v", errs)
		}
	})
}

// TestValidateOwnerReferences_TwoControllers: each controller after the
// first is an error naming the first and it as Kind/name, as the real
// kube-apiserver v1.37.2 answers (e2e TestReferenceBuiltinAPI).
func TestValidateOwnerReferences_TwoControllers(t *testing.T) {
	yes := true
	ref := func(name, uid string) metav1.OwnerReference {
		return metav1.OwnerReference{APIVersion: "v1", Kind: "ConfigMap", Name: name, UID: metav1.UID(uid), Controller: &yes}
	}
	errs := validation.ValidateOwnerReferences([]metav1.OwnerReference{ref("o1", "u1"), ref("o2", "u2"), ref("o3", "u3")}, field.NewPath("metadata", "ownerReferences"))
	var got []string
	for _, e := range errs {
		got = append(got, e.Detail)
	}
	want := []string{
		`Only one reference can have Controller set to true. Found "true" in references for ConfigMap/o1 and ConfigMap/o2`,
		`Only one reference can have Controller set to true. Found "true" in references for ConfigMap/o1 and ConfigMap/o3`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
