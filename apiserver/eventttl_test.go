package apiserver

import (
	"bufio"
	"context"
	"encoding/json"
	"net/http"
	"sync/atomic"
	"testing"
	"time"

	"github.com/crdlab/crdlab/storage/bolt"
)

// TestChain_EventsExpire: Config.EventTTL (crdlab serve --event-ttl,
// kube-apiserver's flag) reaches the Event storage. An Event written
// through the served API is deleted once its TTL has passed since its last
// write, and watchers of both APIs that serve Events (core/v1 and
// events.k8s.io/v1) see it DELETED, as upstream's lease revocation shows.
// The store's clock is a fake, moved by the test: no wait for half an
// hour. The TTL is shorter than the default (an hour), so an Event that
// goes at 31 minutes shows that the setting, not the default, was applied.
func TestChain_EventsExpire(t *testing.T) {
	var offset atomic.Int64 // how far the fake clock is ahead of the real one
	now := func() time.Time { return time.Now().Add(time.Duration(offset.Load())) }
	ts := readyServer(t, Config{EventTTL: 30 * time.Minute, Storage: bolt.Options{Now: now}})

	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	watch := func(path string) <-chan string {
		req, _ := http.NewRequestWithContext(ctx, "GET", ts.url+path+"?watch=1&resourceVersion=0", nil)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		if resp.StatusCode != 200 {
			t.Fatalf("watch %s: %d", path, resp.StatusCode)
		}
		ch := make(chan string, 16)
		go func() {
			defer resp.Body.Close()
			defer close(ch)
			sc := bufio.NewScanner(resp.Body)
			for sc.Scan() {
				var ev struct {
					Type   string
					Object struct{ Metadata struct{ Name string } }
				}
				if json.Unmarshal(sc.Bytes(), &ev) == nil && ev.Object.Metadata.Name == "short-lived" {
					ch <- ev.Type
				}
			}
		}()
		return ch
	}
	core := watch("/api/v1/namespaces/default/events")
	events := watch("/apis/events.k8s.io/v1/namespaces/default/events")

	code, body := doJSON(t, "POST", ts.url+"/api/v1/namespaces/default/events", "application/json",
		`{"apiVersion":"v1","kind":"Event","metadata":{"name":"short-lived"},"involvedObject":{"kind":"ConfigMap","name":"cm","namespace":"default"},
		  "reason":"Changed","message":"it changed","type":"Normal","count":1}`)
	if code != 201 {
		t.Fatalf("create: %d %v", code, body)
	}
	next := func(name string, ch <-chan string) string {
		t.Helper()
		select {
		case typ, ok := <-ch:
			if !ok {
				t.Fatalf("%s: the watch ended", name)
			}
			return typ
		case <-ctx.Done():
			t.Fatalf("%s: no event", name)
		}
		return ""
	}
	for name, ch := range map[string]<-chan string{"core/v1": core, "events.k8s.io/v1": events} {
		if typ := next(name, ch); typ != "ADDED" {
			t.Fatalf("%s: first event %s, want ADDED", name, typ)
		}
	}
	// Not yet due: the Event is still there (the expirer runs every 500 ms).
	offset.Store(int64(29 * time.Minute))
	if code, _ := doJSON(t, "GET", ts.url+"/api/v1/namespaces/default/events/short-lived", "", ""); code != 200 {
		t.Fatalf("before its TTL: GET %d, want 200", code)
	}
	offset.Store(int64(31 * time.Minute))
	for name, ch := range map[string]<-chan string{"core/v1": core, "events.k8s.io/v1": events} {
		if typ := next(name, ch); typ != "DELETED" {
			t.Fatalf("%s: after the TTL, event %s, want DELETED", name, typ)
		}
	}
	for _, path := range []string{"/api/v1/namespaces/default/events/short-lived", "/apis/events.k8s.io/v1/namespaces/default/events/short-lived"} {
		if code, _ := doJSON(t, "GET", ts.url+path, "", ""); code != 404 {
			t.Errorf("GET %s after the TTL: %d, want 404", path, code)
		}
	}
}
