package workload

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/url"
	"sync"
	"sync/atomic"
	"time"
)

// CreateCRD posts crd and returns when the server has acknowledged it.
// CreateNamespaces creates the namespaces names (one that exists is
// fine). A server that serves no namespaces (404: the reference
// apiextensions-apiserver, which admits any namespace name) needs none.
func (t *Target) CreateNamespaces(ctx context.Context, names ...string) error {
	for _, n := range names {
		r, err := t.do(ctx, http.MethodPost, "/api/v1/namespaces", fmt.Appendf(nil, `{"apiVersion":"v1","kind":"Namespace","metadata":{"name":%q}}`, n), "")
		if err != nil {
			return err
		}
		switch r.Code {
		case http.StatusCreated, http.StatusConflict:
		case http.StatusNotFound:
			return nil
		default:
			return fmt.Errorf("create namespace %s: %d %s", n, r.Code, r.Body)
		}
	}
	return nil
}

func (t *Target) CreateCRD(ctx context.Context, crd CRD) error {
	_, err := t.expect(ctx, http.StatusCreated, http.MethodPost, CRDPath(""), crd.JSON(), "")
	return err
}

// DeleteCRDAndWait deletes crd and waits until it is gone (GET 404).
func (t *Target) DeleteCRDAndWait(ctx context.Context, crd CRD, timeout time.Duration) error {
	r, err := t.do(ctx, http.MethodDelete, CRDPath(crd.Name()), nil, "")
	if err != nil {
		return err
	}
	if r.Code != http.StatusOK && r.Code != http.StatusAccepted && r.Code != http.StatusNotFound {
		return fmt.Errorf("%s: delete CRD %s: %d %s", t.Name, crd.Name(), r.Code, truncate(r.Body, 200))
	}
	return t.waitCode(ctx, CRDPath(crd.Name()), http.StatusNotFound, timeout, 20*time.Millisecond)
}

// waitCode polls GET path until it answers code.
func (t *Target) waitCode(ctx context.Context, path string, code int, timeout, every time.Duration) error {
	deadline := time.Now().Add(timeout)
	for {
		r, err := t.do(ctx, http.MethodGet, path, nil, "")
		if err == nil && r.Code == code {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("%s: GET %s: no %d after %s (last: %v %d)", t.Name, path, code, timeout, err, r.Code)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(every):
		}
	}
}

// EstablishedLatency creates crd and measures how long from sending the create until a
// watch on the CRD shows condition Established=True. The watch is opened before the create,
// the way informers do it: list (for a resourceVersion), then watch from there.
func (t *Target) EstablishedLatency(ctx context.Context, crd CRD) (time.Duration, error) {
	ctx, cancel := context.WithTimeout(ctx, 60*time.Second)
	defer cancel()
	sel := "metadata.name=" + crd.Name()
	l, err := t.expect(ctx, http.StatusOK, http.MethodGet, CRDPath("")+"?"+url.Values{"fieldSelector": {sel}}.Encode(), nil, "")
	if err != nil {
		return 0, err
	}
	q := url.Values{"watch": {"1"}, "fieldSelector": {sel}, "resourceVersion": {resourceVersion(l.Body)}}
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, t.Base+CRDPath("")+"?"+q.Encode(), nil)
	resp, err := t.http.Do(req)
	if err != nil {
		return 0, fmt.Errorf("%s: watch CRDs: %w", t.Name, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return 0, fmt.Errorf("%s: watch CRDs: %d", t.Name, resp.StatusCode)
	}
	start := time.Now()
	if err := t.CreateCRD(ctx, crd); err != nil {
		return 0, err
	}
	dec := json.NewDecoder(resp.Body)
	for {
		var ev struct {
			Type   string
			Object json.RawMessage
		}
		if err := dec.Decode(&ev); err != nil {
			return 0, fmt.Errorf("%s: watching CRD %s for Established: %w", t.Name, crd.Name(), err)
		}
		if ev.Type == "ERROR" {
			return 0, fmt.Errorf("%s: watching CRD %s for Established: ERROR event %s", t.Name, crd.Name(), truncate(ev.Object, 300))
		}
		var obj struct {
			Metadata struct{ Name string }
			Status   struct {
				Conditions []struct{ Type, Status string }
			}
		}
		if err := json.Unmarshal(ev.Object, &obj); err != nil {
			return 0, fmt.Errorf("%s: watch event: %w", t.Name, err)
		}
		if obj.Metadata.Name != crd.Name() {
			continue
		}
		for _, c := range obj.Status.Conditions {
			if c.Type == "Established" && c.Status == "True" {
				return time.Since(start), nil
			}
		}
	}
}

