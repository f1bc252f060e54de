package e2e

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

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

// server is one `crdlab serve` process with its own data dir, and a
// kubeconfig and HOME (kubectl's discovery cache lives in ~/.kube/cache)
// for the clients that talk to it.
type server struct {
	url        string // http://127.0.0.1:PORT
	dir        string // temporary root of everything below
	dataDir    string
	home       string
	kubeconfig string
	logPath    string

	cmd    *exec.Cmd
	exited chan struct{} // closed when cmd has exited; then waitErr is set
	// waitErr is cmd.Wait's result; read only after exited is closed.
	waitErr error
}

// startServer starts crdlab serve on a free loopback port, waits for
// /readyz and writes a kubeconfig for it. The server is stopped with
// SIGTERM when t ends, and must exit cleanly.
func startServer(t *testing.T) *server {
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
	// Another process may take the free port between our check and the
	// server's listen: then try another one.
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		if err = s.start(t); err == nil {
			break
		}
		t.Logf("crdlab serve did not start (attempt %d): %v", attempt+1, err)
	}
	if err != nil {
		s.dumpLog(t)
		t.Fatalf("crdlab serve: %v", err)
	}
	t.Cleanup(func() { s.stop(t) })

	out, err := exec.Command(binaries.crdlab, "kubeconfig", "--server", s.url).Output()
	if err != nil {
		t.Fatalf("crdlab kubeconfig --server %s: %v%s", s.url, err, stderrOf(err))
	}
	if err := os.WriteFile(s.kubeconfig, out, 0o600); err != nil {
		t.Fatal(err)
	}
	return s
}

// start launches the process on a free port and waits until it is ready.
func (s *server) start(t *testing.T) error {
	port, err := freePort()
	if err != nil {
		return err
	}
	addr := fmt.Sprintf("127.0.0.1:%d", port)
	s.url = "http://" + addr
	logf, err := os.OpenFile(s.logPath, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return err
	}
	s.cmd = exec.Command(binaries.crdlab, "serve", "--data-dir", s.dataDir, "--listen", addr)
	s.cmd.Stdout, s.cmd.Stderr = logf, logf
	if err := s.cmd.Start(); err != nil {
		logf.Close()
		return err
	}
	s.exited = make(chan struct{})
	go func() {
		s.waitErr = s.cmd.Wait()
		logf.Close()
		close(s.exited)
	}()
	start := time.Now()
	if err := s.waitReady(); err != nil {
		s.kill()
		return err
	}
	t.Logf("crdlab serve on %s ready in %v (data %s)", s.url, time.Since(start).Round(time.Millisecond), s.dataDir)
	return nil
}

// freePort asks the kernel for a free loopback port.
func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

// waitReady polls /readyz until it answers 200 "ok", the process exits or
// readyTimeout passes.
func (s *server) waitReady() error {
	client := &http.Client{Timeout: 2 * time.Second}
	deadline := time.Now().Add(readyTimeout)
	var last string
	for {
		select {
		case <-s.exited:
			return fmt.Errorf("exited before it was ready: %v", s.waitErr)
		default:
		}
		resp, err := client.Get(s.url + "/readyz")
		if err == nil {
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return nil
			}
			last = fmt.Sprintf("%d %s", resp.StatusCode, bytes.TrimSpace(body))
		} else {
			last = err.Error()
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("/readyz not ok after %v: %s", readyTimeout, last)
		}
		select {
		case <-s.exited:
		case <-time.After(pollInterval):
		}
	}
}

// stop sends SIGTERM and checks that the server exits, cleanly, in time.
func (s *server) stop(t *testing.T) {
	t.Helper()
	if err := s.cmd.Process.Signal(syscall.SIGTERM); err != nil && !errors.Is(err, os.ErrProcessDone) {
		t.Errorf("SIGTERM to crdlab serve: %v", err)
	}
	select {
	case <-s.exited:
		if s.waitErr != nil {
			t.Errorf("crdlab serve exited with %v after SIGTERM", s.waitErr)
		}
	case <-time.After(stopTimeout):
		t.Errorf("crdlab serve still running %v after SIGTERM; killing it", stopTimeout)
		s.kill()
	}
	// CRDLAB_E2E_LOGS=1 shows every request the server saw, even on success.
	if t.Failed() || os.Getenv("CRDLAB_E2E_LOGS") == "1" {
		s.dumpLog(t)
	}
}

func (s *server) kill() {
	_ = s.cmd.Process.Kill()
	<-s.exited
}

// dumpLog logs the end of the server's log.
func (s *server) dumpLog(t *testing.T) {
	t.Helper()
	b, err := os.ReadFile(s.logPath)
	if err != nil {
		return
	}
	const max = 200000
	if len(b) > max {
		b = b[len(b)-max:]
	}
	t.Logf("crdlab serve log (%s):\n%s", s.logPath, b)
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
