package limits_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"runtime"
	"sync"
	"testing"

	"github.com/crdlab/crdlab/apiserver/authn"
	"github.com/crdlab/crdlab/apiserver/limits"
	"github.com/crdlab/crdlab/handler/request"
)

// blocking is a handler that holds every request until release is closed,
// and says on entered when one has started.
type blocking struct {
	entered chan string
	release chan struct{}
}

func newBlocking() *blocking {
	return &blocking{entered: make(chan string, 100), release: make(chan struct{})}
}

func (b *blocking) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	b.entered <- r.Method + " " + r.URL.String()
	<-b.release
}

// newRequest builds a request with its RequestInfo (and user) in the
// context, as the filters before the limiter leave it.
func newRequest(method, target string, u *authn.User) *http.Request {
	r := httptest.NewRequest(method, target, nil)
	ctx := request.WithRequestInfo(r.Context(), request.NewRequestInfoFactory().NewRequestInfo(r))
	if u != nil {
		ctx = authn.WithUser(ctx, u)
	}
	return r.WithContext(ctx)
}

const crontabs = "/apis/stable.example.com/v1/namespaces/default/crontabs"

func TestLimiter_Handler(t *testing.T) {
	l := limits.New(limits.Config{MaxRequestsInFlight: 1, MaxMutatingRequestsInFlight: 1, MaxWatches: 1}, nil)
	b := newBlocking()
	h := l.Handler(b)
	alice := &authn.User{Name: "alice"}

	// Fill each kind: one list, one create, one watch are held.
	var wg sync.WaitGroup
	for _, r := range []*http.Request{
		newRequest("GET", crontabs, alice),
		newRequest("POST", crontabs, alice),
		newRequest("GET", crontabs+"?watch=1", alice),
	} {
		wg.Add(1)
		go func() { defer wg.Done(); h.ServeHTTP(httptest.NewRecorder(), r) }()
		<-b.entered
	}
	if st := l.Stats(); st.InFlight != [3]int{1, 1, 1} || st.Limit != [3]int{1, 1, 1} {
		t.Errorf("Stats %+v", st)
	}

	var exempt sync.WaitGroup // exempt requests, held until release
	for _, tt := range []struct {
		name, method, target string
		u                    *authn.User
		want                 int
		message              string
	}{
		{"ErrReadOnly", "GET", crontabs + "/x", alice, 429, "Too many requests, please try again later."},
		{"ErrReadOnlyPath", "GET", "/apis", alice, 429, "Too many requests, please try again later."},
		{"ErrMutating", "DELETE", crontabs + "/x", alice, 429, "Too many requests, please try again later."},
		{"ErrWatch", "GET", "/apis/stable.example.com/v1/watch/crontabs", alice, 429, "Too many watches (the limit is 1, --max-watches), please try again later."},
		{"HealthExempt", "GET", "/readyz", alice, 0, ""},
		{"HealthCheckExempt", "GET", "/livez/ping", nil, 0, ""},
		{"MastersExempt", "PUT", crontabs + "/x", &authn.User{Name: "system:apiserver", Groups: []string{authn.SystemPrivilegedGroup}}, 0, ""},
		{"MastersWatchExempt", "GET", crontabs + "?watch=true", &authn.User{Name: "system:apiserver", Groups: []string{authn.SystemPrivilegedGroup}}, 0, ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			w := httptest.NewRecorder()
			r := newRequest(tt.method, tt.target, tt.u)
			if tt.want == 0 {
				// Exempt: it reaches the handler although all is full.
				exempt.Add(1)
				go func() { defer exempt.Done(); h.ServeHTTP(w, r) }()
				<-b.entered
				return
			}
			h.ServeHTTP(w, r)
			var st struct {
				Reason, Message string
				Code            int
				Details         struct{ RetryAfterSeconds int }
			}
			_ = json.Unmarshal(w.Body.Bytes(), &st)
			if w.Code != tt.want || w.Header().Get("Retry-After") != "1" || st.Reason != "TooManyRequests" || st.Code != 429 ||
				st.Message != tt.message || st.Details.RetryAfterSeconds != 1 {
				t.Errorf("%d Retry-After %q %s", w.Code, w.Header().Get("Retry-After"), w.Body)
			}
		})
	}
	if st := l.Stats(); st.Rejected != [3]int64{2, 1, 1} {
		t.Errorf("Rejected %v, want [2 1 1]", st.Rejected)
	}
	close(b.release)
	wg.Wait()
	exempt.Wait()
	if st := l.Stats(); st.InFlight != [3]int{0, 0, 0} {
		t.Errorf("after: InFlight %v", st.InFlight)
	}
}

