package registry_test

import (
	"slices"
	"testing"

	metav1 "github.com/crdlab/crdlab/apis/meta/v1"
	"github.com/crdlab/crdlab/apis/meta/v1/unstructured"
	"github.com/crdlab/crdlab/registry"
)

// TestStore_Delete_GarbageCollection checks the finalizers a delete's
// propagationPolicy leaves for the garbage collector, as upstream's
// deletionFinalizersForGarbageCollection.
func TestStore_Delete_GarbageCollection(t *testing.T) {
	policy := func(p metav1.DeletionPropagation) *metav1.DeleteOptions {
		return &metav1.DeleteOptions{PropagationPolicy: &p}
	}
	orphan := func(b bool) *metav1.DeleteOptions { return &metav1.DeleteOptions{OrphanDependents: &b} }
	gcStore := func(t *testing.T) *registry.Store {
		s := newWidgetStore(t, openDB(t), widgetStrategy{})
		s.EnableGarbageCollection = true
		return s
	}

	for _, tc := range []struct {
		name           string
		finalizers     []string // on the object before the delete
		opts           *metav1.DeleteOptions
		wantDeleted    bool
		wantFinalizers []string
	}{
		{name: "DefaultIsBackground", wantDeleted: true},
		{name: "Background", opts: policy(metav1.DeletePropagationBackground), wantDeleted: true},
		{name: "Foreground", opts: policy(metav1.DeletePropagationForeground), wantFinalizers: []string{metav1.FinalizerDeleteDependents}},
		{name: "Orphan", opts: policy(metav1.DeletePropagationOrphan), wantFinalizers: []string{metav1.FinalizerOrphanDependents}},
		{name: "OrphanDependentsTrue", opts: orphan(true), wantFinalizers: []string{metav1.FinalizerOrphanDependents}},
		{name: "OrphanDependentsFalse", opts: orphan(false), wantDeleted: true},
		{name: "ExistingOrphanFinalizerDecides", finalizers: []string{metav1.FinalizerOrphanDependents},
			wantFinalizers: []string{metav1.FinalizerOrphanDependents}},
		{name: "ForegroundReplacesOrphan", finalizers: []string{"example.com/hold", metav1.FinalizerOrphanDependents},
			opts: policy(metav1.DeletePropagationForeground), wantFinalizers: []string{"example.com/hold", metav1.FinalizerDeleteDependents}},
		{name: "BackgroundRemovesForeground", finalizers: []string{metav1.FinalizerDeleteDependents, "example.com/hold"},
			opts: policy(metav1.DeletePropagationBackground), wantFinalizers: []string{"example.com/hold"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := gcStore(t)
			w := widget("", "a", 1)
			w.SetFinalizers(tc.finalizers)
			mustCreate(t, s, "default", w)

			out, deleted, err := s.Delete(nsCtx("default"), "a", nil, tc.opts)
			if err != nil {
				t.Fatal(err)
			}
			if deleted != tc.wantDeleted {
				t.Fatalf("deleted %v, want %v", deleted, tc.wantDeleted)
			}
			if deleted {
				return
			}
			u := out.(*unstructured.Unstructured)
			if !slices.Equal(u.GetFinalizers(), tc.wantFinalizers) {
				t.Errorf("finalizers %v, want %v", u.GetFinalizers(), tc.wantFinalizers)
			}
			if u.GetDeletionTimestamp() == nil {
				t.Error("no deletionTimestamp")
			}
			stored := mustGet(t, s, "default", "a")
			if !slices.Equal(stored.GetFinalizers(), tc.wantFinalizers) {
				t.Errorf("stored finalizers %v, want %v", stored.GetFinalizers(), tc.wantFinalizers)
			}
		})
	}

	t.Run("SecondDeleteSwitchesToForeground", func(t *testing.T) {
		s := gcStore(t)
		mustCreate(t, s, "default", widget("", "a", 1))
		if _, _, err := s.Delete(nsCtx("default"), "a", nil, policy(metav1.DeletePropagationOrphan)); err != nil {
			t.Fatal(err)
		}
		out, deleted, err := s.Delete(nsCtx("default"), "a", nil, policy(metav1.DeletePropagationForeground))
		if err != nil || deleted {
			t.Fatalf("err %v deleted %v", err, deleted)
		}
		if f := out.(*unstructured.Unstructured).GetFinalizers(); !slices.Equal(f, []string{metav1.FinalizerDeleteDependents}) {
			t.Errorf("finalizers %v", f)
		}
	})

	t.Run("DryRunLeavesNoFinalizer", func(t *testing.T) {
		s := gcStore(t)
		mustCreate(t, s, "default", widget("", "a", 1))
		p := metav1.DeletePropagationForeground
		out, deleted, err := s.Delete(nsCtx("default"), "a", nil, &metav1.DeleteOptions{PropagationPolicy: &p, DryRun: []string{"All"}})
		if err != nil || deleted {
			t.Fatalf("err %v deleted %v", err, deleted)
		}
		if f := out.(*unstructured.Unstructured).GetFinalizers(); !slices.Equal(f, []string{metav1.FinalizerDeleteDependents}) {
			t.Errorf("dry-run answer finalizers %v", f)
		}
		if f := mustGet(t, s, "default", "a").GetFinalizers(); len(f) != 0 {
			t.Errorf("stored finalizers %v after a dry run", f)
		}
	})

	t.Run("RemovingTheFinalizerDeletes", func(t *testing.T) {
		s := gcStore(t)
		mustCreate(t, s, "default", widget("", "a", 1))
		if _, _, err := s.Delete(nsCtx("default"), "a", nil, policy(metav1.DeletePropagationForeground)); err != nil {
			t.Fatal(err)
		}
		// What the garbage collector does once the dependents are gone.
		if _, _, err := s.Update(nsCtx("default"), "a", mutate(func(u *unstructured.Unstructured) { u.SetFinalizers(nil) }), nil, nil, false, nil); err != nil {
			t.Fatal(err)
		}
		_, err := s.Get(nsCtx("default"), "a", nil)
		wantReason(t, err, metav1.StatusReasonNotFound, 404)
	})
}
