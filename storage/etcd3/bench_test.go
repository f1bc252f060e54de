package etcd3_test

import (
	"context"
	"fmt"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/crdlab/crdlab/apis/meta/v1/unstructured"
	"github.com/crdlab/crdlab/machinery/watch"
	"github.com/crdlab/crdlab/storage"
	"github.com/crdlab/crdlab/storage/bolt"
	"github.com/crdlab/crdlab/storage/etcd3"
	"github.com/crdlab/crdlab/storage/etcd3/etcdtest"
	"github.com/crdlab/crdlab/storage/storagetest"
)

// BenchmarkBackends runs the same workload on the bbolt DB (package
// storage, with fsync) and on a real etcd (one member on the same disk,
// through the etcd3 backend):
//
//	go test -run XXX -bench Backends -benchtime 2s ./storage/etcd3/
func BenchmarkBackends(b *testing.B) {
	srv := etcdtest.Start(b)
	backends := []struct {
		name string
		open func(b *testing.B) storage.Backend
	}{
		{"bbolt", func(b *testing.B) storage.Backend {
			db, err := bolt.Open(filepath.Join(b.TempDir(), "bench.db"), bolt.Options{})
			if err != nil {
				b.Fatal(err)
			}
			b.Cleanup(func() { _ = db.Close() })
			return db
		}},
		{"etcd", func(b *testing.B) storage.Backend {
			be, err := etcd3.New(context.Background(), etcd3.Config{
				Endpoints: srv.Endpoints, Prefix: fmt.Sprintf("/bench-%d", prefixSeq.Add(1))})
			if err != nil {
				b.Fatal(err)
			}
			b.Cleanup(func() { _ = be.Close() })
			return be
		}},
	}
	ctx := context.Background()
	for _, be := range backends {
		b.Run("backend="+be.name, func(b *testing.B) {
			for _, conc := range []int{1, 16} {
				b.Run(fmt.Sprint("Create/concurrency=", conc), func(b *testing.B) {
					st := be.open(b).ForResource(storagetest.ResourceConfig())
					var seq atomic.Int64
					b.SetParallelism(conc)
					b.ResetTimer()
					var wg sync.WaitGroup
					per := (b.N + conc - 1) / conc
					for range conc {
						wg.Go(func() {
							for range per {
								n := seq.Add(1)
								if n > int64(b.N) {
									return
								}
								name := fmt.Sprint("o", n)
								if err := st.Create(ctx, storagetest.Key("default", name),
									storagetest.CronTab("default", name, nil, "x"), &unstructured.Unstructured{}); err != nil {
									b.Error(err)
									return
								}
							}
						})
					}
					wg.Wait()
					b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "writes/s")
				})
			}
			b.Run("Get", func(b *testing.B) {
				st := be.open(b).ForResource(storagetest.ResourceConfig())
				fill(b, st, 100)
				b.ResetTimer()
				for i := range b.N {
					if err := st.Get(ctx, storagetest.Key("default", fmt.Sprint("o", i%100)), storage.GetOptions{}, &unstructured.Unstructured{}); err != nil {
						b.Fatal(err)
					}
				}
			})
			b.Run("GuaranteedUpdate", func(b *testing.B) {
				st := be.open(b).ForResource(storagetest.ResourceConfig())
				fill(b, st, 1)
				b.ResetTimer()
				for i := range b.N {
					err := st.GuaranteedUpdate(ctx, storagetest.Key("default", "o0"), &unstructured.Unstructured{}, false, nil,
						func(cur storage.Object) (storage.Object, error) {
							u := cur.(*unstructured.Unstructured)
							return u, unstructured.SetNestedField(u.Object, int64(i), "spec", "count")
						})
					if err != nil {
						b.Fatal(err)
					}
				}
			})
			b.Run("List1000", func(b *testing.B) {
				st := be.open(b).ForResource(storagetest.ResourceConfig())
				fill(b, st, 1000)
				b.ResetTimer()
				for range b.N {
					res, err := st.GetList(ctx, storagetest.Prefix, storage.ListOptions{Recursive: true})
					if err != nil || len(res.Items) != 1000 {
						b.Fatal(err, len(res.Items))
					}
				}
			})
			b.Run("WatchDelivery", func(b *testing.B) {
				// Write then wait for the event on a watch: the latency
				// from a write to its watchers.
				st := be.open(b).ForResource(storagetest.ResourceConfig())
				fill(b, st, 1)
				w, err := st.Watch(ctx, storagetest.Prefix, storage.ListOptions{Recursive: true, ResourceVersion: "0"})
				if err != nil {
					b.Fatal(err)
				}
				defer w.Stop()
				<-w.ResultChan() // the initial ADDED
				b.ResetTimer()
				for i := range b.N {
					err := st.GuaranteedUpdate(ctx, storagetest.Key("default", "o0"), &unstructured.Unstructured{}, false, nil,
						func(cur storage.Object) (storage.Object, error) {
							u := cur.(*unstructured.Unstructured)
							return u, unstructured.SetNestedField(u.Object, int64(i), "spec", "count")
						})
					if err != nil {
						b.Fatal(err)
					}
					if ev := <-w.ResultChan(); ev.Type != watch.Modified {
						b.Fatalf("event %v", ev.Type)
					}
				}
			})
		})
	}
}

func fill(b *testing.B, st storage.Interface, n int) {
	b.Helper()
	for i := range n {
		name := fmt.Sprint("o", i)
		if err := st.Create(context.Background(), storagetest.Key("default", name),
			storagetest.CronTab("default", name, nil, "x"), &unstructured.Unstructured{}); err != nil {
			b.Fatal(err)
		}
	}
}
