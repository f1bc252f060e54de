// Command 03-store walks through crdlab's store in numbered steps: the
// revision counter that becomes every object's resourceVersion, the
// conditional writes kube-apiserver builds on (create if absent,
// read-modify-write with preconditions), consistent paginated lists,
// reads of history, compaction and a restart.
//
//	go run ./examples/03-store
//
// Mirrors what kube-apiserver's etcd3 store asks of etcd for every request
// (k8s.io/apiserver/pkg/storage/etcd3/store.go), with the store in one
// bbolt file in a temporary directory instead of an etcd cluster: the
// contract is package storage, the engine package storage/bolt.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	metav1 "github.com/crdlab/crdlab/apis/meta/v1"
	"github.com/crdlab/crdlab/apis/meta/v1/unstructured"
	"github.com/crdlab/crdlab/storage"
	"github.com/crdlab/crdlab/storage/bolt"
)

func main() {
	dir, err := os.MkdirTemp("", "crdlab-03-store")
	if err != nil {
		fmt.Fprintln(os.Stderr, "error:", err)
		os.Exit(1)
	}
	defer os.RemoveAll(dir)
	if err := run(os.Stdout, dir); err != nil {
		fmt.Fprintln(os.Stderr, "error:", err)
		os.Exit(1)
	}
}

// crontab returns a CronTab custom resource, as a map: crdlab (like
// kube-apiserver) has no Go type for custom resources.
func crontab(name, spec string) *unstructured.Unstructured {
	return &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "stable.example.com/v1",
		"kind":       "CronTab",
		"metadata":   map[string]any{"name": name, "namespace": "default", "uid": "uid-" + name},
		"spec":       map[string]any{"cronSpec": spec},
	}}
}

func cronSpec(obj storage.Object) string {
	s, _, _ := unstructured.NestedString(obj.(*unstructured.Unstructured).Object, "spec", "cronSpec")
	return s
}

