package informer

import (
	"fmt"
	"testing"
	"time"

	"github.com/crdlab/crdlab/machinery/clock"
	"github.com/crdlab/crdlab/trace"
)

// traced is the part of a trace.Event the tests compare:
// "component step actor key rv: message".
func traced(e trace.Event) string {
	return fmt.Sprintf("%s %s %s %s %s: %s", e.Component, e.Step, e.Actor, e.Key, e.ResourceVersion, e.Message)
}

// waitTrace polls tr until it holds at least n events for which keep is
// true (nil keeps all), failing the test after 10 seconds, and returns
// those events, rendered by traced.
func waitTrace(t *testing.T, tr *trace.Tracer, n int, keep func(trace.Event) bool) []string {
	t.Helper()
	var got []string
	waitUntil(t, fmt.Sprintf("%d trace events", n), func() bool {
		got = got[:0]
		for _, e := range tr.Recent(0) {
			if keep == nil || keep(e) {
				got = append(got, traced(e))
			}
		}
		return len(got) >= n
	})
	return got
}

func TestReflector_Trace(t *testing.T) {
	a, b := newObj("ns", "a", "1"), newObj("ns", "b", "2")
	lw := newScriptedLW().addList(newList("10", a, b), nil)
	w := lw.addWatch(nil)
	w.Add(newObj("ns", "c", "11"))
	w.Modify(newObj("ns", "a", "12"))
	w.Error(expiredStatus())
	lw.addList(newList("20", a), nil)
	lw.addWatch(nil)
	tr := trace.New(trace.Options{})
	r, _, fakeClock := newTestReflector(lw, ReflectorOptions{Name: "crontabs", Tracer: tr})
	run(t, r.Run)

	lw.expectCall(t, "list", "0")
	lw.expectCall(t, "watch", "10")
	stepWhenWaiting(t, fakeClock, 800*time.Millisecond) // Run backs off before relisting
	lw.expectCall(t, "list", "12")
	lw.expectCall(t, "watch", "20")

	want := []string{
		"reflector list crontabs  10: listed 2 items at resourceVersion 10",
		"reflector watch crontabs  10: watching from resourceVersion 10",
		"reflector event crontabs ns/c 11: ADDED ns/c",
		"reflector event crontabs ns/a 12: MODIFIED ns/a",
		"reflector relist crontabs  12: watch from resourceVersion 12 expired (too old resource version: 10 (15)): listing again",
		"reflector list crontabs  20: listed 1 item at resourceVersion 20",
		"reflector watch crontabs  20: watching from resourceVersion 20",
	}
	wantStrings(t, "trace", waitTrace(t, tr, len(want), nil), want)
}

func TestDeltaFIFO_Trace(t *testing.T) {
	tr := trace.New(trace.Options{})
	f := NewDeltaFIFO(DeltaFIFOOptions{Name: "crontabs", Tracer: tr})
	_ = f.Add(newObj("ns", "a", "1"))
	_ = f.Update(newObj("ns", "a", "2"))
	_ = f.Add(newObj("ns", "b", "3"))
	popDeltas(t, f)
	_ = f.Delete(newObj("ns", "b", "3"))
	popDeltas(t, f)

	wantStrings(t, "trace", waitTrace(t, tr, 6, nil), []string{
		"deltafifo add crontabs ns/a 1: Added",
		"deltafifo add crontabs ns/a 2: Updated",
		"deltafifo add crontabs ns/b 3: Added",
		"deltafifo pop crontabs ns/a 2: Added, Updated",
		"deltafifo add crontabs ns/b 3: Deleted",
		"deltafifo pop crontabs ns/b 3: Added, Deleted",
	})
	if e := tr.Recent(0)[3]; e.Upstream != "k8s.io/client-go/tools/cache.(*DeltaFIFO).Pop" {
		t.Errorf("pop upstream = %q", e.Upstream)
	}
}

func TestSharedIndexInformer_Trace(t *testing.T) {
	lw := newScriptedLW().addList(newList("10", newObj("ns", "a", "1")), nil)
	w := lw.addWatch(nil)
	tr := trace.New(trace.Options{})
	fakeClock := clock.NewFakeClock(epoch)
	inf := NewSharedIndexInformerWithOptions(lw, SharedIndexInformerOptions{
		Name: "crontabs", Clock: fakeClock, Backoff: noBackoffJitter(fakeClock), Logger: quiet, Tracer: tr,
	})
	h := &recordingHandler{}
	addHandler(t, inf, h)
	run(t, inf.Run)

	// The reflector and the loop popping the FIFO run in two goroutines:
	// follow one key, whose events are causally ordered.
	keyA := func(e trace.Event) bool { return e.Key == "ns/a" }
	waitTrace(t, tr, 3, keyA) // the listed a is delivered before we change it
	w.Modify(newObj("ns", "a", "11"))
	wantStrings(t, "trace of ns/a", waitTrace(t, tr, 7, keyA), []string{
		"deltafifo add crontabs ns/a 1: Replaced",
		"deltafifo pop crontabs ns/a 1: Replaced (initial list)",
		"informer deliver crontabs ns/a 1: cache updated, 1 handler notified (OnAdd, initial list)",
		"reflector event crontabs ns/a 11: MODIFIED ns/a",
		"deltafifo add crontabs ns/a 11: Updated",
		"deltafifo pop crontabs ns/a 11: Updated",
		"informer deliver crontabs ns/a 11: cache updated, 1 handler notified (OnUpdate)",
	})
	first := tr.Recent(0)[0]
	if first.Component != trace.Reflector || first.Step != "list" {
		t.Errorf("first event = %s, want the reflector's list", traced(first))
	}
}
