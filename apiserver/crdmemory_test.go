package apiserver

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"os"
	"runtime"
	"runtime/debug"
	"runtime/pprof"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/crdlab/crdlab/internal/crdgen"
	"github.com/crdlab/crdlab/storage/bolt"
	"github.com/crdlab/crdlab/trace"
)

// crdMemProfile, if set, is where BenchmarkMemoryPerCRD writes a heap
// profile of the server once every OpenAPI document has been served
// (go tool pprof -sample_index=inuse_space); the profile taken when every
// CRD had just become Established goes to the same name plus
// ".established"; the server's goroutines go to the same names plus
// ".goroutines" (pprof's text form).
var crdMemProfile = flag.String("crdmem.heapprofile", "", "BenchmarkMemoryPerCRD: write a heap profile of the settled server here")

// crdMemControllers, if set, is the servers' --controllers (say
// "*,-garbage-collector-controller" to see what the collector's monitors cost).
var crdMemControllers = flag.String("crdmem.controllers", "", "BenchmarkMemoryPerCRD: the servers' --controllers, comma-separated")

// crdMemCPUProfile, if set, is where BenchmarkMemoryPerCRD writes a CPU
// profile of the process from the first create until every CRD is
// Established and served (go tool pprof).
var crdMemCPUProfile = flag.String("crdmem.cpuprofile", "", "BenchmarkMemoryPerCRD: write a CPU profile of the creates until all are Established here")

// crdMemTrace, if set, is where the server's narrated trace goes.
var crdMemTrace = flag.String("crdmem.trace", "", "BenchmarkMemoryPerCRD: write the server's trace log here")

// crdMemSizes are the sizes BenchmarkMemoryPerCRD loads:
// "count×KiB×versions", comma-separated.
var crdMemSizes = flag.String("crdmem.sizes", "100x265x2", "BenchmarkMemoryPerCRD: the loads to measure, count×KiB×versions, comma-separated")

// genOptions are the crdgen options of CRD i of a load: ten groups (as a
// provider spreads its kinds over services), sizeKiB each, versions
// versions.
func genOptions(i, sizeKiB, versions int) crdgen.Options {
	return crdgen.Options{Group: fmt.Sprintf("svc%d.provider.example.io", i%10), Bytes: sizeKiB << 10, Versions: versions, Seed: 1}
}

// crdLoad is a server with many generated CRDs, all Established and
// served, and what it took to get there.
type crdLoad struct {
	url string
	// names are the CRDs' names; gvs their group versions.
	names []string
	gvs   map[string]bool
	// jsonBytes is the size of every CRD's JSON together.
	jsonBytes int
	// bodies are the CRDs' JSON, generated with sizeKiB and versions.
	bodies            [][]byte
	sizeKiB, versions int
	// created is when the last create was answered.
	created time.Time
}

// loadCRDs starts a server and creates n generated CRDs through it (4
// clients), then waits until every one is Established and its resource
// is served.
func loadCRDs(tb testing.TB, n, sizeKiB, versions int) *crdLoad {
	tb.Helper()
	return loadCRDsWith(tb, &Config{DataDir: tb.TempDir(), Listen: "127.0.0.1:0",
		Logger: slog.New(slog.DiscardHandler), Storage: bolt.Options{NoSync: true}}, n, sizeKiB, versions)
}

// loadCRDsWith is loadCRDs with a server made from cfg.
func loadCRDsWith(tb testing.TB, cfg *Config, n, sizeKiB, versions int) *crdLoad {
	tb.Helper()
	return generateCRDs(n, sizeKiB, versions).load(tb, cfg)
}

// generateCRDs returns a load of n generated CRDs, not yet created: their
// bodies, names and group versions. Generating a real-size CRD takes tens
// of milliseconds of CPU, so a benchmark that measures the server's CPU
// generates before it starts measuring.
func generateCRDs(n, sizeKiB, versions int) *crdLoad {
	l := &crdLoad{gvs: map[string]bool{}, sizeKiB: sizeKiB, versions: versions}
	l.bodies = make([][]byte, n)
	for i := range n {
		o := genOptions(i, sizeKiB, versions)
		l.bodies[i] = crdgen.CRD(i, o)
		l.jsonBytes += len(l.bodies[i])
		names := crdgen.NamesOf(i, o)
		l.names = append(l.names, names.Name)
		for _, v := range names.Versions {
			l.gvs[names.Group+"/"+v] = true
		}
	}
	return l
}

