package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// The end-to-end test drives `crdlab serve` as a separate process over
// HTTP, the way kubectl and client-go do: a CRD with two served versions
// and schema defaults, custom resources through both versions, a watch,
// conflicts, and a restart after SIGTERM that must lose nothing.
//
// Waits are bounded polls (no fixed sleeps); every wait fails the test
// after e2eWait.

const e2eWait = 30 * time.Second

// serverProcess is a running `crdlab serve`.
type serverProcess struct {
	t    *testing.T
	cmd  *exec.Cmd
	url  string
	logs *syncBuffer
	done chan error // receives Wait's result
}

type syncBuffer struct {
	mu sync.Mutex // guards b
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

var addrLine = regexp.MustCompile(`msg="crdlab is ready to serve" addr=(\S+)`)

// startServe starts the test binary as `crdlab serve` (see TestMain) on a
// free loopback port, and waits until it says where it listens and
// /readyz answers 200.
func startServe(t *testing.T, dataDir string, extraArgs ...string) *serverProcess {
	t.Helper()
	cmd := exec.Command(os.Args[0], append([]string{"serve", "--listen", "127.0.0.1:0", "--data-dir", dataDir, "--log-level", "info"}, extraArgs...)...)
	cmd.Env = append(os.Environ(), "CRDLAB_TEST_MAIN=1")
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	p := &serverProcess{t: t, cmd: cmd, logs: &syncBuffer{}, done: make(chan error, 1)}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	addr := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		found := false
		for sc.Scan() {
			line := sc.Text()
			p.logs.Write([]byte(line + "\n"))
			if m := addrLine.FindStringSubmatch(line); m != nil && !found {
				found = true
				addr <- m[1]
			}
		}
		p.done <- cmd.Wait()
	}()
	t.Cleanup(func() {
		if cmd.ProcessState == nil {
			_ = cmd.Process.Kill() // our own child, still running after a failure
			<-p.done
		}
		if t.Failed() {
			t.Logf("server logs:\n%s", p.logs.String())
		}
	})
	select {
	case a := <-addr:
		p.url = "http://" + a
	case err := <-p.done:
		t.Fatalf("crdlab serve exited before listening: %v\n%s", err, p.logs.String())
	case <-time.After(e2eWait):
		t.Fatalf("crdlab serve did not say where it listens within %v\n%s", e2eWait, p.logs.String())
	}
	p.poll("/readyz answers 200", func() bool { code, _ := p.do("GET", "/readyz", "", nil); return code == 200 })
	return p
}

// stop sends SIGTERM and waits for a clean exit.
func (p *serverProcess) stop() {
	p.t.Helper()
	if err := p.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		p.t.Fatal(err)
	}
	select {
	case err := <-p.done:
		if err != nil {
			p.t.Fatalf("crdlab serve exited with %v after SIGTERM\n%s", err, p.logs.String())
		}
	case <-time.After(e2eWait):
		p.t.Fatalf("crdlab serve still running %v after SIGTERM", e2eWait)
	}
}

