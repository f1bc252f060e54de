package apiserver

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
)

// fanoutCRDJSON is the bench's watched CRD (bench/internal/workload:
// NewCRD): a structural schema with a list-type map, a status
// subresource.
const fanoutCRDJSON = `{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition",
"metadata":{"name":"fanwidgets.bench.example.com"},
"spec":{"group":"bench.example.com","scope":"Namespaced",
 "names":{"plural":"fanwidgets","singular":"fanwidget","kind":"Fanwidget","listKind":"FanwidgetList"},
 "versions":[{"name":"v1","served":true,"storage":true,"subresources":{"status":{}},
  "schema":{"openAPIV3Schema":{"type":"object","properties":{
   "spec":{"type":"object","properties":{
     "size":{"type":"integer"},"color":{"type":"string"},"counter":{"type":"integer"},
     "payload":{"type":"string"},"tags":{"type":"array","items":{"type":"string"}},
     "ports":{"type":"array","x-kubernetes-list-type":"map","x-kubernetes-list-map-keys":["name"],
      "items":{"type":"object","required":["name"],"properties":{"name":{"type":"string"},"port":{"type":"integer"}}}}}},
   "status":{"type":"object","properties":{"phase":{"type":"string"}}}}}}}]}}`

// fanoutObject is the bench's watched object (workload.CRD.Object), about
// 600 bytes as served.
func fanoutObject(counter int, rv string) string {
	var rvField string
	if rv != "" {
		rvField = fmt.Sprintf(`,"resourceVersion":%q`, rv)
	}
	return fmt.Sprintf(`{"apiVersion":"bench.example.com/v1","kind":"Fanwidget","metadata":{"name":"fan","namespace":"default","labels":{"app":"crdbench","shard":"s%d"}%s},"spec":{"size":%d,"color":"blue","counter":%d,"payload":%q,"tags":["alpha","beta","gamma"]}}`,
		counter%16, rvField, counter%1000, counter, strings.Repeat("0123456789abcdef", 20))
}

// BenchmarkWatchFanout_Update is the bench's watch fan-out in one
// process: W watches of a namespace over loopback HTTP, and one writer
// PUTting one custom resource, each update conditional on the last. It
// reports the process's CPU (server and the W readers, which only count
// lines) per update, once every watcher has read every event; run it
// with -cpuprofile to see where a server's update and its fan-out go.
// Storage does not fsync: the CPU is what is measured. The kube
// controllers run (as in crdlab serve) unless the sub-benchmark says
// "nocontrollers".
func BenchmarkWatchFanout_Update(b *testing.B) {
	for _, bc := range []struct {
		name        string
		watchers    int
		controllers []string
	}{
		{"watchers=0", 0, nil},
		{"watchers=100", 100, nil},
		{"watchers=100/nocontrollers", 100, []string{"-" + NamespaceControllerName, "-" + GarbageCollectorControllerName}},
	} {
		b.Run(bc.name, func(b *testing.B) { benchWatchFanout(b, bc.watchers, bc.controllers) })
	}
}

func benchWatchFanout(b *testing.B, watchers int, controllers []string) {
	url, _ := runNoSync(b, Config{Controllers: controllers})
	c := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 4}}
	do := func(method, path, body string) (int, []byte) {
		req, _ := http.NewRequest(method, url+path, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		resp, err := c.Do(req)
		if err != nil {
			return 0, nil
		}
		defer resp.Body.Close()
		out, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, out
	}
	poll := func(what string, ok func() bool) {
		for deadline := time.Now().Add(30 * time.Second); !ok(); time.Sleep(10 * time.Millisecond) {
			if time.Now().After(deadline) {
				b.Fatalf("%s: not within 30s", what)
			}
		}
	}
	poll("ready", func() bool { code, _ := do("GET", "/readyz", ""); return code == 200 })
	if code, body := do("POST", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions", fanoutCRDJSON); code != 201 {
		b.Fatalf("create CRD: %d %s", code, body)
	}
	const path = "/apis/bench.example.com/v1/namespaces/default/fanwidgets"
	poll("fanwidgets served", func() bool { code, _ := do("GET", path, ""); return code == 200 })
	code, body := do("POST", path, fanoutObject(0, ""))
	if code != 201 {
		b.Fatalf("create: %d %s", code, body)
	}
	rv := resourceVersionOf(body)

	// The watchers: each counts the events it reads.
	wctx, stop := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	b.Cleanup(func() { stop(); wg.Wait() })
	counts := make([]atomic.Int64, watchers)
	wc := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: watchers + 1}}
	for i := range watchers {
		req, _ := http.NewRequestWithContext(wctx, "GET", url+path+"?watch=1&resourceVersion="+rv, nil)
		resp, err := wc.Do(req)
		if err != nil || resp.StatusCode != 200 {
			b.Fatalf("watch: %v %v", err, resp)
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer resp.Body.Close()
			br := bufio.NewReaderSize(resp.Body, 64<<10)
			for {
				line, err := br.ReadSlice('\n')
				if err != nil {
					return
				}
				if bytes.Contains(line, []byte(`"type":"MODIFIED"`)) {
					counts[i].Add(1)
				}
			}
		}()
	}
	var n int64
	update := func() {
		n++
		code, body := do("PUT", path+"/fan", fanoutObject(int(n), rv))
		if code != 200 {
			b.Fatalf("update: %d %s", code, body)
		}
		rv = resourceVersionOf(body)
	}
	allSeen := func() bool {
		for i := range counts {
			if counts[i].Load() < n {
				return false
			}
		}
		return true
	}
	update() // every watch is live
	poll("the warm-up update seen", allSeen)

	cpu0 := cpuTime()
	b.ResetTimer()
	for b.Loop() {
		update()
	}
	poll("every update seen", allSeen)
	b.StopTimer()
	b.ReportMetric(float64((cpuTime()-cpu0).Microseconds())/float64(b.N), "cpu-µs/update")
}

// cpuTime is the process's user and system CPU time so far.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// resourceVersionOf is the metadata.resourceVersion in a JSON object.
func resourceVersionOf(body []byte) string {
	const key = `"resourceVersion":"`
	i := bytes.Index(body, []byte(key))
	if i < 0 {
		return ""
	}
	rest := body[i+len(key):]
	return string(rest[:bytes.IndexByte(rest, '"')])
}
