package registrytest

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/crdlab/crdlab/apis/builtin"
	"github.com/crdlab/crdlab/registry"
	"github.com/crdlab/crdlab/scheme"
	"github.com/crdlab/crdlab/storage/bolt"
)

// Options returns StoreOptions on a fresh bbolt file in t.TempDir(),
// storing objects in storageVersion.
func Options(t testing.TB, storageVersion scheme.GroupVersion) (*scheme.Scheme, registry.StoreOptions) {
	t.Helper()
	db, err := bolt.Open(filepath.Join(t.TempDir(), "test.db"), bolt.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	s := scheme.NewScheme()
	builtin.Install(s)
	return s, registry.StoreOptions{Backend: db, Scheme: s, StorageVersion: storageVersion}
}

// Update returns an UpdatedObjectInfo that changes the current object
// with fn.
func Update[T scheme.Object](fn func(T)) registry.UpdatedObjectInfo {
	return registry.UpdatedObjectFunc(func(_ context.Context, old scheme.Object) (scheme.Object, error) {
		obj := old.(T)
		fn(obj)
		return obj, nil
	})
}

// Replace returns an UpdatedObjectInfo that puts obj in place of the
// current object, as a PUT does.
func Replace(obj scheme.Object) registry.UpdatedObjectInfo {
	return registry.UpdatedObjectFunc(func(context.Context, scheme.Object) (scheme.Object, error) {
		return obj.DeepCopyObject(), nil
	})
}
