package registry_test

import (
	"context"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	apierrors "github.com/crdlab/crdlab/apis/errors"
	metav1 "github.com/crdlab/crdlab/apis/meta/v1"
	"github.com/crdlab/crdlab/apis/meta/v1/unstructured"
	"github.com/crdlab/crdlab/apis/validation/field"
	"github.com/crdlab/crdlab/registry"
	"github.com/crdlab/crdlab/scheme"
	"github.com/crdlab/crdlab/storage"
	"github.com/crdlab/crdlab/storage/bolt"
)

// widgetGVK is the kind of the test resource: namespaced widgets in
// test.example.com/v1, held as Unstructured.
var (
	widgetGVK = scheme.GroupVersionKind{Group: "test.example.com", Version: "v1", Kind: "Widget"}
	widgetGR  = scheme.GroupResource{Group: "test.example.com", Resource: "widgets"}
)

// widgetStrategy is a small strategy: status is dropped on create and kept
// on update, generation counts spec changes, spec.size must not be
// negative.
type widgetStrategy struct {
	registry.SimpleNameGenerator
	createOnUpdate bool
	unconditional  bool
}

func (widgetStrategy) ObjectKinds(scheme.Object) ([]scheme.GroupVersionKind, error) {
	return []scheme.GroupVersionKind{widgetGVK}, nil
}
func (widgetStrategy) NamespaceScoped() bool { return true }
func (widgetStrategy) PrepareForCreate(_ context.Context, obj scheme.Object) {
	u := obj.(*unstructured.Unstructured)
	delete(u.Object, "status")
	u.SetGeneration(1)
}
func (widgetStrategy) PrepareForUpdate(_ context.Context, obj, old scheme.Object) {
	n, o := obj.(*unstructured.Unstructured), old.(*unstructured.Unstructured)
	if st, ok := o.Object["status"]; ok {
		n.Object["status"] = st
	} else {
		delete(n.Object, "status")
	}
	ns, _, _ := unstructured.NestedFieldCopy(n.Object, "spec")
	os, _, _ := unstructured.NestedFieldCopy(o.Object, "spec")
	if !equalJSON(ns, os) {
		n.SetGeneration(o.GetGeneration() + 1)
	}
}
func (widgetStrategy) Validate(_ context.Context, obj scheme.Object) field.ErrorList {
	return validateWidget(obj.(*unstructured.Unstructured))
}
func (widgetStrategy) ValidateUpdate(_ context.Context, obj, _ scheme.Object) field.ErrorList {
	return validateWidget(obj.(*unstructured.Unstructured))
}
func (widgetStrategy) WarningsOnCreate(context.Context, scheme.Object) []string {
	return []string{"widgets are fun"}
}
func (widgetStrategy) WarningsOnUpdate(context.Context, scheme.Object, scheme.Object) []string {
	return nil
}
func (widgetStrategy) Canonicalize(scheme.Object)       {}
func (s widgetStrategy) AllowCreateOnUpdate() bool      { return s.createOnUpdate }
func (s widgetStrategy) AllowUnconditionalUpdate() bool { return s.unconditional }

func validateWidget(u *unstructured.Unstructured) field.ErrorList {
	if size, ok, _ := unstructured.NestedInt64(u.Object, "spec", "size"); ok && size < 0 {
		return field.ErrorList{field.Invalid(field.NewPath("spec", "size"), size, "must be greater than or equal to 0")}
	}
	return nil
}

func equalJSON(a, b any) bool { return reflect.DeepEqual(a, b) }

// testClock is the fixed time of the tests' stores.
var testClock = time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)

// openDB opens a storage in a temporary directory, closed at the end of
// the test.
func openDB(t testing.TB) *bolt.DB {
	t.Helper()
	db, err := bolt.Open(filepath.Join(t.TempDir(), "test.db"), bolt.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// newWidgetStore returns a Store of widgets on db.
func newWidgetStore(t testing.TB, db storage.Backend, st widgetStrategy) *registry.Store {
	t.Helper()
	prefix := registry.KeyPrefix(widgetGR.Group, widgetGR.Resource)
	newFunc := func() storage.Object { return &unstructured.Unstructured{} }
	root, key := registry.DefaultKeyFuncs(prefix, true)
	return &registry.Store{
		NewFunc: newFunc,
		NewListFunc: func() scheme.Object {
			return &unstructured.UnstructuredList{Object: map[string]any{"apiVersion": "test.example.com/v1", "kind": "WidgetList"}}
		},
		DefaultQualifiedResource: widgetGR,
		KeyRootFunc:              root,
		KeyFunc:                  key,
		CreateStrategy:           st,
		UpdateStrategy:           st,
		DeleteStrategy:           st,
		Storage: db.ForResource(storage.ResourceConfig{
			Prefix: prefix, NewFunc: newFunc, Codec: storage.JSONCodec{},
		}),
		Clock: func() time.Time { return testClock },
	}
}

// widget returns a new widget object.
func widget(ns, name string, size int64) *unstructured.Unstructured {
	u := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "test.example.com/v1",
		"kind":       "Widget",
		"metadata":   map[string]any{"name": name},
		"spec":       map[string]any{"size": size},
	}}
	if ns != "" {
		u.SetNamespace(ns)
	}
	return u
}

func nsCtx(ns string) context.Context { return registry.WithNamespace(context.Background(), ns) }

// mustCreate creates obj in namespace ns.
func mustCreate(t testing.TB, s *registry.Store, ns string, obj scheme.Object) *unstructured.Unstructured {
	t.Helper()
	out, err := s.Create(nsCtx(ns), obj, nil, &metav1.CreateOptions{})
	if err != nil {
		t.Fatalf("create: %v", err)
	}
	return out.(*unstructured.Unstructured)
}

// mustGet reads name in namespace ns.
func mustGet(t *testing.T, s *registry.Store, ns, name string) *unstructured.Unstructured {
	t.Helper()
	out, err := s.Get(nsCtx(ns), name, &metav1.GetOptions{})
	if err != nil {
		t.Fatalf("get %s/%s: %v", ns, name, err)
	}
	return out.(*unstructured.Unstructured)
}

// put returns an UpdatedObjectInfo that replaces the object with obj.
func put(obj scheme.Object) registry.UpdatedObjectInfo {
	return registry.UpdatedObjectFunc(func(context.Context, scheme.Object) (scheme.Object, error) {
		return obj.DeepCopyObject(), nil
	})
}

// mutate returns an UpdatedObjectInfo that changes the stored object.
func mutate(fn func(u *unstructured.Unstructured)) registry.UpdatedObjectInfo {
	return registry.UpdatedObjectFunc(func(_ context.Context, old scheme.Object) (scheme.Object, error) {
		u := old.DeepCopyObject().(*unstructured.Unstructured)
		fn(u)
		return u, nil
	})
}

// wantReason fails unless err is an API error with the reason and code.
func wantReason(t *testing.T, err error, reason metav1.StatusReason, code int32) *apierrors.StatusError {
	t.Helper()
	if err == nil {
		t.Fatalf("want %s error, got nil", reason)
	}
	se, ok := err.(*apierrors.StatusError)
	if !ok {
		t.Fatalf("want *StatusError, got %T: %v", err, err)
	}
	if se.ErrStatus.Reason != reason || se.ErrStatus.Code != code {
		t.Fatalf("want %s/%d, got %s/%d: %s", reason, code, se.ErrStatus.Reason, se.ErrStatus.Code, se.ErrStatus.Message)
	}
	return se
}
