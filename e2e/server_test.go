package e2e

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/crdlab/crdlab/e2e/internal/proc"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"
)

// Bounds of the waits in this package. Every wait is a poll or a watch
// with a deadline; none is a bare sleep.
const (
	readyTimeout    = 30 * time.Second // crdlab serve up → /readyz ok
	stopTimeout     = 20 * time.Second // SIGTERM → exit
	kubectlTimeout  = 90 * time.Second // one kubectl command, whole
	requestTimeout  = "30s"            // kubectl --request-timeout
	eventualTimeout = 30 * time.Second // a state the server reaches on its own
	pollInterval    = 50 * time.Millisecond
)

// server is one `crdlab serve` process (package proc) with its own data
// dir, and a kubeconfig and HOME (kubectl's discovery cache lives in
// ~/.kube/cache) for the clients that talk to it.
type server struct {
	url        string // http://127.0.0.1:PORT
	dir        string // temporary root of everything below
	dataDir    string
	home       string
	kubeconfig string
	logPath    string

	proc *proc.Server
}

// newServer lays out a server's directories under a fresh temporary dir.
func newServer(t *testing.T) *server {
	t.Helper()
	dir := t.TempDir()
	s := &server{
		dir:        dir,
		dataDir:    filepath.Join(dir, "data"),
		home:       filepath.Join(dir, "home"),
		kubeconfig: filepath.Join(dir, "kubeconfig"),
		logPath:    filepath.Join(dir, "crdlab.log"),
	}
	if err := os.MkdirAll(s.home, 0o700); err != nil {
		t.Fatal(err)
	}
	return s
}

// start runs crdlab serve with args on a port of its choosing and waits
// for /readyz; it is stopped with SIGTERM when t ends, and must exit
// cleanly. readyClient, if set, makes the client /readyz is polled with
// once the server listens (over TLS: one that trusts its CA).
func (s *server) start(t *testing.T, readyClient func() (*http.Client, error), args ...string) {
	t.Helper()
	started := time.Now()
	p, err := proc.Start(binaries.crdlab, s.dataDir, s.logPath, readyTimeout, args...)
	if p != nil {
		s.proc = p
		t.Cleanup(func() { s.stop(t) })
	}
	var client *http.Client
	if err == nil && readyClient != nil {
		client, err = readyClient()
	}
	if err == nil {
		s.url = p.URL
		err = p.WaitReady(client, readyTimeout)
	}
	if err != nil {
		s.dumpLog(t)
		t.Fatalf("crdlab serve: %v", err)
	}
	t.Logf("crdlab serve on %s ready in %v (data %s)", s.url, time.Since(started).Round(time.Millisecond), s.dataDir)
}

// startServer starts crdlab serve on loopback, waits for /readyz and
// writes a kubeconfig for it. The server is stopped with SIGTERM when t
// ends, and must exit cleanly.
func startServer(t *testing.T) *server {
	t.Helper()
	s := newServer(t)
	s.start(t, nil)
	out, err := exec.Command(binaries.crdlab, "kubeconfig", "--server", s.url).Output()
	if err != nil {
		t.Fatalf("crdlab kubeconfig --server %s: %v%s", s.url, err, stderrOf(err))
	}
	if err := os.WriteFile(s.kubeconfig, out, 0o600); err != nil {
		t.Fatal(err)
	}
	return s
}

// stop sends SIGTERM and checks that the server exits, cleanly, in time.
func (s *server) stop(t *testing.T) {
	t.Helper()
	if err := s.proc.Stop(stopTimeout); err != nil {
		t.Error(err)
	}
	// CRDLAB_E2E_LOGS=1 shows every request the server saw, even on success.
	if t.Failed() || os.Getenv("CRDLAB_E2E_LOGS") == "1" {
		s.dumpLog(t)
	}
}

// dumpLog logs the end of the server's log.
func (s *server) dumpLog(t *testing.T) {
	t.Helper()
	t.Logf("crdlab serve log (%s):\n%s", s.logPath, s.proc.Log(200000))
}

// restConfig is the client-go config for the server, read from its
// kubeconfig as a user's program would.
func (s *server) restConfig(t *testing.T) *rest.Config {
	t.Helper()
	cfg, err := clientcmd.BuildConfigFromFlags("", s.kubeconfig)
	if err != nil {
		t.Fatalf("kubeconfig: %v", err)
	}
	return cfg
}

// kubectlResult is what one kubectl run printed.
type kubectlResult struct {
	args           []string
	stdout, stderr string
	err            error
}

func (r kubectlResult) String() string {
	return fmt.Sprintf("kubectl %s: err=%v\nstdout:\n%s\nstderr:\n%s", strings.Join(r.args, " "), r.err, r.stdout, r.stderr)
}

// kubectlCmd is a kubectl command line for this server: its kubeconfig,
// a request timeout and a HOME of its own, and nothing else of this
// process's environment but PATH.
func (s *server) kubectlCmd(ctx context.Context, env []string, args ...string) *exec.Cmd {
	full := append([]string{"--kubeconfig", s.kubeconfig, "--request-timeout", requestTimeout}, args...)
	cmd := exec.CommandContext(ctx, binaries.kubectl, full...)
	cmd.Env = append([]string{"HOME=" + s.home, "PATH=" + os.Getenv("PATH")}, env...)
	cmd.WaitDelay = 5 * time.Second
	return cmd
}

