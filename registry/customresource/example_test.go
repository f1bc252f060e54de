package customresource_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/crdlab/crdlab/apis/meta/v1/unstructured"
	"github.com/crdlab/crdlab/registry"
	"github.com/crdlab/crdlab/registry/customresource"
	"github.com/crdlab/crdlab/scheme"
	"github.com/crdlab/crdlab/storage/bolt"
)

// The status subresource splits writes: the main endpoint cannot change
// .status, /status can change nothing else; only spec changes move
// generation.
func ExampleNewStorage() {
	dir, _ := os.MkdirTemp("", "customresource-example")
	defer os.RemoveAll(dir)
	db, _ := bolt.Open(filepath.Join(dir, "data.db"), bolt.Options{NoSync: true})
	defer db.Close()

	crontabs := customresource.NewStorage(customresource.Config{
		Backend:        db,
		Resource:       scheme.GroupResource{Group: "stable.example.com", Resource: "crontabs"},
		Kind:           "CronTab",
		ListKind:       "CronTabList",
		StorageVersion: "v1",
		Namespaced:     true,
		HasStatus:      true,
	})
	ctx := registry.WithNamespace(context.Background(), "default")
	edit := func(fn func(u *unstructured.Unstructured)) registry.UpdatedObjectInfo {
		return registry.UpdatedObjectFunc(func(_ context.Context, old scheme.Object) (scheme.Object, error) {
			u := old.DeepCopyObject().(*unstructured.Unstructured)
			fn(u)
			return u, nil
		})
	}
	show := func(step string, obj scheme.Object) {
		u := obj.(*unstructured.Unstructured)
		spec, _, _ := unstructured.NestedString(u.Object, "spec", "cronSpec")
		phase, _, _ := unstructured.NestedString(u.Object, "status", "phase")
		fmt.Printf("%-14s generation=%d cronSpec=%q phase=%q\n", step, u.GetGeneration(), spec, phase)
	}

	obj, _ := crontabs.CustomResource.Create(ctx, &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "stable.example.com/v1", "kind": "CronTab",
		"metadata": map[string]any{"name": "nightly"},
		"spec":     map[string]any{"cronSpec": "0 3 * * *"},
		"status":   map[string]any{"phase": "ignored"},
	}}, nil, nil)
	show("create", obj)

	obj, _, _ = crontabs.Status.Update(ctx, "nightly", edit(func(u *unstructured.Unstructured) {
		u.Object["status"] = map[string]any{"phase": "Scheduled"}
		u.Object["spec"] = map[string]any{"cronSpec": "ignored"}
	}), nil, nil, false, nil)
	show("update status", obj)

	obj, _, _ = crontabs.CustomResource.Update(ctx, "nightly", edit(func(u *unstructured.Unstructured) {
		u.Object["spec"] = map[string]any{"cronSpec": "0 4 * * *"}
		delete(u.Object, "status")
	}), nil, nil, false, nil)
	show("update spec", obj)
	// Output:
	// create         generation=1 cronSpec="0 3 * * *" phase=""
	// update status  generation=1 cronSpec="0 3 * * *" phase="Scheduled"
	// update spec    generation=2 cronSpec="0 4 * * *" phase="Scheduled"
}
