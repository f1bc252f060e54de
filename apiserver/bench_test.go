package apiserver

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/crdlab/crdlab/storage/bolt"
	"github.com/crdlab/crdlab/trace"
)

// BenchmarkTrace_CreateCustomResource is what tracing costs a whole
// request: a CronTab POSTed over loopback HTTP to a real server (storage
// without fsync, so that the CPU work is what is measured), with tracing
// off, on with nobody listening, on with a /ui reader (a subscriber that
// keeps up) and on with the narrated log (to io.Discard).
func BenchmarkTrace_CreateCustomResource(b *testing.B) {
	for _, mode := range []string{"off", "on", "on-ui", "on-log"} {
		b.Run(mode, func(b *testing.B) {
			var tr *trace.Tracer
			switch mode {
			case "on", "on-ui":
				tr = trace.New(trace.Options{})
			case "on-log":
				tr = trace.New(trace.Options{Log: io.Discard})
			}
			if mode == "on-ui" {
				sub := tr.Subscribe(0, 1<<16)
				done := make(chan struct{})
				go func() {
					for range sub.C {
					}
					close(done)
				}()
				b.Cleanup(func() { sub.Close(); <-done })
			}
			url := benchServer(b, tr)
			c := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 4}}
			b.ReportAllocs()
			for i := 0; b.Loop(); i++ {
				body := fmt.Sprintf(`{"apiVersion":"stable.example.com/v1","kind":"CronTab","metadata":{"name":"c%d"},"spec":{"cronSpec":"* * * * */5"}}`, i)
				resp, err := c.Post(url+"/apis/stable.example.com/v1/namespaces/default/crontabs", "application/json", strings.NewReader(body))
				if err != nil {
					b.Fatal(err)
				}
				io.Copy(io.Discard, resp.Body) //nolint:errcheck
				resp.Body.Close()
				if resp.StatusCode != 201 {
					b.Fatalf("create: %d", resp.StatusCode)
				}
			}
		})
	}
}

// benchServer starts a server with tr and the CronTab CRD, Established
// and served, and returns its URL.
func benchServer(b *testing.B, tr *trace.Tracer) string {
	b.Helper()
	_, url := benchServerWith(b, &Config{Tracer: tr})
	return url
}

// benchServerWith is benchServer for the server cfg describes; its data
// directory, address, logger and storage (no fsync: the CPU is what is
// measured) are set here.
func benchServerWith(b *testing.B, cfg *Config) (*Server, string) {
	b.Helper()
	cfg.DataDir, cfg.Listen = b.TempDir(), "127.0.0.1:0"
	cfg.Logger, cfg.Storage = slog.New(slog.DiscardHandler), bolt.Options{NoSync: true}
	s, err := completeNew(cfg)
	if err != nil {
		b.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- s.Run(ctx) }()
	b.Cleanup(func() { cancel(); <-done })
	url := "http://" + s.Addr()
	poll := func(what string, ok func() bool) {
		for deadline := time.Now().Add(20 * time.Second); !ok(); time.Sleep(10 * time.Millisecond) {
			if time.Now().After(deadline) {
				b.Fatalf("%s: not within 20s", what)
			}
		}
	}
	status := func(method, path, body string) int {
		req, _ := http.NewRequest(method, url+path, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			return 0
		}
		io.Copy(io.Discard, resp.Body) //nolint:errcheck
		resp.Body.Close()
		return resp.StatusCode
	}
	poll("ready", func() bool { return status("GET", "/readyz", "") == 200 })
	if code := status("POST", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions", crdJSON); code != 201 {
		b.Fatalf("create CRD: %d", code)
	}
	poll("crontabs served", func() bool { return status("GET", "/apis/stable.example.com/v1/crontabs", "") == 200 })
	return s, url
}
