package bolt_test

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/crdlab/crdlab/apis/meta/v1/unstructured"
	"github.com/crdlab/crdlab/machinery/watch"
	"github.com/crdlab/crdlab/storage"
	"github.com/crdlab/crdlab/storage/bolt"
	"github.com/crdlab/crdlab/trace"
)

// TestTrace checks what storage tells a tracer: one "commit" per write at
// its revision, and one "fanout" per event handed to the watchers.
func TestTrace(t *testing.T) {
	tr := trace.New(trace.Options{})
	db, err := bolt.Open(filepath.Join(t.TempDir(), "crdlab.db"), bolt.Options{Tracer: tr, NoSync: true})
	require.NoError(t, err)
	defer db.Close()
	prefix := storage.ResourcePrefix("stable.example.com", "crontabs")
	crontabs := db.ForResource(storage.ResourceConfig{
		Prefix: prefix, Codec: storage.JSONCodec{},
		NewFunc: func() storage.Object { return &unstructured.Unstructured{} },
	})
	ctx := context.Background()
	w, err := crontabs.Watch(ctx, prefix, storage.ListOptions{Recursive: true, ResourceVersion: "0"})
	require.NoError(t, err)
	defer w.Stop()

	key := storage.ObjectKey(prefix, "default", "my-cron")
	obj := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "stable.example.com/v1", "kind": "CronTab",
		"metadata": map[string]any{"name": "my-cron", "namespace": "default"},
	}}
	out := &unstructured.Unstructured{}
	require.NoError(t, crontabs.Create(ctx, key, obj, out))
	require.NoError(t, crontabs.GuaranteedUpdate(ctx, key, out, false, nil, func(cur storage.Object) (storage.Object, error) {
		u := cur.(*unstructured.Unstructured)
		return u, unstructured.SetNestedField(u.Object, "x", "spec", "cronSpec")
	}))
	require.NoError(t, crontabs.Delete(ctx, key, &unstructured.Unstructured{}, nil, nil))
	for _, want := range []watch.EventType{watch.Added, watch.Modified, watch.Deleted} {
		select {
		case ev := <-w.ResultChan():
			require.Equal(t, want, ev.Type)
		case <-time.After(10 * time.Second):
			t.Fatalf("no %s event", want)
		}
	}

	type step struct{ component, step, rv, msg string }
	var got []step
	for _, e := range tr.Recent(0) {
		require.Equal(t, "crontabs.stable.example.com", e.Resource)
		require.Equal(t, "default/my-cron", e.Key)
		require.NotEmpty(t, e.Upstream)
		got = append(got, step{e.Component, e.Step, e.ResourceVersion, e.Message})
	}
	// Each write's commit comes before its fan-out; the fan-out of one
	// write may come before or after the next write's commit.
	var commits, fanouts []step
	for _, s := range got {
		switch s.component {
		case trace.Storage:
			commits = append(commits, s)
		case trace.Watch:
			fanouts = append(fanouts, s)
		}
	}
	require.Len(t, got, 6)
	require.Equal(t, []step{
		{trace.Storage, "commit", "1", "create committed at revision 1"},
		{trace.Storage, "commit", "2", "update committed at revision 2"},
		{trace.Storage, "commit", "3", "delete committed at revision 3"},
	}, commits)
	require.Equal(t, []step{
		{trace.Watch, "fanout", "1", "ADDED sent to 1 watcher(s)"},
		{trace.Watch, "fanout", "2", "MODIFIED sent to 1 watcher(s)"},
		{trace.Watch, "fanout", "3", "DELETED sent to 1 watcher(s)"},
	}, fanouts)
}
