package storage_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	metav1 "github.com/crdlab/crdlab/apis/meta/v1"
	"github.com/crdlab/crdlab/apis/meta/v1/unstructured"
	"github.com/crdlab/crdlab/storage"
	"github.com/crdlab/crdlab/storage/storagetest"
	"github.com/crdlab/crdlab/watch"
)

// Run with: go test -run XXX -bench . -benchtime 2s ./storage/
//
// The create benchmarks report x-fsync: their rate divided by the raw fsync
// rate of the same disk, measured just before and after (BenchmarkFsync
// measures it on its own). A bbolt commit needs two fsyncs (data, then
// meta), so a store that commits each write alone stays under 0.5 x-fsync.

// rawFsyncRate measures how many 4 KiB write+fsync pairs per second the
// disk under dir sustains for d: the physical limit of durable commits one
// after the other. The write benchmarks measure it right before and right
// after their timed run, as the disk of a shared machine drifts.
func rawFsyncRate(b *testing.B, dir string, d time.Duration) float64 {
	b.Helper()
	n, took := fsyncLoop(b, dir, d)
	return float64(n) / took.Seconds()
}

func fsyncLoop(b *testing.B, dir string, d time.Duration) (int, time.Duration) {
	f, err := os.Create(filepath.Join(dir, "fsync-probe"))
	require.NoError(b, err)
	defer f.Close()
	page := make([]byte, 4096)
	start := time.Now()
	n := 0
	for ; time.Since(start) < d; n++ {
		_, err := f.WriteAt(page, int64(n%16)*4096)
		require.NoError(b, err)
		require.NoError(b, f.Sync())
	}
	return n, time.Since(start)
}

// BenchmarkFsync is the baseline: one 4 KiB write and fsync per op.
func BenchmarkFsync(b *testing.B) {
	f, err := os.Create(filepath.Join(b.TempDir(), "fsync-probe"))
	require.NoError(b, err)
	defer f.Close()
	page := make([]byte, 4096)
	b.ResetTimer()
	for i := range b.N {
		_, err := f.WriteAt(page, int64(i%16)*4096)
		require.NoError(b, err)
		require.NoError(b, f.Sync())
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "fsyncs/s")
}

func benchDB(b *testing.B) (*storage.DB, storage.Interface, string) {
	b.Helper()
	dir := b.TempDir()
	db, err := storage.Open(filepath.Join(dir, "bench.db"), storage.Options{})
	require.NoError(b, err)
	b.Cleanup(func() { require.NoError(b, db.Close()) })
	return db, db.ForResource(storagetest.ResourceConfig()), dir
}

// BenchmarkCreate creates objects from 1 and from 16 goroutines.
func BenchmarkCreate(b *testing.B) {
	for _, writers := range []int{1, 16} {
		b.Run(fmt.Sprintf("concurrency=%d", writers), func(b *testing.B) {
			_, st, dir := benchDB(b)
			before := rawFsyncRate(b, dir, 250*time.Millisecond)
			ctx := context.Background()
			var next atomic.Int64
			var failed atomic.Pointer[error]
			b.ResetTimer()
			var wg sync.WaitGroup
			for range writers {
				wg.Go(func() {
					out := &unstructured.Unstructured{}
					for {
						i := next.Add(1)
						if i > int64(b.N) {
							return
						}
						name := fmt.Sprintf("o%08d", i)
						if err := st.Create(ctx, storagetest.Key("default", name), storagetest.CronTab("default", name, nil, "* * * * */5"), out); err != nil {
							failed.Store(&err)
							return
						}
					}
				})
			}
			wg.Wait()
			b.StopTimer()
			if p := failed.Load(); p != nil {
				b.Fatal(*p)
			}
			rate := float64(b.N) / b.Elapsed().Seconds()
			limit := (before + rawFsyncRate(b, dir, 250*time.Millisecond)) / 2
			b.ReportMetric(rate, "creates/s")
			b.ReportMetric(limit, "fsyncs/s")
			b.ReportMetric(rate/limit, "x-fsync")
		})
	}
}

// fill creates n objects with 16 writers.
func fill(b *testing.B, st storage.Interface, n int) {
	b.Helper()
	ctx := context.Background()
	var wg sync.WaitGroup
	var next atomic.Int64
	for range 16 {
		wg.Go(func() {
			out := &unstructured.Unstructured{}
			for i := next.Add(1); i <= int64(n); i = next.Add(1) {
				name := fmt.Sprintf("o%08d", i)
				require.NoError(b, st.Create(ctx, storagetest.Key("default", name),
					storagetest.CronTab("default", name, map[string]string{"app": "bench"}, "* * * * */5"), out))
			}
		})
	}
	wg.Wait()
}

