package apiserver

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/crdlab/crdlab/storage/bolt"
)

// TestCRDList_ItemsAsGets: a list of CRDs in plain JSON (storage's shared
// objects, written by AppendWire where it can) carries each CRD byte for
// byte as a GET of it answers, while other clients change the CRDs and a
// watch reads them (with -race: the list's items are only read); YAML and
// Table lists (converted, not streamed) still answer every CRD.
func TestCRDList_ItemsAsGets(t *testing.T) {
	l := loadCRDs(t, 4, 40, 2)
	const crds = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions"
	get := func(path, accept string) []byte {
		t.Helper()
		code, b := getAs(t, l.url+path, accept)
		if code != 200 {
			t.Fatalf("GET %s: HTTP %d: %.200s", path, code, b)
		}
		return b
	}
	// Meanwhile: label patches on every CRD and a watch of them all.
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			default:
			}
			name := l.names[i%len(l.names)]
			req, _ := http.NewRequest("PATCH", l.url+crds+"/"+name, bytes.NewReader([]byte(fmt.Sprintf(`{"metadata":{"labels":{"round":"r%d"}}}`, i))))
			req.Header.Set("Content-Type", "application/merge-patch+json")
			if resp, err := http.DefaultClient.Do(req); err == nil {
				io.Copy(io.Discard, resp.Body) //nolint:errcheck
				resp.Body.Close()
			}
		}
	}()
	go func() {
		defer wg.Done()
		resp, err := http.Get(l.url + crds + "?watch=1")
		if err != nil {
			return
		}
		defer resp.Body.Close()
		go func() { <-stop; resp.Body.Close() }()
		io.Copy(io.Discard, resp.Body) //nolint:errcheck
	}()
	for range 5 {
		var list struct {
			Items []json.RawMessage `json:"items"`
		}
		if err := json.Unmarshal(get(crds, ""), &list); err != nil {
			t.Fatal(err)
		}
		if len(list.Items) != len(l.names) {
			t.Fatalf("listed %d CRDs, want %d", len(list.Items), len(l.names))
		}
	}
	close(stop)
	wg.Wait()

	// Quiet now: each item is the GET's answer.
	var list struct {
		Items []json.RawMessage `json:"items"`
	}
	if err := json.Unmarshal(get(crds, ""), &list); err != nil {
		t.Fatal(err)
	}
	for _, item := range list.Items {
		var meta struct {
			Metadata struct{ Name string } `json:"metadata"`
		}
		if err := json.Unmarshal(item, &meta); err != nil {
			t.Fatal(err)
		}
		one := bytes.TrimSpace(get(crds+"/"+meta.Metadata.Name, ""))
		if !bytes.Equal(item, one) {
			t.Errorf("CRD %s: the list's item (%d bytes) is not the GET's answer (%d bytes)", meta.Metadata.Name, len(item), len(one))
		}
	}
	if y := get(crds, "application/yaml"); bytes.Count(y, []byte("\n- apiVersion: apiextensions.k8s.io/v1\n")) != len(l.names) {
		t.Errorf("the YAML list does not hold %d CRDs: %.300s", len(l.names), y)
	}
	table := get(crds, "application/json;as=Table;v=v1;g=meta.k8s.io")
	for _, name := range l.names {
		if !bytes.Contains(table, []byte(`"`+name+`"`)) {
			t.Errorf("the Table list has no row for %s", name)
		}
	}
}

// TestCRDList_AcrossWriters: a list of CRDs, whole or metadata only, is
// the same whether its items go out as storage holds them (written by
// this build: customresourcedefinition.CodecVersion) or are decoded and
// written again (a file another build wrote, until it writes them anew):
// after a restart as another writer and one back, every item is byte
// for byte what it was; and each item of the metadata list is what a GET
// of the CRD as PartialObjectMetadata answers.
func TestCRDList_AcrossWriters(t *testing.T) {
	dir := t.TempDir()
	cfg := func(writer string) *Config {
		return &Config{DataDir: dir, Listen: "127.0.0.1:0", Logger: slog.New(slog.DiscardHandler),
			Storage: bolt.Options{NoSync: true, Writer: writer}}
	}
	const crds = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions"
	const metaList = "application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1"
	const metaOne = "application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1"
	l := generateCRDs(3, 40, 2)
	start := func(writer string) (stop func()) {
		t.Helper()
		s, err := completeNew(cfg(writer))
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan error, 1)
		go func() { done <- s.Run(ctx) }()
		url := "http://" + s.Addr()
		pollFor(t, "ready", time.Minute, func() bool { code, _ := get(t, url+"/readyz"); return code == 200 })
		stop = func() {
			cancel()
			if err := <-done; err != nil {
				t.Errorf("server: %v", err)
			}
		}
		t.Cleanup(func() {
			if ctx.Err() == nil {
				stop()
			}
		})
		l.url = url
		return stop
	}

	items := func(url, accept string) []json.RawMessage {
		t.Helper()
		code, body := getAs(t, url+crds, accept)
		var list struct {
			Kind  string            `json:"kind"`
			Items []json.RawMessage `json:"items"`
		}
		if code != 200 || json.Unmarshal(body, &list) != nil {
			t.Fatalf("list %q: HTTP %d: %.300s", accept, code, body)
		}
		return list.Items
	}

	stop := start("")
	for i, body := range l.bodies {
		if code := l.status("POST", crds, body); code != 201 {
			t.Fatalf("create CRD %d: HTTP %d", i, code)
		}
	}
	pollFor(t, "all Established", time.Minute, func() bool { return l.established() == len(l.names) })
	name := l.names[1]
	if code, body := doJSON(t, "PATCH", l.url+crds+"/"+name, "application/merge-patch+json",
		`{"metadata":{"labels":{"team":"a"},"annotations":{"note":"é <b> \"q\""},"finalizers":["example.com/hold"]}}`); code != 200 {
		t.Fatalf("patch %s: HTTP %d: %v", name, code, body)
	}
	whole, meta := items(l.url, ""), items(l.url, metaList)
	if len(whole) != 3 || len(meta) != 3 {
		t.Fatalf("listed %d and %d CRDs, want 3", len(whole), len(meta))
	}
	names := slices.Sorted(slices.Values(l.names)) // a list's order
	for i, item := range meta {
		_, one := getAs(t, l.url+crds+"/"+names[i], metaOne)
		if !bytes.Equal(item, bytes.TrimSpace(one)) {
			t.Errorf("CRD %s: the metadata list's item\n%s\nis not the GET's\n%s", names[i], item, one)
		}
	}
	if i := slices.Index(names, name); !bytes.Contains(meta[i], []byte(`"finalizers":["example.com/hold"]`)) {
		t.Errorf("the metadata list's item has no finalizer: %s", meta[i])
	}
	stop()

	for _, writer := range []string{"an older build", ""} {
		stop := start(writer)
		w, m := items(l.url, ""), items(l.url, metaList)
		for i := range whole {
			if !bytes.Equal(w[i], whole[i]) {
				t.Errorf("writer %q: CRD %d differs from the list before the restart", writer, i)
			}
			if !bytes.Equal(m[i], meta[i]) {
				t.Errorf("writer %q: CRD %d's metadata differs from the list before the restart:\n%s\n%s", writer, i, m[i], meta[i])
			}
		}
		stop()
	}
}
