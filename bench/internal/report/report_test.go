package report

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/crdlab/crdlab/bench/internal/stats"
)

func sample() *Results {
	lat := func(p50, p99 float64) stats.Latencies {
		return stats.Latencies{N: 100, P50: p50, P99: p99, Max: p99 * 2, Curve: []float64{p50, p99}}
	}
	srv := func(name string, k float64) *Server {
		return &Server{
			Name: name, Desc: name,
			Established: lat(20*k, 30*k), FirstCR: lat(50*k, 60*k),
			Create1:    Throughput{N: 100, PerSec: 300 / k, Lat: lat(3*k, 10*k)},
			Create16:   Throughput{N: 100, PerSec: 600 / k, Lat: lat(20*k, 60*k), CPUMsPerOp: 2 * k},
			Get:        Throughput{N: 100, PerSec: 500 / k, Lat: lat(1.5*k, 5*k)},
			ListLatest: List{Objects: 10, Bytes: 3e6, Lat: lat(300*k, 400*k)},
			ListRV0:    List{Objects: 10, Bytes: 3e6, Lat: lat(120*k, 150*k)},
			WatchSmall: &Watch{Watchers: 10, Updates: 10, EventsPerSec: 2e4 / k, Lat: lat(1*k, 60*k)},
			WatchBig:   &Watch{Watchers: 20, Updates: 10, EventsPerSec: 2e4 / k, Lat: lat(1*k, 80*k)},
			DeleteCRD:  &DeleteCRD{Instances: 10, Ms: 15000 * k},
			Memory:     map[string]ProcMem{"apiextensions-apiserver": {PeakRSS: 400 << 20}, "etcd": {PeakRSS: 60 << 20}, "crdlab": {PeakRSS: 50 << 20}},
			PeakRSS:    int64(460 * k * (1 << 20)),
		}
	}
	r := &Results{
		Meta:    Meta{Params: Params{ListObjects: 10, WatchSmall: 10, WatchBig: 20, WatchUpdates: 10, Rounds: 2}, Versions: map[string]string{}},
		Fsync:   Fsync{Before: 1000, After: 1200},
		Servers: map[string]*Server{Reference: srv(Reference, 1), Crdlab: srv(Crdlab, 0.1)},
	}
	r.Servers[Crdlab].WatchBig.Failed = ""
	return r
}

func TestCheckTargets(t *testing.T) {
	r := sample()
	r.CheckTargets()
	byName := map[string]Target{}
	for _, tg := range r.Targets {
		byName[tg.Name] = tg
	}
	if tg := byName["create, 16 clients: throughput"]; !tg.Met || tg.Value < 9.9 || tg.Value > 10.1 {
		t.Errorf("create 16 target = %+v", tg)
	}
	if tg := byName["create, 16 clients: server CPU per create"]; !tg.Met || tg.Value < 0.099 || tg.Value > 0.101 {
		t.Errorf("CPU per create target = %+v", tg)
	}
	const firstCR = "CRD created → first custom resource created (crdlab, p50; max in the results)"
	if tg := byName[firstCR]; !tg.Measured {
		t.Errorf("first CR target not measured: %+v", tg)
	}
	r.Servers[Crdlab].FirstCR = stats.Latencies{}
	r.CheckTargets()
	for _, tg := range r.Targets {
		if tg.Name == firstCR && tg.Measured {
			t.Errorf("a first-CR phase that did not run counts as measured: %+v", tg)
		}
	}
	r.Servers[Crdlab].WatchBig.Failed = "boom"
	r.CheckTargets()
	for _, tg := range r.Targets {
		if strings.HasPrefix(tg.Name, "watch 1,000") && tg.Measured {
			t.Errorf("a failed watch counts as measured: %+v", tg)
		}
	}
	delete(r.Servers, Reference)
	r.CheckTargets()
	for _, tg := range r.Targets {
		if strings.Contains(tg.Want, "reference") && tg.Measured {
			t.Errorf("%s measured without a reference", tg.Name)
		}
	}
}

