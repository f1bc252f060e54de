package registry_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	apierrors "github.com/crdlab/crdlab/apis/errors"
	"github.com/crdlab/crdlab/apis/meta/v1/unstructured"
	"github.com/crdlab/crdlab/registry"
	"github.com/crdlab/crdlab/registry/customresource"
	"github.com/crdlab/crdlab/scheme"
	"github.com/crdlab/crdlab/storage/bolt"
)

// Keys: where objects live in storage.
func ExampleNamespaceKeyFunc() {
	prefix := registry.KeyPrefix("stable.example.com", "crontabs")
	ctx := registry.WithNamespace(context.Background(), "default")
	key, _ := registry.NamespaceKeyFunc(ctx, prefix, "my-cron")
	fmt.Println(key)
	_, err := registry.NamespaceKeyFunc(context.Background(), prefix, "my-cron")
	fmt.Println(err)
	// Output:
	// /registry/stable.example.com/crontabs/default/my-cron
	// Namespace parameter required.
}

// The life of an object with a finalizer: delete only marks it; the update
// that removes the last finalizer deletes it.
func ExampleStore_Delete_finalizers() {
	dir, _ := os.MkdirTemp("", "registry-example")
	defer os.RemoveAll(dir)
	db, _ := bolt.Open(filepath.Join(dir, "data.db"), bolt.Options{NoSync: true})
	defer db.Close()

	store := customresource.NewStorage(customresource.Config{
		Backend: db, Resource: scheme.GroupResource{Group: "stable.example.com", Resource: "crontabs"},
		Kind: "CronTab", ListKind: "CronTabList", StorageVersion: "v1", Namespaced: true,
	}).CustomResource
	ctx := registry.WithNamespace(context.Background(), "default")

	cron := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "stable.example.com/v1", "kind": "CronTab",
		"metadata": map[string]any{"name": "nightly", "finalizers": []any{"example.com/backup"}},
	}}
	if _, err := store.Create(ctx, cron, nil, nil); err != nil {
		fmt.Println(err)
		return
	}

	obj, gone, _ := store.Delete(ctx, "nightly", nil, nil)
	fmt.Println("gone:", gone, "being deleted:", obj.(*unstructured.Unstructured).GetDeletionTimestamp() != nil)

	removeFinalizers := registry.UpdatedObjectFunc(func(_ context.Context, old scheme.Object) (scheme.Object, error) {
		u := old.DeepCopyObject().(*unstructured.Unstructured)
		u.SetFinalizers(nil)
		return u, nil
	})
	if _, _, err := store.Update(ctx, "nightly", removeFinalizers, nil, nil, false, nil); err != nil {
		fmt.Println(err)
	}
	_, err := store.Get(ctx, "nightly", nil)
	fmt.Println(apierrors.IsNotFound(err), err)
	// Output:
	// gone: false being deleted: true
	// true crontabs.stable.example.com "nightly" not found
}
