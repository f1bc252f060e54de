package reliability

import (
	"bufio"
	"bytes"
	"context"
	"crypto/tls"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// Bounds of the waits in this package: every wait is a poll with a
// deadline.
const (
	readyTimeout = 30 * time.Second
	stopTimeout  = 30 * time.Second
	pollInterval = 20 * time.Millisecond
)

// crdlabBinary is the crdlab TestMain built.
var crdlabBinary string

// TestMain builds crdlab once (without -race: the server's speed matters
// here, and its races are the unit tests' business), runs the tests and
// removes the binary.
func TestMain(m *testing.M) {
	if limit := os.Getenv(envFileSizeLimit); limit != "" {
		execWithFileSizeLimit(limit)
		return
	}
	dir, err := os.MkdirTemp("", "crdlab-reliability-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	crdlabBinary = filepath.Join(dir, "crdlab")
	start := time.Now()
	cmd := exec.Command(goCommand(), "build", "-o", crdlabBinary, "./cmd/crdlab")
	cmd.Dir = "../.."
	cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
	if err := cmd.Run(); err != nil {
		fmt.Fprintln(os.Stderr, "reliability: building crdlab:", err)
		os.RemoveAll(dir)
		os.Exit(1)
	}
	fmt.Fprintf(os.Stderr, "reliability: built crdlab in %v\n", time.Since(start).Round(100*time.Millisecond))
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// With these set in its environment, the test binary is a wrapper: it
// lowers its file size limit (RLIMIT_FSIZE) to the number of bytes in
// envFileSizeLimit and execs the program in envExec with its arguments,
// so that the server's writes past the limit fail with EFBIG — a full
// disk, for one process. (Go ignores SIGXFSZ, so the write just fails.)
const (
	envFileSizeLimit = "CRDLAB_RELIABILITY_FSIZE"
	envExec          = "CRDLAB_RELIABILITY_EXEC"
)

func execWithFileSizeLimit(limit string) {
	n, err := strconv.ParseUint(limit, 10, 64)
	if err == nil {
		err = syscall.Setrlimit(syscall.RLIMIT_FSIZE, &syscall.Rlimit{Cur: n, Max: n})
	}
	if err == nil {
		prog := os.Getenv(envExec)
		env := slices.DeleteFunc(os.Environ(), func(kv string) bool {
			return strings.HasPrefix(kv, envFileSizeLimit+"=") || strings.HasPrefix(kv, envExec+"=")
		})
		err = syscall.Exec(prog, append([]string{prog}, os.Args[1:]...), env)
	}
	fmt.Fprintln(os.Stderr, "reliability: file size limit wrapper:", err)
	os.Exit(2)
}

// goCommand is the go command running this test, so that crdlab is built
// with the same toolchain.
func goCommand() string {
	if goroot := os.Getenv("GOROOT"); goroot != "" {
		if p := filepath.Join(goroot, "bin", "go"); fileExists(p) {
			return p
		}
	}
	return "go"
}

func fileExists(p string) bool { _, err := os.Stat(p); return err == nil }

// server is one `crdlab serve` process.
type server struct {
	t       *testing.T
	dataDir string
	url     string
	client  *http.Client
	cmd     *exec.Cmd
	logs    *logBuffer
	exited  chan struct{} // closed once the process has exited; then waitErr is set
	waitErr error
}

// logBuffer keeps the server's log (its last 64 KiB).
type logBuffer struct {
	mu sync.Mutex // guards b
	b  []byte
}

func (l *logBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.b = append(l.b, p...)
	if len(l.b) > 64<<10 {
		l.b = append([]byte(nil), l.b[len(l.b)-64<<10:]...)
	}
	return len(p), nil
}

func (l *logBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return string(l.b)
}

var readyLine = regexp.MustCompile(`msg="crdlab is ready to serve" addr=(\S+)`)

// serverOptions tune startServer.
type serverOptions struct {
	args []string
	// tls, if set, is the client TLS config (the server is https).
	tls *tls.Config
	// token is sent as a bearer token by do (not by the health polls).
	token string
	// env is added to the process's environment.
	env []string
	// fileSizeLimit, if > 0, is the server's RLIMIT_FSIZE in bytes: its
	// data file cannot grow past it (a full disk).
	fileSizeLimit uint64
}

// startServer runs `crdlab serve` on a free loopback port with dataDir
// and waits until /readyz answers 200. The process is killed when t ends
// if it still runs.
func startServer(t *testing.T, dataDir string, o serverOptions) *server {
	t.Helper()
	s := startServerNoWait(t, dataDir, o)
	s.waitReady()
	return s
}

// startServerNoWait is startServer without the wait for /readyz: it
// returns once the process says where it listens.
func startServerNoWait(t *testing.T, dataDir string, o serverOptions) *server {
	t.Helper()
	args := append([]string{"serve", "--listen", "127.0.0.1:0", "--data-dir", dataDir}, o.args...)
	cmd := exec.Command(crdlabBinary, args...)
	cmd.Env = append(os.Environ(), o.env...)
	if o.fileSizeLimit > 0 {
		cmd = exec.Command(os.Args[0], args...)
		cmd.Env = append(os.Environ(), append(o.env,
			fmt.Sprintf("%s=%d", envFileSizeLimit, o.fileSizeLimit), envExec+"="+crdlabBinary)...)
	}
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	s := &server{t: t, dataDir: dataDir, cmd: cmd, logs: &logBuffer{}, exited: make(chan struct{})}
	s.client = newClient(o.tls, o.token)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	addr := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		sc.Buffer(make([]byte, 64<<10), 1<<20)
		found := false
		for sc.Scan() {
			line := sc.Text()
			s.logs.Write([]byte(line + "\n"))
			if m := readyLine.FindStringSubmatch(line); m != nil && !found {
				found = true
				addr <- m[1]
			}
		}
		_, _ = io.Copy(io.Discard, stderr)
		s.waitErr = cmd.Wait()
		close(s.exited)
	}()
	t.Cleanup(func() {
		select {
		case <-s.exited:
		default:
			_ = s.cmd.Process.Kill() // our own child, still running after a failure
			<-s.exited
		}
		if t.Failed() {
			t.Logf("crdlab serve log (end):\n%s", tail(s.logs.String(), 8000))
		}
	})
	scheme := "http://"
	if o.tls != nil {
		scheme = "https://"
	}
	select {
	case a := <-addr:
		s.url = scheme + a
	case <-s.exited:
		t.Fatalf("crdlab serve exited before listening: %v\n%s", s.waitErr, s.logs.String())
	case <-time.After(readyTimeout):
		t.Fatalf("crdlab serve did not say where it listens within %v\n%s", readyTimeout, s.logs.String())
	}
	return s
}

func tail(s string, n int) string {
	if len(s) > n {
		return "…" + s[len(s)-n:]
	}
	return s
}

// newClient is an HTTP client for many concurrent requests, sending
// token (if any) with each.
func newClient(cfg *tls.Config, token string) *http.Client {
	tr := &http.Transport{
		MaxIdleConns:        512,
		MaxIdleConnsPerHost: 512,
		IdleConnTimeout:     30 * time.Second,
		TLSClientConfig:     cfg,
		ForceAttemptHTTP2:   cfg != nil,
	}
	var rt http.RoundTripper = tr
	if token != "" {
		rt = roundTripperFunc(func(r *http.Request) (*http.Response, error) {
			r = r.Clone(r.Context())
			r.Header.Set("Authorization", "Bearer "+token)
			return tr.RoundTrip(r)
		})
	}
	return &http.Client{Transport: rt}
}

type roundTripperFunc func(*http.Request) (*http.Response, error)

func (f roundTripperFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

// waitReady polls /readyz until it answers 200.
func (s *server) waitReady() {
	s.t.Helper()
	c := &http.Client{Transport: s.client.Transport, Timeout: 2 * time.Second}
	deadline := time.Now().Add(readyTimeout)
	var last string
	for {
		select {
		case <-s.exited:
			s.t.Fatalf("crdlab serve exited before it was ready: %v\n%s", s.waitErr, s.logs.String())
		default:
		}
		resp, err := c.Get(s.url + "/readyz")
		if err == nil {
			b, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode == 200 {
				return
			}
			last = fmt.Sprintf("%d %s", resp.StatusCode, bytes.TrimSpace(b))
		} else {
			last = err.Error()
		}
		if time.Now().After(deadline) {
			s.t.Fatalf("/readyz not ok after %v: %s\n%s", readyTimeout, last, s.logs.String())
		}
		time.Sleep(pollInterval)
	}
}

// kill sends SIGKILL and waits for the process to be gone.
func (s *server) kill() {
	s.t.Helper()
	_ = s.cmd.Process.Signal(syscall.SIGKILL)
	<-s.exited
}

// stop sends SIGTERM and checks that the process exits cleanly in time.
func (s *server) stop() {
	s.t.Helper()
	if err := s.cmd.Process.Signal(syscall.SIGTERM); err != nil && !errors.Is(err, os.ErrProcessDone) {
		s.t.Fatal(err)
	}
	select {
	case <-s.exited:
		if s.waitErr != nil {
			s.t.Fatalf("crdlab serve exited with %v after SIGTERM\n%s", s.waitErr, tail(s.logs.String(), 8000))
		}
	case <-time.After(stopTimeout):
		s.t.Fatalf("crdlab serve still running %v after SIGTERM", stopTimeout)
	}
}

// do sends a request (body JSON, or a merge patch for PATCH) and returns
// the code and body; err is a transport error.
func (s *server) do(ctx context.Context, method, path, body string) (int, []byte, error) {
	return s.doWith(ctx, method, path, body, nil)
}

// doWith is do, calling header (if set) with the answer's header.
func (s *server) doWith(ctx context.Context, method, path, body string, header func(http.Header)) (int, []byte, error) {
	req, err := http.NewRequestWithContext(ctx, method, s.url+path, strings.NewReader(body))
	if err != nil {
		return 0, nil, err
	}
	switch {
	case method == "PATCH":
		req.Header.Set("Content-Type", "application/merge-patch+json")
	case body != "":
		req.Header.Set("Content-Type", "application/json")
	}
	req.Header.Set("Accept", "application/json")
	resp, err := s.client.Do(req)
	if err != nil {
		return 0, nil, err
	}
	defer resp.Body.Close()
	if header != nil {
		header(resp.Header)
	}
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		return resp.StatusCode, b, &tornError{err}
	}
	return resp.StatusCode, b, nil
}

// tornError: the answer began (status and headers came) but its body was
// cut off.
type tornError struct{ err error }

func (e *tornError) Error() string { return "torn answer: " + e.err.Error() }
func (e *tornError) Unwrap() error { return e.err }

// must sends a request and fails t unless it answers want.
func (s *server) must(want int, method, path, body string) []byte {
	s.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	code, b, err := s.do(ctx, method, path, body)
	if err != nil || code != want {
		s.t.Fatalf("%s %s: %d %v %s, want %d", method, path, code, err, b, want)
	}
	return b
}

// poll calls cond until it is true, failing t after readyTimeout.
func (s *server) poll(what string, cond func() bool) {
	s.t.Helper()
	s.pollFor(what, readyTimeout, cond)
}

// pollFor is poll with its own timeout, for the few states that take long
// on a loaded machine (and whose time is not what the test checks).
func (s *server) pollFor(what string, timeout time.Duration, cond func() bool) {
	s.t.Helper()
	deadline := time.Now().Add(timeout)
	for !cond() {
		if time.Now().After(deadline) {
			s.t.Fatalf("%s: not within %v", what, timeout)
		}
		time.Sleep(pollInterval)
	}
}

// metric returns the value of a line of /metrics that starts with name.
func (s *server) metric(name string) float64 {
	s.t.Helper()
	b := s.must(200, "GET", "/metrics", "")
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, name+" "); ok {
			f, err := strconv.ParseFloat(v, 64)
			if err != nil {
				s.t.Fatalf("metric %s: %v", name, err)
			}
			return f
		}
	}
	s.t.Fatalf("no metric %s in:\n%s", name, b)
	return 0
}