// FirstCRLatency creates crd and then tries to create a custom resource of it, again and
// again (1 ms apart) until one create succeeds: the time from sending the CRD create to
// the first custom resource created, as a client that does exactly that sees it.
func (t *Target) FirstCRLatency(ctx context.Context, crd CRD, ns string) (time.Duration, int, error) {
	start := time.Now()
	if err := t.CreateCRD(ctx, crd); err != nil {
		return 0, 0, err
	}
	body := crd.Object(ns, "first", 0, "")
	deadline := start.Add(60 * time.Second)
	for attempts := 1; ; attempts++ {
		r, err := t.do(ctx, http.MethodPost, crd.Path(ns), body, "")
		if err == nil && r.Code == http.StatusCreated {
			return time.Since(start), attempts, nil
		}
		if time.Now().After(deadline) {
			return 0, attempts, fmt.Errorf("%s: no custom resource of %s created after 60 s (last: %v %d %s)", t.Name, crd.Name(), err, r.Code, truncate(r.Body, 200))
		}
		time.Sleep(time.Millisecond)
	}
}

// Timed is the outcome of a batch of timed requests.
type Timed struct {
	Latencies []time.Duration
	Wall      time.Duration
	// Bytes is the size of the last body as received (TimedGets only).
	Bytes int
}

// Create creates the custom resources prefix-first … prefix-(first+n-1) in ns with the
// given number of concurrent clients.
func (t *Target) Create(ctx context.Context, crd CRD, ns, prefix string, first, n, clients int) (Timed, error) {
	bodies := make([][]byte, n)
	for i := range bodies {
		bodies[i] = crd.Object(ns, ObjectName(prefix, first+i), first+i, "")
	}
	path := crd.Path(ns)
	return t.parallel(ctx, n, clients, func(ctx context.Context, i int) error {
		_, err := t.expect(ctx, http.StatusCreated, http.MethodPost, path, bodies[i], "")
		return err
	})
}

// applyContentType is server-side apply's patch type; the body may be JSON.
const applyContentType = "application/apply-patch+yaml"

// apply sends one server-side apply of body to object name, as manager "crdbench"; the
// first creates it (201), later ones update it (200).
func (t *Target) apply(ctx context.Context, crd CRD, ns, name string, body []byte) error {
	r, err := t.do(ctx, http.MethodPatch, crd.Path(ns)+"/"+name+"?fieldManager=crdbench", body, applyContentType)
	if err != nil {
		return fmt.Errorf("%s: apply %s: %w", t.Name, name, err)
	}
	if r.Code != http.StatusOK && r.Code != http.StatusCreated {
		return fmt.Errorf("%s: apply %s: got %d: %s", t.Name, name, r.Code, truncate(r.Body, 300))
	}
	return nil
}

// ApplyOne server-side applies one object n times on the given number of clients, each
// apply with its own counter (first … first+n-1), so that every apply changes it.
func (t *Target) ApplyOne(ctx context.Context, crd CRD, ns, name string, first, n, clients int) (Timed, error) {
	bodies := make([][]byte, n)
	for i := range bodies {
		bodies[i] = crd.ApplyObject(ns, name, first+i, 0)
	}
	return t.parallel(ctx, n, clients, func(ctx context.Context, i int) error {
		return t.apply(ctx, crd, ns, name, bodies[i])
	})
}

