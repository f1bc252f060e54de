package client

import (
	"context"
	"errors"
	"net"
	"net/http"
	"sync"
	"time"
)

// PipeListener is a net.Listener whose connections are made in process by
// its own DialContext: each is a pair of connected sockets (a Unix
// socketpair), one end for the dialer, the other returned by Accept. A
// server that serves it (http.Server.Serve) and a client whose transport
// dials through it (Transport) talk over kernel socket buffers as
// over TCP — the same requests, deadlines, chunked watch streams and
// back-pressure — without the loopback network stack: a watch event costs
// a Unix socket write and read instead of TCP's (a 700-byte message and
// its wake-up: 8 µs against 19 on loopback TCP, measured on Linux).
//
// crdlab's server serves one for its own controllers over plain HTTP
// (apiserver: LoopbackClientConfig); upstream's loopback client dials the
// server's TCP address.
type PipeListener struct {
	addr   net.Addr
	conns  chan net.Conn
	closed chan struct{}
	once   sync.Once

	mu         sync.Mutex // guards transports
	transports []*http.Transport
}

// ErrPipeClosed is what Accept and DialContext return once the listener
// is closed.
var ErrPipeClosed = errors.New("in-process pipe listener closed")

// NewPipeListener returns a listener whose connections report addr as
// both ends' address (the server's own address: what logs and request
// records show for the server's own clients). It fails where the system
// has no socketpair (errors.ErrUnsupported).
func NewPipeListener(addr net.Addr) (*PipeListener, error) {
	if !pipeSupported {
		return nil, errors.ErrUnsupported
	}
	return &PipeListener{addr: addr, conns: make(chan net.Conn), closed: make(chan struct{})}, nil
}

// Accept waits for a DialContext and returns the server's end.
func (l *PipeListener) Accept() (net.Conn, error) {
	select {
	case c := <-l.conns:
		return c, nil
	case <-l.closed:
		return nil, ErrPipeClosed
	}
}

// Close makes Accept and later dials fail. Connections already made stay
// open (as with a TCP listener), except the idle ones of the transports
// made by Transport, which it closes: the server is going away (its
// http.Server.Shutdown closes its listeners first), and one of them may
// never have carried a request. http.Transport dials a connection for a
// request and, when another connection frees up first or the request is
// canceled, keeps the new one idle, unused; the server has accepted it
// and waits for its first request, and Shutdown counts such a connection
// as idle only after five seconds (net/http's closeIdleConns). Shutting
// down `crdlab serve` took 5-6 s one time in three or four for that.
func (l *PipeListener) Close() error {
	l.once.Do(func() {
		close(l.closed)
		l.mu.Lock()
		ts := l.transports
		l.mu.Unlock()
		for _, t := range ts {
			t.CloseIdleConnections()
		}
	})
	return nil
}

// Addr is the address given to NewPipeListener.
func (l *PipeListener) Addr() net.Addr { return l.addr }

// Transport returns an HTTP transport whose every connection is dialed
// through l, whatever the request URL's host: a client keeps its URLs
// (and so its Host header) and only the way there changes. It keeps up to
// 32 idle connections (the controllers' concurrent requests), speaks
// HTTP/1.1, uses no proxy and does not ask for gzip (in one process a
// compressed answer costs CPU at both ends and saves nothing).
//
// Close closes the transport's idle connections.
func (l *PipeListener) Transport() *http.Transport {
	t := &http.Transport{
		DialContext:         l.DialContext,
		MaxIdleConns:        32,
		MaxIdleConnsPerHost: 32,
		IdleConnTimeout:     90 * time.Second,
		DisableCompression:  true,
	}
	l.mu.Lock()
	l.transports = append(l.transports, t)
	l.mu.Unlock()
	return t
}

// DialContext makes a connection and hands its other end to Accept,
// waiting (until ctx ends) for the server to take it, as a TCP dial waits
// for the handshake. network and address are ignored: it always reaches
// this listener. Its signature is http.Transport.DialContext's.
func (l *PipeListener) DialContext(ctx context.Context, _, _ string) (net.Conn, error) {
	select {
	case <-l.closed:
		return nil, ErrPipeClosed
	default:
	}
	client, server, err := socketPair()
	if err != nil {
		return nil, err
	}
	select {
	case l.conns <- &pipeConn{Conn: server, addr: l.addr}:
		return &pipeConn{Conn: client, addr: l.addr}, nil
	case <-l.closed:
		err = ErrPipeClosed
	case <-ctx.Done():
		err = ctx.Err()
	}
	client.Close()
	server.Close()
	return nil, err
}

// pipeConn is one end of a pair, with the listener's address for both
// ends (a socketpair's own addresses are unnamed).
type pipeConn struct {
	net.Conn
	addr net.Addr
}

func (c *pipeConn) LocalAddr() net.Addr  { return c.addr }
func (c *pipeConn) RemoteAddr() net.Addr { return c.addr }
