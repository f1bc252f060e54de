// Package proc builds crdlab (and kubectl) from this tree and runs
// `crdlab serve` as a real child process for the end-to-end tests: on a
// port of its own choosing (--listen 127.0.0.1:0, read back from its log,
// so two tests never race for a port), with its log in a file, stopped
// with SIGTERM and expected to exit cleanly.
//
// It is shared by the e2e package (kubectl, client-go,
// controller-runtime) and e2e/ui (the /ui page in Chromium). Upstream's
// nearest relative is the test apiserver of
// k8s.io/kubernetes/cmd/kube-apiserver/app/testing (StartTestServer),
// which runs the server in the test's own process instead.
package proc

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sync"
	"syscall"
	"time"
)

// GoCommand is the go command running the tests, so that binaries are
// built with the same toolchain.
func GoCommand() string {
	if goroot := os.Getenv("GOROOT"); goroot != "" {
		if p := filepath.Join(goroot, "bin", "go"); fileExists(p) {
			return p
		}
	}
	return "go"
}

func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

// Build runs `go build -o out [-ldflags ldflags] pkg` in dir and prints
// to stderr how long it took. The go command's build cache makes a
// second build of the same tree take seconds.
func Build(dir, out, pkg, ldflags string) error {
	args := []string{"build", "-o", out}
	if ldflags != "" {
		args = append(args, "-ldflags", ldflags)
	}
	args = append(args, pkg)
	cmd := exec.Command(GoCommand(), args...)
	cmd.Dir = dir
	cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
	start := time.Now()
	err := cmd.Run()
	fmt.Fprintf(os.Stderr, "e2e: go build %s (in %s): %v\n", pkg, dir, time.Since(start).Round(100*time.Millisecond))
	return err
}

// Server is one `crdlab serve` process.
type Server struct {
	// URL is where it serves, http(s)://127.0.0.1:PORT, as its log says.
	URL string
	// LogPath holds everything it wrote to stdout and stderr.
	LogPath string

	cmd    *exec.Cmd
	exited chan struct{} // closed when cmd has exited; then waitErr is set
	// waitErr is cmd.Wait's result; read only after exited is closed.
	waitErr error
}

// servingLine finds the URL in the log line `msg=serving addr=… url=…`.
var servingLine = regexp.MustCompile(`msg=serving addr=\S+ url=(\S+)`)

// Start runs `bin serve --listen 127.0.0.1:0 --data-dir dataDir args...`
// with its log going to logPath, and returns once the server has said
// where it listens (it may not be ready yet: see WaitReady), or with an
// error if it exits first or says nothing within timeout.
func Start(bin, dataDir, logPath string, timeout time.Duration, args ...string) (*Server, error) {
	logf, err := os.OpenFile(logPath, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return nil, err
	}
	s := &Server{LogPath: logPath, exited: make(chan struct{})}
	s.cmd = exec.Command(bin, append([]string{"serve", "--listen", "127.0.0.1:0", "--data-dir", dataDir}, args...)...)
	s.cmd.Stdout = logf
	stderr, err := s.cmd.StderrPipe()
	if err != nil {
		logf.Close()
		return nil, err
	}
	if err := s.cmd.Start(); err != nil {
		logf.Close()
		return nil, fmt.Errorf("crdlab serve: %w", err)
	}
	url := make(chan string, 1)
	var copied sync.WaitGroup
	copied.Go(func() {
		// Copy the log to the file, and pick the URL out of it.
		sc := bufio.NewScanner(stderr)
		sc.Buffer(make([]byte, 64<<10), 1<<20)
		for sc.Scan() {
			line := sc.Text()
			fmt.Fprintln(logf, line)
			if m := servingLine.FindStringSubmatch(line); m != nil {
				select {
				case url <- m[1]:
				default:
				}
			}
		}
		io.Copy(logf, stderr) //nolint:errcheck // a line too long for the scanner: keep the rest
	})
	go func() {
		copied.Wait() // Wait closes the pipe: read it all first
		s.waitErr = s.cmd.Wait()
		logf.Close()
		close(s.exited)
	}()
	select {
	case s.URL = <-url:
		return s, nil
	case <-s.exited:
		return s, fmt.Errorf("crdlab serve exited before it listened: %v", s.waitErr)
	case <-time.After(timeout):
		s.Kill()
		return s, fmt.Errorf("crdlab serve did not say where it listens within %v", timeout)
	}
}

// WaitReady polls /readyz with client (nil: a plain one) until it answers
// 200, the process exits or timeout passes.
func (s *Server) WaitReady(client *http.Client, timeout time.Duration) error {
	if client == nil {
		client = &http.Client{Timeout: 2 * time.Second}
	}
	deadline := time.Now().Add(timeout)
	var last string
	for {
		resp, err := client.Get(s.URL + "/readyz")
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
			return fmt.Errorf("/readyz not ok after %v: %s", timeout, last)
		}
		select {
		case <-s.exited:
			return fmt.Errorf("exited before it was ready: %v", s.waitErr)
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// Stop sends SIGTERM and waits up to timeout for a clean exit; past it,
// it kills the process. The error says what went wrong.
func (s *Server) Stop(timeout time.Duration) error {
	if err := s.cmd.Process.Signal(syscall.SIGTERM); err != nil && !errors.Is(err, os.ErrProcessDone) {
		return fmt.Errorf("SIGTERM to crdlab serve: %w", err)
	}
	select {
	case <-s.exited:
		if s.waitErr != nil {
			return fmt.Errorf("crdlab serve exited with %v after SIGTERM", s.waitErr)
		}
		return nil
	case <-time.After(timeout):
		s.Kill()
		return fmt.Errorf("crdlab serve still running %v after SIGTERM; killed it", timeout)
	}
}

// Kill kills the process and waits for it.
func (s *Server) Kill() {
	_ = s.cmd.Process.Kill()
	<-s.exited
}

// Exited is closed once the process has exited.
func (s *Server) Exited() <-chan struct{} { return s.exited }

// Err is how the process ended; call it only after Exited is closed.
func (s *Server) Err() error { return s.waitErr }

// Log returns the last max bytes of the server's log.
func (s *Server) Log(max int) string {
	b, err := os.ReadFile(s.LogPath)
	if err != nil {
		return err.Error()
	}
	if len(b) > max {
		b = b[len(b)-max:]
	}
	return string(b)
}
