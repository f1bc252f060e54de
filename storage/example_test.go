package storage_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	metav1 "github.com/crdlab/crdlab/apis/meta/v1"
	"github.com/crdlab/crdlab/apis/meta/v1/unstructured"
	"github.com/crdlab/crdlab/storage"
	"github.com/crdlab/crdlab/storage/bolt"
)

// Example shows the store's life in a few writes: every write gets the
// next revision as its resourceVersion, history stays readable, and a
// watch replays what happened after a revision.
func Example() {
	dir, _ := os.MkdirTemp("", "crdlab-storage-example")
	defer os.RemoveAll(dir)
	db, err := bolt.Open(filepath.Join(dir, "crdlab.db"), bolt.Options{})
	if err != nil {
		panic(err)
	}
	defer db.Close()

	prefix := storage.ResourcePrefix("stable.example.com", "crontabs")
	crontabs := db.ForResource(storage.ResourceConfig{
		Prefix:  prefix,
		NewFunc: func() storage.Object { return &unstructured.Unstructured{} },
		Codec:   storage.JSONCodec{},
	})
	ctx := context.Background()
	key := storage.ObjectKey(prefix, "default", "my-cron")

	obj := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "stable.example.com/v1", "kind": "CronTab",
		"metadata": map[string]any{"name": "my-cron", "namespace": "default"},
		"spec":     map[string]any{"cronSpec": "* * * * */5"},
	}}
	out := &unstructured.Unstructured{}
	if err := crontabs.Create(ctx, key, obj, out); err != nil {
		panic(err)
	}
	fmt.Println("created", key, "at resourceVersion", out.GetResourceVersion())

	err = crontabs.Create(ctx, key, obj, &unstructured.Unstructured{})
	fmt.Println("create again:", errors.Is(err, storage.ErrAlreadyExists))

	err = crontabs.GuaranteedUpdate(ctx, key, out, false, nil, func(cur storage.Object) (storage.Object, error) {
		u := cur.(*unstructured.Unstructured)
		return u, unstructured.SetNestedField(u.Object, "*/1 * * * *", "spec", "cronSpec")
	})
	if err != nil {
		panic(err)
	}
	fmt.Println("updated at resourceVersion", out.GetResourceVersion())

	old, _ := crontabs.GetList(ctx, prefix, storage.ListOptions{Recursive: true,
		ResourceVersion: "1", ResourceVersionMatch: metav1.ResourceVersionMatchExact})
	spec, _, _ := unstructured.NestedString(old.Items[0].(*unstructured.Unstructured).Object, "spec", "cronSpec")
	fmt.Println("at resourceVersion 1 the spec was", spec)

	w, _ := crontabs.Watch(ctx, prefix, storage.ListOptions{Recursive: true, ResourceVersion: "1"})
	defer w.Stop()
	ev := <-w.ResultChan()
	fmt.Println("watch from 1:", ev.Type, ev.Object.(storage.Object).GetResourceVersion())

	// Output:
	// created /registry/stable.example.com/crontabs/default/my-cron at resourceVersion 1
	// create again: true
	// updated at resourceVersion 2
	// at resourceVersion 1 the spec was * * * * */5
	// watch from 1: MODIFIED 2
}