// load starts a server made from cfg and creates l's CRDs through it (4
// clients), then waits until every one is Established and its resource
// is served.
func (l *crdLoad) load(tb testing.TB, cfg *Config) *crdLoad {
	tb.Helper()
	n, sizeKiB, versions, bodies := len(l.bodies), l.sizeKiB, l.versions, l.bodies
	if *crdMemControllers != "" {
		cfg.Controllers = strings.Split(*crdMemControllers, ",")
	}
	if *crdMemTrace != "" {
		f, err := os.Create(*crdMemTrace)
		if err != nil {
			tb.Fatal(err)
		}
		tb.Cleanup(func() { f.Close() })
		cfg.Tracer = trace.New(trace.Options{Log: f})
	}
	s, err := completeNew(cfg)
	if err != nil {
		tb.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- s.Run(ctx) }()
	tb.Cleanup(func() { cancel(); <-done })
	l.url = "http://" + s.Addr()
	pollFor(tb, "ready", time.Minute, func() bool { return l.status("GET", "/readyz", nil) == 200 })

	var wg sync.WaitGroup
	errs := make(chan error, n)
	next := make(chan int)
	for range 4 {
		wg.Go(func() {
			for i := range next {
				if code := l.status("POST", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions", bodies[i]); code != 201 {
					errs <- fmt.Errorf("create CRD %d: HTTP %d", i, code)
				}
			}
		})
	}
	for i := range n {
		next <- i
	}
	close(next)
	wg.Wait()
	close(errs)
	for err := range errs {
		tb.Fatal(err)
	}
	l.created = time.Now()
	for i, name := range l.names {
		o := genOptions(i, sizeKiB, versions)
		names := crdgen.NamesOf(i, o)
		pollFor(tb, name+" served", 5*time.Minute, func() bool {
			return l.status("GET", "/apis/"+names.Group+"/"+names.Versions[0]+"/"+names.Plural, nil) == 200
		})
	}
	pollFor(tb, "all Established", 5*time.Minute, func() bool { return l.established() == n })
	return l
}

// status sends a request and returns its HTTP status (0 on a transport
// error).
func (l *crdLoad) status(method, path string, body []byte) int {
	code, _ := l.do(method, path, body)
	return code
}

// do sends a request and returns its HTTP status (0 on a transport error)
// and the start of its body.
func (l *crdLoad) do(method, path string, body []byte) (int, string) {
	req, _ := http.NewRequest(method, l.url+path, bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, err.Error()
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(io.LimitReader(resp.Body, 2000))
	io.Copy(io.Discard, resp.Body) //nolint:errcheck
	return resp.StatusCode, string(b)
}

// established counts the Established CRDs.
func (l *crdLoad) established() int {
	resp, err := http.Get(l.url + "/apis/apiextensions.k8s.io/v1/customresourcedefinitions")
	if err != nil {
		return 0
	}
	defer resp.Body.Close()
	var list struct {
		Items []struct {
			Status struct {
				Conditions []struct{ Type, Status string }
			}
		}
	}
	if json.NewDecoder(resp.Body).Decode(&list) != nil {
		return 0
	}
	n := 0
	for _, crd := range list.Items {
		for _, c := range crd.Status.Conditions {
			if c.Type == "Established" && c.Status == "True" {
				n++
			}
		}
	}
	return n
}

// pollFor polls cond every 20ms until it holds, or fails tb after limit.
func pollFor(tb testing.TB, what string, limit time.Duration, cond func() bool) {
	tb.Helper()
	for deadline := time.Now().Add(limit); !cond(); time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			tb.Fatalf("%s: not within %s", what, limit)
		}
	}
}

