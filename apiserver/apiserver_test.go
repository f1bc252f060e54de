package apiserver

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	apiextensionsv1 "github.com/crdlab/crdlab/apis/apiextensions/v1"
	"github.com/crdlab/crdlab/scheme"
	"github.com/crdlab/crdlab/storage/bolt"
)

// testServer is a server running on a free loopback port.
type testServer struct {
	*Server
	url    string
	cancel context.CancelFunc
	done   chan error
}

// completeNew is Complete then New.
func completeNew(c *Config) (*Server, error) {
	cc, err := c.Complete()
	if err != nil {
		return nil, err
	}
	return cc.New()
}

// runNoSync runs a whole server for a benchmark: on bbolt without fsync,
// on a loopback port of its own, its logs discarded, cfg's other fields
// as they are (DataDir: a new temporary directory if empty). It runs until
// stop is called or the benchmark ends; url is its base URL.
func runNoSync(tb testing.TB, cfg Config) (url string, stop func()) {
	tb.Helper()
	if cfg.DataDir == "" {
		cfg.DataDir = tb.TempDir()
	}
	cfg.Listen, cfg.Logger, cfg.Storage.NoSync = "127.0.0.1:0", slog.New(slog.DiscardHandler), true
	s, err := completeNew(&cfg)
	if err != nil {
		tb.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- s.Run(ctx) }()
	var once sync.Once
	stop = func() { once.Do(func() { cancel(); <-done }) }
	tb.Cleanup(stop)
	return "http://" + s.Addr(), stop
}

func startServer(t *testing.T, cfg Config, setup ...func(*Server)) *testServer {
	t.Helper()
	if cfg.DataDir == "" {
		cfg.DataDir = t.TempDir()
	}
	cfg.Listen = "127.0.0.1:0"
	cfg.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	cfg.Storage.NoSync = true
	s, err := completeNew(&cfg)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range setup {
		f(s)
	}
	ctx, cancel := context.WithCancel(context.Background())
	ts := &testServer{Server: s, url: "http://" + s.Addr(), cancel: cancel, done: make(chan error, 1)}
	go func() { ts.done <- s.Run(ctx) }()
	t.Cleanup(func() { ts.stop(t) })
	return ts
}

// stop shuts the server down and waits (bounded) for Run to return.
func (ts *testServer) stop(t *testing.T) error {
	t.Helper()
	ts.cancel()
	select {
	case err := <-ts.done:
		ts.done <- err // let a later stop see it too
		return err
	case <-time.After(20 * time.Second):
		t.Fatal("Run did not return within 20s of its context ending")
	}
	return nil
}

