// Command 11-informer-questions answers, by running them, the three
// questions seed 000 leaves open in its "Landscape" section:
//
//	Q1. How does SharedInformerFactory distinguish different types of
//	    resource state changes?
//	Q2. Can a ResourceEventHandler pay attention to changes in the state of
//	    different types of resources at the same time?
//	Q3. How are resource status changes obtained?
//
//	go run ./examples/11-informer-questions
//
// To watch it move, open the /ui page of the server it starts (the
// example waits for the page, and keeps it up until Ctrl-C):
//
//	CRDLAB_UI=127.0.0.1:8090 go run ./examples/11-informer-questions   # open http://127.0.0.1:8090/ui/
//
// Q1 drives an informer from a hand-made list+watch source, so that every
// kind of change (ADDED, MODIFIED, DELETED, a relist after 410, a missed
// delete, a resync) happens on cue. Q2 and Q3 run against a crdlab server
// started in-process, over HTTP, as the server's own controllers do.
// docs/questions.md explains the answers with the code that gives them.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"os"
	"sort"
	"strings"
	"sync"
	"time"

	apiextensionsv1 "github.com/crdlab/crdlab/apis/apiextensions/v1"
	metav1 "github.com/crdlab/crdlab/apis/meta/v1"
	"github.com/crdlab/crdlab/apis/meta/v1/unstructured"
	"github.com/crdlab/crdlab/client"
	"github.com/crdlab/crdlab/client/dynamic"
	"github.com/crdlab/crdlab/examples/internal/labserver"
	"github.com/crdlab/crdlab/informer"
	"github.com/crdlab/crdlab/machinery/clock"
	"github.com/crdlab/crdlab/machinery/watch"
	"github.com/crdlab/crdlab/scheme"
)

func main() {
	dir, err := os.MkdirTemp("", "crdlab-11-informer-questions")
	if err != nil {
		fmt.Fprintln(os.Stderr, "error:", err)
		os.Exit(1)
	}
	defer os.RemoveAll(dir)
	if err := run(os.Stdout, dir); err != nil {
		fmt.Fprintln(os.Stderr, "error:", err)
		os.Exit(1)
	}
}

// step numbers the lines of the trace.
type step struct {
	w io.Writer
	n int
}

func (s *step) say(format string, args ...any) {
	s.n++
	fmt.Fprintf(s.w, "%d. "+format+"\n", append([]any{s.n}, args...)...)
}

func (s *step) note(format string, args ...any) {
	fmt.Fprintf(s.w, "   "+format+"\n", args...)
}

func run(w io.Writer, dataDir string) error {
	s := &step{w: w}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()

	fmt.Fprintln(w, "Q1. How are the kinds of state change told apart?")
	if err := q1(ctx, s); err != nil {
		return fmt.Errorf("Q1: %w", err)
	}
	if err := q1Resync(ctx, s); err != nil {
		return fmt.Errorf("Q1 (resync): %w", err)
	}

	srv, err := labserver.Start(ctx, dataDir)
	if err != nil {
		return err
	}
	defer srv.Stop()
	if err := srv.InstallCRD(ctx, labserver.CronTabCRD()); err != nil {
		return err
	}

	fmt.Fprintln(w, "Q2. Can one handler follow several resource types at once?")
	if err := q2(ctx, s, srv.Config); err != nil {
		return fmt.Errorf("Q2: %w", err)
	}
	fmt.Fprintln(w, "Q3. How are status changes obtained?")
	if err := q3(ctx, s, srv.Config); err != nil {
		return fmt.Errorf("Q3: %w", err)
	}
	return nil
}

// --- Q1 ---------------------------------------------------------------

// crontab is a CronTab at resourceVersion rv.
func crontab(name, rv, cron string) *unstructured.Unstructured {
	u := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "stable.example.com/v1", "kind": "CronTab",
		"spec": map[string]any{"cronSpec": cron},
	}}
	u.SetNamespace("default")
	u.SetName(name)
	if rv != "" {
		u.SetResourceVersion(rv)
	}
	return u
}