// revision is the storage's current revision (the newest resourceVersion).
func (s *server) revision() int64 { return int64(s.metric("crdlab_storage_revision")) }

// settledRevision waits until the CRD controllers are done writing (the
// CRD's conditions keep coming for a moment after it is served) and
// returns the revision then, for a test that checks nothing is written.
func (s *server) settledRevision() int64 {
	s.t.Helper()
	rev := s.revision()
	s.poll("the revision settles", func() bool {
		time.Sleep(200 * time.Millisecond)
		r := s.revision()
		settled := r == rev
		rev = r
		return settled
	})
	return rev
}

// The CRD every test uses: namespaced crontabs with a structural schema,
// a status subresource and a scale subresource.
const (
	crdsPath     = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions"
	crdName      = "crontabs.stable.example.com"
	crontabsPath = "/apis/stable.example.com/v1/namespaces/default/crontabs"
	allCrontabs  = "/apis/stable.example.com/v1/crontabs"
)

const crdJSON = `{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition",
"metadata":{"name":"crontabs.stable.example.com"},
"spec":{"group":"stable.example.com","scope":"Namespaced",
 "names":{"plural":"crontabs","singular":"crontab","kind":"CronTab","shortNames":["ct"]},
 "versions":[{"name":"v1","served":true,"storage":true,
  "subresources":{"status":{},"scale":{"specReplicasPath":".spec.replicas","statusReplicasPath":".status.replicas"}},
  "schema":{"openAPIV3Schema":{"type":"object","properties":{
   "spec":{"type":"object","required":["cronSpec"],"properties":{
     "cronSpec":{"type":"string","maxLength":64},
     "image":{"type":"string"},
     "replicas":{"type":"integer","minimum":0,"maximum":100,"default":1},
     "counter":{"type":"integer"},
     "writer":{"type":"string"}}},
   "status":{"type":"object","properties":{"replicas":{"type":"integer"}}}}}}}]}}`

