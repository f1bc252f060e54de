package namespace_test

import (
	"context"
	"path/filepath"
	"slices"
	"testing"

	"github.com/crdlab/crdlab/apis/builtin"
	"github.com/crdlab/crdlab/apis/core"
	apierrors "github.com/crdlab/crdlab/apis/errors"
	metav1 "github.com/crdlab/crdlab/apis/meta/v1"
	"github.com/crdlab/crdlab/registry"
	"github.com/crdlab/crdlab/registry/core/namespace"
	"github.com/crdlab/crdlab/scheme"
	"github.com/crdlab/crdlab/storage/bolt"
)

type env struct {
	rest     *namespace.REST
	status   *namespace.StatusREST
	finalize *namespace.FinalizeREST
}

func newEnv(t *testing.T) *env {
	t.Helper()
	db, err := bolt.Open(filepath.Join(t.TempDir(), "test.db"), bolt.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	s := scheme.NewScheme()
	builtin.Install(s)
	rest, status, finalize, err := namespace.NewREST(s, registry.StoreOptions{Backend: db, Scheme: s, StorageVersion: scheme.GroupVersion{Version: "v1"}})
	if err != nil {
		t.Fatal(err)
	}
	return &env{rest, status, finalize}
}

func (e *env) get(t *testing.T, name string) *core.Namespace {
	t.Helper()
	obj, err := e.rest.Get(context.Background(), name, nil)
	if err != nil {
		t.Fatal(err)
	}
	return obj.(*core.Namespace)
}

func set(fn func(*core.Namespace)) registry.UpdatedObjectInfo {
	return registry.UpdatedObjectFunc(func(_ context.Context, old scheme.Object) (scheme.Object, error) {
		ns := old.(*core.Namespace)
		fn(ns)
		return ns, nil
	})
}

func TestREST_Lifecycle(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t)
	obj, err := e.rest.Create(ctx, &core.Namespace{ObjectMeta: metav1.ObjectMeta{Name: "team-a"}, Status: core.NamespaceStatus{Phase: "Bogus"}}, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	ns := obj.(*core.Namespace)
	t.Run("CreatedActiveWithFinalizerAndLabel", func(t *testing.T) {
		if ns.Status.Phase != core.NamespaceActive || !slices.Equal(ns.Spec.Finalizers, []core.FinalizerName{core.FinalizerKubernetes}) ||
			ns.Labels[core.LabelMetadataName] != "team-a" {
			t.Errorf("created %+v", ns)
		}
	})
	t.Run("UpdateKeepsSpecAndStatus", func(t *testing.T) {
		out, _, err := e.rest.Update(ctx, "team-a", set(func(ns *core.Namespace) {
			ns.Spec.Finalizers, ns.Status.Phase = nil, core.NamespaceTerminating
			ns.Labels["x"] = "y"
		}), nil, nil, false, nil)
		if err != nil {
			t.Fatal(err)
		}
		got := out.(*core.Namespace)
		if len(got.Spec.Finalizers) != 1 || got.Status.Phase != core.NamespaceActive || got.Labels["x"] != "y" {
			t.Errorf("updated %+v", got)
		}
	})
	t.Run("DeleteMarksTerminating", func(t *testing.T) {
		out, deleted, err := e.rest.Delete(ctx, "team-a", nil, nil)
		if err != nil || deleted {
			t.Fatalf("delete: deleted=%v err=%v", deleted, err)
		}
		got := out.(*core.Namespace)
		if got.DeletionTimestamp == nil || got.Status.Phase != core.NamespaceTerminating || len(got.Spec.Finalizers) != 1 {
			t.Errorf("after delete %+v", got)
		}
		// Deleting again changes nothing while the finalizer is there.
		if _, deleted, err := e.rest.Delete(ctx, "team-a", nil, nil); err != nil || deleted {
			t.Fatalf("second delete: deleted=%v err=%v", deleted, err)
		}
		e.get(t, "team-a")
	})
	t.Run("StatusCannotReactivate", func(t *testing.T) {
		_, _, err := e.status.Update(ctx, "team-a", set(func(ns *core.Namespace) { ns.Status.Phase = core.NamespaceActive }), nil, nil, false, nil)
		if !apierrors.IsInvalid(err) {
			t.Errorf("err = %v, want Invalid", err)
		}
	})
	t.Run("StatusUpdateDoesNotDelete", func(t *testing.T) {
		// An update of a Terminating namespace without metadata.finalizers
		// does not end the deletion while spec.finalizers remain.
		if _, _, err := e.status.Update(ctx, "team-a", set(func(ns *core.Namespace) {
			ns.Status.Conditions = []core.NamespaceCondition{{Type: core.NamespaceContentRemaining, Status: metav1.ConditionTrue}}
		}), nil, nil, false, nil); err != nil {
			t.Fatal(err)
		}
		e.get(t, "team-a")
	})
	t.Run("FinalizeDeletes", func(t *testing.T) {
		if _, _, err := e.finalize.Update(ctx, "team-a", set(func(ns *core.Namespace) { ns.Spec.Finalizers = nil }), nil, nil, false, nil); err != nil {
			t.Fatal(err)
		}
		if _, err := e.rest.Get(ctx, "team-a", nil); !apierrors.IsNotFound(err) {
			t.Errorf("after finalize: err = %v, want NotFound", err)
		}
	})
}

func TestREST_Delete(t *testing.T) {
	ctx := context.Background()
	t.Run("ForegroundAddsFinalizer", func(t *testing.T) {
		e := newEnv(t)
		if _, err := e.rest.Create(ctx, &core.Namespace{ObjectMeta: metav1.ObjectMeta{Name: "a"}}, nil, nil); err != nil {
			t.Fatal(err)
		}
		fg := metav1.DeletePropagationForeground
		out, _, err := e.rest.Delete(ctx, "a", nil, &metav1.DeleteOptions{PropagationPolicy: &fg})
		if err != nil {
			t.Fatal(err)
		}
		if f := out.(*core.Namespace).Finalizers; !slices.Equal(f, []string{metav1.FinalizerDeleteDependents}) {
			t.Errorf("finalizers = %v", f)
		}
	})
	t.Run("DryRunChangesNothing", func(t *testing.T) {
		e := newEnv(t)
		if _, err := e.rest.Create(ctx, &core.Namespace{ObjectMeta: metav1.ObjectMeta{Name: "a"}}, nil, nil); err != nil {
			t.Fatal(err)
		}
		out, _, err := e.rest.Delete(ctx, "a", nil, &metav1.DeleteOptions{DryRun: []string{metav1.DryRunAll}})
		if err != nil || out.(*core.Namespace).Status.Phase != core.NamespaceTerminating {
			t.Fatalf("dry run: %v %v", out, err)
		}
		if got := e.get(t, "a"); got.DeletionTimestamp != nil {
			t.Errorf("dry run wrote %+v", got)
		}
	})
	t.Run("ValidationVetoes", func(t *testing.T) {
		e := newEnv(t)
		if _, err := e.rest.Create(ctx, &core.Namespace{ObjectMeta: metav1.ObjectMeta{Name: "default"}}, nil, nil); err != nil {
			t.Fatal(err)
		}
		forbid := func(context.Context, scheme.Object) error {
			return apierrors.NewForbidden(namespace.Resource, "default", nil)
		}
		if _, _, err := e.rest.Delete(ctx, "default", forbid, nil); !apierrors.IsForbidden(err) {
			t.Errorf("err = %v, want Forbidden", err)
		}
		if e.get(t, "default").DeletionTimestamp != nil {
			t.Error("a vetoed delete marked the namespace")
		}
	})
	t.Run("ErrNotFound", func(t *testing.T) {
		e := newEnv(t)
		if _, _, err := e.rest.Delete(ctx, "missing", nil, nil); !apierrors.IsNotFound(err) {
			t.Errorf("err = %v", err)
		}
	})
}

func TestREST_FieldSelector(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t)
	for _, n := range []string{"a", "b"} {
		if _, err := e.rest.Create(ctx, &core.Namespace{ObjectMeta: metav1.ObjectMeta{Name: n}}, nil, nil); err != nil {
			t.Fatal(err)
		}
	}
	if _, _, err := e.rest.Delete(ctx, "b", nil, nil); err != nil {
		t.Fatal(err)
	}
	list, err := e.rest.List(ctx, &metav1.ListOptions{FieldSelector: "status.phase=Terminating"})
	if err != nil {
		t.Fatal(err)
	}
	if items := list.(*core.NamespaceList).Items; len(items) != 1 || items[0].Name != "b" {
		t.Errorf("items = %v", items)
	}
	if _, err := e.rest.List(ctx, &metav1.ListOptions{FieldSelector: "spec.x=y"}); !apierrors.IsBadRequest(err) {
		t.Errorf("unknown field: err = %v, want BadRequest", err)
	}
}
