package managedfields_test

import (
	"fmt"
	"strings"
	"testing"

	"sigs.k8s.io/structured-merge-diff/v6/fieldpath"

	apierrors "github.com/crdlab/crdlab/apis/errors"
	metav1 "github.com/crdlab/crdlab/apis/meta/v1"
	"github.com/crdlab/crdlab/apis/meta/v1/unstructured"
	"github.com/crdlab/crdlab/machinery/managedfields"
	"github.com/crdlab/crdlab/machinery/openapi"
	"github.com/crdlab/crdlab/scheme"
)

// entries summarises managedFields as "manager/operation/subresource: fieldsV1".
func entries(obj *unstructured.Unstructured) []string {
	var out []string
	for _, e := range obj.GetManagedFields() {
		s := e.Manager + "/" + string(e.Operation)
		if e.Subresource != "" {
			s += "/" + e.Subresource
		}
		raw := ""
		if e.FieldsV1 != nil {
			raw = string(e.FieldsV1.Raw)
		}
		out = append(out, s+": "+raw)
	}
	return out
}

func wantEntries(t *testing.T, obj *unstructured.Unstructured, want ...string) {
	t.Helper()
	got := entries(obj)
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("managedFields:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// stored makes obj look stored (a uid), as the next write's live object.
func stored(obj *unstructured.Unstructured) *unstructured.Unstructured {
	obj.SetUID("uid-1")
	return obj
}

func TestFieldManager_Update(t *testing.T) {
	t.Run("CreateRecordsEveryField", func(t *testing.T) {
		fm := newWidgetManager(t)
		obj := widget(t, "replicas: 1\nports: [{name: a, port: 1}]\nset: [x]")
		obj.SetLabels(map[string]string{"l": "v"})
		out, err := fm.Update(fm.NewEmptyObject(), obj, "creator")
		if err != nil {
			t.Fatal(err)
		}
		wantEntries(t, out, `creator/Update: {"f:metadata":{"f:labels":{".":{},"f:l":{}}},"f:spec":{".":{},"f:ports":{".":{},"k:{\"name\":\"a\"}":{".":{},"f:name":{},"f:port":{}}},"f:replicas":{},"f:set":{".":{},"v:\"x\"":{}}}}`)
		e := out.GetManagedFields()[0]
		if e.APIVersion != "example.com/v1" || e.FieldsType != "FieldsV1" || e.Time == nil || e.Time.Format("15:04:05") != "03:04:06" {
			t.Fatalf("entry %+v: want apiVersion example.com/v1, FieldsV1 and the clock's time", e)
		}
	})
	t.Run("AnotherManagerTakesWhatItChanges", func(t *testing.T) {
		fm := newWidgetManager(t)
		live, _ := fm.Update(fm.NewEmptyObject(), widget(t, "replicas: 1\nimage: i"), "creator")
		out, err := fm.Update(stored(live), widget(t, "replicas: 2\nimage: i"), "scaler")
		if err != nil {
			t.Fatal(err)
		}
		wantEntries(t, out,
			`creator/Update: {"f:spec":{".":{},"f:image":{}}}`,
			`scaler/Update: {"f:spec":{"f:replicas":{}}}`)
	})
	t.Run("NoChangeKeepsEntriesAndTimes", func(t *testing.T) {
		fm := newWidgetManager(t)
		live, _ := fm.Update(fm.NewEmptyObject(), widget(t, "replicas: 1"), "creator")
		before := jsonOf(live.Object["metadata"].(map[string]any)["managedFields"])
		out, _ := fm.Update(stored(live.DeepCopy()), widget(t, "replicas: 1"), "other")
		if after := jsonOf(out.Object["metadata"].(map[string]any)["managedFields"]); after != before {
			t.Fatalf("a write that changes nothing changed managedFields:\n%s\nwas\n%s", after, before)
		}
	})
	t.Run("AbsentManagedFieldsKeepLive", func(t *testing.T) {
		fm := newWidgetManager(t)
		live, _ := fm.Update(fm.NewEmptyObject(), widget(t, "replicas: 1"), "creator")
		obj := widget(t, "replicas: 1\nimage: i") // a client unaware of managedFields
		out, _ := fm.Update(stored(live), obj, "editor")
		wantEntries(t, out,
			`creator/Update: {"f:spec":{".":{},"f:replicas":{}}}`,
			`editor/Update: {"f:spec":{"f:image":{}}}`)
	})
	t.Run("RequestManagedFieldsReplaceLive", func(t *testing.T) {
		fm := newWidgetManager(t)
		live, _ := fm.Update(fm.NewEmptyObject(), widget(t, "replicas: 1"), "creator")
		obj := widget(t, "replicas: 1")
		obj.SetManagedFields([]metav1.ManagedFieldsEntry{{Manager: "someone", Operation: "Apply", APIVersion: "example.com/v1",
			FieldsType: "FieldsV1", FieldsV1: &metav1.FieldsV1{Raw: []byte(`{"f:spec":{"f:replicas":{}}}`)}}})
		out, _ := fm.Update(stored(live), obj, "editor")
		wantEntries(t, out, `someone/Apply: {"f:spec":{"f:replicas":{}}}`)
	})
	for _, reset := range []struct {
		name    string
		entries []metav1.ManagedFieldsEntry
	}{
		{"ResetWithEmptyList", []metav1.ManagedFieldsEntry{}},
		{"ResetWithOneEmptyEntry", []metav1.ManagedFieldsEntry{{}}},
	} {
		t.Run(reset.name, func(t *testing.T) {
			fm := newWidgetManager(t)
			live, _ := fm.Update(fm.NewEmptyObject(), widget(t, "replicas: 1"), "creator")
			obj := widget(t, "replicas: 2")
			obj.SetManagedFields(reset.entries)
			out, err := fm.Update(stored(live), obj, "editor")
			if err != nil {
				t.Fatal(err)
			}
			if mf, ok, _ := unstructured.NestedFieldNoCopy(out.Object, "metadata", "managedFields"); ok {
				t.Fatalf("managedFields %v after a reset, want none", mf)
			}
			// Untracked from now on, until an apply.
			out, _ = fm.Update(stored(out), widget(t, "replicas: 3"), "editor")
			wantEntries(t, out)
			out, err = fm.Apply(stored(out), widget(t, "image: i"), "applier", false)
			if err != nil {
				t.Fatal(err)
			}
			wantEntries(t, out,
				`applier/Apply: {"f:spec":{"f:image":{}}}`,
				`before-first-apply/Update: {"f:spec":{".":{},"f:replicas":{}}}`)
		})
	}
	t.Run("InvalidRequestEntriesKeepLive", func(t *testing.T) {
		fm := newWidgetManager(t)
		live, _ := fm.Update(fm.NewEmptyObject(), widget(t, "replicas: 1"), "creator")
		for _, bad := range []metav1.ManagedFieldsEntry{
			{Manager: "m", Operation: "Bogus", APIVersion: "example.com/v1", FieldsType: "FieldsV1"},
			{Manager: "m", Operation: "Update", FieldsType: "FieldsV1"},
			{Manager: "m", Operation: "Update", APIVersion: "example.com/v1", FieldsType: "FieldsV2"},
			{Manager: "m", Operation: "Update", APIVersion: "example.com/v1"},
			{Manager: "m", Operation: "Update", APIVersion: "example.com/v1", FieldsType: "FieldsV1", FieldsV1: &metav1.FieldsV1{Raw: []byte(`["not","a","set"]`)}},
		} {
			obj := widget(t, "replicas: 1")
			obj.SetManagedFields([]metav1.ManagedFieldsEntry{bad})
			out, _ := fm.Update(stored(live.DeepCopy()), obj, "editor")
			wantEntries(t, out, `creator/Update: {"f:spec":{".":{},"f:replicas":{}}}`)
		}
	})
	t.Run("SubresourceIgnoresRequestEntries", func(t *testing.T) {
		main := newWidgetManager(t)
		live, _ := main.Update(main.NewEmptyObject(), widget(t, "replicas: 1"), "creator")
		models, _ := openapi.Models([]openapi.Resource{widgetResource("v1")})
		tc, _ := managedfields.NewTypeConverter(models, false)
		status := newManagerWith(t, tc, widgetKind, "status")
		obj := widget(t, "replicas: 1")
		obj.Object["status"] = map[string]any{"ready": true}
		obj.SetManagedFields([]metav1.ManagedFieldsEntry{})
		out, err := status.Update(stored(live), obj, "kubelet")
		if err != nil {
			t.Fatal(err)
		}
		wantEntries(t, out,
			`creator/Update: {"f:spec":{".":{},"f:replicas":{}}}`,
			`kubelet/Update/status: {"f:status":{".":{},"f:ready":{}}}`)
	})
	t.Run("OldestUpdatesMergeIntoAncientChanges", func(t *testing.T) {
		fm := newWidgetManager(t)
		live, _ := fm.Update(fm.NewEmptyObject(), widget(t, "replicas: 1"), "creator")
		live = stored(live)
		for i := range managedfields.DefaultMaxUpdateManagers + 1 {
			obj := live.DeepCopy()
			labels := obj.GetLabels()
			if labels == nil {
				labels = map[string]string{}
			}
			labels[fmt.Sprintf("l%02d", i)] = "v"
			obj.SetLabels(labels)
			out, err := fm.Update(live, obj, fmt.Sprintf("m%02d", i))
			if err != nil {
				t.Fatal(err)
			}
			live = out
		}
		got := entries(live)
		if len(got) != managedfields.DefaultMaxUpdateManagers {
			t.Fatalf("%d entries, want %d:\n%s", len(got), managedfields.DefaultMaxUpdateManagers, strings.Join(got, "\n"))
		}
		// The three oldest (creator, m00, m01) are one entry now.
		if got[0] != `ancient-changes/Update: {"f:metadata":{"f:labels":{".":{},"f:l00":{},"f:l01":{}}},"f:spec":{".":{},"f:replicas":{}}}` {
			t.Fatalf("first entry %s, want the three oldest merged into ancient-changes", got[0])
		}
		if !strings.HasPrefix(got[1], "m02/Update") || !strings.HasPrefix(got[9], "m10/Update") {
			t.Fatalf("entries after the bucket:\n%s", strings.Join(got, "\n"))
		}
	})
	t.Run("UnknownManagerIsUnknown", func(t *testing.T) {
		fm := newWidgetManager(t)
		out, _ := fm.Update(fm.NewEmptyObject(), widget(t, "replicas: 1"), "")
		wantEntries(t, out, `unknown/Update: {"f:spec":{".":{},"f:replicas":{}}}`)
	})
	t.Run("NoErrorsKeepsLiveOnFailure", func(t *testing.T) {
		fm := newWidgetManager(t)
		live, _ := fm.Update(fm.NewEmptyObject(), widget(t, "replicas: 1"), "creator")
		obj := widget(t, "replicas: one") // a string where the schema says integer
		out := fm.UpdateNoErrors(stored(live), obj, "editor")
		wantEntries(t, out, `creator/Update: {"f:spec":{".":{},"f:replicas":{}}}`)
		if _, err := fm.Update(stored(live), widget(t, "replicas: one"), "editor"); err == nil {
			t.Fatal("Update of an object that does not fit the schema succeeded")
		}
	})
}

func TestFieldManager_Apply(t *testing.T) {
	t.Run("CreateAndReapplyIsANoOp", func(t *testing.T) {
		fm := newWidgetManager(t)
		out, err := fm.Apply(fm.NewEmptyObject(), widget(t, "replicas: 1"), "kubectl", false)
		if err != nil {
			t.Fatal(err)
		}
		wantEntries(t, out, `kubectl/Apply: {"f:spec":{"f:replicas":{}}}`)
		again, err := fm.Apply(stored(out), widget(t, "replicas: 1"), "kubectl", false)
		if err != nil {
			t.Fatal(err)
		}
		if jsonOf(again.Object) != jsonOf(out.Object) {
			t.Fatalf("re-applying changed the object: %v", again.Object)
		}
	})
	t.Run("ConflictNamesFieldAndManager", func(t *testing.T) {
		fm := newWidgetManager(t)
		live, _ := fm.Update(fm.NewEmptyObject(), widget(t, "replicas: 1"), "ctrl")
		_, err := fm.Apply(stored(live), widget(t, "replicas: 2"), "kubectl", false)
		if !apierrors.IsConflict(err) {
			t.Fatalf("got %v, want a 409", err)
		}
		st := apierrors.ToStatus(err)
		if st.Code != 409 || st.Message != `Apply failed with 1 conflict: conflict with "ctrl" using example.com/v1: .spec.replicas` {
			t.Fatalf("status %d %q", st.Code, st.Message)
		}
		c := st.Details.Causes
		if len(c) != 1 || c[0].Type != metav1.CauseTypeFieldManagerConflict || c[0].Field != ".spec.replicas" || c[0].Message != `conflict with "ctrl" using example.com/v1` {
			t.Fatalf("causes %+v", c)
		}
	})
	t.Run("ConflictsWithSeveralManagersAreGrouped", func(t *testing.T) {
		fm := newWidgetManager(t)
		live, _ := fm.Apply(fm.NewEmptyObject(), widget(t, "replicas: 1\nimage: i"), "a", false)
		live, _ = fm.Apply(stored(live), widget(t, "atomic: [x]\nreplicas: 1\nimage: i"), "b", false)
		_, err := fm.Apply(stored(live), widget(t, "replicas: 2\natomic: [r]"), "c", false)
		want := "Apply failed with 3 conflicts: conflicts with \"a\":\n- .spec.replicas\nconflicts with \"b\":\n- .spec.replicas\n- .spec.atomic"
		if got := apierrors.ToStatus(err).Message; got != want && got != strings.Replace(want, "- .spec.replicas\n- .spec.atomic", "- .spec.atomic\n- .spec.replicas", 1) {
			t.Fatalf("message %q, want %q", got, want)
		}
	})
	t.Run("FirstApplyToUntrackedObjectMeetsItsFields", func(t *testing.T) {
		fm := newWidgetManager(t)
		live := stored(widget(t, "replicas: 1"))
		_, err := fm.Apply(live, widget(t, "replicas: 2"), "kubectl", false)
		if got := conflictsOf(t, err); fmt.Sprint(got) != `[.spec.replicas by "before-first-apply" using example.com/v1]` {
			t.Fatalf("conflicts %q", got)
		}
	})
	t.Run("ManagedFieldsInTheBodyAre400", func(t *testing.T) {
		fm := newWidgetManager(t)
		obj := widget(t, "replicas: 1")
		obj.SetManagedFields([]metav1.ManagedFieldsEntry{})
		_, err := fm.Apply(fm.NewEmptyObject(), obj, "kubectl", false)
		if !apierrors.IsBadRequest(err) || err.Error() != "metadata.managedFields must be nil" {
			t.Fatalf("got %v", err)
		}
	})
	t.Run("OtherKindIs400", func(t *testing.T) {
		fm := newWidgetManager(t)
		obj := widget(t, "replicas: 1")
		obj.SetAPIVersion("example.com/v2")
		_, err := fm.Apply(fm.NewEmptyObject(), obj, "kubectl", false)
		if !apierrors.IsBadRequest(err) || err.Error() != "invalid object type: example.com/v2, Kind=Widget" {
			t.Fatalf("got %v", err)
		}
	})
	t.Run("ValueNotFittingTheSchemaIs400", func(t *testing.T) {
		fm := newWidgetManager(t)
		for _, spec := range []string{"replicas: one", "unknown: 1", "set: [x, x]"} {
			_, err := fm.Apply(fm.NewEmptyObject(), widget(t, spec), "kubectl", false)
			if !apierrors.IsBadRequest(err) || !strings.HasPrefix(err.Error(), "failed to create typed patch object (ns/w; example.com/v1, Kind=Widget): ") {
				t.Fatalf("apply %q: got %v, want 400", spec, err)
			}
		}
	})
	t.Run("ResetFieldsAreNotOwned", func(t *testing.T) {
		models, _ := openapi.Models([]openapi.Resource{widgetResource("v1")})
		tc, _ := managedfields.NewTypeConverter(models, false)
		fm, err := managedfields.New(managedfields.Config{TypeConverter: tc, Kind: widgetKind,
			ResetFields: map[fieldpath.APIVersion]*fieldpath.Set{"example.com/v1": fieldpath.NewSet(fieldpath.MakePathOrDie("status"))}})
		if err != nil {
			t.Fatal(err)
		}
		obj := widget(t, "replicas: 1")
		obj.Object["status"] = map[string]any{"ready": true}
		out, err := fm.Apply(fm.NewEmptyObject(), obj, "kubectl", false)
		if err != nil {
			t.Fatal(err)
		}
		wantEntries(t, out, `kubectl/Apply: {"f:spec":{"f:replicas":{}}}`)
	})
}

func TestFieldManager_Versions(t *testing.T) {
	models, err := openapi.Models([]openapi.Resource{widgetResource("v1"), widgetResource("v2")})
	if err != nil {
		t.Fatal(err)
	}
	tc, err := managedfields.NewTypeConverter(models, false)
	if err != nil {
		t.Fatal(err)
	}
	v1 := newManagerWith(t, tc, widgetKind, "")
	v2 := newManagerWith(t, tc, scheme.GroupVersionKind{Group: "example.com", Version: "v2", Kind: "Widget"}, "")
	live, err := v1.Apply(v1.NewEmptyObject(), widget(t, "replicas: 1\nimage: i"), "a", false)
	if err != nil {
		t.Fatal(err)
	}
	live.SetAPIVersion("example.com/v2")
	obj := live.DeepCopy()
	unstructured.SetNestedField(obj.Object, int64(2), "spec", "replicas")
	obj.SetManagedFields(nil)
	out, err := v2.Update(stored(live), obj, "b")
	if err != nil {
		t.Fatal(err)
	}
	// a's entry, in v1, lost replicas to b's, in v2.
	wantEntries(t, out, `a/Apply: {"f:spec":{"f:image":{}}}`, `b/Update: {"f:spec":{"f:replicas":{}}}`)
	if v := out.GetManagedFields(); v[0].APIVersion != "example.com/v1" || v[1].APIVersion != "example.com/v2" {
		t.Fatalf("apiVersions %s, %s", v[0].APIVersion, v[1].APIVersion)
	}

	// A version the kind no longer has drops its entries.
	gone := out.DeepCopy()
	mf := gone.GetManagedFields()
	mf[0].APIVersion = "example.com/v0"
	gone.SetManagedFields(mf)
	obj = gone.DeepCopy()
	unstructured.SetNestedField(obj.Object, int64(3), "spec", "replicas")
	obj.SetManagedFields(nil)
	out, err = v2.Update(stored(gone), obj, "b")
	if err != nil {
		t.Fatal(err)
	}
	wantEntries(t, out, `b/Update: {"f:spec":{"f:replicas":{}}}`)
}

func TestFieldManager_LastApplied(t *testing.T) {
	// What client-side `kubectl apply` leaves: the annotation and a
	// kubectl-client-side-apply Update entry.
	const lastApplied = `{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"w","namespace":"ns"},"spec":{"image":"i","replicas":1}}` + "\n"
	setup := func(t *testing.T) (*managedfields.FieldManager, *unstructured.Unstructured) {
		fm := newWidgetManager(t)
		obj := widget(t, "replicas: 1\nimage: i")
		obj.SetAnnotations(map[string]string{managedfields.LastAppliedConfigAnnotation: lastApplied})
		live, err := fm.Update(fm.NewEmptyObject(), obj, "kubectl-client-side-apply")
		if err != nil {
			t.Fatal(err)
		}
		return fm, stored(live)
	}
	t.Run("KubectlTakesOverWithoutConflicts", func(t *testing.T) {
		fm, live := setup(t)
		out, err := fm.Apply(live, widget(t, "replicas: 2\nimage: i"), "kubectl", false)
		if err != nil {
			t.Fatal(err)
		}
		if r, _, _ := unstructured.NestedInt64(out.Object, "spec", "replicas"); r != 2 {
			t.Fatalf("replicas %d, want 2", r)
		}
		got := out.GetAnnotations()[managedfields.LastAppliedConfigAnnotation]
		want := `{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"w","namespace":"ns"},"spec":{"image":"i","replicas":2}}` + "\n"
		if got != want {
			t.Fatalf("last-applied %q, want %q", got, want)
		}
		es := entries(out)
		if len(es) != 2 || !strings.HasPrefix(es[0], `kubectl/Apply: {"f:spec":{"f:image":{},"f:replicas":{}}}`) {
			t.Fatalf("entries %q", es)
		}
	})
	t.Run("OtherManagersStillConflict", func(t *testing.T) {
		fm, live := setup(t)
		_, err := fm.Apply(live, widget(t, "replicas: 2\nimage: i"), "helm", false)
		if !apierrors.IsConflict(err) {
			t.Fatalf("got %v, want a conflict", err)
		}
	})
	t.Run("FieldsChangedSinceStillConflict", func(t *testing.T) {
		fm, live := setup(t)
		obj := live.DeepCopy()
		unstructured.SetNestedField(obj.Object, "j", "spec", "image")
		live, _ = fm.Update(live, obj, "someone")
		_, err := fm.Apply(stored(live), widget(t, "replicas: 2\nimage: k"), "kubectl", false)
		if got := conflictsOf(t, err); fmt.Sprint(got) != `[.spec.image by "someone" using example.com/v1]` {
			t.Fatalf("conflicts %q", got)
		}
	})
}

func TestScaleHandler(t *testing.T) {
	replicas := fieldpath.MakePathOrDie("spec", "replicas")
	mappings := managedfields.ResourcePathMappings{"example.com/v1": replicas}
	parent := []metav1.ManagedFieldsEntry{
		{Manager: "applier", Operation: "Apply", APIVersion: "example.com/v1", FieldsType: "FieldsV1",
			FieldsV1: &metav1.FieldsV1{Raw: []byte(`{"f:spec":{"f:image":{},"f:replicas":{}}}`)}},
	}
	h := managedfields.NewScaleHandler(parent, "example.com/v1", mappings)
	sub, err := h.ToSubresource()
	if err != nil {
		t.Fatal(err)
	}
	if len(sub) != 1 || sub[0].APIVersion != "autoscaling/v1" || string(sub[0].FieldsV1.Raw) != `{"f:spec":{"f:replicas":{}}}` {
		t.Fatalf("ToSubresource: %+v", sub)
	}
	// kubectl scale took the replicas.
	scaled := []metav1.ManagedFieldsEntry{{Manager: "kubectl", Operation: "Update", APIVersion: "autoscaling/v1", Subresource: "scale",
		FieldsType: "FieldsV1", FieldsV1: &metav1.FieldsV1{Raw: []byte(`{"f:spec":{"f:replicas":{}}}`)}}}
	back, err := h.ToParent(scaled)
	if err != nil {
		t.Fatal(err)
	}
	got := fmt.Sprint(len(back), " ", back[0].Manager, " ", string(back[0].FieldsV1.Raw), " ", back[1].Manager, " ", back[1].APIVersion, " ", string(back[1].FieldsV1.Raw))
	if got != `2 applier {"f:spec":{"f:image":{}}} kubectl example.com/v1 {"f:spec":{"f:replicas":{}}}` {
		t.Fatalf("ToParent: %s", got)
	}
}
