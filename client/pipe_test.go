package client

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// pipeServer serves h on a new PipeListener until the test ends.
func pipeServer(t *testing.T, h http.Handler) *PipeListener {
	t.Helper()
	addr := &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 6443}
	l, err := NewPipeListener(addr)
	if errors.Is(err, errors.ErrUnsupported) {
		t.Skip("no socketpair on this system: the server's own clients dial its TCP address")
	}
	require.NoError(t, err)
	srv := &http.Server{Handler: h}
	done := make(chan error, 1)
	go func() { done <- srv.Serve(l) }()
	t.Cleanup(func() {
		require.NoError(t, srv.Shutdown(context.Background()))
		assert.ErrorIs(t, <-done, http.ErrServerClosed)
	})
	return l
}

func TestPipeListener_ServesRequestsWithTheURLsHost(t *testing.T) {
	l := pipeServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintf(w, "%s %s %s%s", r.Host, r.URL.Path, r.RemoteAddr, r.Header.Get("Accept-Encoding"))
	}))
	c := &http.Client{Transport: l.Transport()}
	// The host is not dialed: every connection goes through l. No
	// Accept-Encoding: in one process gzip would only cost CPU.
	for i := range 3 {
		resp, err := c.Get(fmt.Sprintf("http://127.0.0.1:6443/x/%d", i))
		require.NoError(t, err)
		body, err := io.ReadAll(resp.Body)
		require.NoError(t, err)
		resp.Body.Close()
		assert.Equal(t, fmt.Sprintf("127.0.0.1:6443 /x/%d 127.0.0.1:6443", i), string(body))
	}
}

func TestPipeListener_StreamsFlushedChunksInOrder(t *testing.T) {
	next := make(chan struct{})
	l := pipeServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusOK)
		w.(http.Flusher).Flush() // the headers, as a watch sends them
		for i := range 50 {
			select {
			case <-next:
			case <-r.Context().Done():
				return
			}
			fmt.Fprintf(w, "event %d\n", i)
			w.(http.Flusher).Flush()
		}
	}))
	c := &http.Client{Transport: l.Transport()}
	resp, err := c.Get("http://127.0.0.1:6443/watch")
	require.NoError(t, err)
	defer resp.Body.Close()
	lines := bufio.NewReader(resp.Body)
	for i := range 50 {
		// Each line is read before the next is written: a flushed chunk
		// reaches the client at once.
		next <- struct{}{}
		line, err := lines.ReadString('\n')
		require.NoError(t, err)
		assert.Equal(t, fmt.Sprintf("event %d\n", i), line)
	}
	_, err = lines.ReadString('\n')
	assert.ErrorIs(t, err, io.EOF)
}

func TestPipeListener_Close(t *testing.T) {
	l, err := NewPipeListener(&net.TCPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if errors.Is(err, errors.ErrUnsupported) {
		t.Skip("no socketpair on this system")
	}
	require.NoError(t, err)

	// Nobody accepts: a dial waits for its context.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err = l.DialContext(ctx, "tcp", "ignored:1")
	assert.ErrorIs(t, err, context.Canceled)

	accepted := make(chan error, 1)
	go func() {
		_, err := l.Accept()
		accepted <- err
	}()
	require.NoError(t, l.Close())
	assert.ErrorIs(t, <-accepted, ErrPipeClosed)
	_, err = l.DialContext(context.Background(), "tcp", "ignored:1")
	assert.ErrorIs(t, err, ErrPipeClosed)
	require.NoError(t, l.Close(), "a second Close is harmless")
}

// TestPipeListener_ShutdownWithAnUnusedConnection: a connection the
// transport dialed for a request that was canceled meanwhile is kept idle
// and unused, and the server waits for its first request. Closing the
// listener (Shutdown does it first) closes it, so Shutdown need not wait
// the five seconds net/http gives such a connection.
func TestPipeListener_ShutdownWithAnUnusedConnection(t *testing.T) {
	l, err := NewPipeListener(&net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 6443})
	if errors.Is(err, errors.ErrUnsupported) {
		t.Skip("no socketpair on this system")
	}
	require.NoError(t, err)
	tr := l.Transport()
	dialing := make(chan struct{})
	dial := tr.DialContext
	tr.DialContext = func(ctx context.Context, network, addr string) (net.Conn, error) {
		close(dialing)
		return dial(ctx, network, addr)
	}

	// The request is canceled while its dial waits for the server to
	// accept; the dial goes on (net/http detaches it from the request).
	ctx, cancel := context.WithCancel(context.Background())
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, "http://127.0.0.1:6443/", nil)
	require.NoError(t, err)
	errc := make(chan error, 1)
	go func() {
		resp, err := tr.RoundTrip(req)
		if err == nil {
			resp.Body.Close()
		}
		errc <- err
	}()
	<-dialing
	cancel()
	require.ErrorIs(t, <-errc, context.Canceled)

	// Now the server accepts it, and it never carries a request.
	fresh := make(chan struct{}, 1)
	srv := &http.Server{
		Handler: http.NotFoundHandler(),
		ConnState: func(_ net.Conn, st http.ConnState) {
			if st == http.StateNew {
				fresh <- struct{}{}
			}
		},
	}
	done := make(chan error, 1)
	go func() { done <- srv.Serve(l) }()
	<-fresh

	// Without closing the idle connection, Shutdown would wait 5-6 s.
	sctx, scancel := context.WithTimeout(context.Background(), 4*time.Second)
	defer scancel()
	require.NoError(t, srv.Shutdown(sctx), "Shutdown waited for a connection that never carried a request")
	assert.ErrorIs(t, <-done, http.ErrServerClosed)
}