// TestWrite writes every output of a run from sample results: the JSON
// reads back, the markdown names every chart, every chart is a PNG.
func TestWrite(t *testing.T) {
	r := sample()
	r.CheckTargets()
	dir := t.TempDir()
	charts, err := r.WriteCharts(filepath.Join(dir, "perf"))
	if err != nil {
		t.Fatal(err)
	}
	if err := r.WriteJSON(filepath.Join(dir, "perf.json")); err != nil {
		t.Fatal(err)
	}
	if err := r.WriteMarkdown(filepath.Join(dir, "perf.md"), filepath.Join(dir, "perf"), charts, "## Notes\n"); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(filepath.Join(dir, "perf.json"))
	var back Results
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatalf("perf.json: %v", err)
	}
	md, _ := os.ReadFile(filepath.Join(dir, "perf.md"))
	for _, c := range charts {
		if !strings.Contains(string(md), "(perf/"+c.File+")") {
			t.Errorf("perf.md does not show %s", c.File)
		}
		png, err := os.ReadFile(filepath.Join(dir, "perf", c.File))
		if err != nil || len(png) < 8 || string(png[1:4]) != "PNG" {
			t.Errorf("%s is not a PNG (%v)", c.File, err)
		}
	}
	if !strings.HasSuffix(string(md), "## Notes\n") {
		t.Error("perf.md does not end with the notes")
	}
}

// TestWrite_WatchRounds: a watch run in rounds shows each round's events/s
// next to the pooled figure; one run alone shows no such row.
func TestWrite_WatchRounds(t *testing.T) {
	if out := renderMarkdown(t, sample()); strings.Contains(out, "each round's events /s") {
		t.Error("a watch without rounds shows a row of rounds")
	}
	r := sample()
	r.Servers[Reference].WatchSmall.RoundEventsPerSec = []float64{19000, 21000}
	r.Servers[Crdlab].WatchSmall.RoundEventsPerSec = []float64{199000, 201000}
	out := renderMarkdown(t, r)
	if !strings.Contains(out, "| 19000, 21000 | 199000, 201000 |") {
		t.Errorf("perf.md does not list each round's events/s:\n%s", out)
	}
}

// TestObjectsMerge: a run of the family alone replaces its sizes and keeps the others,
// in order of size.
func TestObjectsMerge(t *testing.T) {
	old := &Objects{Sizes: []*ObjectsSize{{N: 10_000, Date: "old"}, {N: 100_000, Date: "old"}}}
	got := (&Objects{CatchUp: 10_000, Sizes: []*ObjectsSize{{N: 100_000, Date: "new"}, {N: 1_000, Date: "new"}}}).Merge(old)
	var desc []string
	for _, sz := range got.Sizes {
		desc = append(desc, fmt.Sprint(sz.N, " ", sz.Date))
	}
	if want := "1000 new, 10000 old, 100000 new"; strings.Join(desc, ", ") != want {
		t.Errorf("merged sizes: %s, want %s", strings.Join(desc, ", "), want)
	}
	if got.CatchUp != 10_000 {
		t.Errorf("CatchUp = %d", got.CatchUp)
	}
}

// TestWrite_HostCPU: a run that timed the host's CPU task shows it; an
// older run (no such figure) shows no row.
func TestWrite_HostCPU(t *testing.T) {
	if out := renderMarkdown(t, sample()); strings.Contains(out, "| host CPU |") {
		t.Error("a run without the CPU task shows a row for it")
	}
	r := sample()
	r.CPU = &CPUTask{BeforeMs: 2.5, AfterMs: 3.5}
	if out := renderMarkdown(t, r); !strings.Contains(out, "| 3.00 ms (before 2.50, after 3.50) |") {
		t.Errorf("perf.md does not show the CPU task:\n%s", out)
	}
}

// TestWrite_HostMemory: a run that timed the first touch of fresh pages
// shows it next to the CPU task; an older run shows no row.
func TestWrite_HostMemory(t *testing.T) {
	if out := renderMarkdown(t, sample()); strings.Contains(out, "| host memory |") {
		t.Error("a run without the page-touch figure shows a row for it")
	}
	r := sample()
	r.PageTouch = &PageTouch{PageBytes: 4096, BeforeUs: 20, AfterUs: 30}
	out := renderMarkdown(t, r)
	if !strings.Contains(out, "| host memory | first write to a fresh 4 KiB page (64 MiB mapped anonymous, one byte a page; median of 5) | 25.0 µs (before 20.0, after 30.0) |") {
		t.Errorf("perf.md does not show the page-touch figure:\n%s", out)
	}
}

// renderMarkdown checks r's targets and returns the perf.md it writes,
// without charts or notes.
func renderMarkdown(t *testing.T, r *Results) string {
	t.Helper()
	r.CheckTargets()
	dir := t.TempDir()
	if err := r.WriteMarkdown(filepath.Join(dir, "perf.md"), filepath.Join(dir, "perf"), nil, ""); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(filepath.Join(dir, "perf.md"))
	return string(b)
}
