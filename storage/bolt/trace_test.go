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
	path := filepath.Join(t.TempDir(), "crdlab.db")
	prefix := storage.ResourcePrefix("stable.example.com", "crontabs")
	cfg := storage.ResourceConfig{
		Prefix: prefix, Codec: storage.JSONCodec{},
		NewFunc: func() storage.Object { return &unstructured.Unstructured{} },
	}
	ctx := context.Background()

	// Revision 1 is written untraced, so the watch below can start after
	// it. A watch from "0" would first list the state in a goroutine of its
	// own, and a write made meanwhile reaches it from history, not through
	// the fan-out: its "fanout" step would rightly be missing.
	db, err := bolt.Open(path, bolt.Options{NoSync: true})
	require.NoError(t, err)
	first := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "stable.example.com/v1", "kind": "CronTab",
		"metadata": map[string]any{"name": "first", "namespace": "other"},
	}}
	require.NoError(t, db.ForResource(cfg).Create(ctx, storage.ObjectKey(prefix, "other", "first"), first, &unstructured.Unstructured{}))
	require.NoError(t, db.Close())

	tr := trace.New(trace.Options{})
	db, err = bolt.Open(path, bolt.Options{Tracer: tr, NoSync: true})
	require.NoError(t, err)
	defer db.Close()
	crontabs := db.ForResource(cfg)
	sub := tr.Subscribe(0, 0)
	defer sub.Close()
	// From revision 1, with nothing to catch up on, the watch is live when
	// Watch returns.
	w, err := crontabs.Watch(ctx, storage.ObjectKey(prefix, "default", "my-cron"), storage.ListOptions{ResourceVersion: "1"})
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

	// The fan-out traces an event after handing it to the watchers, so the
	// last "fanout" may come just after the watcher has read its event:
	// wait for all six steps.
	var events []trace.Event
	events = append(events, sub.Replay...)
	for len(events) < 6 {
		select {
		case e := <-sub.C:
			events = append(events, e)
		case <-time.After(10 * time.Second):
			t.Fatalf("only %d trace events: %v", len(events), events)
		}
	}

	type step struct{ component, step, rv, msg string }
	var got []step
	for _, e := range events {
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
		{trace.Storage, "commit", "2", "create committed at revision 2"},
		{trace.Storage, "commit", "3", "update committed at revision 3"},
		{trace.Storage, "commit", "4", "delete committed at revision 4"},
	}, commits)
	require.Equal(t, []step{
		{trace.Watch, "fanout", "2", "ADDED sent to 1 watcher(s)"},
		{trace.Watch, "fanout", "3", "MODIFIED sent to 1 watcher(s)"},
		{trace.Watch, "fanout", "4", "DELETED sent to 1 watcher(s)"},
	}, fanouts)
}
