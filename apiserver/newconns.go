package apiserver

import (
	"net"
	"net/http"
	"sync"
)

// newConns follows the server's connections that have not sent a request
// yet (http.StateNew), so that a stop need not wait for them.
//
// http.Server.Shutdown closes idle connections and waits for the others,
// and it counts a connection that has not sent its first request as idle
// only after five seconds (net/http's closeIdleConns; Go issue 22682).
// Clients leave such connections open: net/http's transport (so
// client-go's, kubectl's, an operator's) dials one for a request and keeps
// it unused in its pool when another connection came free first or the
// request was canceled. Stopping `crdlab serve` waited five seconds or
// more for one. Yet once Shutdown has begun, net/http drops the first
// request such a connection sends, unanswered (conn.serve returns when
// shuttingDown after reading it): so closeAll, which Shutdown runs once
// it has begun (http.Server.RegisterOnShutdown), closes them at once and
// cuts nothing that would have been served. kube-apiserver leaves them to
// Shutdown (RunServer, secure_serving.go).
type newConns struct {
	mu      sync.Mutex
	conns   map[net.Conn]struct{}
	closing bool // after closeAll: close new connections as they come
}

// track is the http.Server's ConnState.
func (n *newConns) track(c net.Conn, st http.ConnState) {
	n.mu.Lock()
	defer n.mu.Unlock()
	switch {
	case st != http.StateNew:
		delete(n.conns, c)
	case n.closing:
		c.Close()
	default:
		if n.conns == nil {
			n.conns = map[net.Conn]struct{}{}
		}
		n.conns[c] = struct{}{}
	}
}

// closeAll closes the connections that have sent no request, and those
// accepted from now on.
func (n *newConns) closeAll() {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.closing = true
	for c := range n.conns {
		c.Close()
	}
}
