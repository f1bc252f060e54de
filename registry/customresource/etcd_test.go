package customresource_test

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	autoscalingv1 "github.com/crdlab/crdlab/apis/autoscaling/v1"
	apierrors "github.com/crdlab/crdlab/apis/errors"
	metav1 "github.com/crdlab/crdlab/apis/meta/v1"
	"github.com/crdlab/crdlab/apis/meta/v1/unstructured"
	"github.com/crdlab/crdlab/registry"
	"github.com/crdlab/crdlab/registry/customresource"
	"github.com/crdlab/crdlab/scheme"
	"github.com/crdlab/crdlab/storage/bolt"
)

var crontabs = scheme.GroupResource{Group: "stable.example.com", Resource: "crontabs"}

func openDB(t *testing.T) *bolt.DB {
	t.Helper()
	db, err := bolt.Open(filepath.Join(t.TempDir(), "test.db"), bolt.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// newStorage returns the storage of crontabs (stored in v1), with the
// subresources asked for and a validator that wants spec.cronSpec to be
// a string.
func newStorage(t *testing.T, hasStatus, scale bool) customresource.CustomResourceStorage {
	t.Helper()
	cfg := customresource.Config{
		Backend:        openDB(t),
		Resource:       crontabs,
		Kind:           "CronTab",
		ListKind:       "CronTabList",
		StorageVersion: "v1",
		Namespaced:     true,
		HasStatus:      hasStatus,
		Validator: func(_ context.Context, u *unstructured.Unstructured) []metav1.StatusCause {
			if v, ok := u.Object["spec"].(map[string]any)["cronSpec"]; ok {
				if _, isString := v.(string); !isString {
					return []metav1.StatusCause{{Type: metav1.CauseTypeFieldValueTypeInvalid, Field: "spec.cronSpec",
						Message: fmt.Sprintf("Invalid value: %q: spec.cronSpec in body must be of type string: %q", fmt.Sprint(v), fmt.Sprintf("%T", v))}}
				}
			}
			return nil
		},
		SelectableFields: []string{".spec.color"},
	}
	if scale {
		cfg.Scale = &customresource.ScaleConfig{SpecReplicasPath: ".spec.replicas", StatusReplicasPath: ".status.replicas", LabelSelectorPath: ".status.labelSelector"}
	}
	return customresource.NewStorage(cfg)
}

func crontab(name string, spec map[string]any) *unstructured.Unstructured {
	return &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "stable.example.com/v1",
		"kind":       "CronTab",
		"metadata":   map[string]any{"name": name},
		"spec":       spec,
	}}
}

func ctx() context.Context { return registry.WithNamespace(context.Background(), "default") }

func create(t *testing.T, s *registry.Store, obj *unstructured.Unstructured) *unstructured.Unstructured {
	t.Helper()
	out, err := s.Create(ctx(), obj, nil, nil)
	if err != nil {
		t.Fatalf("create: %v", err)
	}
	return out.(*unstructured.Unstructured)
}

func update(t *testing.T, u registry.Updater, name string, fn func(u *unstructured.Unstructured)) (*unstructured.Unstructured, error) {
	t.Helper()
	out, _, err := u.Update(ctx(), name, registry.UpdatedObjectFunc(func(_ context.Context, old scheme.Object) (scheme.Object, error) {
		n := old.DeepCopyObject().(*unstructured.Unstructured)
		fn(n)
		return n, nil
	}), nil, nil, false, nil)
	if err != nil {
		return nil, err
	}
	return out.(*unstructured.Unstructured), nil
}

func reason(err error) metav1.StatusReason { return apierrors.ReasonForError(err) }

