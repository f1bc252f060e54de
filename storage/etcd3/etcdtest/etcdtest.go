package etcdtest

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// ProgressNotifyInterval is the --experimental-watch-progress-notify-interval
// of the test etcd: how often idle watchers get a progress notification,
// which the etcd3 backend turns into bookmarks.
const ProgressNotifyInterval = 200 * time.Millisecond

// Binary returns the path of the etcd binary: $ETCD_BIN, etcd on $PATH
// or /usr/bin/etcd.
func Binary() (string, error) {
	if p := os.Getenv("ETCD_BIN"); p != "" {
		return p, nil
	}
	if p, err := exec.LookPath("etcd"); err == nil {
		return p, nil
	}
	if _, err := os.Stat("/usr/bin/etcd"); err == nil {
		return "/usr/bin/etcd", nil
	}
	return "", fmt.Errorf("no etcd binary: install it with `apt-get install etcd-server` (or set ETCD_BIN)")
}

// Server is a running test etcd.
type Server struct {
	// Endpoints are the client URLs.
	Endpoints []string
	cmd       *exec.Cmd
	done      chan struct{}
	stopOnce  sync.Once
}

// Stop kills the server and waits for it to exit. Safe to call twice.
func (s *Server) Stop() {
	s.stopOnce.Do(func() {
		_ = s.cmd.Process.Kill()
		<-s.done
	})
}

// Start starts an etcd for t and registers its Stop with t.Cleanup. It
// fails t if etcd is missing or does not become healthy.
func Start(t testing.TB) *Server {
	t.Helper()
	bin, err := Binary()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	var lastErr error
	for attempt := 0; attempt < 3; attempt++ {
		ports, err := freePorts(2)
		if err != nil {
			t.Fatal(err)
		}
		client := fmt.Sprintf("http://127.0.0.1:%d", ports[0])
		peer := fmt.Sprintf("http://127.0.0.1:%d", ports[1])
		data := filepath.Join(dir, fmt.Sprint("data", attempt))
		logf, err := os.Create(filepath.Join(dir, fmt.Sprint("etcd", attempt, ".log")))
		if err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command(bin,
			"--name", "crdlab-test",
			"--data-dir", data,
			"--listen-client-urls", client,
			"--advertise-client-urls", client,
			"--listen-peer-urls", peer,
			"--initial-advertise-peer-urls", peer,
			"--initial-cluster", "crdlab-test="+peer,
			"--initial-cluster-state", "new",
			"--experimental-watch-progress-notify-interval", ProgressNotifyInterval.String(),
			"--log-level", "warn",
		)
		cmd.Stdout, cmd.Stderr = logf, logf
		if err := cmd.Start(); err != nil {
			_ = logf.Close()
			t.Fatalf("starting %s: %v (install etcd with `apt-get install etcd-server`, or set ETCD_BIN)", bin, err)
		}
		s := &Server{Endpoints: []string{client}, cmd: cmd, done: make(chan struct{})}
		go func() { _ = cmd.Wait(); _ = logf.Close(); close(s.done) }()
		if err := waitHealthy(client, s.done); err != nil {
			s.Stop()
			log, _ := os.ReadFile(logf.Name())
			lastErr = fmt.Errorf("etcd did not start: %v\n%s", err, tail(string(log), 2000))
			continue
		}
		t.Cleanup(s.Stop)
		return s
	}
	t.Fatal(lastErr)
	return nil
}

func waitHealthy(url string, exited <-chan struct{}) error {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	for {
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, url+"/health", nil)
		resp, err := http.DefaultClient.Do(req)
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return nil
			}
		}
		select {
		case <-exited:
			return fmt.Errorf("etcd exited")
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(50 * time.Millisecond):
		}
	}
}

func freePorts(n int) ([]int, error) {
	var ls []net.Listener
	defer func() {
		for _, l := range ls {
			_ = l.Close()
		}
	}()
	var ports []int
	for range n {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return nil, err
		}
		ls = append(ls, l)
		ports = append(ports, l.Addr().(*net.TCPAddr).Port)
	}
	return ports, nil
}

func tail(s string, n int) string {
	if len(s) > n {
		return "…" + s[len(s)-n:]
	}
	return strings.TrimSpace(s)
}