// memSample is the process's memory at one moment, after two GCs and
// returning freed memory to the OS.
type memSample struct {
	// heap is the live Go heap (HeapAlloc); heapInuse the spans holding it
	// (HeapInuse, fragmentation included).
	heap, heapInuse uint64
	// stack is the goroutines' stacks (StackInuse).
	stack uint64
	// runtime is what else the Go runtime holds from the OS (Sys less
	// what it returned: stacks, span and GC metadata, free spans not yet
	// returned); goroutines counts the goroutines.
	runtime    uint64
	goroutines int
	// rssAnon and rssFile split the resident set (Linux; 0 elsewhere):
	// anonymous memory (the Go heap, stacks) and file pages mapped in
	// (bbolt's data file).
	rssAnon, rssFile uint64
	// cpu is the process's user and system CPU time so far.
	cpu time.Duration
}

func sampleMemory() memSample {
	runtime.GC()
	runtime.GC()
	debug.FreeOSMemory()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	m := memSample{heap: ms.HeapAlloc, heapInuse: ms.HeapInuse, stack: ms.StackInuse,
		runtime: ms.Sys - ms.HeapReleased - ms.HeapInuse, goroutines: runtime.NumGoroutine()}
	if b, err := os.ReadFile("/proc/self/status"); err == nil {
		for line := range strings.Lines(string(b)) {
			field, rest, _ := strings.Cut(line, ":")
			kb, _ := strconv.ParseUint(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			switch field {
			case "RssAnon":
				m.rssAnon = kb << 10
			case "RssFile":
				m.rssFile = kb << 10
			}
		}
	}
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) == nil {
		m.cpu = time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	}
	return m
}

// writeHeapProfile writes a heap profile to -crdmem.heapprofile plus
// suffix, if the flag is set.
func writeHeapProfile(b *testing.B, suffix string) {
	if *crdMemProfile == "" {
		return
	}
	f, err := os.Create(*crdMemProfile + suffix)
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	if err := pprof.Lookup("heap").WriteTo(f, 0); err != nil {
		b.Fatal(err)
	}
	g, err := os.Create(*crdMemProfile + suffix + ".goroutines")
	if err != nil {
		b.Fatal(err)
	}
	defer g.Close()
	if err := pprof.Lookup("goroutine").WriteTo(g, 1); err != nil {
		b.Fatal(err)
	}
}