// ApplyMany server-side applies n objects (prefix-000000 …) with a list-type map of
// ports entries each, one client: round 0 creates them, every later round changes one
// entry of each.
func (t *Target) ApplyMany(ctx context.Context, crd CRD, ns, prefix string, round, n, ports int) (Timed, error) {
	bodies := make([][]byte, n)
	for i := range bodies {
		bodies[i] = crd.ApplyObject(ns, ObjectName(prefix, i), round, ports)
	}
	return t.parallel(ctx, n, 1, func(ctx context.Context, i int) error {
		return t.apply(ctx, crd, ns, ObjectName(prefix, i), bodies[i])
	})
}

// Get reads n custom resources chosen at random from names, one at a time.
func (t *Target) Get(ctx context.Context, crd CRD, ns string, names []string, n int, seed uint64) (Timed, error) {
	rng := rand.New(rand.NewPCG(seed, 1))
	paths := make([]string, n)
	for i := range paths {
		paths[i] = crd.Path(ns) + "/" + names[rng.IntN(len(names))]
	}
	return t.parallel(ctx, n, 1, func(ctx context.Context, i int) error {
		_, err := t.expect(ctx, http.StatusOK, http.MethodGet, paths[i], nil, "")
		return err
	})
}

// parallel runs op(0 … n-1) on the given number of clients and times each call.
func (t *Target) parallel(ctx context.Context, n, clients int, op func(context.Context, int) error) (Timed, error) {
	lat := make([]time.Duration, n)
	var next atomic.Int64
	var firstErr error
	var once sync.Once
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var wg sync.WaitGroup
	start := time.Now()
	for range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1) - 1)
				if i >= n || ctx.Err() != nil {
					return
				}
				s := time.Now()
				if err := op(ctx, i); err != nil {
					once.Do(func() { firstErr = err; cancel() })
					return
				}
				lat[i] = time.Since(s)
			}
		}()
	}
	wg.Wait()
	return Timed{Latencies: lat, Wall: time.Since(start)}, firstErr
}

// ListResult is one timed list.
type ListResult struct {
	Latency time.Duration
	Bytes   int
	Items   int
}

// List lists the custom resources of crd in ns; rv is the resourceVersion parameter ("" for
// a consistent read of the latest state, "0" for any state the server has at hand).
// countItems decodes the response to count its items (outside the timing).
func (t *Target) List(ctx context.Context, crd CRD, ns, rv string, countItems bool) (ListResult, error) {
	path := crd.Path(ns)
	if rv != "" {
		path += "?resourceVersion=" + rv
	}
	s := time.Now()
	r, err := t.expect(ctx, http.StatusOK, http.MethodGet, path, nil, "")
	d := time.Since(s)
	if err != nil {
		return ListResult{}, err
	}
	res := ListResult{Latency: d, Bytes: len(r.Body), Items: -1}
	if countItems {
		var l struct{ Items []json.RawMessage }
		if err := json.Unmarshal(r.Body, &l); err != nil {
			return res, fmt.Errorf("%s: list: %w", t.Name, err)
		}
		res.Items = len(l.Items)
	}
	return res, nil
}

// DeleteCRDUntil404 deletes crd and polls one of its custom resource endpoints (a list
// with limit=1, every 20 ms) until it answers 404: the time a user waits for a CRD and all
// its instances to go.
func (t *Target) DeleteCRDUntil404(ctx context.Context, crd CRD, ns string, timeout time.Duration) (time.Duration, error) {
	start := time.Now()
	r, err := t.do(ctx, http.MethodDelete, CRDPath(crd.Name()), nil, "")
	if err != nil {
		return 0, err
	}
	if r.Code != http.StatusOK && r.Code != http.StatusAccepted {
		return 0, fmt.Errorf("%s: delete CRD %s: %d %s", t.Name, crd.Name(), r.Code, truncate(r.Body, 200))
	}
	if err := t.waitCode(ctx, crd.Path(ns)+"?limit=1", http.StatusNotFound, timeout, 20*time.Millisecond); err != nil {
		return 0, err
	}
	return time.Since(start), nil
}