func TestLimiter_NoLimit(t *testing.T) {
	l := limits.New(limits.Config{MaxRequestsInFlight: -1, MaxMutatingRequestsInFlight: -1, MaxWatches: -1}, nil)
	b := newBlocking()
	h := l.Handler(b)
	var wg sync.WaitGroup
	for i := 0; i < 50; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			h.ServeHTTP(httptest.NewRecorder(), newRequest("GET", crontabs+"?watch=1", nil))
		}()
		<-b.entered
	}
	if st := l.Stats(); st.InFlight[limits.KindWatch] != 50 || st.Limit != [3]int{0, 0, 0} {
		t.Errorf("Stats %+v", st)
	}
	close(b.release)
	wg.Wait()
}

func TestLimiter_Defaults(t *testing.T) {
	if st := limits.New(limits.Config{}, nil).Stats(); st.Limit != [3]int{400, 200, 10000} {
		t.Errorf("Limit %v, want upstream's 400 and 200, and 10000 watches", st.Limit)
	}
}

// peakCounter is a handler that counts the requests inside it; peak is
// the most there were at once (read it once the requests are done).
type peakCounter struct {
	mu       sync.Mutex
	in, peak int
}

func (p *peakCounter) ServeHTTP(http.ResponseWriter, *http.Request) {
	p.mu.Lock()
	p.in++
	p.peak = max(p.peak, p.in)
	p.mu.Unlock()
	runtime.Gosched() // let the others in meanwhile
	p.mu.Lock()
	p.in--
	p.mu.Unlock()
}

// TestLimiter_Concurrent hammers a small limiter from many goroutines
// (run with -race): no more than the limit are ever in the handler, and
// every request is either served or answered 429.
func TestLimiter_Concurrent(t *testing.T) {
	const limit = 3
	l := limits.New(limits.Config{MaxRequestsInFlight: limit}, nil)
	var counter peakCounter
	h := l.Handler(&counter)
	var wg sync.WaitGroup
	var served, rejected sync.Map
	for g := 0; g < 16; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 200; i++ {
				w := httptest.NewRecorder()
				h.ServeHTTP(w, newRequest("GET", crontabs, nil))
				switch w.Code {
				case 200:
					served.Store([2]int{g, i}, true)
				case 429:
					rejected.Store([2]int{g, i}, true)
				default:
					t.Errorf("code %d", w.Code)
				}
			}
		}()
	}
	wg.Wait()
	if counter.peak > limit {
		t.Errorf("peak %d in flight, limit %d", counter.peak, limit)
	}
	n := 0
	served.Range(func(any, any) bool { n++; return true })
	rejected.Range(func(any, any) bool { n++; return true })
	if n != 16*200 {
		t.Errorf("%d answers, want %d", n, 16*200)
	}
}