// getAs GETs url with an Accept header (none if accept is "") and
// returns the status and body.
func getAs(t *testing.T, url, accept string) (int, []byte) {
	t.Helper()
	req, err := http.NewRequest("GET", url, nil)
	if err != nil {
		t.Fatal(err)
	}
	if accept != "" {
		req.Header.Set("Accept", accept)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, b
}

func get(t *testing.T, url string) (int, string) {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// eventually polls cond every 20ms for up to 10s.
func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("%s: not within 10s", what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func TestServer_Health(t *testing.T) {
	ts := startServer(t, Config{})
	eventually(t, "ready", func() bool { code, _ := get(t, ts.url+"/readyz"); return code == 200 })

	t.Run("Root", func(t *testing.T) {
		for _, p := range []string{"/healthz", "/livez", "/readyz"} {
			if code, body := get(t, ts.url+p); code != 200 || body != "ok" {
				t.Errorf("%s: %d %q", p, code, body)
			}
		}
	})
	t.Run("Verbose", func(t *testing.T) {
		_, body := get(t, ts.url+"/readyz?verbose")
		want := "[+]ping ok\n[+]storage ok\n[+]poststarthook/start-system-namespaces-controller ok\n[+]poststarthook/start-kube-apiserver-admission-initializer ok\n[+]poststarthook/start-apiextensions-controllers ok\n[+]poststarthook/crd-informer-synced ok\n[+]poststarthook/start-kube-controllers ok\n[+]shutdown ok\nreadyz check passed\n"
		if body != want {
			t.Errorf("body %q, want %q", body, want)
		}
	})
	t.Run("Single", func(t *testing.T) {
		if code, body := get(t, ts.url+"/healthz/ping"); code != 200 || body != "ok" {
			t.Errorf("%d %q", code, body)
		}
		if code, _ := get(t, ts.url+"/healthz/nope"); code != 404 {
			t.Errorf("unknown check: %d", code)
		}
	})
	t.Run("Failing", func(t *testing.T) {
		fail := errors.New("not today")
		ts.AddReadyzCheck("moody", func() error { return fail })
		code, body := get(t, ts.url+"/readyz")
		if code != 500 || !strings.Contains(body, "[-]moody failed: reason withheld\n") || !strings.HasSuffix(strings.TrimSpace(body), "readyz check failed") {
			t.Errorf("%d %q", code, body)
		}
		if code, body := get(t, ts.url+"/readyz/moody"); code != 500 || !strings.Contains(body, "internal server error: not today") {
			t.Errorf("%d %q", code, body)
		}
		code, body = get(t, ts.url+"/readyz?exclude=moody&verbose")
		if code != 200 || !strings.Contains(body, "[+]moody excluded: ok") {
			t.Errorf("%d %q", code, body)
		}
		if code, _ := get(t, ts.url+"/healthz"); code != 200 {
			t.Errorf("healthz %d: readyz checks must not affect it", code)
		}
	})
	t.Run("Version", func(t *testing.T) {
		code, body := get(t, ts.url+"/version")
		if code != 200 || !strings.Contains(body, `"gitVersion":"v1.37.0-crdlab"`) {
			t.Errorf("%d %q", code, body)
		}
	})
	t.Run("Metrics", func(t *testing.T) {
		get(t, ts.url+"/apis/apiextensions.k8s.io/v1/customresourcedefinitions")
		code, body := get(t, ts.url+"/metrics")
		for _, want := range []string{
			// The CRD informer (controllers.go) and the garbage
			// collector's monitor of CRDs (kubecontrollers.go) list once
			// over loopback, then keep a watch open; the other LIST is ours.
			`apiserver_request_total{code="200",group="apiextensions.k8s.io",resource="customresourcedefinitions",subresource="",verb="LIST",version="v1"} 3`,
			`apiserver_longrunning_requests{verb="WATCH"} `,
			// The four system namespaces (default, kube-system,
			// kube-public, kube-node-lease) are the only writes.
			"crdlab_storage_revision 4\n",
		} {
			if code != 200 || !strings.Contains(body, want) {
				t.Errorf("metrics lack %q:\n%s", want, body)
			}
		}
	})
}

const crdJSON = `{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition",
"metadata":{"name":"crontabs.stable.example.com"},
"spec":{"group":"stable.example.com","scope":"Namespaced","names":{"plural":"crontabs","kind":"CronTab"},
"versions":[{"name":"v1","served":true,"storage":true,"schema":{"openAPIV3Schema":{"type":"object","x-kubernetes-preserve-unknown-fields":true}}}]}}`

func post(t *testing.T, url, body string) int {
	t.Helper()
	resp, err := http.Post(url, "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode >= 300 {
		t.Logf("POST %s: %d %s", url, resp.StatusCode, b)
	}
	return resp.StatusCode
}

// TestServer_CRDInformer checks that the handler hears, through the CRD
// informer, of CRDs written through the API, and of CRDs stored before
// the server started.
func TestServer_CRDInformer(t *testing.T) {
	dir := t.TempDir()
	ts := startServer(t, Config{DataDir: dir})
	crds := ts.chain.extensions.GenericAPIServer.CRDs()
	if code := post(t, ts.url+"/apis/apiextensions.k8s.io/v1/customresourcedefinitions", crdJSON); code != 201 {
		t.Fatalf("create CRD: %d", code)
	}
	eventually(t, "handler sees the new CRD", func() bool { _, ok := crds.Get("crontabs.stable.example.com"); return ok })
	if err := ts.stop(t); err != nil {
		t.Fatal(err)
	}

	ts2 := startServer(t, Config{DataDir: dir})
	eventually(t, "ready", func() bool { code, _ := get(t, ts2.url+"/readyz"); return code == 200 })
	if _, ok := ts2.chain.extensions.GenericAPIServer.CRDs().Get("crontabs.stable.example.com"); !ok {
		t.Fatal("ready before the CRDs in storage reached the handler")
	}
}

// TestServer_Run_GracefulShutdown checks that a watch ends cleanly on
// shutdown, that Run returns, and that the storage is closed (so it can be
// opened again).
func TestServer_Run_GracefulShutdown(t *testing.T) {
	dir := t.TempDir()
	// Without the kube controllers, whose informers' watches would count
	// too (the garbage collector's come and go with discovery).
	ts := startServer(t, Config{DataDir: dir, Controllers: []string{"-" + NamespaceControllerName, "-" + GarbageCollectorControllerName}})
	resp, err := http.Get(ts.url + "/apis/apiextensions.k8s.io/v1/customresourcedefinitions?watch=1")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Fatalf("watch: %d", resp.StatusCode)
	}
	// Ours, the CRD informer's (controllers.go) and NamespaceLifecycle's
	// namespace informer's (admission.go).
	eventually(t, "watches counted", func() bool { return ts.metrics.watches.Load() == 3 })

	ended := make(chan error, 1)
	go func() {
		_, err := io.Copy(io.Discard, bufio.NewReader(resp.Body))
		ended <- err
	}()
	if err := ts.stop(t); err != nil {
		t.Fatalf("Run: %v", err)
	}
	select {
	case err := <-ended:
		if err != nil {
			t.Errorf("watch stream ended with %v, want a clean end", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("watch stream still open after shutdown")
	}
	db, err := bolt.Open(filepath.Join(dir, DataFileName), bolt.Options{NoSync: true, LockTimeout: 100 * time.Millisecond})
	if err != nil {
		t.Fatalf("storage not released: %v", err)
	}
	db.Close()
}

func TestServer_PostStartHook(t *testing.T) {
	release := make(chan struct{})
	ts := startServer(t, Config{}, func(s *Server) {
		if err := s.AddPostStartHook("slow", func(ctx context.Context) error {
			select {
			case <-release:
			case <-ctx.Done():
			}
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		if err := s.AddPostStartHook("slow", func(context.Context) error { return nil }); err == nil {
			t.Error("a hook name was registered twice")
		}
	})
	code, body := get(t, ts.url+"/readyz")
	if code != 500 || !strings.Contains(body, "[-]poststarthook/slow failed") {
		t.Errorf("before the hook returned: %d %q", code, body)
	}
	close(release)
	eventually(t, "ready after the hook", func() bool { code, _ := get(t, ts.url+"/readyz"); return code == 200 })
	if err := ts.AddPostStartHook("late", func(context.Context) error { return nil }); err == nil {
		t.Error("a hook was added after Run")
	}
}

func TestServer_PostStartHookError(t *testing.T) {
	ts := startServer(t, Config{}, func(s *Server) {
		_ = s.AddPostStartHook("broken", func(context.Context) error { return errors.New("boom") })
	})
	select {
	case err := <-ts.done:
		ts.done <- err
		if err == nil || !strings.Contains(err.Error(), "poststarthook/broken failed: boom") {
			t.Errorf("Run returned %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Run kept going after a post-start hook failed")
	}
}

func TestServer_RuntimeConfig(t *testing.T) {
	t.Run("Default", func(t *testing.T) {
		ts := startServer(t, Config{})
		if code, _ := get(t, ts.url+"/apis/apiextensions.k8s.io/v1beta1"); code != 404 {
			t.Errorf("v1beta1 served by default: %d", code)
		}
		if code, _ := get(t, ts.url+"/apis/apiextensions.k8s.io/v1"); code != 200 {
			t.Errorf("v1 not served: %d", code)
		}
	})
	t.Run("V1beta1", func(t *testing.T) {
		ts := startServer(t, Config{RuntimeConfig: map[string]bool{"apiextensions.k8s.io/v1beta1": true}})
		if code, _ := get(t, ts.url+"/apis/apiextensions.k8s.io/v1beta1/customresourcedefinitions"); code != 200 {
			t.Errorf("v1beta1 not served: %d", code)
		}
	})
	t.Run("ErrUnknownGroup", func(t *testing.T) {
		_, err := completeNew(&Config{DataDir: t.TempDir(), RuntimeConfig: map[string]bool{"batch/v1": true}})
		if err == nil || err.Error() != "unknown api groups batch/v1" {
			t.Errorf("err %v", err)
		}
	})
	t.Run("ErrListen", func(t *testing.T) {
		_, err := completeNew(&Config{DataDir: t.TempDir(), Listen: "not-an-address"})
		if err == nil {
			t.Error("New accepted a bad listen address")
		}
	})
}

func TestParseRuntimeConfig(t *testing.T) {
	tests := []struct {
		in      string
		want    map[string]bool
		wantErr string
	}{
		{"", map[string]bool{}, ""},
		{"apiextensions.k8s.io/v1beta1=true", map[string]bool{"apiextensions.k8s.io/v1beta1": true}, ""},
		{"api/all=false, apiextensions.k8s.io/v1", map[string]bool{"api/all": false, "apiextensions.k8s.io/v1": true}, ""},
		{"a/b=", map[string]bool{"a/b": true}, ""},
		{"a/b=maybe", nil, "invalid value of a/b: maybe"},
		{"=true", nil, "empty key"},
	}
	for _, tt := range tests {
		got, err := ParseRuntimeConfig(tt.in)
		if tt.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("ParseRuntimeConfig(%q) error %v, want %q", tt.in, err, tt.wantErr)
			}
			continue
		}
		if err != nil || !reflect.DeepEqual(got, tt.want) {
			t.Errorf("ParseRuntimeConfig(%q) = %v, %v; want %v", tt.in, got, err, tt.want)
		}
	}
}

func TestMergeAPIResourceConfigs(t *testing.T) {
	v1 := apiextensionsv1.SchemeGroupVersion
	v1beta1 := scheme.GroupVersion{Group: "apiextensions.k8s.io", Version: "v1beta1"}
	registered := []scheme.GroupVersion{v1, v1beta1}
	crds := func(gv scheme.GroupVersion) scheme.GroupVersionResource {
		return gv.WithResource("customresourcedefinitions")
	}
	tests := []struct {
		name      string
		overrides map[string]bool
		want      map[scheme.GroupVersion]bool // ResourceEnabled of customresourcedefinitions
		wantErr   string
	}{
		{"Default", nil, map[scheme.GroupVersion]bool{v1: true, v1beta1: false}, ""},
		{"V1beta1On", map[string]bool{"apiextensions.k8s.io/v1beta1": true}, map[scheme.GroupVersion]bool{v1: true, v1beta1: true}, ""},
		{"AllOff", map[string]bool{"api/all": false}, map[scheme.GroupVersion]bool{v1: false, v1beta1: false}, ""},
		{"BetaOn", map[string]bool{"api/beta": true}, map[scheme.GroupVersion]bool{v1: true, v1beta1: true}, ""},
		{"AllOffOneOn", map[string]bool{"api/all": false, "apiextensions.k8s.io/v1": true}, map[scheme.GroupVersion]bool{v1: true, v1beta1: false}, ""},
		{"ResourceOff", map[string]bool{"apiextensions.k8s.io/v1/customresourcedefinitions": false}, map[scheme.GroupVersion]bool{v1: false, v1beta1: false}, ""},
		{"ErrUnknown", map[string]bool{"apps/v1": true}, nil, "unknown api groups apps/v1"},
		{"ErrKey", map[string]bool{"v1": true}, nil, "invalid key v1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := MergeAPIResourceConfigs(DefaultAPIResourceConfig(), tt.overrides, registered)
			if tt.wantErr != "" {
				if err == nil || err.Error() != tt.wantErr {
					t.Fatalf("err %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			for gv, want := range tt.want {
				if got := c.ResourceEnabled(crds(gv)); got != want {
					t.Errorf("%s enabled = %v, want %v", gv, got, want)
				}
			}
		})
	}
}

// TestServer_ConcurrentRequests checks the counters under parallel
// requests (run with -race).
func TestServer_ConcurrentRequests(t *testing.T) {
	ts := startServer(t, Config{})
	const workers, each = 8, 25
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range each {
				resp, err := http.Get(ts.url + "/apis/apiextensions.k8s.io/v1/customresourcedefinitions/nope")
				if err != nil {
					t.Error(err)
					return
				}
				io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
			}
		}()
	}
	wg.Wait()
	_, body := get(t, ts.url+"/metrics")
	want := `apiserver_request_total{code="404",group="apiextensions.k8s.io",resource="customresourcedefinitions",subresource="",verb="GET",version="v1"} 200`
	if !strings.Contains(body, want+"\n") {
		t.Errorf("metrics lack %q:\n%s", want, body)
	}
}

// TestServer_UpdateUIDPrecondition: a PUT whose body names a uid updates
// only the object of that uid, as upstream's DefaultUpdatedObjectInfo
// makes it a precondition: another uid is a 409 Conflict.
func TestServer_UpdateUIDPrecondition(t *testing.T) {
	ts := startServer(t, Config{})
	if code := post(t, ts.url+crdsPath, crdJSON); code != 201 {
		t.Fatalf("create the CRD: %d", code)
	}
	waitEstablished(t, nil, ts.url, "")
	obj := func(uid, rv string) string {
		return `{"apiVersion":"stable.example.com/v1","kind":"CronTab","metadata":{"name":"a","uid":"` + uid + `","resourceVersion":"` + rv + `"},"spec":{"n":1}}`
	}
	code, body := call(t, nil, "POST", ts.url+crontabsPath, "", `{"apiVersion":"stable.example.com/v1","kind":"CronTab","metadata":{"name":"a"}}`)
	if code != 201 {
		t.Fatalf("create: %d %s", code, body)
	}
	var created struct {
		Metadata struct{ UID, ResourceVersion string } `json:"metadata"`
	}
	if err := json.Unmarshal([]byte(body), &created); err != nil || created.Metadata.UID == "" {
		t.Fatalf("no uid in %s: %v", body, err)
	}
	if code, body := call(t, nil, "PUT", ts.url+crontabsPath+"/a", "", obj("0e3f1c3c-0000-4000-8000-000000000000", created.Metadata.ResourceVersion)); code != 409 || !strings.Contains(body, "Precondition failed: UID in precondition") {
		t.Errorf("PUT with another uid: %d %s, want 409", code, body)
	}
	if code, body := call(t, nil, "PUT", ts.url+crontabsPath+"/a", "", obj(created.Metadata.UID, created.Metadata.ResourceVersion)); code != 200 {
		t.Errorf("PUT with its uid: %d %s, want 200", code, body)
	}
}

// TestLoopbackClientConfig_NoGzip: the server's own client does not ask for
// gzip, over the in-process pipe, plain TCP or TLS (a compressed /apis
// document would cost CPU at both ends on loopback).
func TestLoopbackClientConfig_NoGzip(t *testing.T) {
	var got []string
	var mu sync.Mutex
	rec := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		got = append(got, r.Header.Get("Accept-Encoding"))
		mu.Unlock()
	}))
	defer rec.Close()
	s, err := completeNew(&Config{DataDir: t.TempDir(), Listen: "127.0.0.1:0", Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	if s.pipe != nil {
		if tr, ok := s.LoopbackClientConfig().HTTPClient.Transport.(*http.Transport); !ok || !tr.DisableCompression {
			t.Errorf("the pipe's transport %T asks for gzip", s.LoopbackClientConfig().HTTPClient.Transport)
		}
		s.pipe = nil
	}
	cfg := s.LoopbackClientConfig()
	resp, err := cfg.HTTPClient.Get(rec.URL)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	mu.Lock()
	defer mu.Unlock()
	if len(got) != 1 || got[0] != "" {
		t.Errorf("the loopback client over TCP sent Accept-Encoding %q, want none", got)
	}
}
