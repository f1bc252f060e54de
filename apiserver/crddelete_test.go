package apiserver

import (
	"flag"
	"fmt"
	"net/http"
	"os"
	"runtime"
	rtmetrics "runtime/metrics"
	"runtime/pprof"
	"strings"
	"sync"
	"testing"
	"time"
)

// crdDeleteProfile, if set, is where BenchmarkCRDDeleteHeap writes a heap
// profile each time a collection finds more live heap than any before
// during the deletion: the last one written is at the peak (go tool pprof
// -sample_index=inuse_space). Each profile is taken after a collection of
// its own, which moves the heap goal: the goal it reports is then not the
// one of an undisturbed run.
var crdDeleteProfile = flag.String("crddelete.heapprofile", "", "BenchmarkCRDDeleteHeap: write a heap profile at the deletion's peak live heap here")

// crdDeleteN is how many instances the deleted CRD has.
var crdDeleteN = flag.Int("crddelete.n", 5000, "BenchmarkCRDDeleteHeap: the CRD's instances")

// crdDeleteListFirst lists the instances right before the deletion, as
// crdbench's list phase does when the delete phase follows it: storage
// then keeps their decoded objects (storage/bolt/memo.go) when it begins.
var crdDeleteListFirst = flag.Bool("crddelete.listfirst", true, "BenchmarkCRDDeleteHeap: list the instances right before the deletion")

// heapPeaks follows the Go heap every few milliseconds until stopped and
// keeps the highest figures seen.
type heapPeaks struct {
	// live is the heap marked live by the last collection; goal the heap
	// size the next one is due at; inuse the heap's objects, garbage
	// included (what the resident set follows).
	live, goal, inuse uint64
	gcs               uint64 // collections while it ran
	// series is the live heap after each collection, in MiB.
	series []float64
}

// watchHeap samples the heap until the returned function is called, which
// returns the peaks. With profile set, it writes a heap profile there after
// each collection that found more live heap than any before.
func watchHeap(tb testing.TB, profile string) (stop func() heapPeaks) {
	s := []rtmetrics.Sample{{Name: "/gc/heap/live:bytes"}, {Name: "/gc/heap/goal:bytes"},
		{Name: "/memory/classes/heap/objects:bytes"}, {Name: "/gc/cycles/total:gc-cycles"}}
	rtmetrics.Read(s)
	gc0 := s[3].Value.Uint64()
	done, out := make(chan struct{}), make(chan heapPeaks)
	go func() {
		var p heapPeaks
		t := time.NewTicker(2 * time.Millisecond)
		defer t.Stop()
		for {
			rtmetrics.Read(s)
			if live := s[0].Value.Uint64(); live > p.live {
				p.live = live
				if profile != "" {
					runtime.GC() // the profile is as of the last collection: make it now
					if f, err := os.Create(profile); err == nil {
						pprof.Lookup("heap").WriteTo(f, 0) //nolint:errcheck
						f.Close()
					}
				}
			}
			p.goal, p.inuse = max(p.goal, s[1].Value.Uint64()), max(p.inuse, s[2].Value.Uint64())
			if gcs := s[3].Value.Uint64() - gc0; gcs != p.gcs {
				p.gcs = gcs
				p.series = append(p.series, float64(s[0].Value.Uint64()*10>>20)/10)
			}
			select {
			case <-done:
				out <- p
				return
			case <-t.C:
			}
		}
	}()
	return func() heapPeaks { close(done); return <-out }
}

// BenchmarkCRDDeleteHeap is the Go heap while a CRD with many instances is
// deleted, as crdbench's delete phase does it: crdbench-sized objects
// (about 700 bytes of JSON) created in one namespace and listed once (the
// list phase before; not with -crddelete.listfirst=false), then DELETE of the CRD and a list with limit=1 every
// 20 ms until it answers 404. It reports the peaks of the live heap (as
// each collection found it), of the heap goal and of the heap in use
// during the deletion (the live heap as a rise over the live heap before
// it): the goal is what the resident set follows.
//
//	go test -run '^$' -bench CRDDeleteHeap -benchtime 1x ./apiserver/ \
//	  [-crddelete.n 5000] [-crddelete.listfirst=false] [-crddelete.heapprofile /tmp/delete.pprof]
func BenchmarkCRDDeleteHeap(b *testing.B) {
	n := *crdDeleteN
	payload := strings.Repeat("0123456789abcdef", 20)
	for b.Loop() {
		b.StopTimer()
		url := benchServer(b, nil)
		l := &crdLoad{url: url}
		crontabs := "/apis/stable.example.com/v1/namespaces/default/crontabs"
		var wg sync.WaitGroup
		errs := make(chan string, 16)
		for w := range 16 {
			wg.Go(func() {
				for i := w; i < n; i += 16 {
					body := fmt.Appendf(nil, `{"apiVersion":"stable.example.com/v1","kind":"CronTab","metadata":{"name":"c-%06d","labels":{"app":"crdbench","shard":"s%d"}},"spec":{"size":%d,"color":"blue","counter":%d,"payload":%q,"tags":["alpha","beta","gamma"]}}`,
						i, i%16, i%1000, i, payload)
					if code, msg := l.do("POST", crontabs, body); code != http.StatusCreated {
						errs <- fmt.Sprintf("create %d: HTTP %d %s", i, code, msg)
						return
					}
				}
			})
		}
		wg.Wait()
		close(errs)
		for e := range errs {
			b.Fatal(e)
		}
		if *crdDeleteListFirst {
			if code := l.status("GET", crontabs, nil); code != http.StatusOK {
				b.Fatalf("list: HTTP %d", code)
			}
		}
		runtime.GC()
		before := watchHeap(b, "")()
		stop := watchHeap(b, *crdDeleteProfile)
		start := time.Now()
		b.StartTimer()
		if code, msg := l.do("DELETE", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions/crontabs.stable.example.com", nil); code != http.StatusOK {
			b.Fatalf("delete CRD: HTTP %d %s", code, msg)
		}
		pollFor(b, "404", 5*time.Minute, func() bool { return l.status("GET", crontabs+"?limit=1", nil) == http.StatusNotFound })
		took := time.Since(start)
		p := stop()
		mib := func(v uint64) float64 { return float64(v) / (1 << 20) }
		b.ReportMetric(mib(p.live-min(p.live, before.live)), "live-rise-MiB")
		b.ReportMetric(mib(p.goal), "goal-MiB")
		b.ReportMetric(mib(p.inuse), "inuse-MiB")
		b.Logf("%d instances deleted in %v; live heap before %.1f MiB; peaks: live %.1f, goal %.1f, in use %.1f MiB; live after each of %d collections: %v MiB",
			n, took.Round(time.Millisecond), mib(before.live), mib(p.live), mib(p.goal), mib(p.inuse), p.gcs, p.series)
	}
}
