package multiserver

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/crdlab/crdlab/apiserver"
	"github.com/crdlab/crdlab/storage/etcd3/etcdtest"
)

const (
	crdsPath     = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions"
	crdName      = "crontabs.stable.example.com"
	crontabsPath = "/apis/stable.example.com/v1/namespaces/default/crontabs"
)

const crdJSON = `{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition",
"metadata":{"name":"crontabs.stable.example.com"},
"spec":{"group":"stable.example.com","scope":"Namespaced","names":{"plural":"crontabs","kind":"CronTab"},
"versions":[{"name":"v1","served":true,"storage":true,"schema":{"openAPIV3Schema":{"type":"object","x-kubernetes-preserve-unknown-fields":true}}}]}}`

// server is an in-process crdlab server on etcd.
type server struct {
	name   string
	url    string
	cancel context.CancelFunc
	done   chan error
}

func startServer(t *testing.T, name string, endpoints []string, prefix string) *server {
	t.Helper()
	cfg := apiserver.Config{
		DataDir:        t.TempDir(),
		Listen:         "127.0.0.1:0",
		Logger:         slog.New(slog.NewTextHandler(io.Discard, nil)),
		StorageBackend: apiserver.StorageEtcd,
		EtcdServers:    endpoints,
		EtcdPrefix:     prefix,
	}
	completed, err := cfg.Complete()
	if err != nil {
		t.Fatal(err)
	}
	s, err := completed.New()
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	srv := &server{name: name, url: "http://" + s.Addr(), cancel: cancel, done: make(chan error, 1)}
	go func() { srv.done <- s.Run(ctx) }()
	t.Cleanup(func() { srv.stop(t) })
	eventually(t, name+" ready", 20*time.Second, func() bool { code, _ := do(t, "GET", srv.url+"/readyz", ""); return code == 200 })
	return srv
}

func (s *server) stop(t *testing.T) {
	s.cancel()
	select {
	case err := <-s.done:
		s.done <- err
	case <-time.After(20 * time.Second):
		t.Errorf("%s: Run did not return within 20s", s.name)
	}
}