// do sends a request; body is JSON (or, for PATCH, a merge patch). It
// returns the status code and decodes the answer into out, if not nil.
func (p *serverProcess) do(method, path, body string, out any) (int, string) {
	p.t.Helper()
	req, err := http.NewRequest(method, p.url+path, strings.NewReader(body))
	if err != nil {
		p.t.Fatal(err)
	}
	switch {
	case method == "PATCH":
		req.Header.Set("Content-Type", "application/merge-patch+json")
	case body != "":
		req.Header.Set("Content-Type", "application/json")
	}
	req.Header.Set("Accept", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		p.t.Fatalf("%s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if out != nil && resp.StatusCode < 300 {
		if err := json.Unmarshal(b, out); err != nil {
			p.t.Fatalf("%s %s: %v in %s", method, path, err, b)
		}
	}
	return resp.StatusCode, string(b)
}

// must is do, failing unless the answer has code want.
func (p *serverProcess) must(want int, method, path, body string, out any) {
	p.t.Helper()
	if code, b := p.do(method, path, body, out); code != want {
		p.t.Fatalf("%s %s: %d, want %d: %s", method, path, code, want, b)
	}
}

func (p *serverProcess) poll(what string, cond func() bool) {
	p.t.Helper()
	deadline := time.Now().Add(e2eWait)
	for !cond() {
		if time.Now().After(deadline) {
			p.t.Fatalf("%s: not within %v\n%s", what, e2eWait, p.logs.String())
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// object is the part of an object the test reads.
type object struct {
	APIVersion string `json:"apiVersion"`
	Kind       string `json:"kind"`
	Metadata   struct {
		Name              string            `json:"name"`
		Namespace         string            `json:"namespace"`
		UID               string            `json:"uid"`
		ResourceVersion   string            `json:"resourceVersion"`
		Generation        int64             `json:"generation"`
		Labels            map[string]string `json:"labels"`
		CreationTimestamp string            `json:"creationTimestamp"`
	} `json:"metadata"`
	Spec   map[string]any `json:"spec,omitempty"`
	Status map[string]any `json:"status,omitempty"`
}

type objectList struct {
	APIVersion string `json:"apiVersion"`
	Kind       string `json:"kind"`
	Metadata   struct {
		ResourceVersion string `json:"resourceVersion"`
		Continue        string `json:"continue"`
	} `json:"metadata"`
	Items []object `json:"items"`
}

type watchEvent struct {
	Type   string `json:"type"`
	Object object `json:"object"`
}

// watchStream reads the events of a watch request in a goroutine.
type watchStream struct {
	events chan watchEvent
	ended  chan error // the stream's end: nil for a clean end
	body   io.Closer
}

func (p *serverProcess) watch(path string) *watchStream {
	p.t.Helper()
	resp, err := http.Get(p.url + path)
	if err != nil {
		p.t.Fatal(err)
	}
	if resp.StatusCode != 200 {
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		p.t.Fatalf("watch %s: %d %s", path, resp.StatusCode, b)
	}
	w := &watchStream{events: make(chan watchEvent, 100), ended: make(chan error, 1), body: resp.Body}
	go func() {
		dec := json.NewDecoder(resp.Body)
		for {
			var ev watchEvent
			if err := dec.Decode(&ev); err != nil {
				if err == io.EOF {
					err = nil
				}
				w.ended <- err
				close(w.events)
				return
			}
			w.events <- ev
		}
	}()
	p.t.Cleanup(func() { resp.Body.Close() })
	return w
}

func (w *watchStream) next(t *testing.T) watchEvent {
	t.Helper()
	select {
	case ev, ok := <-w.events:
		if !ok {
			t.Fatal("watch ended early")
		}
		return ev
	case <-time.After(e2eWait):
		t.Fatalf("no watch event within %v", e2eWait)
	}
	return watchEvent{}
}

const e2eCRD = `{
  "apiVersion": "apiextensions.k8s.io/v1",
  "kind": "CustomResourceDefinition",
  "metadata": {"name": "crontabs.stable.example.com"},
  "spec": {
    "group": "stable.example.com",
    "scope": "Namespaced",
    "names": {"plural": "crontabs", "singular": "crontab", "kind": "CronTab", "listKind": "CronTabList", "shortNames": ["ct"]},
    "versions": [
      {"name": "v1", "served": true, "storage": true,
       "schema": {"openAPIV3Schema": {"type": "object", "properties": {
         "spec": {"type": "object", "properties": {
           "cronSpec": {"type": "string"},
           "image": {"type": "string", "default": "busybox:v1"},
           "replicas": {"type": "integer", "default": 1}}},
         "status": {"type": "object", "properties": {"phase": {"type": "string"}}}}}},
       "subresources": {"status": {}}},
      {"name": "v2", "served": true, "storage": false,
       "schema": {"openAPIV3Schema": {"type": "object", "properties": {
         "spec": {"type": "object", "properties": {
           "cronSpec": {"type": "string"},
           "image": {"type": "string", "default": "busybox:v2"},
           "replicas": {"type": "integer", "default": 2}}},
         "status": {"type": "object", "properties": {"phase": {"type": "string"}}}}}},
       "subresources": {"status": {}}}
    ]
  }
}`

const (
	crdPath = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions"
	v1Path  = "/apis/stable.example.com/v1/namespaces/default/crontabs"
	v2Path  = "/apis/stable.example.com/v2/namespaces/default/crontabs"
)

// establish waits for the naming and establishing controllers to set
// NamesAccepted and Established (apiserver/controllers.go runs them).
func establish(p *serverProcess) {
	p.t.Helper()
	p.poll("the CRD is Established", func() bool {
		var crd struct {
			Status struct {
				Conditions []struct{ Type, Status string }
			}
		}
		if code, _ := p.do("GET", crdPath+"/crontabs.stable.example.com", "", &crd); code != 200 {
			return false
		}
		for _, c := range crd.Status.Conditions {
			if c.Type == "Established" && c.Status == "True" {
				return true
			}
		}
		return false
	})
}

func cronTab(version, name, body string) string {
	return fmt.Sprintf(`{"apiVersion":"stable.example.com/%s","kind":"CronTab","metadata":{"name":%q,"labels":{"app":"e2e"}},"spec":%s}`, version, name, body)
}

func TestServe_EndToEnd(t *testing.T) {
	if testing.Short() {
		t.Skip("starts crdlab serve processes")
	}
	dataDir := t.TempDir()
	p := startServe(t, dataDir)

	// The CRD, established by the controllers.
	p.must(201, "POST", crdPath, e2eCRD, nil)
	establish(p)
	p.poll("custom resources are served", func() bool { code, _ := p.do("GET", v1Path, "", nil); return code == 200 })

	// Create through each version: each version's defaults apply.
	var a, b object
	p.must(201, "POST", v1Path, cronTab("v1", "a", `{"cronSpec":"* * * * */5"}`), &a)
	if a.APIVersion != "stable.example.com/v1" || a.Spec["replicas"] != float64(1) || a.Spec["image"] != "busybox:v1" || a.Metadata.Generation != 1 || a.Metadata.UID == "" {
		t.Fatalf("created through v1: %+v", a)
	}
	p.must(201, "POST", v2Path, cronTab("v2", "b", `{"cronSpec":"0 * * * *"}`), &b)
	if b.APIVersion != "stable.example.com/v2" || b.Spec["replicas"] != float64(2) || b.Spec["image"] != "busybox:v2" {
		t.Fatalf("created through v2: %+v", b)
	}
	code, body := p.do("POST", v1Path, cronTab("v1", "a", `{}`), nil)
	if code != 409 || !strings.Contains(body, `"reason":"AlreadyExists"`) {
		t.Fatalf("duplicate create: %d %s", code, body)
	}
	code, body = p.do("POST", v1Path, cronTab("v1", "bad", `{"replicas":"many"}`), nil)
	if code != 422 || !strings.Contains(body, `"reason":"Invalid"`) || !strings.Contains(body, "spec.replicas") {
		t.Fatalf("invalid create: %d %s", code, body)
	}

	// Get and list through the other version.
	var a2 object
	p.must(200, "GET", v2Path+"/a", "", &a2)
	if a2.APIVersion != "stable.example.com/v2" || a2.Metadata.UID != a.Metadata.UID || a2.Metadata.ResourceVersion != a.Metadata.ResourceVersion {
		t.Fatalf("a through v2: %+v", a2)
	}
	var list objectList
	p.must(200, "GET", v1Path+"?labelSelector=app%3De2e", "", &list)
	if list.Kind != "CronTabList" || len(list.Items) != 2 || list.Items[0].Metadata.Name != "a" || list.Items[1].APIVersion != "stable.example.com/v1" {
		t.Fatalf("list: %+v", list)
	}
	code, _ = p.do("GET", v1Path+"/nope", "", nil)
	if code != 404 {
		t.Fatalf("get missing: %d", code)
	}

	// Watch through v1 from the list's resourceVersion; change through
	// both versions.
	w := p.watch(v1Path + "?watch=1&resourceVersion=" + list.Metadata.ResourceVersion)

	a2.Spec["cronSpec"] = "*/10 * * * *"
	put, _ := json.Marshal(a2)
	var a3 object
	p.must(200, "PUT", v2Path+"/a", string(put), &a3)
	if a3.Metadata.Generation != 2 || a3.Spec["cronSpec"] != "*/10 * * * *" {
		t.Fatalf("update through v2: %+v", a3)
	}
	code, body = p.do("PUT", v2Path+"/a", string(put), nil) // a2's resourceVersion is stale now
	if code != 409 || !strings.Contains(body, "the object has been modified") {
		t.Fatalf("stale update: %d %s", code, body)
	}
	var b2 object
	p.must(200, "PATCH", v1Path+"/b", `{"metadata":{"labels":{"patched":"yes"}}}`, &b2)
	if b2.Metadata.Labels["patched"] != "yes" || b2.Metadata.Generation != 1 {
		t.Fatalf("patch through v1: %+v", b2)
	}
	var bs object
	p.must(200, "PUT", v1Path+"/b/status", func() string {
		b2.Status = map[string]any{"phase": "Running"}
		s, _ := json.Marshal(b2)
		return string(s)
	}(), &bs)
	if bs.Status["phase"] != "Running" {
		t.Fatalf("status update: %+v", bs)
	}
	p.must(201, "POST", v2Path, cronTab("v2", "c", `{"cronSpec":"@daily"}`), nil)
	p.must(200, "DELETE", v2Path+"/c", "", nil)

	for i, want := range []struct{ typ, name string }{
		{"MODIFIED", "a"}, {"MODIFIED", "b"}, {"MODIFIED", "b"}, {"ADDED", "c"}, {"DELETED", "c"},
	} {
		ev := w.next(t)
		if ev.Type != want.typ || ev.Object.Metadata.Name != want.name || ev.Object.APIVersion != "stable.example.com/v1" {
			t.Fatalf("event %d: %s %s (%s), want %s %s", i, ev.Type, ev.Object.Metadata.Name, ev.Object.APIVersion, want.typ, want.name)
		}
	}

	// What must survive the restart.
	var before objectList
	p.must(200, "GET", v1Path, "", &before)
	var crdBefore object
	p.must(200, "GET", crdPath+"/crontabs.stable.example.com", "", &crdBefore)

	// SIGTERM: a clean exit, and the watch ends cleanly.
	p.stop()
	select {
	case err := <-w.ended:
		if err != nil {
			t.Errorf("watch ended with %v at shutdown, want a clean end", err)
		}
	case <-time.After(e2eWait):
		t.Error("watch still open after the server exited")
	}

	// Restart on the same data: everything is still there, with the same
	// resourceVersions.
	p = startServe(t, dataDir)
	p.poll("custom resources are served again", func() bool { code, _ := p.do("GET", v1Path, "", nil); return code == 200 })
	var after objectList
	p.must(200, "GET", v1Path, "", &after)
	if len(after.Items) != len(before.Items) {
		t.Fatalf("%d objects after restart, %d before", len(after.Items), len(before.Items))
	}
	for i := range before.Items {
		bi, ai := before.Items[i], after.Items[i]
		if ai.Metadata.Name != bi.Metadata.Name || ai.Metadata.UID != bi.Metadata.UID || ai.Metadata.ResourceVersion != bi.Metadata.ResourceVersion ||
			ai.Metadata.Generation != bi.Metadata.Generation || fmt.Sprint(ai.Spec) != fmt.Sprint(bi.Spec) || fmt.Sprint(ai.Status) != fmt.Sprint(bi.Status) {
			t.Errorf("after restart %+v, before %+v", ai, bi)
		}
	}
	if after.Metadata.ResourceVersion != before.Metadata.ResourceVersion {
		t.Errorf("list resourceVersion %s after restart, %s before", after.Metadata.ResourceVersion, before.Metadata.ResourceVersion)
	}
	var crdAfter object
	p.must(200, "GET", crdPath+"/crontabs.stable.example.com", "", &crdAfter)
	if crdAfter.Metadata.ResourceVersion != crdBefore.Metadata.ResourceVersion || crdAfter.Metadata.UID != crdBefore.Metadata.UID {
		t.Errorf("CRD after restart %+v, before %+v", crdAfter.Metadata, crdBefore.Metadata)
	}

	// Writes go on from the old revision, and old revisions still serve
	// a watch.
	var d object
	p.must(201, "POST", v2Path, cronTab("v2", "d", `{}`), &d)
	if !newerRV(d.Metadata.ResourceVersion, before.Metadata.ResourceVersion) {
		t.Errorf("new object's resourceVersion %s is not after %s", d.Metadata.ResourceVersion, before.Metadata.ResourceVersion)
	}
	w2 := p.watch(v2Path + "?watch=1&resourceVersion=" + before.Metadata.ResourceVersion)
	if ev := w2.next(t); ev.Type != "ADDED" || ev.Object.Metadata.Name != "d" || ev.Object.APIVersion != "stable.example.com/v2" {
		t.Errorf("watch from before the restart: %s %s %s", ev.Type, ev.Object.Metadata.Name, ev.Object.APIVersion)
	}
	p.stop()
}

// newerRV compares two resourceVersions as crdlab writes them (decimal
// revisions). Clients must not do this; the test may, to check storage.
func newerRV(a, b string) bool {
	return len(a) > len(b) || (len(a) == len(b) && a > b)
}
