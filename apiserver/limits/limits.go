package limits

import (
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"sync"
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
// Each kind of request has a pool of slots; a nil pool means no limit.
type Limiter struct {
	pools       [3]*pool // by kind: KindReadOnly, KindMutating, KindWatch
	longRunning func(*http.Request) bool
	log         *slog.Logger

	// rejected counts the 429s given, by kind; unfair counts those of
	// them that a user's fair share refused while slots were free.
	rejected, unfair [3]atomic.Int64
	// openWatches counts the watches open now, also when they are not
	// limited.
	openWatches atomic.Int64
}

// pool is the slots of one kind of request, shared fairly among users.
//
// A user may take a free slot while it holds fewer than its fair share,
// limit/(users+1), at least 1, where users counts the users holding
// slots, itself included: alone a user gets half of the slots, two get a
// third each, and there is always room for one more user to arrive. What
// a user holds above its share when others arrive it keeps until those
// requests end; it gets no new slot until it is under its share again.
//
// Mirrors, in small, the fair queuing of a priority level in upstream's
// API Priority and Fairness, whose default flow schemas tell flows apart
// by user: there a request waits in its flow's queue for a seat, here it
// is answered 429 at once.
type pool struct {
	limit int

	mu sync.Mutex // guards the fields below
	// taken counts the slots held: the sum of byUser's counts, plus
	// the system:masters requests that found a free slot.
	taken int
	// byUser counts each user's slots; a user is a key iff it holds one.
	byUser map[string]int
}

func newPool(n, def int) *pool {
	switch {
	case n < 0:
		return nil
	case n == 0:
		n = def
	}
	return &pool{limit: n, byUser: map[string]int{}}
}

// share is a user's fair share with users users holding slots.
func (p *pool) share(users int) int {
	return max(1, p.limit/(users+1))
}

// Results of pool.acquire.
const (
	acquired  = iota // a slot is taken; release it
	exempted         // no slot free, but the request is exempt: serve it, release nothing
	full             // no slot free: 429
	overShare        // a slot is free, but not for this user: 429
)

// acquire takes a slot for user; a master (system:masters) is exempt from
// the fair share, and served without a slot when none is free.
func (p *pool) acquire(user string, master bool) int {
	p.mu.Lock()
	defer p.mu.Unlock()
	switch {
	case p.taken >= p.limit && master:
		return exempted
	case p.taken >= p.limit:
		return full
	case master:
		p.taken++
		return acquired
	}
	n := p.byUser[user]
	users := len(p.byUser)
	if n == 0 {
		users++
	}
	if n >= p.share(users) {
		return overShare
	}
	p.byUser[user] = n + 1
	p.taken++
	return acquired
}

// release gives back a slot acquire took.
func (p *pool) release(user string, master bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.taken--
	if master {
		return
	}
	if n := p.byUser[user]; n > 1 {
		p.byUser[user] = n - 1
	} else {
		delete(p.byUser, user)
	}
}

// stats returns the slots taken and the users holding them.
func (p *pool) stats() (taken, users int) {
	if p == nil {
		return 0, 0
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.taken, len(p.byUser)
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
		pools: [3]*pool{
			KindReadOnly: newPool(cfg.MaxRequestsInFlight, DefaultMaxRequestsInFlight),
			KindMutating: newPool(cfg.MaxMutatingRequestsInFlight, DefaultMaxMutatingRequestsInFlight),
			KindWatch:    newPool(cfg.MaxWatches, DefaultMaxWatches),
		},
		longRunning: cfg.LongRunning,
		log:         log,
	}
}

// Stats is a snapshot of a Limiter.
type Stats struct {
	// InFlight are the requests being served now, by kind (watches: open).
	InFlight [3]int
	// Limit is the cap of each kind, 0 for none.
	Limit [3]int
	// Users counts the users holding slots, by kind.
	Users [3]int
	// Rejected counts the 429s given since start, by kind; RejectedOverShare
	// counts those of them given for a user's fair share.
	Rejected, RejectedOverShare [3]int64
}

// Stats returns how full the Limiter is.
func (l *Limiter) Stats() Stats {
	var s Stats
	for i, p := range l.pools {
		s.InFlight[i], s.Users[i] = p.stats()
		if p != nil {
			s.Limit[i] = p.limit
		}
		s.Rejected[i] = l.rejected[i].Load()
		s.RejectedOverShare[i] = l.unfair[i].Load()
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

// Handler is the filter: it needs the RequestInfo and the user in the
// request's context.
//
// Mirrors WithMaxInFlightLimit in maxinflight.go, with each user held to
// a fair share of the slots (pool) as upstream's WithPriorityAndFairness
// holds each flow to its share of a priority level.
func (l *Limiter) Handler(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		info, ok := request.RequestInfoFrom(r.Context())
		if !ok || isHealth(r.URL.Path) {
			h.ServeHTTP(w, r)
			return
		}
		kind := KindMutating
		switch {
		case info.LongRunning() || l.longRunning != nil && l.longRunning(r):
			kind = KindWatch
			l.openWatches.Add(1)
			defer l.openWatches.Add(-1)
		case nonMutatingVerbs[info.Verb]:
			kind = KindReadOnly
		}
		p := l.pools[kind]
		if p == nil {
			h.ServeHTTP(w, r)
			return
		}
		// A system:master is never turned away (nor held to a share).
		u, _ := authn.UserFrom(r.Context())
		var name string
		if u != nil {
			name = u.Name
		}
		master := u.InGroup(authn.SystemPrivilegedGroup)
		switch p.acquire(name, master) {
		case acquired:
			defer p.release(name, master)
			h.ServeHTTP(w, r)
			return
		case exempted:
			h.ServeHTTP(w, r)
			return
		case overShare:
			l.rejected[kind].Add(1)
			l.unfair[kind].Add(1)
			l.log.Debug("too many requests from one user", "kind", kindName[kind], "limit", p.limit, "user", name, "path", r.URL.Path)
			responsewriters.WriteError(w, overFairShare(kind, p.limit))
			return
		}
		l.rejected[kind].Add(1)
		l.log.Debug("too many requests", "kind", kindName[kind], "limit", p.limit, "path", r.URL.Path)
		responsewriters.WriteError(w, tooManyRequests(kind, p.limit))
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

// overFairShare is the 429 of a user over its fair share while slots are
// free for others.
func overFairShare(kind, limit int) *apierrors.StatusError {
	what := map[int]string{KindReadOnly: "read-only requests", KindMutating: "mutating requests", KindWatch: "watches"}[kind]
	return apierrors.NewTooManyRequests(fmt.Sprintf("Too many requests, please try again later: this user holds its fair share "+
		"of the %d slots for %s, which are shared among the users that use them (docs/access.md).", limit, what), RetryAfterSeconds)
}