func discardLogger() *slog.Logger { return slog.New(slog.DiscardHandler) }

func list(rv string, items ...*unstructured.Unstructured) *unstructured.UnstructuredList {
	l := &unstructured.UnstructuredList{Object: map[string]any{}}
	l.SetResourceVersion(rv)
	for _, it := range items {
		l.Items = append(l.Items, *it)
	}
	return l
}

// source is a ListerWatcher driven by hand: List returns the next list
// queued on lists, Watch a new FakeWatcher, handed to the example on
// watches. It records the resourceVersion of every request.
type source struct {
	lists   chan *unstructured.UnstructuredList
	watches chan *watch.FakeWatcher

	mu       sync.Mutex // guards requests
	requests []string
}

func (s *source) List(ctx context.Context, opts metav1.ListOptions) (scheme.Object, error) {
	s.record(fmt.Sprintf("LIST resourceVersion=%q", opts.ResourceVersion))
	select {
	case l := <-s.lists:
		return l, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

func (s *source) Watch(ctx context.Context, opts metav1.ListOptions) (watch.Interface, error) {
	s.record(fmt.Sprintf("WATCH resourceVersion=%q", opts.ResourceVersion))
	fw := watch.NewFake()
	s.watches <- fw
	return fw, nil
}

func (s *source) record(r string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.requests = append(s.requests, r)
}

// takeRequests returns the requests recorded since the last call.
func (s *source) takeRequests() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := strings.Join(s.requests, ", ")
	s.requests = nil
	return out
}

// calls records handler calls as text, for the example to wait on.
type calls chan string

func (c calls) OnAdd(obj any, isInInitialList bool) {
	u := obj.(*unstructured.Unstructured)
	c <- fmt.Sprintf("OnAdd(%s rv=%s, initialList=%t)", u.GetName(), u.GetResourceVersion(), isInInitialList)
}

func (c calls) OnUpdate(oldObj, newObj any) {
	o, n := oldObj.(*unstructured.Unstructured), newObj.(*unstructured.Unstructured)
	c <- fmt.Sprintf("OnUpdate(%s rv=%s → rv=%s)", n.GetName(), o.GetResourceVersion(), n.GetResourceVersion())
}

func (c calls) OnDelete(obj any) {
	switch o := obj.(type) {
	case informer.DeletedFinalStateUnknown:
		c <- fmt.Sprintf("OnDelete(DeletedFinalStateUnknown{Key: %s})", o.Key)
	case *unstructured.Unstructured:
		c <- fmt.Sprintf("OnDelete(%s rv=%s)", o.GetName(), o.GetResourceVersion())
	}
}

// next returns the next n handler calls, or an error after 10s.
func (c calls) next(n int) ([]string, error) {
	var out []string
	timeout := time.After(10 * time.Second)
	for len(out) < n {
		select {
		case s := <-c:
			out = append(out, s)
		case <-timeout:
			return out, fmt.Errorf("got %v, want %d handler calls", out, n)
		}
	}
	return out, nil
}

// fastBackoff retries a failed list+watch after 10ms rather than 800ms.
func fastBackoff() informer.BackoffManager {
	return informer.NewExponentialBackoffManager(10*time.Millisecond, 100*time.Millisecond, time.Minute, 2, 0, clock.RealClock{})
}

// q1 shows how watch events, a relist and a missed delete become handler
// calls: the Reflector turns events into DeltaFIFO operations, and
// processDeltas turns deltas into OnAdd/OnUpdate/OnDelete by looking at
// the cache.
func q1(ctx context.Context, s *step) error {
	src := &source{lists: make(chan *unstructured.UnstructuredList, 2), watches: make(chan *watch.FakeWatcher, 4)}
	inf := informer.NewSharedIndexInformerWithOptions(src, informer.SharedIndexInformerOptions{
		Backoff: fastBackoff(), Logger: discardLogger(),
	})
	got := make(calls, 16)
	if _, err := inf.AddEventHandler(got); err != nil {
		return err
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	stopped := make(chan struct{})
	go func() { inf.Run(ctx); close(stopped) }()
	defer func() { cancel(); <-stopped }()

	// The first list: keys the cache does not hold yet.
	src.lists <- list("10", crontab("a", "8", "@hourly"), crontab("b", "9", "@daily"))
	fw := <-src.watches
	c, err := got.next(2)
	if err != nil {
		return err
	}
	s.say("reflector: %s → Replace → deltas Replaced(a), Replaced(b); not in the cache → %s", src.takeRequests(), strings.Join(c, ", "))

	// Watch events, one by one.
	for _, ev := range []struct {
		send  func()
		event string
		delta string
	}{
		{func() { fw.Modify(crontab("a", "11", "@weekly")) }, "MODIFIED a", "Updated(a); a is cached"},
		{func() { fw.Delete(crontab("b", "12", "@daily")) }, "DELETED b", "Deleted(b)"},
		{func() { fw.Add(crontab("c", "13", "@monthly")) }, "ADDED c", "Added(c); c is not cached"},
	} {
		ev.send()
		c, err := got.next(1)
		if err != nil {
			return err
		}
		s.say("watch event %s → delta %s → %s", ev.event, ev.delta, c[0])
	}

	// The watch fails with 410 Expired: the reflector lists again. c was
	// deleted and d created while nobody watched.
	fw.Error(&metav1.Status{Status: metav1.StatusFailure, Code: http.StatusGone, Reason: metav1.StatusReasonExpired, Message: "too old resource version: 13 (15)"})
	src.lists <- list("16", crontab("a", "14", "@yearly"), crontab("d", "15", "@reboot"))
	<-src.watches
	c, err = got.next(3)
	if err != nil {
		return err
	}
	sort.Strings(c)
	s.say("watch event ERROR 410 Expired → reflector: %s", src.takeRequests())
	s.note("→ Replace: Replaced(a) (cached) → %s", pick(c, "OnUpdate(a"))
	s.note("→ Replaced(d) (not cached) → %s", pick(c, "OnAdd(d"))
	s.note("→ c is cached but not in the list: a tombstone → %s", pick(c, "OnDelete("))
	return nil
}

// q1Resync shows the last kind: a resync re-delivers what is cached, as
// OnUpdate with the same object, not a change.
func q1Resync(ctx context.Context, s *step) error {
	src := &source{lists: make(chan *unstructured.UnstructuredList, 1), watches: make(chan *watch.FakeWatcher, 1)}
	src.lists <- list("10", crontab("a", "8", "@hourly"))
	inf := informer.NewSharedIndexInformerWithOptions(src, informer.SharedIndexInformerOptions{
		ResyncPeriod: 50 * time.Millisecond, Logger: discardLogger(),
	})
	got := make(calls, 16)
	if _, err := inf.AddEventHandler(got); err != nil {
		return err
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	stopped := make(chan struct{})
	go func() { inf.Run(ctx); close(stopped) }()
	defer func() { cancel(); <-stopped }()
	c, err := got.next(2)
	if err != nil {
		return err
	}
	s.say("a new informer, whose list holds a at rv=8, resyncs every 50ms → delta Sync(a) → %s: the same resourceVersion, nothing changed", c[1])
	return nil
}

func pick(calls []string, prefix string) string {
	for _, c := range calls {
		if strings.HasPrefix(c, prefix) {
			return c
		}
	}
	return "(none)"
}

// --- Q2 ---------------------------------------------------------------

var crontabsGVR = scheme.GroupVersionResource{Group: "stable.example.com", Version: "v1", Resource: "crontabs"}

// oneHandler is a single ResourceEventHandler registered on two informers
// of different resources. It tells the objects apart by their Go type
// (it could use apiVersion/kind). Its methods may run concurrently, one
// goroutine per informer it is registered with, so it locks.
type oneHandler struct {
	mu      sync.Mutex // guards seen
	seen    []seenCall
	changed chan struct{} // gets a value after each call
}

// seenCall is one call: "OnAdd CronTab default/nightly", and the object's
// resourceVersion.
type seenCall struct{ call, rv string }

func (h *oneHandler) record(verb string, obj any) {
	var what, rv string
	switch o := obj.(type) {
	case *apiextensionsv1.CustomResourceDefinition:
		what, rv = "CustomResourceDefinition "+o.Name, o.ResourceVersion
	case *unstructured.Unstructured:
		what, rv = o.GetKind()+" "+o.GetNamespace()+"/"+o.GetName(), o.GetResourceVersion()
	default:
		what = fmt.Sprintf("%T", obj)
	}
	h.mu.Lock()
	h.seen = append(h.seen, seenCall{verb + " " + what, rv})
	h.mu.Unlock()
	select {
	case h.changed <- struct{}{}:
	default:
	}
}

func (h *oneHandler) OnAdd(obj any, _ bool)  { h.record("OnAdd", obj) }
func (h *oneHandler) OnUpdate(_, newObj any) { h.record("OnUpdate", newObj) }
func (h *oneHandler) OnDelete(obj any)       { h.record("OnDelete", obj) }

// await waits up to 10s for a call for which match is true and returns it.
// Other calls (status writes by the server's controllers, say) are skipped.
func (h *oneHandler) await(match func(seenCall) bool) (string, error) {
	timeout := time.After(10 * time.Second)
	for {
		h.mu.Lock()
		for _, c := range h.seen {
			if match(c) {
				h.mu.Unlock()
				return c.call, nil
			}
		}
		h.mu.Unlock()
		select {
		case <-h.changed:
		case <-timeout:
			return "", errors.New("the handler was not called as expected within 10s")
		}
	}
}

func crdInformer(crds client.CustomResourceDefinitionInterface) informer.SharedIndexInformer {
	return informer.NewSharedIndexInformerWithOptions(&informer.ListWatch{
		ListFunc:  func(ctx context.Context, o metav1.ListOptions) (scheme.Object, error) { return crds.List(ctx, o) },
		WatchFunc: func(ctx context.Context, o metav1.ListOptions) (watch.Interface, error) { return crds.Watch(ctx, o) },
	}, informer.SharedIndexInformerOptions{Logger: discardLogger()})
}

func crontabInformer(crontabs dynamic.ResourceInterface) informer.SharedIndexInformer {
	return informer.NewSharedIndexInformerWithOptions(&informer.ListWatch{
		ListFunc: func(ctx context.Context, o metav1.ListOptions) (scheme.Object, error) { return crontabs.List(ctx, o) },
		WatchFunc: func(ctx context.Context, o metav1.ListOptions) (watch.Interface, error) {
			return crontabs.Watch(ctx, o)
		},
	}, informer.SharedIndexInformerOptions{Logger: discardLogger()})
}

func q2(ctx context.Context, s *step, cfg *client.Config) error {
	cs, err := client.NewForConfig(cfg)
	if err != nil {
		return err
	}
	dyn, err := dynamic.NewForConfig(cfg)
	if err != nil {
		return err
	}
	crds := cs.ApiextensionsV1().CustomResourceDefinitions()
	crontabs := dyn.Resource(crontabsGVR).Namespace("default")

	// One factory, one informer per resource; the same handler on both.
	factory := informer.NewSharedInformerFactory()
	crdInf := factory.InformerFor(apiextensionsv1.SchemeGroupVersion.WithResource("customresourcedefinitions"),
		func() informer.SharedIndexInformer { return crdInformer(crds) })
	ctInf := factory.InformerFor(crontabsGVR, func() informer.SharedIndexInformer { return crontabInformer(crontabs) })
	h := &oneHandler{changed: make(chan struct{}, 1)}
	for _, inf := range []informer.SharedIndexInformer{crdInf, ctInf} {
		if _, err := inf.AddEventHandler(h); err != nil {
			return err
		}
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	factory.Start(ctx)
	defer factory.Shutdown()
	synced := factory.WaitForCacheSync(ctx)
	call, err := h.await(func(c seenCall) bool { return strings.HasPrefix(c.call, "OnAdd CustomResourceDefinition") })
	if err != nil {
		return err
	}
	s.say("one handler registered on 2 informers (synced: %v, %v) → [%s]",
		synced[apiextensionsv1.SchemeGroupVersion.WithResource("customresourcedefinitions")], synced[crontabsGVR], call)

	if _, err := crontabs.Create(ctx, crontab("nightly", "", "0 3 * * *"), metav1.CreateOptions{}); err != nil {
		return err
	}
	call, err = h.await(func(c seenCall) bool { return strings.HasPrefix(c.call, "OnAdd CronTab") })
	if err != nil {
		return err
	}
	s.say("create a CronTab → the same handler: [%s]", call)

	crd, err := crds.Get(ctx, "crontabs.stable.example.com", metav1.GetOptions{})
	if err != nil {
		return err
	}
	crd.Spec.Names.Categories = []string{"all"}
	updated, err := crds.Update(ctx, crd, metav1.UpdateOptions{})
	if err != nil {
		return err
	}
	call, err = h.await(func(c seenCall) bool {
		return strings.HasPrefix(c.call, "OnUpdate CustomResourceDefinition") && c.rv == updated.ResourceVersion
	})
	if err != nil {
		return err
	}
	s.say("update the CRD → the same handler: [%s]", call)
	s.note("each registration has its own listener goroutine: a handler on two informers is called concurrently")
	return nil
}

// --- Q3 ---------------------------------------------------------------

// requestLog is an http.RoundTripper that records the requests a client
// sends: here, what the Reflector asks the server.
type requestLog struct {
	mu   sync.Mutex // guards reqs
	reqs []string
}

func (l *requestLog) RoundTrip(r *http.Request) (*http.Response, error) {
	q := r.URL.Query()
	q.Del("timeoutSeconds") // random, per watch: leave it out of the trace
	line := r.Method + " " + r.URL.Path
	if len(q) > 0 {
		line += "?" + decode(q.Encode())
	}
	l.mu.Lock()
	l.reqs = append(l.reqs, line)
	l.mu.Unlock()
	return http.DefaultTransport.RoundTrip(r)
}

func decode(q string) string {
	s, err := url.QueryUnescape(q)
	if err != nil {
		return q
	}
	return s
}

func (l *requestLog) take() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	out := l.reqs
	l.reqs = nil
	return out
}

func q3(ctx context.Context, s *step, cfg *client.Config) error {
	log := &requestLog{}
	traced := *cfg
	traced.HTTPClient = &http.Client{Transport: log}
	dyn, err := dynamic.NewForConfig(&traced)
	if err != nil {
		return err
	}
	inf := crontabInformer(dyn.Resource(crontabsGVR).Namespace("default"))
	updates := make(chan [2]*unstructured.Unstructured, 4)
	if _, err := inf.AddEventHandler(informer.ResourceEventHandlerFuncs{
		UpdateFunc: func(oldObj, newObj any) {
			updates <- [2]*unstructured.Unstructured{oldObj.(*unstructured.Unstructured), newObj.(*unstructured.Unstructured)}
		},
	}); err != nil {
		return err
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	stopped := make(chan struct{})
	go func() { inf.Run(ctx); close(stopped) }()
	defer func() { cancel(); <-stopped }()
	if !informer.WaitForCacheSync(ctx, inf.HasSynced) {
		return errors.New("informer did not sync")
	}
	// The watch request is sent right after the list; wait for it.
	var reqs []string
	for deadline := time.Now().Add(5 * time.Second); len(reqs) < 2 && time.Now().Before(deadline); {
		reqs = append(reqs, log.take()...)
		time.Sleep(5 * time.Millisecond)
	}
	if len(reqs) < 2 {
		return fmt.Errorf("the reflector sent %v, want a list and a watch", reqs)
	}
	s.say("the reflector's requests: a list, then a watch from the list's resourceVersion:")
	for _, r := range reqs {
		s.note("%s", r)
	}

	// Someone (a controller) writes the CronTab's status through /status.
	plain, err := dynamic.NewForConfig(cfg)
	if err != nil {
		return err
	}
	crontabs := plain.Resource(crontabsGVR).Namespace("default")
	cur, err := crontabs.Get(ctx, "nightly", metav1.GetOptions{})
	if err != nil {
		return err
	}
	if err := unstructured.SetNestedField(cur.Object, "Scheduled", "status", "phase"); err != nil {
		return err
	}
	if _, err := crontabs.UpdateStatus(ctx, cur, metav1.UpdateOptions{}); err != nil {
		return err
	}
	var u [2]*unstructured.Unstructured
	select {
	case u = <-updates:
	case <-time.After(10 * time.Second):
		return errors.New("no OnUpdate within 10s")
	}
	oldPhase, _, _ := unstructured.NestedString(u[0].Object, "status", "phase")
	newPhase, _, _ := unstructured.NestedString(u[1].Object, "status", "phase")
	s.say("PUT …/crontabs/nightly/status elsewhere → a MODIFIED event on the open watch → OnUpdate: status.phase %q → %q, resourceVersion %s → %s, generation %d → %d",
		oldPhase, newPhase, u[0].GetResourceVersion(), u[1].GetResourceVersion(), u[0].GetGeneration(), u[1].GetGeneration())
	s.note("requests the reflector sent for it: %d (the change came down the watch it already had open)", len(log.take()))
	return q3WatchList(ctx, s, cfg)
}

// q3WatchList starts a second informer that gets its initial state the way
// client-go's reflector does by default since v1.35 (watch-list): one watch
// with sendInitialEvents=true, whose first events are the current objects,
// ended by a bookmark; no list.
func q3WatchList(ctx context.Context, s *step, cfg *client.Config) error {
	log := &requestLog{}
	traced := *cfg
	traced.HTTPClient = &http.Client{Transport: log}
	dyn, err := dynamic.NewForConfig(&traced)
	if err != nil {
		return err
	}
	crontabs := dyn.Resource(crontabsGVR).Namespace("default")
	inf := informer.NewSharedIndexInformerWithOptions(&informer.ListWatch{
		ListFunc: func(ctx context.Context, o metav1.ListOptions) (scheme.Object, error) { return crontabs.List(ctx, o) },
		WatchFunc: func(ctx context.Context, o metav1.ListOptions) (watch.Interface, error) {
			return crontabs.Watch(ctx, o)
		},
	}, informer.SharedIndexInformerOptions{Logger: discardLogger(), UseWatchList: true})
	added := make(chan string, 4)
	if _, err := inf.AddEventHandler(informer.ResourceEventHandlerFuncs{
		AddFunc: func(obj any, initial bool) {
			added <- fmt.Sprintf("OnAdd(%s, initialList=%t)", obj.(*unstructured.Unstructured).GetName(), initial)
		},
	}); err != nil {
		return err
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	stopped := make(chan struct{})
	go func() { inf.Run(ctx); close(stopped) }()
	defer func() { cancel(); <-stopped }()
	if !informer.WaitForCacheSync(ctx, inf.HasSynced) {
		return errors.New("the watch-list informer did not sync")
	}
	s.say("the same with watch-list (client-go's default since v1.35): one request, a watch whose first events are the current objects:")
	for _, r := range log.take() {
		s.note("%s", r)
	}
	select {
	case call := <-added:
		s.note("→ ADDED nightly, then a BOOKMARK marked k8s.io/initial-events-end → %s; synced without a list", call)
	case <-time.After(10 * time.Second):
		return errors.New("no OnAdd from the watch-list informer within 10s")
	}
	return nil
}