func TestNewStorage_Create(t *testing.T) {
	t.Run("OK", func(t *testing.T) {
		s := newStorage(t, true, false).CustomResource
		in := crontab("a", map[string]any{"cronSpec": "* * * * */5"})
		in.Object["status"] = map[string]any{"phase": "Done"}
		out := create(t, s, in)
		if out.GetGeneration() != 1 {
			t.Errorf("generation %d", out.GetGeneration())
		}
		if _, ok := out.Object["status"]; ok {
			t.Error("status written through the main endpoint with the status subresource on")
		}
	})
	t.Run("StatusWithoutSubresource", func(t *testing.T) {
		s := newStorage(t, false, false).CustomResource
		in := crontab("a", map[string]any{})
		in.Object["status"] = map[string]any{"phase": "Done"}
		if out := create(t, s, in); out.Object["status"] == nil {
			t.Error("status dropped although there is no status subresource")
		}
	})
	t.Run("ErrSchema", func(t *testing.T) {
		s := newStorage(t, true, false).CustomResource
		_, err := s.Create(ctx(), crontab("a", map[string]any{"cronSpec": int64(5)}), nil, nil)
		if reason(err) != metav1.StatusReasonInvalid {
			t.Fatalf("err %v", err)
		}
		st := err.(*apierrors.StatusError).ErrStatus
		if st.Details.Kind != "CronTab" || st.Details.Group != "stable.example.com" || st.Details.Causes[0].Field != "spec.cronSpec" {
			t.Errorf("details %+v", st.Details)
		}
		if !strings.HasPrefix(st.Message, `CronTab.stable.example.com "a" is invalid: spec.cronSpec: Invalid value:`) {
			t.Errorf("message %q", st.Message)
		}
	})
	t.Run("ErrName", func(t *testing.T) {
		s := newStorage(t, true, false).CustomResource
		_, err := s.Create(ctx(), crontab("Not_A_DNS_Name", map[string]any{}), nil, nil)
		if reason(err) != metav1.StatusReasonInvalid || !strings.Contains(err.Error(), "metadata.name: Invalid value: \"Not_A_DNS_Name\": a lowercase RFC 1123 subdomain") {
			t.Fatalf("err %v", err)
		}
	})
	t.Run("ErrLabels", func(t *testing.T) {
		s := newStorage(t, true, false).CustomResource
		in := crontab("a", map[string]any{})
		in.SetLabels(map[string]string{"bad key!": "v"})
		_, err := s.Create(ctx(), in, nil, nil)
		if reason(err) != metav1.StatusReasonInvalid || !strings.Contains(err.Error(), "metadata.labels") {
			t.Fatalf("err %v", err)
		}
	})
	t.Run("ErrKind", func(t *testing.T) {
		s := newStorage(t, true, false).CustomResource
		in := crontab("a", map[string]any{})
		in.SetAPIVersion("stable.example.com/v2")
		in.SetKind("CronJob")
		_, err := s.Create(ctx(), in, nil, nil)
		if reason(err) != metav1.StatusReasonInvalid ||
			!strings.Contains(err.Error(), `kind: Invalid value: "CronJob": must be CronTab`) ||
			!strings.Contains(err.Error(), `apiVersion: Invalid value: "stable.example.com/v2": must be stable.example.com/v1`) {
			t.Fatalf("err %v", err)
		}
	})
}

func TestNewStorage_Generation(t *testing.T) {
	tests := []struct {
		name      string
		hasStatus bool
		change    func(u *unstructured.Unstructured)
		want      int64
	}{
		{"Spec", true, func(u *unstructured.Unstructured) { u.Object["spec"] = map[string]any{"cronSpec": "new"} }, 2},
		{"Labels", true, func(u *unstructured.Unstructured) { u.SetLabels(map[string]string{"a": "b"}) }, 1},
		{"Annotations", false, func(u *unstructured.Unstructured) { u.SetAnnotations(map[string]string{"a": "b"}) }, 1},
		{"TopLevelField", true, func(u *unstructured.Unstructured) { u.Object["data"] = "x" }, 2},
		{"StatusWithSubresource", true, func(u *unstructured.Unstructured) { u.Object["status"] = map[string]any{"phase": "x"} }, 1},
		// Without the subresource, status is like any other field (upstream).
		{"StatusWithoutSubresource", false, func(u *unstructured.Unstructured) { u.Object["status"] = map[string]any{"phase": "x"} }, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newStorage(t, tt.hasStatus, false).CustomResource
			create(t, s, crontab("a", map[string]any{"cronSpec": "old"}))
			out, err := update(t, s, "a", tt.change)
			if err != nil {
				t.Fatal(err)
			}
			if out.GetGeneration() != tt.want {
				t.Errorf("generation %d, want %d", out.GetGeneration(), tt.want)
			}
		})
	}
}