// ErrWatchSetup reports watchers that could not be set up at all.
var ErrWatchSetup = errors.New("watch setup failed")

// WatchResult is the outcome of one watch fan-out run.
type WatchResult struct {
	Watchers int
	Updates  int
	// Latencies of delivery: update acknowledged to the writer → event read by a
	// watcher, one per (watcher, update) delivered.
	Latencies []time.Duration
	// WriteLatencies are the writer's update latencies.
	WriteLatencies []time.Duration
	// Span is from the first update sent to the last event received.
	Span time.Duration
	// Delivered counts the events of measured updates received; Missed the (watcher,
	// update) pairs never received; OutOfOrder the events received after a later one.
	Delivered, Missed, OutOfOrder int
	// WatchErrors counts watchers whose stream failed or carried an ERROR event.
	WatchErrors int
	FirstError  string
}

// watcher is one watch stream's record: the resourceVersion and arrival time of every
// event.
type watcher struct {
	rvs   []string    // owned by the watcher's goroutine until it ends
	times []time.Time // owned by the watcher's goroutine until it ends
	count atomic.Int64

	mu  sync.Mutex
	err error // guarded by mu
}

func (w *watcher) setErr(err error) {
	w.mu.Lock()
	w.err = err
	w.mu.Unlock()
}

func (w *watcher) getErr() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.err
}