func run(w io.Writer, dir string) error {
	step := 0
	say := func(format string, args ...any) {
		step++
		fmt.Fprintf(w, "%d. "+format+"\n", append([]any{step}, args...)...)
	}
	ctx := context.Background()
	path := filepath.Join(dir, "crdlab.db")

	// One data file holds every resource; each resource gets a store: a
	// view under its key prefix, with its codec.
	db, err := bolt.Open(path, bolt.Options{})
	if err != nil {
		return err
	}
	defer func() { db.Close() }()
	prefix := storage.ResourcePrefix("stable.example.com", "crontabs")
	cfg := storage.ResourceConfig{
		Prefix:  prefix,
		NewFunc: func() storage.Object { return &unstructured.Unstructured{} },
		Codec:   storage.JSONCodec{},
	}
	crontabs := db.ForResource(cfg)
	rev, _ := db.CurrentRevision(ctx)
	say("opened a new data file %s: revision %d, keys under %s/", filepath.Base(path), rev, prefix)

	// Every write gets the next revision of the whole file, and that
	// number is the object's resourceVersion.
	key := storage.ObjectKey(prefix, "default", "my-cron")
	out := &unstructured.Unstructured{}
	if err := crontabs.Create(ctx, key, crontab("my-cron", "* * * * */5"), out); err != nil {
		return err
	}
	say("created %s: resourceVersion %s", key, out.GetResourceVersion())
	if err := crontabs.Create(ctx, storage.ObjectKey(prefix, "default", "other"), crontab("other", "@daily"), out); err != nil {
		return err
	}
	say("created default/other: resourceVersion %s", out.GetResourceVersion())

	// Create succeeds only if the key is free (etcd: If(ModRevision(key) == 0)).
	err = crontabs.Create(ctx, key, crontab("my-cron", "again"), out)
	say("created my-cron again: AlreadyExists=%v (%v)", errors.Is(err, storage.ErrAlreadyExists), err)

	// GuaranteedUpdate is read-modify-write: the function sees the current
	// object; the write happens only if nobody wrote in between, else it
	// runs again on the new state.
	var seen string
	err = crontabs.GuaranteedUpdate(ctx, key, out, false, nil, func(cur storage.Object) (storage.Object, error) {
		seen = cur.GetResourceVersion()
		u := cur.(*unstructured.Unstructured)
		return u, unstructured.SetNestedField(u.Object, "*/10 * * * *", "spec", "cronSpec")
	})
	if err != nil {
		return err
	}
	say("updated my-cron (the update function saw resourceVersion %s): resourceVersion %s, cronSpec %q",
		seen, out.GetResourceVersion(), cronSpec(out))

	// A client that sends the resourceVersion it read gets a Conflict if
	// the object changed since: optimistic concurrency.
	stale := "1"
	err = crontabs.GuaranteedUpdate(ctx, key, out, false, &storage.Preconditions{ResourceVersion: &stale},
		func(cur storage.Object) (storage.Object, error) { return cur, nil })
	say("updated with the stale resourceVersion 1: Conflict=%v", errors.Is(err, storage.ErrConflict))

	// An update that changes nothing writes nothing.
	if err := crontabs.GuaranteedUpdate(ctx, key, out, false, nil,
		func(cur storage.Object) (storage.Object, error) { return cur, nil }); err != nil {
		return err
	}
	rev, _ = db.CurrentRevision(ctx)
	say("a no-op update: still resourceVersion %s, revision %d", out.GetResourceVersion(), rev)

	// A list is read at one revision; its continue token carries that
	// revision, so later pages ignore writes made in between.
	page, err := crontabs.GetList(ctx, prefix, storage.ListOptions{Recursive: true, Predicate: storage.SelectionPredicate{Limit: 1}})
	if err != nil {
		return err
	}
	say("list with limit 1: %v at revision %d, continue token %s", names(page.Items), page.ResourceVersion, page.Continue)
	if err := crontabs.Create(ctx, storage.ObjectKey(prefix, "default", "third"), crontab("third", "@hourly"), out); err != nil {
		return err
	}
	say("created default/third between the pages: resourceVersion %s", out.GetResourceVersion())
	page, err = crontabs.GetList(ctx, prefix, storage.ListOptions{Recursive: true,
		Predicate: storage.SelectionPredicate{Limit: 1, Continue: page.Continue}})
	if err != nil {
		return err
	}
	say("next page: %v, still at revision %d, continue %q: third is not in this list", names(page.Items), page.ResourceVersion, page.Continue)

	// History: the state at any revision not yet compacted.
	old, err := crontabs.GetList(ctx, prefix, storage.ListOptions{Recursive: true,
		ResourceVersion: "1", ResourceVersionMatch: metav1.ResourceVersionMatchExact})
	if err != nil {
		return err
	}
	say("list at exactly resourceVersion 1: %v, my-cron's cronSpec was %q", names(old.Items), cronSpec(old.Items[0]))

	// Delete returns the last state, at the delete's revision.
	if err := crontabs.Delete(ctx, storage.ObjectKey(prefix, "default", "other"), out, nil, nil); err != nil {
		return err
	}
	say("deleted default/other at resourceVersion %s (its last cronSpec %q)", out.GetResourceVersion(), cronSpec(out))

	// Compaction forgets history before a revision: older reads answer
	// 410 Expired, never a partial answer.
	if err := db.Compact(ctx, 4); err != nil {
		return err
	}
	_, err = crontabs.GetList(ctx, prefix, storage.ListOptions{Recursive: true,
		ResourceVersion: "3", ResourceVersionMatch: metav1.ResourceVersionMatchExact})
	var serr *storage.Error
	if !errors.As(err, &serr) {
		return fmt.Errorf("expected a storage error, got %v", err)
	}
	say("compacted at revision 4; a list at 3 now answers Expired=%v: %s", errors.Is(err, storage.ErrExpired), serr.Msg)

	// Everything acknowledged is on disk: close, reopen, carry on.
	if err := db.Close(); err != nil {
		return err
	}
	db, err = bolt.Open(path, bolt.Options{Strict: true}) // Strict: verify the file and the index
	if err != nil {
		return err
	}
	crontabs = db.ForResource(cfg)
	rev, _ = db.CurrentRevision(ctx)
	all, err := crontabs.GetList(ctx, prefix, storage.ListOptions{Recursive: true})
	if err != nil {
		return err
	}
	say("reopened and checked: revision %d, objects %v", rev, names(all.Items))
	if err := crontabs.Create(ctx, storage.ObjectKey(prefix, "default", "fourth"), crontab("fourth", "@weekly"), out); err != nil {
		return err
	}
	say("the next write gets resourceVersion %s", out.GetResourceVersion())
	return nil
}

func names(objs []storage.Object) []string {
	out := []string{}
	for _, o := range objs {
		out = append(out, o.GetNamespace()+"/"+o.GetName())
	}
	return out
}
