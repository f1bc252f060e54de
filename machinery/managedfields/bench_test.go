package managedfields_test

import (
	"fmt"
	"syscall"
	"testing"
	"time"

	"github.com/crdlab/crdlab/apis/meta/v1/unstructured"
	"github.com/crdlab/crdlab/machinery/managedfields"
	"github.com/crdlab/crdlab/machinery/openapi"
	"github.com/crdlab/crdlab/scheme"
)

// The cost of field management on the writes of a custom resource the size
// of the benchmark's (≈ 600 bytes: bench/internal/workload), without the
// HTTP, decoding and storage around it: what every create, update and
// apply pays on top of the rest (docs/perf.md, "What managedFields cost").

const benchSpec = `{"type":"object","properties":{"spec":{"type":"object","properties":{
  "size":{"type":"integer"},"color":{"type":"string"},"counter":{"type":"integer"},
  "payload":{"type":"string"},"tags":{"type":"array","items":{"type":"string"}},
  "ports":{"type":"array","x-kubernetes-list-type":"map","x-kubernetes-list-map-keys":["name"],
    "items":{"type":"object","required":["name"],"properties":{"name":{"type":"string"},"port":{"type":"integer"}}}}}}}}`

// cpuTime is the process's user and system CPU time so far.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// reportCPU adds a cpu-ns/op metric: on a shared machine (this one runs
// other people's builds) the wall time per op mostly measures waiting for
// a core; the CPU time the process spent is what the work costs.
func reportCPU(b *testing.B) func() {
	start := cpuTime()
	return func() { b.ReportMetric(float64(cpuTime()-start)/float64(b.N), "cpu-ns/op") }
}

func benchManager(b *testing.B) *managedfields.FieldManager {
	b.Helper()
	models, err := openapi.Models([]openapi.Resource{{Group: "bench.crdlab.dev", Version: "v1", Kind: "Widget", Plural: "widgets", SchemaJSON: []byte(benchSpec)}})
	if err != nil {
		b.Fatal(err)
	}
	tc, err := managedfields.NewTypeConverter(models, false)
	if err != nil {
		b.Fatal(err)
	}
	fm, err := managedfields.New(managedfields.Config{TypeConverter: tc, Kind: scheme.GroupVersionKind{Group: "bench.crdlab.dev", Version: "v1", Kind: "Widget"}})
	if err != nil {
		b.Fatal(err)
	}
	return fm
}

// benchObject is a widget with counter and, if ports > 0, a list-type map.
func benchObject(counter, ports int) *unstructured.Unstructured {
	spec := map[string]any{"size": int64(counter % 1000), "color": "blue", "counter": int64(counter),
		"payload": "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef" +
			"0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef" +
			"0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef" +
			"0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef",
		"tags": []any{"alpha", "beta", "gamma"}}
	if ports > 0 {
		list := make([]any, ports)
		for i := range list {
			list[i] = map[string]any{"name": fmt.Sprintf("p%02d", i), "port": int64(7000 + i)}
		}
		list[counter%ports].(map[string]any)["port"] = int64(8000 + counter)
		spec["ports"] = list
	}
	return &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "bench.crdlab.dev/v1", "kind": "Widget",
		"metadata": map[string]any{"name": "w", "namespace": "bench", "labels": map[string]any{"app": "crdbench"}},
		"spec":     spec,
	}}
}

func BenchmarkFieldManager_UpdateCreate(b *testing.B) {
	fm := benchManager(b)
	b.ReportAllocs()
	defer reportCPU(b)()
	for i := 0; b.Loop(); i++ {
		if _, err := fm.Update(fm.NewEmptyObject(), benchObject(i, 0), "creator"); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkFieldManager_UpdateChange(b *testing.B) {
	fm := benchManager(b)
	live, _ := fm.Update(fm.NewEmptyObject(), benchObject(0, 0), "creator")
	live.SetUID("uid")
	b.ReportAllocs()
	defer reportCPU(b)()
	for i := 1; b.Loop(); i++ {
		obj := benchObject(i, 0)
		obj.SetUID("uid")
		if _, err := fm.Update(live, obj, "updater"); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkFieldManager_ApplyChange(b *testing.B) {
	fm := benchManager(b)
	live, _ := fm.Apply(fm.NewEmptyObject(), benchObject(0, 0), "applier", false)
	live.SetUID("uid")
	b.ReportAllocs()
	defer reportCPU(b)()
	for i := 1; b.Loop(); i++ {
		if _, err := fm.Apply(live, benchObject(i, 0), "applier", false); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkFieldManager_ApplyListMap20(b *testing.B) {
	fm := benchManager(b)
	live, _ := fm.Apply(fm.NewEmptyObject(), benchObject(0, 20), "applier", false)
	live.SetUID("uid")
	b.ReportAllocs()
	defer reportCPU(b)()
	for i := 1; b.Loop(); i++ {
		if _, err := fm.Apply(live, benchObject(i, 20), "applier", false); err != nil {
			b.Fatal(err)
		}
	}
}
