package apiserver

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"sync"
	"testing"
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
		req, _ := http.NewRequest("GET", l.url+path, nil)
		if accept != "" {
			req.Header.Set("Accept", accept)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		if err != nil || resp.StatusCode != 200 {
			t.Fatalf("GET %s: HTTP %d, %v: %.200s", path, resp.StatusCode, err, b)
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