// BenchmarkGet reads objects at the latest revision.
func BenchmarkGet(b *testing.B) {
	_, st, _ := benchDB(b)
	const n = 1000
	fill(b, st, n)
	ctx := context.Background()
	out := &unstructured.Unstructured{}
	b.ResetTimer()
	for i := range b.N {
		if err := st.Get(ctx, storagetest.Key("default", fmt.Sprintf("o%08d", i%n+1)), storage.GetOptions{}, out); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkList10000 lists 10,000 objects: at the latest revision (from
// memory), and at an older revision after each was updated (from history).
func BenchmarkList10000(b *testing.B) {
	_, st, _ := benchDB(b)
	const n = 10000
	fill(b, st, n)
	ctx := context.Background()
	res, err := st.GetList(ctx, storagetest.Prefix, storage.ListOptions{Recursive: true})
	require.NoError(b, err)
	before := res.ResourceVersion
	b.Run("latest", func(b *testing.B) {
		for range b.N {
			res, err := st.GetList(ctx, storagetest.Prefix, storage.ListOptions{Recursive: true})
			if err != nil || len(res.Items) != n {
				b.Fatal(err, len(res.Items))
			}
		}
	})
	b.Run("exact-old-revision", func(b *testing.B) {
		b.StopTimer()
		if cur := mustRev(b, st); cur < before+n {
			var wg sync.WaitGroup
			for w := range 16 {
				wg.Go(func() {
					for i := w + 1; i <= n; i += 16 {
						key := storagetest.Key("default", fmt.Sprintf("o%08d", i))
						require.NoError(b, st.GuaranteedUpdate(ctx, key, &unstructured.Unstructured{}, false, nil,
							func(cur storage.Object) (storage.Object, error) {
								u := cur.(*unstructured.Unstructured)
								return u, unstructured.SetNestedField(u.Object, "changed", "spec", "cronSpec")
							}))
					}
				})
			}
			wg.Wait()
		}
		b.StartTimer()
		opts := storage.ListOptions{Recursive: true, ResourceVersion: strconv.FormatInt(before, 10),
			ResourceVersionMatch: metav1.ResourceVersionMatchExact}
		for range b.N {
			res, err := st.GetList(ctx, storagetest.Prefix, opts)
			if err != nil || len(res.Items) != n {
				b.Fatal(err, len(res.Items))
			}
		}
	})
}

func mustRev(b *testing.B, st storage.Interface) int64 {
	res, err := st.GetList(context.Background(), storagetest.Prefix, storage.ListOptions{Recursive: true, Predicate: storage.SelectionPredicate{Limit: 1}})
	require.NoError(b, err)
	return res.ResourceVersion
}

// BenchmarkWatchDelivery measures how long an event takes from the start
// of its write to its arrival at each of 1,000 watchers, with one writer
// writing as fast as it can. Each op is one write (1,000 deliveries).
func BenchmarkWatchDelivery(b *testing.B) {
	const watchers = 1000
	db, st, _ := benchDB(b)
	ctx := context.Background()
	start, err := db.CurrentRevision(ctx)
	require.NoError(b, err)
	last := start + int64(b.N)
	latencies := make([][]time.Duration, watchers)
	var wg sync.WaitGroup
	var failed atomic.Pointer[string]
	for i := range watchers {
		w, err := st.Watch(ctx, storagetest.Prefix, storage.ListOptions{Recursive: true, ResourceVersion: strconv.FormatInt(start, 10)})
		require.NoError(b, err)
		defer w.Stop()
		latencies[i] = make([]time.Duration, 0, b.N)
		wg.Go(func() {
			for ev := range w.ResultChan() {
				now := time.Now()
				if ev.Type == watch.Error {
					msg := ev.Object.(*metav1.Status).Message
					failed.Store(&msg)
					return
				}
				u := ev.Object.(*unstructured.Unstructured)
				sent, _, _ := unstructured.NestedInt64(u.Object, "spec", "sentAt")
				latencies[i] = append(latencies[i], now.Sub(time.Unix(0, sent)))
				if u.GetResourceVersion() == strconv.FormatInt(last, 10) {
					return
				}
			}
		})
	}
	b.ResetTimer()
	out := &unstructured.Unstructured{}
	for i := range b.N {
		name := fmt.Sprintf("o%d", i%100)
		err := st.GuaranteedUpdate(ctx, storagetest.Key("default", name), out, true, nil,
			func(storage.Object) (storage.Object, error) {
				u := storagetest.CronTab("default", name, nil, "x")
				u.Object["spec"].(map[string]any)["sentAt"] = time.Now().UnixNano()
				return u, nil
			})
		require.NoError(b, err)
	}
	wg.Wait()
	b.StopTimer()
	if p := failed.Load(); p != nil {
		b.Fatal(*p)
	}
	var all []time.Duration
	for _, l := range latencies {
		all = append(all, l...)
	}
	require.Len(b, all, watchers*b.N)
	slices.Sort(all)
	pct := func(p float64) float64 { return float64(all[int(p*float64(len(all)-1))]) / 1e6 }
	b.ReportMetric(pct(0.50), "p50-ms")
	b.ReportMetric(pct(0.99), "p99-ms")
	b.ReportMetric(pct(1), "max-ms")
	b.ReportMetric(float64(len(all))/b.Elapsed().Seconds(), "deliveries/s")
}