// TestLimiter_FairShare: a user alone gets half of the slots; once others
// hold slots each new user gets limit/(users+1), so a flooding user
// leaves room for the others; a user over its share is answered 429 while
// slots are free, and the message says why.
func TestLimiter_FairShare(t *testing.T) {
	l := limits.New(limits.Config{MaxMutatingRequestsInFlight: 4}, nil)
	b := newBlocking()
	h := l.Handler(b)
	var wg sync.WaitGroup
	hold := func(u *authn.User) {
		wg.Add(1)
		go func() { defer wg.Done(); h.ServeHTTP(httptest.NewRecorder(), newRequest("POST", crontabs, u)) }()
		<-b.entered
	}
	post := func(u *authn.User) (int, string) {
		w := httptest.NewRecorder()
		h.ServeHTTP(w, newRequest("POST", crontabs, u))
		var st struct{ Message string }
		_ = json.Unmarshal(w.Body.Bytes(), &st)
		if w.Code == 429 && w.Header().Get("Retry-After") != "1" {
			t.Errorf("429 without Retry-After: 1")
		}
		return w.Code, st.Message
	}
	mallory, alice, bob, carol := &authn.User{Name: "mallory"}, &authn.User{Name: "alice"}, &authn.User{Name: "bob"}, &authn.User{Name: "carol"}
	master := &authn.User{Name: "system:apiserver", Groups: []string{authn.SystemPrivilegedGroup}}

	hold(mallory)
	hold(mallory) // alone: a share of 4/2
	if code, msg := post(mallory); code != 429 || msg != "Too many requests, please try again later: this user holds its fair share of the 4 slots for mutating requests, which are shared among the users that use them (docs/access.md)." {
		t.Errorf("mallory's third create: %d %q, want 429 (over its share, 2 slots still free)", code, msg)
	}
	hold(alice) // two users: a share of max(1, 4/3) each; mallory keeps its 2
	if code, _ := post(alice); code != 429 {
		t.Errorf("alice's second create: %d, want 429", code)
	}
	hold(bob) // the last free slot
	if code, msg := post(carol); code != 429 || msg != "Too many requests, please try again later." {
		t.Errorf("carol's create with every slot taken: %d %q, want 429", code, msg)
	}
	hold(master) // never turned away
	st := l.Stats()
	if st.InFlight[limits.KindMutating] != 4 || st.Users[limits.KindMutating] != 3 || st.Rejected[limits.KindMutating] != 3 || st.RejectedOverShare[limits.KindMutating] != 2 {
		t.Errorf("Stats %+v", st)
	}
	close(b.release)
	wg.Wait()
	if st := l.Stats(); st.InFlight[limits.KindMutating] != 0 || st.Users[limits.KindMutating] != 0 {
		t.Errorf("after: Stats %+v", st)
	}
}

// TestLimiter_FairShareConcurrent: four users hammer a limiter of 8
// slots from four goroutines each (run with -race): never more than 8 in
// the handler, every request served or answered 429, every user served.
func TestLimiter_FairShareConcurrent(t *testing.T) {
	const limit = 8
	l := limits.New(limits.Config{MaxMutatingRequestsInFlight: limit}, nil)
	var counter peakCounter
	h := l.Handler(&counter)
	var wg sync.WaitGroup
	var served, rejected [4]int
	for u := range 4 {
		user := &authn.User{Name: string(rune('a' + u))}
		var umu sync.Mutex
		for range 4 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for range 200 {
					w := httptest.NewRecorder()
					h.ServeHTTP(w, newRequest("POST", crontabs, user))
					umu.Lock()
					switch w.Code {
					case 200:
						served[u]++
					case 429:
						rejected[u]++
					default:
						t.Errorf("code %d", w.Code)
					}
					umu.Unlock()
				}
			}()
		}
	}
	wg.Wait()
	if counter.peak > limit {
		t.Errorf("peak %d in flight, limit %d", counter.peak, limit)
	}
	for u := range 4 {
		if served[u]+rejected[u] != 800 || served[u] == 0 {
			t.Errorf("user %d: %d served, %d rejected, want 800 answers, some served", u, served[u], rejected[u])
		}
	}
	if st := l.Stats(); st.InFlight[limits.KindMutating] != 0 || st.Users[limits.KindMutating] != 0 {
		t.Errorf("after: Stats %+v", st)
	}
}
