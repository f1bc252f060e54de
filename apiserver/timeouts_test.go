package apiserver

import (
	"bufio"
	"errors"
	"io"
	"net"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"
)

// TestServer_ConnectionTimeouts (issue 21, finding 3): an idle keep-alive
// connection is closed after IdleTimeout, a client that never finishes its
// headers after ReadHeaderTimeout, while a watch stays open past both and
// still delivers events.
func TestServer_ConnectionTimeouts(t *testing.T) {
	const idle, header = 300 * time.Millisecond, 300 * time.Millisecond
	ts := startServer(t, Config{IdleTimeout: idle, ReadHeaderTimeout: header})
	eventually(t, "ready", func() bool { code, _ := get(t, ts.url+"/readyz"); return code == 200 })
	addr := strings.TrimPrefix(ts.url, "http://")

	// closedWithin reports how long the server took to close conn (a
	// read returning EOF or a reset), failing after limit.
	closedWithin := func(t *testing.T, conn net.Conn, r io.Reader, limit time.Duration) time.Duration {
		t.Helper()
		t0 := time.Now()
		_ = conn.SetReadDeadline(t0.Add(limit))
		_, err := io.Copy(io.Discard, r)
		if errors.Is(err, os.ErrDeadlineExceeded) {
			t.Fatalf("the connection was still open after %v", limit)
		}
		return time.Since(t0)
	}

	t.Run("Idle", func(t *testing.T) {
		conn, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		br := bufio.NewReader(conn)
		if _, err := io.WriteString(conn, "GET /livez HTTP/1.1\r\nHost: "+addr+"\r\n\r\n"); err != nil {
			t.Fatal(err)
		}
		resp, err := http.ReadResponse(br, nil)
		if err != nil {
			t.Fatal(err)
		}
		_, _ = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 || resp.Close {
			t.Fatalf("/livez: %d, close %v: want a kept-alive 200", resp.StatusCode, resp.Close)
		}
		if d := closedWithin(t, conn, br, 20*idle); d < idle/2 {
			t.Errorf("closed after %v, before the idle timeout %v", d, idle)
		}
	})
	t.Run("Header", func(t *testing.T) {
		conn, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		if _, err := io.WriteString(conn, "GET /livez HTTP/1.1\r\nHost: "+addr+"\r\nX-Slow: "); err != nil {
			t.Fatal(err)
		}
		closedWithin(t, conn, conn, 20*header)
	})
	t.Run("WatchOutlivesThem", func(t *testing.T) {
		resp, err := http.Get(ts.url + crdsPath + "?watch=1")
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		if resp.StatusCode != 200 {
			t.Fatalf("watch: %d", resp.StatusCode)
		}
		// Time passing is what is tested: the watch, silent for several
		// idle and header timeouts, must still be open.
		time.Sleep(5 * max(idle, header))
		if code, body := call(t, nil, "POST", ts.url+crdsPath, "", crdJSON); code != 201 {
			t.Fatalf("create: %d %s", code, body)
		}
		line, err := bufio.NewReader(resp.Body).ReadString('\n')
		if err != nil || !strings.Contains(line, `"type":"ADDED"`) || !strings.Contains(line, "crontabs.stable.example.com") {
			t.Errorf("after the timeouts the watch read %q, %v; want the ADDED event", line, err)
		}
	})
}
