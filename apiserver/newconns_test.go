package apiserver

import (
	"errors"
	"io"
	"net"
	"testing"
	"time"
)

// TestServer_Run_ShutdownClosesUnusedConnections: a client's connection
// that never sent a request (as net/http's transport leaves in its pool)
// does not hold the server's stop for the five seconds net/http would
// give it: Shutdown closes it at once.
func TestServer_Run_ShutdownClosesUnusedConnections(t *testing.T) {
	ts := startServer(t, Config{})
	eventually(t, "ready", func() bool { code, _ := get(t, ts.url+"/readyz"); return code == 200 })
	unused, err := net.Dial("tcp", ts.Addr())
	if err != nil {
		t.Fatal(err)
	}
	defer unused.Close()
	eventually(t, "the connection accepted", func() bool {
		ts.fresh.mu.Lock()
		defer ts.fresh.mu.Unlock()
		return len(ts.fresh.conns) == 1
	})
	start := time.Now()
	if err := ts.stop(t); err != nil {
		t.Fatalf("Run: %v", err)
	}
	if took := time.Since(start); took >= 4*time.Second {
		t.Errorf("the stop took %v: it waited for the connection that sent nothing", took.Round(time.Millisecond))
	}
	unused.SetReadDeadline(time.Now().Add(10 * time.Second))
	if _, err := unused.Read(make([]byte, 1)); !errors.Is(err, io.EOF) {
		t.Errorf("reading the unused connection after the stop: %v, want EOF (closed by the server)", err)
	}
}
