package apiserver

import (
	"bytes"
	"flag"
	"io"
	"net"
	"net/http"
	"os"
	"runtime"
	"runtime/pprof"
	"strings"
	"testing"
	"time"
)

// BenchmarkMemoryPerWatcher is what one open watch costs the server: 1,000
// watches of one resource, each on its own HTTP/1.1 connection over
// loopback (as the bench's 1,000-watcher fan-out opens them), measured
// idle and again after every watcher got one event. The live heap
// (after two collections), the goroutines' stacks and the goroutines are
// per watcher, less the server's before the watches opened. The client
// holds only its end of each connection (a few hundred bytes, in the
// figures): it reads each stream with one shared buffer, one connection
// after the other.
//
//	go test -run '^$' -bench MemoryPerWatcher -benchtime 1x ./apiserver/ \
//	  [-watchmem.heapprofile /tmp/watchers.pprof]
func BenchmarkMemoryPerWatcher(b *testing.B) {
	const n = 1000
	if *watchMemProfile != "" {
		runtime.MemProfileRate = 4096 // a profile that sees each watcher's allocations
	}
	for b.Loop() {
		url := benchServer(b, nil)
		addr := strings.TrimPrefix(url, "http://")
		crontabs := "/apis/stable.example.com/v1/namespaces/default/crontabs"
		create := func(name string) {
			body := `{"apiVersion":"stable.example.com/v1","kind":"CronTab","metadata":{"name":"` + name + `"},"spec":{"cronSpec":"* * * * */5"}}`
			resp, err := http.Post(url+crontabs, "application/json", strings.NewReader(body))
			if err != nil {
				b.Fatal(err)
			}
			io.Copy(io.Discard, resp.Body) //nolint:errcheck
			resp.Body.Close()
			if resp.StatusCode != http.StatusCreated {
				b.Fatalf("create %s: HTTP %d", name, resp.StatusCode)
			}
		}
		create("warm-up") // the resource's storage and codec exist before m0
		http.DefaultClient.CloseIdleConnections()
		m0 := sampleMemory()

		conns := make([]net.Conn, n)
		defer func() {
			for _, c := range conns {
				if c != nil {
					c.Close()
				}
			}
		}()
		req := "GET " + crontabs + "?watch=1 HTTP/1.1\r\nHost: " + addr + "\r\n\r\n"
		for i := range conns {
			c, err := net.Dial("tcp", addr)
			if err != nil {
				b.Fatal(err)
			}
			conns[i] = c
			if _, err := io.WriteString(c, req); err != nil {
				b.Fatal(err)
			}
		}
		// Each watch is open once its 200 and headers came (the server
		// flushes them as the watch starts).
		buf := make([]byte, 64<<10)
		readUntil := func(c net.Conn, what []byte) {
			var got []byte
			_ = c.SetReadDeadline(time.Now().Add(time.Minute))
			for !bytes.Contains(got, what) {
				k, err := c.Read(buf)
				if err != nil {
					b.Fatalf("reading a watch for %q: %v (read %q)", what, err, got)
				}
				got = append(got, buf[:k]...)
			}
		}
		for _, c := range conns {
			readUntil(c, []byte("\r\n\r\n"))
		}
		m1 := sampleMemory()
		create("event")
		for _, c := range conns {
			readUntil(c, []byte(`"name":"event"`))
		}
		m2 := sampleMemory()
		if *watchMemProfile != "" {
			f, err := os.Create(*watchMemProfile)
			if err != nil {
				b.Fatal(err)
			}
			if err := pprof.Lookup("heap").WriteTo(f, 0); err != nil {
				b.Fatal(err)
			}
			f.Close()
		}
		per := func(after, before uint64) float64 { return (float64(after) - float64(before)) / n }
		b.ReportMetric(per(m1.heap, m0.heap), "heap-B/watcher-idle")
		b.ReportMetric(per(m1.stack, m0.stack), "stack-B/watcher-idle")
		b.ReportMetric(per(m2.heap, m0.heap), "heap-B/watcher")
		b.ReportMetric(per(m2.stack, m0.stack), "stack-B/watcher")
		b.ReportMetric(float64(m2.goroutines-m0.goroutines)/n, "goroutines/watcher")
		b.Logf("%d watchers: heap %d -> %d -> %d KB, stacks %d -> %d -> %d KB, goroutines %d -> %d -> %d (before, open, after one event)",
			n, m0.heap>>10, m1.heap>>10, m2.heap>>10, m0.stack>>10, m1.stack>>10, m2.stack>>10, m0.goroutines, m1.goroutines, m2.goroutines)
	}
}

var watchMemProfile = flag.String("watchmem.heapprofile", "", "BenchmarkMemoryPerWatcher: write a heap profile with the watchers open here")
