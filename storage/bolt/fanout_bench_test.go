package bolt_test

import (
	"context"
	"fmt"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/crdlab/crdlab/apis/meta/v1/unstructured"
	"github.com/crdlab/crdlab/storage"
	"github.com/crdlab/crdlab/storage/bolt"
)

// BenchmarkFanout_WriteWithWatchedStores is one create and its watch
// event with stores of other resources watched too, one watcher each (as
// the garbage collector watches every CRD's resource): the fan-out must
// find the written key's watchers without looking at every store.
// Storage without fsync; the time is the write and its event.
func BenchmarkFanout_WriteWithWatchedStores(b *testing.B) {
	for _, others := range []int{0, 2000} {
		b.Run(fmt.Sprintf("stores=%d", others+1), func(b *testing.B) {
			db, err := bolt.Open(filepath.Join(b.TempDir(), "crdlab.db"), bolt.Options{NoSync: true})
			require.NoError(b, err)
			b.Cleanup(func() { require.NoError(b, db.Close()) })
			ctx, cancel := context.WithCancel(context.Background())
			b.Cleanup(cancel)
			forPrefix := func(prefix string) storage.Interface {
				return db.ForResource(storage.ResourceConfig{Prefix: prefix, Codec: storage.JSONCodec{},
					NewFunc: func() storage.Object { return &unstructured.Unstructured{} }})
			}
			rev, err := db.CurrentRevision(ctx)
			require.NoError(b, err)
			opts := storage.ListOptions{ResourceVersion: strconv.FormatInt(rev, 10), Recursive: true}
			for i := range others {
				prefix := fmt.Sprintf("/registry/svc%d.provider.example.io/widget%ds", i%10, i)
				w, err := forPrefix(prefix).Watch(ctx, prefix, opts)
				require.NoError(b, err)
				b.Cleanup(w.Stop)
			}
			const prefix = "/registry/svc0.provider.example.io/things"
			st := forPrefix(prefix)
			w, err := st.Watch(ctx, prefix, opts)
			require.NoError(b, err)
			b.Cleanup(w.Stop)
			for i := 0; b.Loop(); i++ {
				name := "o" + strconv.Itoa(i)
				obj := &unstructured.Unstructured{Object: map[string]any{"metadata": map[string]any{"name": name}}}
				require.NoError(b, st.Create(ctx, prefix+"/"+name, obj, &unstructured.Unstructured{}))
				select {
				case ev := <-w.ResultChan():
					if got := ev.Object.(*unstructured.Unstructured).GetName(); got != name {
						b.Fatalf("event of %s, want %s", got, name)
					}
				case <-time.After(time.Minute):
					b.Fatal("no event within a minute")
				}
			}
		})
	}
}
