package apiserver

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"strings"
	"syscall"
	"testing"
	"time"
)

// benchWidgetCRD is bench's widgets CRD (bench/internal/workload: CRD.JSON):
// spec.ports is a list-type map keyed by name.
const benchWidgetCRD = `{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition",
"metadata":{"name":"widgets.bench.crdlab.dev"},
"spec":{"group":"bench.crdlab.dev","scope":"Namespaced",
 "names":{"plural":"widgets","singular":"widget","kind":"Widget","listKind":"WidgetList"},
 "versions":[{"name":"v1","served":true,"storage":true,
  "subresources":{"status":{}},
  "schema":{"openAPIV3Schema":{"type":"object","properties":{
   "spec":{"type":"object","properties":{
     "size":{"type":"integer"},"color":{"type":"string"},"counter":{"type":"integer"},
     "payload":{"type":"string"},"tags":{"type":"array","items":{"type":"string"}},
     "ports":{"type":"array","x-kubernetes-list-type":"map","x-kubernetes-list-map-keys":["name"],
      "items":{"type":"object","required":["name"],"properties":{"name":{"type":"string"},"port":{"type":"integer"}}}}}},
   "status":{"type":"object","properties":{"phase":{"type":"string"}}}}}}}]}}`

// benchApplyBody is bench's apply configuration (CRD.ApplyObject) of
// widget name with ports list-map entries: entry counter%ports has port
// 8000+counter, so that each counter changes one entry.
func benchApplyBody(name string, counter, ports int) []byte {
	b := fmt.Appendf(nil, `{"apiVersion":"bench.crdlab.dev/v1","kind":"Widget","metadata":{"name":%q,"namespace":"bench","labels":{"app":"crdbench"}},"spec":{"size":%d,"color":"blue","counter":%d,"payload":%q,"tags":["alpha","beta","gamma"],"ports":[`,
		name, counter%1000, counter, strings.Repeat("0123456789abcdef", 20))
	for i := range ports {
		if i > 0 {
			b = append(b, ',')
		}
		port := 7000 + i
		if i == counter%ports {
			port = 8000 + counter
		}
		b = fmt.Appendf(b, `{"name":"p%02d","port":%d}`, i, port)
	}
	return append(b, "]}}"...)
}

// BenchmarkServerSideApply_ListMap20 is bench's "apply 100 objects × 20
// list-map entries" workload in process: one client applies, one after
// the other, to 100 widgets that each have 20 list-type map entries (the
// objects are created before the timer starts; each apply changes
// spec.counter and one entry's port). The server is a whole one, its
// controllers (namespace, garbage collector) and their watches included,
// on bbolt without fsync, so that what is measured is CPU. cpu-ns/op is
// the whole process's CPU (server and this client) per apply; allocs/op
// counts every goroutine's allocations.
//
//	go test -run '^$' -bench ServerSideApply -count 6 ./apiserver/
func BenchmarkServerSideApply_ListMap20(b *testing.B) {
	const objects, ports = 100, 20
	url, _ := runNoSync(b, Config{})
	l := &crdLoad{url: url}
	pollFor(b, "ready", time.Minute, func() bool { return l.status("GET", "/readyz", nil) == 200 })
	if code, msg := l.do("POST", "/api/v1/namespaces", []byte(`{"apiVersion":"v1","kind":"Namespace","metadata":{"name":"bench"}}`)); code != 201 {
		b.Fatalf("create namespace: %d %s", code, msg)
	}
	if code, msg := l.do("POST", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions", []byte(benchWidgetCRD)); code != 201 {
		b.Fatalf("create CRD: %d %s", code, msg)
	}
	const path = "/apis/bench.crdlab.dev/v1/namespaces/bench/widgets/"
	pollFor(b, "widgets served", time.Minute, func() bool { return l.status("GET", path[:len(path)-1], nil) == 200 })

	c := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 1}}
	apply := func(i, counter int) {
		name := fmt.Sprintf("applied-list-%06d", i)
		req, _ := http.NewRequest("PATCH", l.url+path+name+"?fieldManager=crdbench", bytes.NewReader(benchApplyBody(name, counter, ports)))
		req.Header.Set("Content-Type", "application/apply-patch+yaml")
		resp, err := c.Do(req)
		if err != nil {
			b.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 && resp.StatusCode != 201 {
			b.Fatalf("apply %s: %d %s", name, resp.StatusCode, body)
		}
	}
	for i := range objects {
		apply(i, 0)
	}
	cpu := func() time.Duration {
		var ru syscall.Rusage
		syscall.Getrusage(syscall.RUSAGE_SELF, &ru) //nolint:errcheck
		return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	}
	b.ReportAllocs()
	c0 := cpu()
	for i := 0; b.Loop(); i++ {
		apply(i%objects, 1+i/objects)
	}
	b.ReportMetric(float64(cpu()-c0)/float64(b.N), "cpu-ns/op")
}
