package apiserver

import (
	"fmt"
	"io"
	"net/http"
	"testing"
	"time"
)

// BenchmarkMetadataList_CustomResources is the garbage collector's list of
// a resource (PartialObjectMetadataList) over 5,000 custom resources of
// about 1 KB, on a whole server on bbolt without fsync: "cold" is the
// first list after the server opened its data (as at each start, where
// nothing is decoded yet), "warm" a list once the server has read every
// object. Since session 35 the metadata is read out of storage's bytes;
// before, each object was decoded whole first, which a cold list paid
// for every object (restarted on 100,000 objects of 2 KB, the garbage
// collector's first list took 8.2-8.7 s, and the decoded objects raised
// RSS by 1.4 GB).
//
//	go test -run '^$' -bench MetadataList -count 6 ./apiserver/
func BenchmarkMetadataList_CustomResources(b *testing.B) {
	const objects = 5000
	dir := b.TempDir()
	start := func(b *testing.B) (*crdLoad, func()) {
		url, stop := runNoSync(b, Config{DataDir: dir, Controllers: []string{"-" + GarbageCollectorControllerName}})
		l := &crdLoad{url: url}
		pollFor(b, "ready", time.Minute, func() bool { return l.status("GET", "/readyz", nil) == 200 })
		return l, stop
	}
	const path = "/apis/bench.crdlab.dev/v1/namespaces/bench/widgets"
	l, stop := start(b)
	if code, msg := l.do("POST", "/api/v1/namespaces", []byte(`{"apiVersion":"v1","kind":"Namespace","metadata":{"name":"bench"}}`)); code != 201 {
		b.Fatalf("create namespace: %d %s", code, msg)
	}
	if code, msg := l.do("POST", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions", []byte(benchWidgetCRD)); code != 201 {
		b.Fatalf("create CRD: %d %s", code, msg)
	}
	pollFor(b, "widgets served", time.Minute, func() bool { return l.status("GET", path, nil) == 200 })
	for i := range objects {
		name := fmt.Sprintf("w-%05d", i)
		if code, msg := l.do("POST", path, benchApplyBody(name, i, 4)); code != 201 {
			b.Fatalf("create %s: %d %s", name, code, msg)
		}
	}
	stop()
	list := func(b *testing.B, l *crdLoad) {
		req, _ := http.NewRequest("GET", l.url+path, nil)
		req.Header.Set("Accept", "application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			b.Fatal(err)
		}
		n, _ := io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 || n < objects*100 {
			b.Fatalf("list: %d, %d bytes", resp.StatusCode, n)
		}
	}
	b.Run("cold", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			b.StopTimer()
			l, stop := start(b)
			pollFor(b, "widgets served", time.Minute, func() bool { return l.status("GET", path+"?limit=1", nil) == 200 })
			b.StartTimer()
			list(b, l)
			b.StopTimer()
			stop()
			b.StartTimer()
		}
	})
	b.Run("warm", func(b *testing.B) {
		l, stop := start(b)
		defer stop()
		pollFor(b, "widgets served", time.Minute, func() bool { return l.status("GET", path+"?limit=1", nil) == 200 })
		list(b, l)
		b.ReportAllocs()
		for b.Loop() {
			list(b, l)
		}
	})
}