// startCPUProfile starts a CPU profile into -crdmem.cpuprofile, if the
// flag is set, and returns what stops it.
func startCPUProfile(b *testing.B) (stop func()) {
	if *crdMemCPUProfile == "" {
		return func() {}
	}
	f, err := os.Create(*crdMemCPUProfile)
	if err != nil {
		b.Fatal(err)
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		b.Fatal(err)
	}
	return func() {
		pprof.StopCPUProfile()
		if err := f.Close(); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkMemoryPerCRD loads real-size CRDs (internal/crdgen: shaped as
// providers' CRDs) into an in-process server and reports what each costs
// once the server has settled: the live Go heap and the resident set per
// CRD, before and after every group version's OpenAPI document and the
// aggregated discovery have been asked for once. The heap includes the
// test's own client, which holds nothing between requests.
//
//	go test -run '^$' -bench MemoryPerCRD -benchtime 1x ./apiserver/ \
//	  [-crdmem.sizes 100x265x2,100x60x2] [-crdmem.heapprofile /tmp/heap.pprof] \
//	  [-crdmem.cpuprofile /tmp/cpu.pprof]
func BenchmarkMemoryPerCRD(b *testing.B) {
	for _, load := range strings.Split(*crdMemSizes, ",") {
		var n, kib, versions int
		if _, err := fmt.Sscanf(load, "%dx%dx%d", &n, &kib, &versions); err != nil {
			b.Fatalf("-crdmem.sizes %q: %v", load, err)
		}
		b.Run(fmt.Sprintf("crds=%d/KiB=%d/versions=%d", n, kib, versions), func(b *testing.B) {
			for b.Loop() {
				gen := generateCRDs(n, kib, versions)
				m0 := sampleMemory()
				stopCPUProfile := startCPUProfile(b)
				start := time.Now()
				l := gen.load(b, &Config{DataDir: b.TempDir(), Listen: "127.0.0.1:0",
					Logger: slog.New(slog.DiscardHandler), Storage: bolt.Options{NoSync: true}})
				took := time.Since(start)
				stopCPUProfile()
				m1 := sampleMemory()
				writeHeapProfile(b, ".established")
				for gv := range l.gvs {
					if code := l.status("GET", "/openapi/v3/apis/"+gv, nil); code != 200 {
						b.Fatalf("openapi %s: HTTP %d", gv, code)
					}
				}
				req, _ := http.NewRequest("GET", l.url+"/apis", nil)
				req.Header.Set("Accept", "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList")
				if resp, err := http.DefaultClient.Do(req); err == nil {
					io.Copy(io.Discard, resp.Body) //nolint:errcheck
					resp.Body.Close()
				}
				m2 := sampleMemory()
				writeHeapProfile(b, "")
				per := func(after, before uint64) float64 { return (float64(after) - float64(before)) / float64(n) }
				mib := func(after, before uint64) float64 { return per(after, before) / (1 << 20) }
				jsonPer := float64(l.jsonBytes) / float64(n)
				b.ReportMetric(jsonPer, "json-B/CRD")
				b.ReportMetric(per(m1.heap, m0.heap), "heap-B/CRD")
				b.ReportMetric(per(m2.heap, m0.heap), "heap-B/CRD-served")
				b.ReportMetric(per(m2.rssAnon+m2.rssFile, m0.rssAnon+m0.rssFile), "rss-B/CRD-served")
				b.ReportMetric((m1.cpu-m0.cpu).Seconds()/float64(n), "cpu-s/CRD")
				b.Logf("%d CRDs of %d KiB JSON, %d versions: Established and served after %.1f s (%.2f s CPU per CRD); creates answered after %.1f s",
					n, int(jsonPer)>>10, versions, took.Seconds(), (m1.cpu-m0.cpu).Seconds()/float64(n), l.created.Sub(start).Seconds())
				b.Logf("per CRD, settled: heap +%.2f MiB (%.1f× its JSON; in use +%.2f), RSS +%.2f MiB (anonymous +%.2f, file +%.2f)",
					mib(m1.heap, m0.heap), per(m1.heap, m0.heap)/jsonPer, mib(m1.heapInuse, m0.heapInuse),
					mib(m1.rssAnon+m1.rssFile, m0.rssAnon+m0.rssFile), mib(m1.rssAnon, m0.rssAnon), mib(m1.rssFile, m0.rssFile))
				b.Logf("per CRD, settled: Go runtime besides the heap's spans +%.2f MiB; goroutines %d -> %d",
					mib(m1.runtime, m0.runtime), m0.goroutines, m1.goroutines)
				b.Logf("per CRD, once every OpenAPI document and aggregated discovery were served: heap +%.2f MiB, RSS +%.2f MiB (anonymous +%.2f, file +%.2f)",
					mib(m2.heap, m0.heap), mib(m2.rssAnon+m2.rssFile, m0.rssAnon+m0.rssFile), mib(m2.rssAnon, m0.rssAnon), mib(m2.rssFile, m0.rssFile))
			}
		})
	}
}

// TestGeneratedCRDs checks that the generator's provider-shaped CRDs are
// what a server accepts and serves: created (their CEL rules compiled and
// cost-checked), Established, and an instance with the required
// parameters created in the storage version and read in the other.
func TestGeneratedCRDs(t *testing.T) {
	const n, kib, versions = 3, 60, 2
	l := loadCRDs(t, n, kib, versions)
	for i := range n {
		o := genOptions(i, kib, versions)
		names := crdgen.NamesOf(i, o)
		path := "/apis/" + names.Group + "/" + names.Versions[len(names.Versions)-1] + "/" + names.Plural
		if code, body := l.do("POST", path, crdgen.Object(i, o, "ok")); code != 201 {
			t.Errorf("create a %s with its required parameters: HTTP %d, want 201: %s", names.Kind, code, body)
		}
		if code, body := l.do("GET", "/apis/"+names.Group+"/"+names.Versions[0]+"/"+names.Plural+"/ok", nil); code != 200 {
			t.Errorf("get the %s in %s: HTTP %d, want 200: %s", names.Kind, names.Versions[0], code, body)
		}
	}
}
