package bolt_test

import (
	"context"
	"encoding/binary"
	"flag"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"go.etcd.io/bbolt"

	metav1 "github.com/crdlab/crdlab/apis/meta/v1"
	"github.com/crdlab/crdlab/apis/meta/v1/unstructured"
	"github.com/crdlab/crdlab/machinery/watch"
	"github.com/crdlab/crdlab/storage"
	"github.com/crdlab/crdlab/storage/bolt"
	"github.com/crdlab/crdlab/storage/storagetest"
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

// BenchmarkBboltCommit is the second baseline: bbolt alone, committing 1
// or 16 puts of 400 bytes per transaction with the options DB uses. 16
// puts per commit is the most the store can group with 16 writers, so
// writes/s there bounds BenchmarkCreate/concurrency=16.
func BenchmarkBboltCommit(b *testing.B) {
	for _, puts := range []int{1, 16} {
		b.Run(fmt.Sprintf("puts=%d", puts), func(b *testing.B) {
			dir := b.TempDir()
			db, err := bbolt.Open(filepath.Join(dir, "bare.db"), 0o600, &bbolt.Options{
				NoFreelistSync: true, FreelistType: bbolt.FreelistMapType, InitialMmapSize: 64 << 20})
			require.NoError(b, err)
			defer db.Close()
			require.NoError(b, db.Update(func(tx *bbolt.Tx) error {
				_, err := tx.CreateBucket([]byte("history"))
				return err
			}))
			before := rawFsyncRate(b, dir, 250*time.Millisecond)
			value := make([]byte, 400)
			n := uint64(0)
			b.ResetTimer()
			for range b.N {
				err := db.Update(func(tx *bbolt.Tx) error {
					h := tx.Bucket([]byte("history"))
					h.FillPercent = 1
					for range puts {
						n++
						if err := h.Put(binary.BigEndian.AppendUint64(nil, n), value); err != nil {
							return err
						}
					}
					return nil
				})
				require.NoError(b, err)
			}
			b.StopTimer()
			rate := float64(b.N*puts) / b.Elapsed().Seconds()
			limit := (before + rawFsyncRate(b, dir, 250*time.Millisecond)) / 2
			b.ReportMetric(rate, "writes/s")
			b.ReportMetric(limit, "fsyncs/s")
			b.ReportMetric(rate/limit, "x-fsync")
		})
	}
}

func benchDB(b *testing.B) (*bolt.DB, storage.Interface, string) {
	b.Helper()
	dir := b.TempDir()
	db, err := bolt.Open(filepath.Join(dir, "bench.db"), bolt.Options{})
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
func fill(b *testing.B, st storage.Interface, n int) { fillPayload(b, st, n, "") }

// fillPayload is fill with payload, if not empty, as each object's
// spec.payload.
func fillPayload(b *testing.B, st storage.Interface, n int, payload string) {
	b.Helper()
	ctx := context.Background()
	var wg sync.WaitGroup
	var next atomic.Int64
	for range 16 {
		wg.Go(func() {
			out := &unstructured.Unstructured{}
			for i := next.Add(1); i <= int64(n); i = next.Add(1) {
				name := fmt.Sprintf("o%08d", i)
				obj := storagetest.CronTab("default", name, map[string]string{"app": "bench"}, "* * * * */5")
				if payload != "" {
					require.NoError(b, unstructured.SetNestedField(obj.Object, payload, "spec", "payload"))
				}
				require.NoError(b, st.Create(ctx, storagetest.Key("default", name), obj, out))
			}
		})
	}
	wg.Wait()
}

// BenchmarkCreateAfterLargeRecords creates small objects one after
// another in a file that first got large=N objects of 20 KB (records past
// outOfLineMin, as real-size CRDs' are), without fsync so that the
// commit's CPU shows. Kept in history's leaves, such records made the
// branch above its newest leaf wide, and every later commit read it into
// memory and wrote it back (outofline.go): "inline" keeps them there, as
// before, to compare with.
func BenchmarkCreateAfterLargeRecords(b *testing.B) {
	for _, tc := range []struct {
		large  int
		inline bool
	}{{0, false}, {3000, true}, {3000, false}} {
		name := fmt.Sprintf("large=%d", tc.large)
		if tc.inline {
			name += "/inline"
		}
		b.Run(name, func(b *testing.B) {
			if tc.inline {
				b.Cleanup(bolt.SetOutOfLineMin(1 << 30))
			}
			db, err := bolt.Open(filepath.Join(b.TempDir(), "bench.db"), bolt.Options{NoSync: true})
			require.NoError(b, err)
			b.Cleanup(func() { require.NoError(b, db.Close()) })
			st := db.ForResource(storagetest.ResourceConfig())
			fillPayload(b, st, tc.large, strings.Repeat("x", 20000))
			out := &unstructured.Unstructured{}
			b.ReportAllocs()
			b.ResetTimer()
			for i := range b.N {
				name := fmt.Sprintf("s%08d", i)
				require.NoError(b, st.Create(ctx, storagetest.Key("default", name), storagetest.CronTab("default", name, nil, "* * * * */5"), out))
			}
		})
	}
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

// BenchmarkWatchDelivery measures how long each of 1,000 watchers waits
// for an event, with one writer writing as fast as it can; an op is one
// write (1,000 deliveries). p50-ms, p99-ms and max-ms count from the
// write's acknowledgement (the event is committed; a watcher that had it
// before the writer counts 0): the fan-out's own delay. p99-e2e-ms counts
// from the start of the write, so it includes the commit and its fsyncs.
func BenchmarkWatchDelivery(b *testing.B) {
	const watchers = 1000
	db, st, _ := benchDB(b)
	ctx := context.Background()
	start, err := db.CurrentRevision(ctx)
	require.NoError(b, err)
	base := time.Now()
	received := make([][]time.Duration, watchers) // received[i][k]: watcher i got write k
	var wg sync.WaitGroup
	var failed atomic.Pointer[string]
	for i := range watchers {
		w, err := st.Watch(ctx, storagetest.Prefix, storage.ListOptions{Recursive: true, ResourceVersion: strconv.FormatInt(start, 10)})
		require.NoError(b, err)
		defer w.Stop()
		received[i] = make([]time.Duration, 0, b.N)
		wg.Go(func() {
			for ev := range w.ResultChan() {
				at := time.Since(base)
				if ev.Type == watch.Error {
					msg := ev.Object.(*metav1.Status).Message
					failed.Store(&msg)
					return
				}
				received[i] = append(received[i], at)
				if len(received[i]) == b.N {
					return
				}
			}
		})
	}
	sent := make([]time.Duration, b.N)
	acked := make([]time.Duration, b.N)
	out := &unstructured.Unstructured{}
	b.ResetTimer()
	for i := range b.N {
		name := fmt.Sprintf("o%d", i%100)
		sent[i] = time.Since(base)
		err := st.GuaranteedUpdate(ctx, storagetest.Key("default", name), out, true, nil,
			func(storage.Object) (storage.Object, error) {
				return storagetest.CronTab("default", name, nil, strconv.Itoa(i)), nil
			})
		acked[i] = time.Since(base)
		require.NoError(b, err)
	}
	wg.Wait()
	b.StopTimer()
	if p := failed.Load(); p != nil {
		b.Fatal(*p)
	}
	var fanout, e2e []time.Duration
	for _, r := range received {
		require.Len(b, r, b.N)
		for k, at := range r {
			fanout = append(fanout, max(at-acked[k], 0))
			e2e = append(e2e, at-sent[k])
		}
	}
	pct := func(d []time.Duration, p float64) float64 { return float64(d[int(p*float64(len(d)-1))]) / 1e6 }
	slices.Sort(fanout)
	slices.Sort(e2e)
	b.ReportMetric(pct(fanout, 0.50), "p50-ms")
	b.ReportMetric(pct(fanout, 0.99), "p99-ms")
	b.ReportMetric(pct(fanout, 1), "max-ms")
	b.ReportMetric(pct(e2e, 0.99), "p99-e2e-ms")
	b.ReportMetric(float64(len(fanout))/b.Elapsed().Seconds(), "deliveries/s")
}

// openObjects is the size of BenchmarkOpen's file: go test -bench Open
// -open.objects 100000 ./storage/bolt/ measures the many-objects family's
// largest size (issue 20).
var openObjects = flag.Int("open.objects", 10000, "objects in BenchmarkOpen's data file")

// manyObjects fills st with n objects of 1–5 KB (a payload of 770–4,749
// bytes, as bench/internal/workload's many-objects family), each created
// and then updated once, by 16 writers.
func manyObjects(b *testing.B, st storage.Interface, n int) {
	b.Helper()
	ctx := context.Background()
	payload := strings.Repeat("0123456789abcdef", 5000/16+1)
	var wg sync.WaitGroup
	var next atomic.Int64
	for range 16 {
		wg.Go(func() {
			out := &unstructured.Unstructured{}
			for i := next.Add(1); i <= int64(n); i = next.Add(1) {
				name := fmt.Sprintf("o%08d", i)
				key := storagetest.Key("default", name)
				obj := storagetest.CronTab("default", name, map[string]string{"app": "bench"}, payload[:770+(int(i)*7919)%3980])
				require.NoError(b, st.Create(ctx, key, obj, out))
				require.NoError(b, st.GuaranteedUpdate(ctx, key, out, false, nil, func(cur storage.Object) (storage.Object, error) {
					u := cur.(*unstructured.Unstructured)
					return u, unstructured.SetNestedField(u.Object, int64(1), "spec", "counter")
				}))
			}
		})
	}
	wg.Wait()
}

// BenchmarkOpen opens a data file of -open.objects objects (each created
// and updated once) and closes it again: the storage part of a server's
// start-up. It reports the file's bytes per object.
func BenchmarkOpen(b *testing.B) {
	n := *openObjects
	path := filepath.Join(b.TempDir(), "open.db")
	db, err := bolt.Open(path, bolt.Options{NoSync: true})
	require.NoError(b, err)
	manyObjects(b, db.ForResource(storagetest.ResourceConfig()), n)
	require.NoError(b, db.Close())
	fi, err := os.Stat(path)
	require.NoError(b, err)
	cpu0 := cpuTime()
	b.ResetTimer()
	for range b.N {
		db, err := bolt.Open(path, bolt.Options{})
		if err != nil {
			b.Fatal(err)
		}
		require.NoError(b, db.Close())
	}
	b.StopTimer()
	b.ReportMetric(float64(cpuTime()-cpu0)/1e6/float64(b.N), "cpu-ms/op")
	b.ReportMetric(float64(fi.Size())/float64(n), "file-B/object")
}

// cpuTime is the CPU time (user and system) the process has used: on a
// shared machine it moves less than the wall clock.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// compactDefrag: BenchmarkCompactWrites with or without the
// defragmentation after the compaction.
var compactDefrag = flag.Bool("compact.defrag", true, "BenchmarkCompactWrites: let the compaction defragment")

// BenchmarkCompactWrites measures what a compaction (and the
// defragmentation it starts) does to one writer's latency: -open.objects
// objects, each created and updated once, then compacted to the current
// revision while a writer updates other objects one write after another.
// It reports the writer's p99 before and during, and their ratio (issue
// 20's target: ≤ 2). Run with -benchtime 1x.
func BenchmarkCompactWrites(b *testing.B) {
	n := *openObjects
	for range b.N {
		b.StopTimer()
		path := filepath.Join(b.TempDir(), "compact.db")
		db, err := bolt.Open(path, bolt.Options{NoSync: true})
		require.NoError(b, err)
		manyObjects(b, db.ForResource(storagetest.ResourceConfig()), n)
		require.NoError(b, db.Close())
		opts := bolt.Options{}
		if testing.Verbose() {
			opts.Logger = slog.New(slog.NewTextHandler(os.Stderr, nil))
		}
		if !*compactDefrag {
			opts.DefragmentFree = -1
		}
		db, err = bolt.Open(path, opts)
		require.NoError(b, err)
		st := db.ForResource(storagetest.ResourceConfig())
		ctx := context.Background()
		var (
			mu        sync.Mutex
			lat       []time.Duration
			starts    []time.Time
			stop      atomic.Bool
			writerErr atomic.Pointer[error]
		)
		var wg sync.WaitGroup
		wg.Go(func() {
			out := &unstructured.Unstructured{}
			for i := 0; !stop.Load(); i++ {
				name := fmt.Sprintf("w%03d", i%100)
				t0 := time.Now()
				err := st.GuaranteedUpdate(ctx, storagetest.Key("default", name), out, true, nil, func(storage.Object) (storage.Object, error) {
					return storagetest.CronTab("default", name, nil, strconv.Itoa(i)), nil
				})
				if err != nil {
					writerErr.Store(&err)
					return
				}
				mu.Lock()
				lat, starts = append(lat, time.Since(t0)), append(starts, t0)
				mu.Unlock()
			}
		})
		// The idle baseline: the writer's first 300 writes.
		for idle := 0; idle < 300 && writerErr.Load() == nil; {
			time.Sleep(10 * time.Millisecond)
			mu.Lock()
			idle = len(lat)
			mu.Unlock()
		}
		rev, err := db.CurrentRevision(ctx)
		require.NoError(b, err)
		b.StartTimer()
		from := time.Now()
		require.NoError(b, db.Compact(ctx, rev))
		to := time.Now()
		b.StopTimer()
		stop.Store(true)
		wg.Wait()
		if p := writerErr.Load(); p != nil {
			b.Fatal(*p)
		}
		var idle, during []time.Duration
		for i, t0 := range starts {
			switch {
			case t0.Add(lat[i]).Before(from):
				idle = append(idle, lat[i])
			case t0.Before(to):
				during = append(during, lat[i])
			}
		}
		p99 := func(d []time.Duration) float64 {
			if len(d) == 0 {
				return 0
			}
			slices.Sort(d)
			return float64(d[(len(d)-1)*99/100]) / 1e6
		}
		if testing.Verbose() {
			// The slowest writes, and when they started after the
			// compaction did: where the writer waited.
			idx := make([]int, len(lat))
			for i := range idx {
				idx[i] = i
			}
			slices.SortFunc(idx, func(a, b int) int { return int(lat[b] - lat[a]) })
			for _, i := range idx[:min(5, len(idx))] {
				b.Logf("slow write: %v, started %v after the compaction began", lat[i], starts[i].Sub(from))
			}
		}
		b.ReportMetric(p99(idle), "idle-p99-ms")
		b.ReportMetric(p99(during), "during-p99-ms")
		b.ReportMetric(p99(during)/p99(idle), "x-idle")
		b.ReportMetric(float64(len(during)), "writes-during")
		b.ReportMetric(float64(to.Sub(from).Milliseconds()), "compact-ms")
		require.NoError(b, db.Close())
	}
}

// BenchmarkListEncoded lists 20,000 objects of about 2.4 KB as their
// stored bytes (storage.ListOptions.Encoded) and writes each as JSON
// (ObjectJSON.AppendJSON into a reused buffer, as the handler streams
// them): with the values in memory (after their writes) and on disk (as
// after Open, read in the scan's transactions).
func BenchmarkListEncoded(b *testing.B) {
	const n = 20000
	payload := strings.Repeat("0123456789abcdef", 128)
	for _, bc := range []struct {
		name  string
		inMem int
	}{{"values-in-memory", 0}, {"values-on-disk", -1}} {
		b.Run(bc.name, func(b *testing.B) {
			db, err := bolt.Open(filepath.Join(b.TempDir(), "bench.db"), bolt.Options{NoSync: true, MaxValueInMemory: bc.inMem})
			require.NoError(b, err)
			b.Cleanup(func() { require.NoError(b, db.Close()) })
			st := db.ForResource(storagetest.ResourceConfig())
			ctx := context.Background()
			fillPayload(b, st, n, payload)
			buf := make([]byte, 0, 128<<10)
			opts := storage.ListOptions{Recursive: true, Encoded: true}
			b.ReportAllocs()
			b.ResetTimer()
			for range b.N {
				res, err := st.GetList(ctx, storagetest.Prefix, opts)
				if err != nil || len(res.Encoded) != n {
					b.Fatal(err, len(res.Encoded))
				}
				for _, o := range res.Encoded {
					var ok bool
					if buf, _, _, ok = o.AppendJSON(buf[:0]); !ok {
						b.Fatal("declined")
					}
				}
			}
		})
	}
}

// BenchmarkListPaginated reads 100,000 objects in pages of 500 (kubectl
// get's chunk size), following the continue token to the end, encoded as
// the handler asks for them; an op is the whole list. Each page but the
// last counts the objects after it (ListMeta.remainingItemCount), at the
// first page's revision: the latest one while nothing is written (quiet),
// an older one after a write (one object updated after the first page).
//
//	go test -run '^$' -bench ListPaginated -benchtime 5x ./storage/bolt/
func BenchmarkListPaginated(b *testing.B) {
	const n, limit = 100000, 500
	db, err := bolt.Open(filepath.Join(b.TempDir(), "bench.db"), bolt.Options{NoSync: true})
	require.NoError(b, err)
	b.Cleanup(func() { require.NoError(b, db.Close()) })
	st := db.ForResource(storagetest.ResourceConfig())
	fill(b, st, n)
	ctx := context.Background()
	for _, bc := range []struct {
		name  string
		write bool
	}{{"quiet", false}, {"a-write-after-the-first-page", true}} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; b.Loop(); i++ {
				got, cont := 0, ""
				for {
					res, err := st.GetList(ctx, storagetest.Prefix, storage.ListOptions{Recursive: true, Encoded: true,
						Predicate: storage.SelectionPredicate{Limit: limit, Continue: cont}})
					if err != nil {
						b.Fatal(err)
					}
					if got == 0 && bc.write {
						key := storagetest.Key("default", fmt.Sprintf("o%08d", n/2))
						require.NoError(b, st.GuaranteedUpdate(ctx, key, &unstructured.Unstructured{}, false, nil,
							func(cur storage.Object) (storage.Object, error) {
								u := cur.(*unstructured.Unstructured)
								return u, unstructured.SetNestedField(u.Object, fmt.Sprint(i), "spec", "cronSpec")
							}))
					}
					got += len(res.Encoded)
					if cont = res.Continue; cont == "" {
						break
					}
					if res.RemainingItemCount == nil || *res.RemainingItemCount != int64(n-got) {
						b.Fatalf("after %d objects: remainingItemCount %v, want %d", got, res.RemainingItemCount, n-got)
					}
				}
				if got != n {
					b.Fatalf("listed %d objects, want %d", got, n)
				}
			}
		})
	}
}
