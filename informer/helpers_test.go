package informer

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"testing"
	"time"

	metav1 "github.com/crdlab/crdlab/apis/meta/v1"
	"github.com/crdlab/crdlab/apis/meta/v1/unstructured"
	"github.com/crdlab/crdlab/machinery/clock"
	"github.com/crdlab/crdlab/machinery/watch"
	"github.com/crdlab/crdlab/scheme"
)

// epoch is where every FakeClock starts.
var epoch = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

// quiet is a logger that drops everything, for components whose warnings
// are expected in a test.
var quiet = slog.New(slog.DiscardHandler)

// newObj returns a CronTab-like custom resource.
func newObj(ns, name, rv string) *unstructured.Unstructured {
	u := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "stable.example.com/v1",
		"kind":       "CronTab",
	}}
	u.SetNamespace(ns)
	u.SetName(name)
	u.SetResourceVersion(rv)
	return u
}

// withLabels sets u's labels and returns it.
func withLabels(u *unstructured.Unstructured, labels map[string]string) *unstructured.Unstructured {
	u.SetLabels(labels)
	return u
}

// newList returns a list at resourceVersion rv holding copies of objs.
func newList(rv string, objs ...*unstructured.Unstructured) *unstructured.UnstructuredList {
	l := &unstructured.UnstructuredList{Object: map[string]any{
		"apiVersion": "stable.example.com/v1",
		"kind":       "CronTabList",
	}}
	l.SetResourceVersion(rv)
	for _, o := range objs {
		l.Items = append(l.Items, *o.DeepCopy())
	}
	return l
}

// bookmark returns a BOOKMARK event object at rv; initialEnd marks it as
// the end of a watch-list's initial events.
func bookmark(rv string, initialEnd bool) *unstructured.Unstructured {
	u := &unstructured.Unstructured{Object: map[string]any{"kind": "CronTab", "apiVersion": "stable.example.com/v1"}}
	u.SetResourceVersion(rv)
	if initialEnd {
		u.SetAnnotations(map[string]string{metav1.InitialEventsAnnotationKey: "true"})
	}
	return u
}

// keyOf keys obj, failing the test on error.
func keyOf(t *testing.T, obj any) string {
	t.Helper()
	k, err := DeletionHandlingMetaNamespaceKeyFunc(obj)
	if err != nil {
		t.Fatalf("key of %T: %v", obj, err)
	}
	return k
}

// rvOf returns obj's resourceVersion.
func rvOf(obj any) string {
	m, _ := metav1.Accessor(obj)
	return m.GetResourceVersion()
}

// waitUntil polls cond until it holds, failing the test after 10 seconds.
// It is for conditions another goroutine makes true; nothing is slept on
// that could be waited for instead.
func waitUntil(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting until %s", what)
		}
		time.Sleep(time.Millisecond)
	}
}

// stepWhenWaiting waits until something waits on clock, then steps it by d.
func stepWhenWaiting(t *testing.T, fakeClock *clock.FakeClock, d time.Duration) {
	t.Helper()
	waitUntil(t, "a timer waits on the fake fakeClock", fakeClock.HasWaiters)
	fakeClock.Step(d)
}

// lwCall is one call a scriptedLW received.
type lwCall struct {
	verb string // "list" or "watch"
	opts metav1.ListOptions
}

func (c lwCall) String() string { return fmt.Sprintf("%s rv=%q", c.verb, c.opts.ResourceVersion) }

// scriptedLW is a ListerWatcher that answers from scripts, in order, and
// records every call: a scripted source like client-go's own reflector
// tests use, not a server. When its watch script runs out it hands out
// open FakeWatchers that never send anything; when its list script runs
// out, List fails.
type scriptedLW struct {
	// calls receives every call, as it is made.
	calls chan lwCall

	mu      sync.Mutex // guards the fields below
	lists   []listAnswer
	watches []watchAnswer
	// nLists counts List calls.
	nLists int
}

type listAnswer struct {
	list scheme.Object
	err  error
}

type watchAnswer struct {
	w   watch.Interface
	err error
}

var _ ListerWatcher = (*scriptedLW)(nil)

func newScriptedLW() *scriptedLW { return &scriptedLW{calls: make(chan lwCall, 1000)} }

// addList scripts the answer to the next unanswered List.
func (lw *scriptedLW) addList(list scheme.Object, err error) *scriptedLW {
	lw.mu.Lock()
	defer lw.mu.Unlock()
	lw.lists = append(lw.lists, listAnswer{list, err})
	return lw
}

// addWatch scripts the answer to the next unanswered Watch and returns the
// watcher (nil with an error).
func (lw *scriptedLW) addWatch(err error) *watch.FakeWatcher {
	lw.mu.Lock()
	defer lw.mu.Unlock()
	if err != nil {
		lw.watches = append(lw.watches, watchAnswer{err: err})
		return nil
	}
	w := watch.NewFake()
	lw.watches = append(lw.watches, watchAnswer{w: w})
	return w
}

func (lw *scriptedLW) listCount() int {
	lw.mu.Lock()
	defer lw.mu.Unlock()
	return lw.nLists
}

func (lw *scriptedLW) List(_ context.Context, opts metav1.ListOptions) (scheme.Object, error) {
	lw.mu.Lock()
	defer lw.mu.Unlock()
	lw.nLists++
	lw.calls <- lwCall{"list", opts}
	if len(lw.lists) == 0 {
		return nil, errors.New("scriptedLW: no more lists scripted")
	}
	a := lw.lists[0]
	lw.lists = lw.lists[1:]
	return a.list, a.err
}

func (lw *scriptedLW) Watch(_ context.Context, opts metav1.ListOptions) (watch.Interface, error) {
	lw.mu.Lock()
	defer lw.mu.Unlock()
	lw.calls <- lwCall{"watch", opts}
	if len(lw.watches) == 0 {
		return watch.NewFake(), nil
	}
	a := lw.watches[0]
	lw.watches = lw.watches[1:]
	return a.w, a.err
}

// nextCall waits for the next call lw receives.
func (lw *scriptedLW) nextCall(t *testing.T) lwCall {
	t.Helper()
	select {
	case c := <-lw.calls:
		return c
	case <-time.After(10 * time.Second):
		t.Fatal("timed out waiting for a list or watch call")
		return lwCall{}
	}
}

// expectCall waits for the next call and checks its verb and
// resourceVersion.
func (lw *scriptedLW) expectCall(t *testing.T, verb, rv string) lwCall {
	t.Helper()
	c := lw.nextCall(t)
	if c.verb != verb || c.opts.ResourceVersion != rv {
		t.Fatalf("call = %v, want %s rv=%q", c, verb, rv)
	}
	return c
}

// noBackoffJitter is the Reflector's default backoff without jitter, so
// tests know each wait exactly.
func noBackoffJitter(fakeClock clock.Clock) BackoffManager {
	return NewExponentialBackoffManager(800*time.Millisecond, 30*time.Second, 2*time.Minute, 2.0, 0, fakeClock)
}

// run starts fn(ctx) in a goroutine and returns a function that cancels
// ctx and waits for fn to return; the test's Cleanup calls it too.
func run(t *testing.T, fn func(ctx context.Context)) (stop func()) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		fn(ctx)
	}()
	var once sync.Once
	stop = func() {
		once.Do(func() {
			cancel()
			select {
			case <-done:
			case <-time.After(10 * time.Second):
				t.Error("timed out waiting for a goroutine to stop")
			}
		})
	}
	t.Cleanup(stop)
	return stop
}
