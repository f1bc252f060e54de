package labserver

import (
	"context"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// TestStart_UI checks CRDLAB_UI: the server listens where it says, with
// tracing on; Start waits for a /ui page (a reader of the event stream)
// before it returns, and Stop waits for Ctrl-C.
func TestStart_UI(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	addr := l.Addr().String()
	require.NoError(t, l.Close())
	t.Setenv(UIEnv, addr)

	started := make(chan *Server, 1)
	go func() {
		srv, err := Start(context.Background(), t.TempDir())
		if err != nil {
			t.Error(err)
		}
		started <- srv
	}()

	// Start waits for a reader: it has not returned while none is open.
	var resp *http.Response
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		select {
		case <-started:
			t.Fatal("Start returned before a page connected")
		default:
		}
		if resp, err = http.Get("http://" + addr + "/debug/crdlab/events"); err == nil {
			break
		}
		require.False(t, time.Now().After(deadline), "the server never listened on %s: %v", addr, err)
	}
	defer resp.Body.Close()
	require.Equal(t, http.StatusOK, resp.StatusCode, "tracing is on")

	var srv *Server
	select {
	case srv = <-started:
		require.NotNil(t, srv)
	case <-time.After(10 * time.Second):
		t.Fatal("Start did not return once a page connected")
	}
	require.Equal(t, "http://"+addr, srv.URL)

	// The test's own registration keeps a SIGINT sent before Stop
	// registers from killing the test binary.
	sigs := make(chan os.Signal, 16)
	signal.Notify(sigs, syscall.SIGINT)
	defer signal.Stop(sigs)
	stopped := make(chan error, 1)
	go func() { stopped <- srv.Stop() }()
	select {
	case <-stopped:
		t.Fatal("Stop returned without Ctrl-C")
	case <-time.After(200 * time.Millisecond):
	}
	// Ctrl-C, until Stop (which registers for SIGINT) returns.
	for deadline := time.Now().Add(10 * time.Second); ; {
		require.NoError(t, syscall.Kill(syscall.Getpid(), syscall.SIGINT))
		select {
		case err := <-stopped:
			require.NoError(t, err)
			return
		case <-time.After(200 * time.Millisecond):
		}
		require.False(t, time.Now().After(deadline), "Stop did not return after SIGINT")
	}
}