// WatchFanout creates one custom resource, name (new in ns), opens watchers watches on
// its namespace from its resourceVersion, then updates it updates times in a row (PUT, each conditional on the
// last resourceVersion) and records when each watcher reads each event. Every watcher
// must see every update, in order. settle bounds the wait for stragglers after the last
// update.
func (t *Target) WatchFanout(ctx context.Context, crd CRD, ns, name string, watchers, updates int, settle time.Duration) (WatchResult, error) {
	res := WatchResult{Watchers: watchers, Updates: updates}
	r, err := t.expect(ctx, http.StatusCreated, http.MethodPost, crd.Path(ns), crd.Object(ns, name, 0, ""), "")
	if err != nil {
		return res, err
	}
	rv := resourceVersion(r.Body)

	wctx, stop := context.WithCancel(ctx)
	defer stop()
	// Watch streams each need a connection of their own.
	wclient := &http.Client{Transport: newTransport(0)}
	defer wclient.CloseIdleConnections()
	ws := make([]*watcher, watchers)
	var connected sync.WaitGroup
	var running sync.WaitGroup
	sem := make(chan struct{}, 32) // connect at most 32 at a time
	q := url.Values{"watch": {"1"}, "resourceVersion": {rv}, "timeoutSeconds": {"900"}}
	watchURL := t.Base + crd.Path(ns) + "?" + q.Encode()
	for i := range ws {
		w := &watcher{rvs: make([]string, 0, updates+1), times: make([]time.Time, 0, updates+1)}
		ws[i] = w
		connected.Add(1)
		running.Add(1)
		go func() {
			defer running.Done()
			sem <- struct{}{}
			req, _ := http.NewRequestWithContext(wctx, http.MethodGet, watchURL, nil)
			resp, err := wclient.Do(req)
			<-sem
			if err == nil && resp.StatusCode != http.StatusOK {
				resp.Body.Close()
				err = fmt.Errorf("watch: HTTP %d", resp.StatusCode)
			}
			if err != nil {
				w.setErr(err)
				connected.Done()
				return
			}
			connected.Done()
			defer resp.Body.Close()
			br := bufio.NewReaderSize(resp.Body, 64<<10)
			for {
				line, err := br.ReadSlice('\n')
				if errors.Is(err, bufio.ErrBufferFull) {
					// An event longer than the buffer: gather it whole.
					buf := append([]byte(nil), line...)
					for errors.Is(err, bufio.ErrBufferFull) {
						line, err = br.ReadSlice('\n')
						buf = append(buf, line...)
					}
					line = buf
				}
				now := time.Now()
				if err != nil {
					if wctx.Err() == nil {
						w.setErr(fmt.Errorf("watch stream ended: %v", err))
					}
					return
				}
				switch eventType(line) {
				case "MODIFIED":
					w.rvs = append(w.rvs, resourceVersion(line))
					w.times = append(w.times, now)
					w.count.Add(1)
				case "BOOKMARK":
				default:
					w.setErr(fmt.Errorf("unexpected watch event: %s", truncate(line, 300)))
					return
				}
			}
		}()
	}
	connected.Wait()
	countErrors := func() int {
		n := 0
		for _, w := range ws {
			if err := w.getErr(); err != nil {
				n++
				if res.FirstError == "" {
					res.FirstError = err.Error()
				}
			}
		}
		return n
	}
	if n := countErrors(); n > 0 {
		res.WatchErrors = n
		stop()
		running.Wait()
		return res, fmt.Errorf("%w: %s: %d of %d watchers: %s", ErrWatchSetup, t.Name, n, watchers, res.FirstError)
	}

	// One unmeasured update, until every watcher has seen it: all streams are live.
	put := func(counter int) (string, time.Duration, error) {
		s := time.Now()
		r, err := t.expect(ctx, http.StatusOK, http.MethodPut, crd.Path(ns)+"/"+name, crd.Object(ns, name, counter, rv), "")
		d := time.Since(s)
		if err != nil {
			return "", d, err
		}
		return resourceVersion(r.Body), d, nil
	}
	if rv, _, err = put(1); err != nil {
		return res, err
	}
	if err := waitAll(ctx, ws, 1, 60*time.Second); err != nil {
		res.WatchErrors = countErrors()
		return res, fmt.Errorf("%s: warm-up update: %w", t.Name, err)
	}

	type ack struct {
		rv string
		at time.Time
	}
	acks := make([]ack, updates)
	res.WriteLatencies = make([]time.Duration, updates)
	start := time.Now()
	for i := range updates {
		var d time.Duration
		rv, d, err = put(i + 2)
		if err != nil {
			return res, err
		}
		acks[i] = ack{rv: rv, at: time.Now()}
		res.WriteLatencies[i] = d
	}
	// Wait for every watcher to have every event, or settle to pass.
	waitErr := waitAll(ctx, ws, int64(updates+1), settle)
	stop()
	running.Wait()

	idx := make(map[string]int, updates)
	for i, a := range acks {
		idx[a.rv] = i
	}
	var last time.Time
	res.Latencies = make([]time.Duration, 0, watchers*updates)
	for _, w := range ws {
		seen := 0
		prev := -1
		for j, rv := range w.rvs {
			i, ok := idx[rv]
			if !ok {
				continue // the warm-up update
			}
			if i <= prev {
				res.OutOfOrder++
				continue
			}
			prev = i
			seen++
			d := w.times[j].Sub(acks[i].at)
			if d < 0 {
				d = 0 // the event outran the response to the writer
			}
			res.Latencies = append(res.Latencies, d)
			if w.times[j].After(last) {
				last = w.times[j]
			}
		}
		res.Delivered += seen
		res.Missed += updates - seen
	}
	res.WatchErrors = countErrors()
	if last.IsZero() {
		last = time.Now()
	}
	res.Span = last.Sub(start)
	if waitErr != nil && res.Missed == 0 {
		return res, waitErr
	}
	return res, nil
}

// waitAll waits until every watcher has counted at least n events (or failed).
func waitAll(ctx context.Context, ws []*watcher, n int64, timeout time.Duration) error {
	deadline := time.Now().Add(timeout)
	for {
		done := true
		for _, w := range ws {
			if w.count.Load() < n && w.getErr() == nil {
				done = false
				break
			}
		}
		if done {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("not every watcher had %d events after %s", n, timeout)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(5 * time.Millisecond):
		}
	}
}
