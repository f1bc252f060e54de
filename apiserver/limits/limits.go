package limits

import (
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"sync/atomic"

	apierrors "github.com/crdlab/crdlab/apis/errors"
	"github.com/crdlab/crdlab/apiserver/authn"
	"github.com/crdlab/crdlab/handler/request"
	"github.com/crdlab/crdlab/handler/responsewriters"
)

// Defaults of Config, as upstream's flags.
const (
	DefaultMaxRequestsInFlight         = 400
	DefaultMaxMutatingRequestsInFlight = 200
	// DefaultMaxWatches leaves room for the thousand watchers of a
	// fan-out (docs/perf.md measures 1,000 × 1,000) besides the server's
	// own controllers' watches.
	DefaultMaxWatches = 10000
	// RetryAfterSeconds is what a 429 asks the client to wait (upstream: 1).
	RetryAfterSeconds = 1
)

// Config sets the caps. 0 takes the default; a negative value means no
// limit.
type Config struct {
	// MaxRequestsInFlight caps read-only requests being served at once
	// (--max-requests-inflight).
	MaxRequestsInFlight int
	// MaxMutatingRequestsInFlight caps mutating requests being served at
	// once (--max-mutating-requests-inflight).
	MaxMutatingRequestsInFlight int
	// MaxWatches caps open watches (--max-watches), and other long-running
	// requests.
	MaxWatches int
	// LongRunning, if set, names further requests that are long-running
	// besides watches (the server's /ui event stream): they take a slot
	// of MaxWatches, never an in-flight request slot, as upstream's
	// long-running check keeps streams out of max-in-flight.
	LongRunning func(*http.Request) bool
}

// Limiter counts the requests in flight and the open watches.
//
// Each semaphore is a buffered channel: a request takes a slot by sending
// without blocking and gives it back by receiving. A nil channel means no
// limit.
type Limiter struct {
	readOnly, mutating, watches chan struct{}
	longRunning                 func(*http.Request) bool
	log                         *slog.Logger

	// rejected counts the 429s given, by kind.
	rejected [3]atomic.Int64
	// openWatches counts the watches open now, also when they are not
	// limited.
	openWatches atomic.Int64
}

// Kinds of request, the index of Limiter.rejected.
const (
	KindReadOnly = iota
	KindMutating
	KindWatch
)

// New returns a Limiter with cfg's caps.
func New(cfg Config, log *slog.Logger) *Limiter {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Limiter{
		readOnly:    semaphore(cfg.MaxRequestsInFlight, DefaultMaxRequestsInFlight),
		mutating:    semaphore(cfg.MaxMutatingRequestsInFlight, DefaultMaxMutatingRequestsInFlight),
		watches:     semaphore(cfg.MaxWatches, DefaultMaxWatches),
		longRunning: cfg.LongRunning,
		log:         log,
	}
}

func semaphore(n, def int) chan struct{} {
	switch {
	case n < 0:
		return nil
	case n == 0:
		n = def
	}
	return make(chan struct{}, n)
}

// Stats is a snapshot of a Limiter.
type Stats struct {
	// InFlight are the requests being served now, by kind (watches: open).
	InFlight [3]int
	// Limit is the cap of each kind, 0 for none.
	Limit [3]int
	// Rejected counts the 429s given since start, by kind.
	Rejected [3]int64
}

// Stats returns how full the Limiter is.
func (l *Limiter) Stats() Stats {
	var s Stats
	for i, c := range []chan struct{}{l.readOnly, l.mutating, l.watches} {
		s.InFlight[i], s.Limit[i] = len(c), cap(c)
		s.Rejected[i] = l.rejected[i].Load()
	}
	s.InFlight[KindWatch] = int(l.openWatches.Load())
	return s
}

// healthPaths are never limited.
var healthPaths = []string{"/healthz", "/livez", "/readyz"}

func isHealth(path string) bool {
	for _, p := range healthPaths {
		if path == p || strings.HasPrefix(path, p+"/") {
			return true
		}
	}
	return false
}

// nonMutatingVerbs are the verbs of read-only requests.
//
// Mirrors nonMutatingRequestVerbs in maxinflight.go (crdlab counts watch
// separately, and head as get).
var nonMutatingVerbs = map[string]bool{"get": true, "list": true, "watch": true, "head": true}

// Handler is the filter: it needs the RequestInfo (and, for the
// system:masters exemption, the user) in the request's context.
//
// Mirrors WithMaxInFlightLimit in maxinflight.go.
func (l *Limiter) Handler(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		info, ok := request.RequestInfoFrom(r.Context())
		if !ok || isHealth(r.URL.Path) {
			h.ServeHTTP(w, r)
			return
		}
		kind, c := KindMutating, l.mutating
		switch {
		case info.LongRunning() || l.longRunning != nil && l.longRunning(r):
			kind, c = KindWatch, l.watches
			l.openWatches.Add(1)
			defer l.openWatches.Add(-1)
		case nonMutatingVerbs[info.Verb]:
			kind, c = KindReadOnly, l.readOnly
		}
		if c == nil {
			h.ServeHTTP(w, r)
			return
		}
		select {
		case c <- struct{}{}:
			defer func() { <-c }()
			h.ServeHTTP(w, r)
			return
		default:
		}
		// Full. A system:master is never turned away (nor counted).
		if u, ok := authn.UserFrom(r.Context()); ok && u.InGroup(authn.SystemPrivilegedGroup) {
			h.ServeHTTP(w, r)
			return
		}
		l.rejected[kind].Add(1)
		l.log.Debug("too many requests", "kind", kindName[kind], "limit", cap(c), "path", r.URL.Path)
		responsewriters.WriteError(w, tooManyRequests(kind, cap(c)))
	})
}

var kindName = [3]string{"readOnly", "mutating", "watch"}

// tooManyRequests is the 429 of kind, with retryAfterSeconds 1 (and so a
// Retry-After: 1 header).
func tooManyRequests(kind, limit int) *apierrors.StatusError {
	if kind == KindWatch {
		return apierrors.NewTooManyRequests(fmt.Sprintf("Too many watches (the limit is %d, --max-watches), please try again later.", limit), RetryAfterSeconds)
	}
	return apierrors.NewTooManyRequests("Too many requests, please try again later.", RetryAfterSeconds)
}