// setupCRD creates the CRD and waits until its custom resources are
// served.
func setupCRD(s *server) {
	s.t.Helper()
	s.must(201, "POST", crdsPath, crdJSON)
	waitServed(s)
}

// waitServed waits until the crontabs are served (after a start, the CRD
// informer must have synced; readiness already waits for that).
func waitServed(s *server) {
	s.t.Helper()
	s.poll("crontabs served", func() bool {
		code, _, err := s.do(context.Background(), "GET", crontabsPath+"?limit=1", "")
		return err == nil && code == 200
	})
}

// createNamespaces creates namespaces (those that already exist are
// fine): objects can only be created in a namespace that exists
// (NamespaceLifecycle).
func (s *server) createNamespaces(names ...string) {
	s.t.Helper()
	for _, n := range names {
		code, b, err := s.do(context.Background(), "POST", "/api/v1/namespaces", fmt.Sprintf(`{"apiVersion":"v1","kind":"Namespace","metadata":{"name":%q}}`, n))
		if err != nil || code != 201 && code != 409 {
			s.t.Fatalf("create namespace %s: %d %v %s", n, code, err, b)
		}
	}
}

// cronTab is a CronTab in namespace ns.
func cronTab(ns, name, writer string, counter int) string {
	return fmt.Sprintf(`{"apiVersion":"stable.example.com/v1","kind":"CronTab","metadata":{"name":%q,"namespace":%q},"spec":{"cronSpec":"* * * * */5","image":"img","writer":%q,"counter":%d}}`,
		name, ns, writer, counter)
}

// objectMeta is what the tests read of a returned object or event.
type object struct {
	Metadata struct {
		Name, Namespace, ResourceVersion string
	}
	Spec struct {
		Counter int
		Writer  string
	}
}

func parseObject(b []byte) (object, error) {
	var o object
	err := json.Unmarshal(b, &o)
	return o, err
}

func rvOf(o object) int64 {
	n, _ := strconv.ParseInt(o.Metadata.ResourceVersion, 10, 64)
	return n
}
