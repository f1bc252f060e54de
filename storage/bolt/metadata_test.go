package bolt_test

import (
	"context"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	metav1 "github.com/crdlab/crdlab/apis/meta/v1"
	"github.com/crdlab/crdlab/apis/meta/v1/unstructured"
	"github.com/crdlab/crdlab/machinery/labels"
	"github.com/crdlab/crdlab/machinery/watch"
	"github.com/crdlab/crdlab/storage"
	"github.com/crdlab/crdlab/storage/bolt"
	"github.com/crdlab/crdlab/storage/storagetest"
)

// TestStore_WatchMetadataOnly: a metadata-only watch gets each change as a
// storage.MetadataJSON whose bytes are the metadata of the object a plain
// watch gets, encoded (owner references, finalizers and the
// deletionTimestamp included: what the garbage collector's graph reads),
// with the same event types, live and while catching up; with a label
// selector it gets decoded objects, which the selector needs.
func TestStore_WatchMetadataOnly(t *testing.T) {
	db := openDB(t, bolt.Options{})
	st := db.ForResource(storagetest.ResourceConfig())
	ctx := context.Background()
	// Not from revision 0, which would ask for the initial state.
	require.NoError(t, st.Create(ctx, storagetest.Key("other", "o0"), storagetest.CronTab("other", "o0", nil, "x"), &unstructured.Unstructured{}))
	start, err := db.CurrentRevision(ctx)
	require.NoError(t, err)
	from := strconv.FormatInt(start, 10)
	watchFrom := func(metadataOnly bool, sel string) watch.Interface {
		t.Helper()
		p := storage.SelectionPredicate{}
		if sel != "" {
			s, err := labels.Parse(sel)
			require.NoError(t, err)
			p.Label = s
		}
		w, err := st.Watch(ctx, storagetest.Prefix, storage.ListOptions{Recursive: true, ResourceVersion: from, Predicate: p, MetadataOnly: metadataOnly})
		require.NoError(t, err)
		t.Cleanup(w.Stop)
		return w
	}
	plain, live, selected := watchFrom(false, ""), watchFrom(true, ""), watchFrom(true, "app=a")

	// A create, an update that sets a deletionTimestamp (a finalizer
	// holds the object), and the delete once the finalizer is gone.
	key := storagetest.Key("default", "o1")
	obj := storagetest.CronTab("default", "o1", map[string]string{"app": "a"}, "* * * * *")
	obj.SetFinalizers([]string{"example.com/hold"})
	obj.SetOwnerReferences([]metav1.OwnerReference{{APIVersion: "v1", Kind: "ConfigMap", Name: "owner", UID: "u-owner"}})
	obj.SetAnnotations(map[string]string{"a": `<&> "}"`})
	require.NoError(t, st.Create(ctx, key, obj, &unstructured.Unstructured{}))
	update := func(change func(u *unstructured.Unstructured)) {
		t.Helper()
		require.NoError(t, st.GuaranteedUpdate(ctx, key, &unstructured.Unstructured{}, false, nil,
			func(cur storage.Object) (storage.Object, error) {
				u := cur.(*unstructured.Unstructured)
				change(u)
				return u, nil
			}))
	}
	now := metav1.NewTime(time.Date(2026, 12, 2, 21, 0, 0, 0, time.UTC))
	update(func(u *unstructured.Unstructured) { u.SetDeletionTimestamp(&now) })
	update(func(u *unstructured.Unstructured) { u.SetFinalizers(nil) })
	require.NoError(t, st.Delete(ctx, key, &unstructured.Unstructured{}, nil, nil))

	next := func(w watch.Interface) watch.Event {
		t.Helper()
		select {
		case ev, ok := <-w.ResultChan():
			require.True(t, ok, "the watch closed")
			return ev
		case <-time.After(30 * time.Second):
			t.Fatal("no event within 30 s")
			return watch.Event{}
		}
	}
	catchingUp := watchFrom(true, "") // opened after the writes: reads history
	for i, typ := range []watch.EventType{watch.Added, watch.Modified, watch.Modified, watch.Deleted} {
		want := next(plain)
		require.Equal(t, typ, want.Type, "event %d", i)
		u := want.Object.(*unstructured.Unstructured)
		wantJSON, err := unstructured.AppendJSON(nil, u.Object["metadata"])
		require.NoError(t, err)
		for name, w := range map[string]watch.Interface{"live": live, "catching up": catchingUp} {
			got := next(w)
			require.Equal(t, want.Type, got.Type, "%s, event %d", name, i)
			m, ok := got.Object.(*storage.MetadataJSON)
			require.True(t, ok, "%s, event %d: a %T", name, i, got.Object)
			require.Equal(t, string(wantJSON), string(m.RawMetadata()), "%s, event %d", name, i)
		}
		if i == 1 {
			require.Contains(t, string(wantJSON), `"deletionTimestamp":"2026-12-02T21:00:00Z"`)
		}
		require.Contains(t, string(wantJSON), `"ownerReferences":[{`)
		got := next(selected)
		require.Equal(t, want.Type, got.Type)
		require.IsType(t, &unstructured.Unstructured{}, got.Object, "a selector needs the object decoded")
	}
}