// kubectl runs kubectl with args (and extra environment) and returns what
// it printed.
func (s *server) kubectlEnv(t *testing.T, env []string, args ...string) kubectlResult {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), kubectlTimeout)
	defer cancel()
	cmd := s.kubectlCmd(ctx, env, args...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	r := kubectlResult{args: args, stdout: stdout.String(), stderr: stderr.String(), err: err}
	t.Logf("$ kubectl %s\n%s%s", strings.Join(args, " "), r.stdout, r.stderr)
	return r
}

func (s *server) kubectl(t *testing.T, args ...string) kubectlResult {
	t.Helper()
	return s.kubectlEnv(t, nil, args...)
}

// kubectlOK runs kubectl and fails t unless it succeeds; it returns stdout.
func (s *server) kubectlOK(t *testing.T, args ...string) string {
	t.Helper()
	r := s.kubectl(t, args...)
	if r.err != nil {
		t.Fatalf("kubectl %s failed: %v\n%s", strings.Join(args, " "), r.err, r.stderr)
	}
	return r.stdout
}

// kubectlFails runs kubectl and fails t unless it fails; it returns stderr.
func (s *server) kubectlFails(t *testing.T, args ...string) string {
	t.Helper()
	r := s.kubectl(t, args...)
	if r.err == nil {
		t.Fatalf("kubectl %s succeeded, want an error\n%s", strings.Join(args, " "), r.stdout)
	}
	return r.stderr
}

// streamingKubectl is a kubectl that keeps running (get -w, delete
// --wait) while the test does other things.
type streamingKubectl struct {
	cmd    *exec.Cmd
	cancel context.CancelFunc
	lines  chan string   // stdout, line by line; closed at EOF
	done   chan struct{} // closed when the process has exited; then err is set
	err    error
	stderr bytes.Buffer // read only after done is closed

	mu  sync.Mutex // guards out
	out []string   // every stdout line so far
}

// startKubectl starts kubectl in the background; it is killed when t ends
// if it has not exited by then.
func (s *server) startKubectl(t *testing.T, args ...string) *streamingKubectl {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), kubectlTimeout)
	k := &streamingKubectl{cmd: s.kubectlCmd(ctx, nil, args...), cancel: cancel,
		lines: make(chan string, 100), done: make(chan struct{})}
	k.cmd.Stderr = &k.stderr
	stdout, err := k.cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := k.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Logf("$ kubectl %s &", strings.Join(args, " "))
	var readDone sync.WaitGroup
	readDone.Add(1)
	go func() {
		defer readDone.Done()
		defer close(k.lines)
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			k.mu.Lock()
			k.out = append(k.out, sc.Text())
			k.mu.Unlock()
			k.lines <- sc.Text()
		}
	}()
	go func() {
		readDone.Wait()
		k.err = k.cmd.Wait()
		close(k.done)
	}()
	t.Cleanup(func() {
		cancel() // kills the process if it still runs
		<-k.done
		k.mu.Lock()
		t.Logf("kubectl %s printed:\n%s\nstderr:\n%s", strings.Join(args, " "), strings.Join(k.out, "\n"), k.stderr.String())
		k.mu.Unlock()
	})
	return k
}

// waitLine waits for a stdout line that contains every one of parts.
func (k *streamingKubectl) waitLine(t *testing.T, parts ...string) string {
	t.Helper()
	timer := time.NewTimer(eventualTimeout)
	defer timer.Stop()
	for {
		select {
		case line, ok := <-k.lines:
			if !ok {
				<-k.done
				t.Fatalf("kubectl exited (%v) before printing a line with %q; stderr:\n%s", k.err, parts, k.stderr.String())
			}
			if containsAll(line, parts...) {
				return line
			}
		case <-timer.C:
			t.Fatalf("no line with %q after %v", parts, eventualTimeout)
		}
	}
}

// wait waits for kubectl to exit and returns its error.
func (k *streamingKubectl) wait(t *testing.T) error {
	t.Helper()
	select {
	case <-k.done:
		return k.err
	case <-time.After(kubectlTimeout):
		t.Fatalf("kubectl still running after %v", kubectlTimeout)
		return nil
	}
}

func containsAll(s string, parts ...string) bool {
	for _, p := range parts {
		if !strings.Contains(s, p) {
			return false
		}
	}
	return true
}

// eventually polls cond until it returns nil or eventualTimeout passes;
// then it fails t with cond's last error.
func eventually(t *testing.T, what string, cond func() error) {
	t.Helper()
	var last error
	err := wait.PollUntilContextTimeout(context.Background(), pollInterval, eventualTimeout, true,
		func(context.Context) (bool, error) {
			last = cond()
			return last == nil, nil
		})
	if err != nil {
		t.Fatalf("%s: not after %v: %v", what, eventualTimeout, last)
	}
}

func stderrOf(err error) string {
	var ee *exec.ExitError
	if errors.As(err, &ee) && len(ee.Stderr) > 0 {
		return "\n" + string(ee.Stderr)
	}
	return ""
}

// exitCode is a command's exit status: 0 for nil, -1 if it did not exit.
func exitCode(err error) int {
	var ee *exec.ExitError
	switch {
	case err == nil:
		return 0
	case errors.As(err, &ee):
		return ee.ExitCode()
	}
	return -1
}
