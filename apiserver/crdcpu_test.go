package apiserver

import (
	"bufio"
	"bytes"
	"context"
	"log/slog"
	"net/http"
	"syscall"
	"testing"
	"time"

	"github.com/crdlab/crdlab/internal/crdgen"
	"github.com/crdlab/crdlab/storage/bolt"
)

// BenchmarkCRDCreateEstablished creates real-size CRDs (internal/crdgen:
// 265 KiB of JSON, 2 versions) one after the other through an in-process
// server and waits for each to be Established, reading a watch of CRDs
// (the events are looked at as bytes, not decoded). It reports the CPU of
// the whole process per CRD — the server, its controllers and informers,
// and this client — which is what creating a CRD costs (docs/crd-memory.md,
// "Passes over a CRD's schema").
//
//	go test -run '^$' -bench CRDCreateEstablished -benchtime 20x ./apiserver/
func BenchmarkCRDCreateEstablished(b *testing.B) {
	cfg := &Config{DataDir: b.TempDir(), Listen: "127.0.0.1:0",
		Logger: slog.New(slog.DiscardHandler), Storage: bolt.Options{NoSync: true}}
	s, err := completeNew(cfg)
	if err != nil {
		b.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- s.Run(ctx) }()
	b.Cleanup(func() { cancel(); <-done })
	l := &crdLoad{url: "http://" + s.Addr()}
	pollFor(b, "ready", time.Minute, func() bool { return l.status("GET", "/readyz", nil) == 200 })

	// The watch: each event is one line; an Established CRD's line holds
	// its name and the condition.
	req, _ := http.NewRequestWithContext(ctx, "GET", l.url+"/apis/apiextensions.k8s.io/v1/customresourcedefinitions?watch=1", nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		b.Fatal(err)
	}
	defer resp.Body.Close()
	established := make(chan string, 1024)
	go func() {
		defer close(established)
		r := bufio.NewReaderSize(resp.Body, 1<<20)
		for {
			line, err := r.ReadSlice('\n')
			for err == bufio.ErrBufferFull {
				var more []byte
				more, err = r.ReadSlice('\n')
				line = append(append([]byte(nil), line...), more...)
			}
			if err != nil {
				return
			}
			if !bytes.Contains(line, []byte(`"type":"Established","status":"True"`)) {
				continue
			}
			if i := bytes.Index(line, []byte(`"name":"`)); i >= 0 {
				name := line[i+len(`"name":"`):]
				if j := bytes.IndexByte(name, '"'); j >= 0 {
					established <- string(name[:j])
				}
			}
		}
	}()

	const kib, versions = 265, 2
	cpu := func() time.Duration {
		var ru syscall.Rusage
		syscall.Getrusage(syscall.RUSAGE_SELF, &ru) //nolint:errcheck
		return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	}
	bodies := make([][]byte, b.N)
	names := make([]string, b.N)
	for i := range b.N {
		o := genOptions(i, kib, versions)
		bodies[i], names[i] = crdgen.CRD(i, o), crdgen.NamesOf(i, o).Name
	}
	b.ResetTimer()
	cpu0, start := cpu(), time.Now()
	for i := range b.N {
		if code, msg := l.do("POST", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions", bodies[i]); code != 201 {
			b.Fatalf("create CRD %d: HTTP %d: %s", i, code, msg)
		}
		deadline := time.After(2 * time.Minute)
	wait:
		for {
			select {
			case name, ok := <-established:
				if !ok {
					b.Fatal("the watch ended")
				}
				if name == names[i] {
					break wait
				}
			case <-deadline:
				b.Fatalf("%s: not Established within 2 minutes", names[i])
			}
		}
	}
	b.StopTimer()
	perCRD := (cpu() - cpu0) / time.Duration(b.N)
	b.ReportMetric(float64(perCRD.Microseconds())/1000, "cpu-ms/CRD")
	b.ReportMetric(float64(time.Since(start).Microseconds())/1000/float64(b.N), "wall-ms/CRD")
}