func TestNewStorage_StatusSplit(t *testing.T) {
	st := newStorage(t, true, false)
	created := create(t, st.CustomResource, crontab("a", map[string]any{"cronSpec": "old"}))

	t.Run("MainIgnoresStatus", func(t *testing.T) {
		out, err := update(t, st.CustomResource, "a", func(u *unstructured.Unstructured) {
			u.Object["status"] = map[string]any{"phase": "Hacked"}
		})
		if err != nil {
			t.Fatal(err)
		}
		if _, ok := out.Object["status"]; ok {
			t.Error("main endpoint wrote status")
		}
	})
	t.Run("StatusIgnoresTheRest", func(t *testing.T) {
		out, err := update(t, st.Status, "a", func(u *unstructured.Unstructured) {
			u.Object["status"] = map[string]any{"phase": "Running"}
			u.Object["spec"] = map[string]any{"cronSpec": "changed"}
			u.SetLabels(map[string]string{"sneaky": "yes"})
		})
		if err != nil {
			t.Fatal(err)
		}
		if phase, _, _ := unstructured.NestedString(out.Object, "status", "phase"); phase != "Running" {
			t.Errorf("status.phase %q", phase)
		}
		if cs, _, _ := unstructured.NestedString(out.Object, "spec", "cronSpec"); cs != "old" {
			t.Errorf("spec.cronSpec %q changed through /status", cs)
		}
		if len(out.GetLabels()) != 0 {
			t.Errorf("labels %v changed through /status", out.GetLabels())
		}
		if out.GetGeneration() != created.GetGeneration() {
			t.Errorf("generation %d changed through /status", out.GetGeneration())
		}
	})
	t.Run("MainKeepsStatus", func(t *testing.T) {
		out, err := update(t, st.CustomResource, "a", func(u *unstructured.Unstructured) {
			delete(u.Object, "status")
			u.Object["spec"] = map[string]any{"cronSpec": "newer"}
		})
		if err != nil {
			t.Fatal(err)
		}
		if phase, _, _ := unstructured.NestedString(out.Object, "status", "phase"); phase != "Running" {
			t.Errorf("status.phase %q: the main endpoint dropped status", phase)
		}
	})
	t.Run("StatusGet", func(t *testing.T) {
		got, err := st.Status.Get(ctx(), "a", nil)
		if err != nil || got.(*unstructured.Unstructured).GetName() != "a" {
			t.Fatalf("got %v err %v", got, err)
		}
	})
	t.Run("ErrStatusConflict", func(t *testing.T) {
		stale := created.DeepCopy()
		stale.Object["status"] = map[string]any{"phase": "Stale"}
		_, _, err := st.Status.Update(ctx(), "a", registry.DefaultUpdatedObjectInfo(stale), nil, nil, false, nil)
		if reason(err) != metav1.StatusReasonConflict {
			t.Fatalf("err %v", err)
		}
	})
	t.Run("ErrStatusNotFound", func(t *testing.T) {
		_, err := update(t, st.Status, "nope", func(*unstructured.Unstructured) {})
		if reason(err) != metav1.StatusReasonNotFound {
			t.Fatalf("err %v", err)
		}
	})
	t.Run("StatusNeverCreates", func(t *testing.T) {
		_, _, err := st.Status.Update(ctx(), "new", registry.DefaultUpdatedObjectInfo(crontab("new", map[string]any{})), nil, nil, true, nil)
		if reason(err) != metav1.StatusReasonNotFound {
			t.Fatalf("err %v", err)
		}
	})
}

