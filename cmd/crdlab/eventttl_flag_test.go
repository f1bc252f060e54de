package main

import (
	"testing"
)

// TestServe_EventTTL: --event-ttl (kube-apiserver's flag) reaches the
// Event storage of a real `crdlab serve` process: an Event goes a second
// after its write, and a watcher sees it DELETED. (apiserver's
// TestChain_EventsExpire tests the same on a fake clock.)
func TestServe_EventTTL(t *testing.T) {
	p := startServe(t, t.TempDir(), "--event-ttl", "1s")
	w := p.watch("/api/v1/namespaces/default/events?watch=1&resourceVersion=0")
	p.must(201, "POST", "/api/v1/namespaces/default/events", `{"apiVersion":"v1","kind":"Event","metadata":{"name":"short-lived"},
		"involvedObject":{"kind":"ConfigMap","name":"cm","namespace":"default"},"reason":"Changed","message":"m","type":"Normal","count":1}`, nil)
	var seen []string
	for len(seen) < 2 {
		ev := w.next(t)
		if ev.Object.Metadata.Name == "short-lived" {
			seen = append(seen, ev.Type)
		}
	}
	if seen[0] != "ADDED" || seen[1] != "DELETED" {
		t.Fatalf("events %v, want ADDED then DELETED", seen)
	}
	if code, _ := p.do("GET", "/api/v1/namespaces/default/events/short-lived", "", nil); code != 404 {
		t.Errorf("GET after the TTL: %d, want 404", code)
	}
	p.stop()
}
