package apiserver

import (
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"os"
	"runtime"
	rtmetrics "runtime/metrics"
	"runtime/pprof"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/crdlab/crdlab/internal/crdgen"
)

var (
	crP50Sizes   = flag.String("crp50.sizes", "1x4x1,500x4x1", "BenchmarkCRCreateWithCRDs: the loads, count×KiB×versions, comma-separated")
	crP50Ballast = flag.Int("crp50.ballast", 0, "BenchmarkCRCreateWithCRDs: MiB of pointer-rich live heap added in loads of more than one CRD (a large server's heap without its CPU)")
	crP50IdleGC  = flag.Bool("crp50.idlegc", true, "BenchmarkCRCreateWithCRDs: run the idle collection (idlegc.go)")
	crP50Ctrl    = flag.String("crp50.controllers", "", "BenchmarkCRCreateWithCRDs: the servers' --controllers, comma-separated")
	crP50N       = flag.Int("crp50.crs", 100, "BenchmarkCRCreateWithCRDs: custom resources created per measure")
	crP50CPU     = flag.String("crp50.cpuprofile", "", "BenchmarkCRCreateWithCRDs: write a CPU profile of the creates at the last load here")
)

// ballastNode is one node of the ballast: pointers for the collector to
// follow, as the maps and structs of decoded schemas are.
type ballastNode struct {
	next, other *ballastNode
	pad         [6]uintptr
}

var crP50Ballast_ []*ballastNode

// BenchmarkCRCreateWithCRDs is the CR create latency with N CRDs present,
// measured as crdbench's crds phase does (bench/cmd/crdbench/crds.go:crdsOne):
// a server with fsync on, N generated CRDs created and Established, a
// quiet spell, a burst of discovery and OpenAPI reads (as the bench's
// discovery, OpenAPI and kubectl api-resources measures), and right after
// it one client creating -crp50.crs custom resources one after another.
//
//	go test -run '^$' -bench CRCreateWithCRDs -benchtime 1x ./apiserver/ \
//	  [-crp50.sizes 1x4x1,2000x4x1] [-crp50.ballast 1500] [-crp50.idlegc=false]
func BenchmarkCRCreateWithCRDs(b *testing.B) {
	if !*crP50IdleGC {
		saved := defaultIdleGC
		defaultIdleGC = idleGC{tick: time.Hour, burst: 1 << 62}
		b.Cleanup(func() { defaultIdleGC = saved })
	}
	for _, load := range strings.Split(*crP50Sizes, ",") {
		var n, kib, versions int
		if _, err := fmt.Sscanf(load, "%dx%dx%d", &n, &kib, &versions); err != nil {
			b.Fatalf("-crp50.sizes %q: %v", load, err)
		}
		b.Run(fmt.Sprintf("crds=%d/KiB=%d/versions=%d", n, kib, versions), func(b *testing.B) {
			for b.Loop() {
				if n > 1 && *crP50Ballast > 0 {
					crP50Ballast_ = makeBallast(*crP50Ballast << 20)
					b.Cleanup(func() { crP50Ballast_ = nil; runtime.GC() })
				}
				cfg := &Config{DataDir: b.TempDir(), Listen: "127.0.0.1:0", Logger: slog.New(slog.DiscardHandler)}
				if *crP50Ctrl != "" {
					cfg.Controllers = strings.Split(*crP50Ctrl, ",")
				}
				l := loadCRDsWith(b, cfg, n, kib, versions)
				waitQuiet(b, 4<<20, 3)
				// The burst: discovery, every group version's OpenAPI.
				for range 20 {
					l.status("GET", "/apis", nil)
					code := l.getAccept("/apis", "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList")
					if code != 200 {
						b.Fatalf("aggregated discovery: HTTP %d", code)
					}
				}
				for gv := range l.gvs {
					l.status("GET", "/openapi/v3/apis/"+gv, nil)
				}
				o := genOptions(0, kib, versions)
				names := crdgen.NamesOf(0, o)
				path := "/apis/" + names.Group + "/" + names.Versions[len(names.Versions)-1] + "/" + names.Plural
				// The bodies first, so that the profile below is the server's
				// work and the client's requests, not the generator's.
				bodies := make([][]byte, *crP50N)
				for i := range bodies {
					bodies[i] = crdgen.Object(0, o, fmt.Sprintf("cr-%d", i))
				}
				gcs0, forced0 := gcCycles()
				if *crP50CPU != "" {
					f, err := os.Create(*crP50CPU)
					if err != nil {
						b.Fatal(err)
					}
					if err := pprof.StartCPUProfile(f); err != nil {
						b.Fatal(err)
					}
					b.Cleanup(func() { pprof.StopCPUProfile(); f.Close() })
				}
				lat := make([]time.Duration, 0, *crP50N)
				for _, body := range bodies {
					start := time.Now()
					if code, msg := l.do("POST", path, body); code != 201 {
						b.Fatalf("create: HTTP %d: %s", code, msg)
					}
					lat = append(lat, time.Since(start))
				}
				gcs1, forced1 := gcCycles()
				if *crP50CPU != "" {
					pprof.StopCPUProfile()
				}
				slices.Sort(lat)
				ms := func(q float64) float64 { return float64(lat[int(q*float64(len(lat)-1))].Microseconds()) / 1000 }
				b.ReportMetric(ms(0.5), "p50-ms")
				b.ReportMetric(ms(0.9), "p90-ms")
				b.ReportMetric(float64(gcs1-gcs0), "gcs")
				b.Logf("%d CRDs: CR create p50 %.2f ms, p90 %.2f ms, max %.2f ms; GC cycles during the creates %d (forced %d)",
					n, ms(0.5), ms(0.9), ms(1), gcs1-gcs0, forced1-forced0)
			}
		})
	}
}

func makeBallast(bytes int) []*ballastNode {
	nodes := make([]*ballastNode, bytes/64)
	for i := range nodes {
		nodes[i] = &ballastNode{}
		if i > 0 {
			nodes[i].next = nodes[i-1]
			nodes[i].other = nodes[i/2]
		}
	}
	return nodes
}

// gcCycles returns the process's GC cycles so far, and the forced ones.
func gcCycles() (total, forced uint64) {
	s := []rtmetrics.Sample{{Name: "/gc/cycles/total:gc-cycles"}, {Name: "/gc/cycles/forced:gc-cycles"}}
	rtmetrics.Read(s)
	return s[0].Value.Uint64(), s[1].Value.Uint64()
}

// waitQuiet waits until the process has allocated under quiet bytes a
// second for seconds seconds in a row (the bench waits for the server's
// CPU to settle).
func waitQuiet(tb testing.TB, quiet uint64, seconds int) {
	s := []rtmetrics.Sample{{Name: "/gc/heap/allocs:bytes"}}
	allocs := func() uint64 { rtmetrics.Read(s); return s[0].Value.Uint64() }
	last, calm := allocs(), 0
	for deadline := time.Now().Add(5 * time.Minute); calm < seconds; {
		if time.Now().After(deadline) {
			tb.Fatal("the server did not go quiet within 5 minutes")
		}
		time.Sleep(time.Second)
		now := allocs()
		if now-last < quiet {
			calm++
		} else {
			calm = 0
		}
		last = now
	}
}

// getAccept GETs path with an Accept header and returns its HTTP status.
func (l *crdLoad) getAccept(path, accept string) int {
	req, _ := http.NewRequest("GET", l.url+path, nil)
	req.Header.Set("Accept", accept)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0
	}
	defer resp.Body.Close()
	io.Copy(io.Discard, resp.Body) //nolint:errcheck
	return resp.StatusCode
}