func do(t *testing.T, method, url, body string) (int, map[string]any) {
	t.Helper()
	req, err := http.NewRequest(method, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, url, err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	var out map[string]any
	_ = json.Unmarshal(data, &out)
	return resp.StatusCode, out
}

func eventually(t *testing.T, what string, within time.Duration, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(within)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("%s: not within %v", what, within)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func crontab(name, writer string) string {
	return fmt.Sprintf(`{"apiVersion":"stable.example.com/v1","kind":"CronTab","metadata":{"name":%q},"spec":{"cronSpec":"* * * * *","writer":%q}}`, name, writer)
}

func established(obj map[string]any) bool {
	status, _ := obj["status"].(map[string]any)
	conds, _ := status["conditions"].([]any)
	for _, c := range conds {
		m, _ := c.(map[string]any)
		if m["type"] == "Established" && m["status"] == "True" {
			return true
		}
	}
	return false
}

// watchEvent is one line of a watch response.
type watchEvent struct {
	Type   string         `json:"type"`
	Object map[string]any `json:"object"`
}

func startWatch(t *testing.T, url string) (<-chan watchEvent, func()) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	req, _ := http.NewRequestWithContext(ctx, "GET", url, nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != 200 {
		t.Fatalf("watch %s: %d", url, resp.StatusCode)
	}
	ch := make(chan watchEvent, 100)
	go func() {
		defer close(ch)
		defer resp.Body.Close()
		sc := bufio.NewScanner(resp.Body)
		sc.Buffer(make([]byte, 64<<10), 1<<20)
		for sc.Scan() {
			var ev watchEvent
			if json.Unmarshal(sc.Bytes(), &ev) == nil {
				ch <- ev
			}
		}
	}()
	return ch, cancel
}

func nextEvent(t *testing.T, ch <-chan watchEvent) watchEvent {
	t.Helper()
	for {
		select {
		case ev, ok := <-ch:
			if !ok {
				t.Fatal("the watch ended")
			}
			if ev.Type == "BOOKMARK" {
				continue
			}
			return ev
		case <-time.After(15 * time.Second):
			t.Fatal("no watch event within 15s")
		}
	}
}

func meta(obj map[string]any, field string) string {
	m, _ := obj["metadata"].(map[string]any)
	s, _ := m[field].(string)
	return s
}

// TestTwoServersOneEtcd: a CRD created through A is established and
// served by both; B's watch sees A's writes in order; once A stops, B
// serves alone and its controllers finalize a CRD deleted through it.
func TestTwoServersOneEtcd(t *testing.T) {
	etcd := etcdtest.Start(t)
	prefix := "/registry-multiserver"
	a := startServer(t, "A", etcd.Endpoints, prefix)
	b := startServer(t, "B", etcd.Endpoints, prefix)

	if code, body := do(t, "POST", a.url+crdsPath, crdJSON); code != 201 {
		t.Fatalf("create CRD through A: %d %v", code, body)
	}
	// Established after upstream's HA delay (5s), by whichever server's
	// EstablishingController wins; the other gets a 409 or a no-op.
	for _, s := range []*server{a, b} {
		eventually(t, s.name+" sees the CRD Established", 30*time.Second, func() bool {
			code, obj := do(t, "GET", s.url+crdsPath+"/"+crdName, "")
			return code == 200 && established(obj)
		})
		eventually(t, s.name+" serves crontabs", 20*time.Second, func() bool {
			code, _ := do(t, "GET", s.url+crontabsPath, "")
			return code == 200
		})
	}

	code, list := do(t, "GET", b.url+crontabsPath, "")
	if code != 200 {
		t.Fatalf("list through B: %d", code)
	}
	rv := meta(list, "resourceVersion")
	events, stopWatch := startWatch(t, b.url+crontabsPath+"?watch=1&resourceVersion="+rv)
	defer stopWatch()

	// Writes alternate between A and B; B's watch sees them all, in order.
	var want []string
	for i := range 6 {
		s := a
		if i%2 == 1 {
			s = b
		}
		name := fmt.Sprint("ct", i)
		code, obj := do(t, "POST", s.url+crontabsPath, crontab(name, s.name))
		if code != 201 {
			t.Fatalf("create %s through %s: %d %v", name, s.name, code, obj)
		}
		want = append(want, name+"@"+meta(obj, "resourceVersion"))
	}
	var got []string
	for range want {
		ev := nextEvent(t, events)
		if ev.Type != "ADDED" {
			t.Fatalf("event %s, want ADDED", ev.Type)
		}
		got = append(got, meta(ev.Object, "name")+"@"+meta(ev.Object, "resourceVersion"))
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("B's watch saw %v, want %v", got, want)
	}
	// Reads through A see B's writes.
	if code, obj := do(t, "GET", a.url+crontabsPath+"/ct1", ""); code != 200 || meta(obj, "name") != "ct1" {
		t.Fatalf("get ct1 (written through B) through A: %d %v", code, obj)
	}
	// Optimistic concurrency across servers: a stale update through B
	// after an update through A is a 409.
	_, obj := do(t, "GET", a.url+crontabsPath+"/ct0", "")
	stale, _ := json.Marshal(obj)
	obj["spec"].(map[string]any)["cronSpec"] = "*/5 * * * *"
	fresh, _ := json.Marshal(obj)
	if code, body := do(t, "PUT", a.url+crontabsPath+"/ct0", string(fresh)); code != 200 {
		t.Fatalf("update through A: %d %v", code, body)
	}
	if code, _ := do(t, "PUT", b.url+crontabsPath+"/ct0", string(stale)); code != 409 {
		t.Fatalf("stale update through B: %d, want 409", code)
	}
	if ev := nextEvent(t, events); ev.Type != "MODIFIED" || meta(ev.Object, "name") != "ct0" {
		t.Fatalf("B's watch: %s %s, want MODIFIED ct0", ev.Type, meta(ev.Object, "name"))
	}

	// A goes away; B keeps serving, and its controllers keep working.
	a.stop(t)
	if code, _ := do(t, "POST", b.url+crontabsPath, crontab("after-a", "B")); code != 201 {
		t.Fatalf("create through B after A stopped: %d", code)
	}
	if code, body := do(t, "DELETE", b.url+crdsPath+"/"+crdName, ""); code != 200 && code != 202 {
		t.Fatalf("delete CRD through B: %d %v", code, body)
	}
	// B's finalizer deletes the custom resources, then the CRD.
	eventually(t, "the CRD is finalized by B", 30*time.Second, func() bool {
		code, _ := do(t, "GET", b.url+crdsPath+"/"+crdName, "")
		return code == 404
	})
}