func TestNewStorage_Scale(t *testing.T) {
	st := newStorage(t, true, true)
	in := crontab("a", map[string]any{"replicas": int64(2)})
	create(t, st.CustomResource, in)
	if _, err := update(t, st.Status, "a", func(u *unstructured.Unstructured) {
		u.Object["status"] = map[string]any{"replicas": int64(1), "labelSelector": "app=cron"}
	}); err != nil {
		t.Fatal(err)
	}

	t.Run("Get", func(t *testing.T) {
		obj, err := st.Scale.Get(ctx(), "a", nil)
		if err != nil {
			t.Fatal(err)
		}
		sc := obj.(*autoscalingv1.Scale)
		if sc.Spec.Replicas != 2 || sc.Status.Replicas != 1 || sc.Status.Selector != "app=cron" || sc.APIVersion != "autoscaling/v1" || sc.Kind != "Scale" {
			t.Errorf("scale %+v", sc)
		}
	})
	t.Run("Update", func(t *testing.T) {
		out, _, err := st.Scale.Update(ctx(), "a", registry.UpdatedObjectFunc(func(_ context.Context, old scheme.Object) (scheme.Object, error) {
			sc := old.DeepCopyObject().(*autoscalingv1.Scale)
			sc.Spec.Replicas = 5
			sc.ResourceVersion = "" // unconditional
			return sc, nil
		}), nil, nil, false, nil)
		if err != nil {
			t.Fatal(err)
		}
		if out.(*autoscalingv1.Scale).Spec.Replicas != 5 {
			t.Errorf("scale %+v", out)
		}
		cr, _ := st.CustomResource.Get(ctx(), "a", nil)
		u := cr.(*unstructured.Unstructured)
		if r, _, _ := unstructured.NestedInt64(u.Object, "spec", "replicas"); r != 5 {
			t.Errorf("spec.replicas %d", r)
		}
		if u.GetGeneration() != 2 {
			t.Errorf("generation %d, want 2", u.GetGeneration())
		}
	})
	t.Run("ErrConflict", func(t *testing.T) {
		_, _, err := st.Scale.Update(ctx(), "a", registry.DefaultUpdatedObjectInfo(&autoscalingv1.Scale{
			ObjectMeta: metav1.ObjectMeta{Name: "a", Namespace: "default", ResourceVersion: "1"},
			Spec:       autoscalingv1.ScaleSpec{Replicas: 3},
		}), nil, nil, false, nil)
		if reason(err) != metav1.StatusReasonConflict {
			t.Fatalf("err %v", err)
		}
	})
	t.Run("ErrNegativeReplicas", func(t *testing.T) {
		_, _, err := st.Scale.Update(ctx(), "a", registry.UpdatedObjectFunc(func(_ context.Context, old scheme.Object) (scheme.Object, error) {
			sc := old.DeepCopyObject().(*autoscalingv1.Scale)
			sc.Spec.Replicas = -1
			return sc, nil
		}), nil, nil, false, nil)
		if reason(err) != metav1.StatusReasonInvalid || !strings.Contains(err.Error(), ".spec.replicas: Invalid value: -1: should be a non-negative integer") {
			t.Fatalf("err %v", err)
		}
	})
	t.Run("ErrNoSpecReplicas", func(t *testing.T) {
		create(t, st.CustomResource, crontab("empty", map[string]any{}))
		_, err := st.Scale.Get(ctx(), "empty", nil)
		if reason(err) != metav1.StatusReasonInternalError || !strings.Contains(err.Error(), `the spec replicas field ".spec.replicas" does not exist`) {
			t.Fatalf("err %v", err)
		}
		_, _, err = st.Scale.Update(ctx(), "empty", registry.UpdatedObjectFunc(func(_ context.Context, old scheme.Object) (scheme.Object, error) {
			return old, nil
		}), nil, nil, false, nil)
		if reason(err) != metav1.StatusReasonBadRequest {
			t.Fatalf("err %v", err)
		}
	})
	t.Run("ErrNotFound", func(t *testing.T) {
		_, err := st.Scale.Get(ctx(), "nope", nil)
		if reason(err) != metav1.StatusReasonNotFound {
			t.Fatalf("err %v", err)
		}
	})
}

func TestNewStorage_SelectableFields(t *testing.T) {
	s := newStorage(t, true, false).CustomResource
	create(t, s, crontab("red", map[string]any{"color": "red"}))
	create(t, s, crontab("blue", map[string]any{"color": "blue"}))

	out, err := s.List(ctx(), &metav1.ListOptions{FieldSelector: "spec.color=blue"})
	if err != nil {
		t.Fatal(err)
	}
	if items := out.(*unstructured.UnstructuredList).Items; len(items) != 1 || items[0].GetName() != "blue" {
		t.Errorf("items %v", items)
	}
	if list := out.(*unstructured.UnstructuredList); list.GroupVersionKind().Kind != "CronTabList" {
		t.Errorf("list kind %v", list.GroupVersionKind())
	}
	_, err = s.List(ctx(), &metav1.ListOptions{FieldSelector: "spec.size=3"})
	if reason(err) != metav1.StatusReasonBadRequest || err.Error() != "field label not supported: spec.size" {
		t.Fatalf("err %v", err)
	}
	if _, err := s.List(ctx(), &metav1.ListOptions{FieldSelector: "metadata.namespace=default,metadata.name=red"}); err != nil {
		t.Fatal(err)
	}
}

func TestNewStorage_ClusterScoped(t *testing.T) {
	s := customresource.NewStorage(customresource.Config{
		Backend: openDB(t), Resource: scheme.GroupResource{Group: "stable.example.com", Resource: "clusters"},
		Kind: "Cluster", ListKind: "ClusterList", StorageVersion: "v1",
	}).CustomResource
	in := &unstructured.Unstructured{Object: map[string]any{"apiVersion": "stable.example.com/v1", "kind": "Cluster", "metadata": map[string]any{"name": "c"}}}
	out, err := s.Create(context.Background(), in, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if out.(*unstructured.Unstructured).GetNamespace() != "" {
		t.Error("cluster-scoped object got a namespace")
	}
	_, err = s.List(context.Background(), &metav1.ListOptions{FieldSelector: "metadata.namespace=x"})
	if reason(err) != metav1.StatusReasonBadRequest {
		t.Fatalf("err %v: metadata.namespace is not selectable on cluster-scoped resources", err)
	}
}
