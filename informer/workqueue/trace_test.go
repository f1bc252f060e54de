package workqueue

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/crdlab/crdlab/machinery/clock"
	"github.com/crdlab/crdlab/trace"
)

// step is the part of a trace.Event the tests compare.
type step struct{ component, step, actor, key string }

func stepsOf(events []trace.Event) []step {
	out := make([]step, len(events))
	for i, e := range events {
		out[i] = step{e.Component, e.Step, e.Actor, e.Key}
	}
	return out
}

// waitEvents polls tr until it holds n events, failing the test after 10
// seconds, and returns them.
func waitEvents(t *testing.T, tr *trace.Tracer, n int) []trace.Event {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		got := tr.Recent(0)
		if len(got) >= n {
			return got
		}
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %d events; got %v", n, stepsOf(got))
		}
		time.Sleep(time.Millisecond)
	}
}

func wantSteps(t *testing.T, events []trace.Event, want ...step) {
	t.Helper()
	if got := stepsOf(events); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("events =\n%v\nwant\n%v", got, want)
	}
}

func TestQueue_Trace(t *testing.T) {
	t.Run("AddGetDone", func(t *testing.T) {
		tr := trace.New(trace.Options{})
		fakeClock := clock.NewFakeClock(epoch)
		q := New[string](Config{Name: "crdEstablishing", Clock: fakeClock, Tracer: tr})

		q.Add("a.g")
		q.Add("a.g") // coalesced: no event
		fakeClock.Step(3 * time.Millisecond)
		item, _ := q.Get()
		q.Add(item) // while processing: waits for Done
		fakeClock.Step(2 * time.Millisecond)
		q.Done(item)

		events := tr.Recent(0)
		a := func(s string) step { return step{trace.Workqueue, s, "crdEstablishing", "a.g"} }
		wantSteps(t, events, a("add"), a("get"), a("add"), a("done"))
		if e := events[1]; e.Duration != 3*time.Millisecond || e.Upstream != upstreamGet {
			t.Errorf("get: duration %v, upstream %q; want 3ms and %q", e.Duration, e.Upstream, upstreamGet)
		}
		if e := events[3]; e.Duration != 2*time.Millisecond || !strings.Contains(e.Message, "queued again") {
			t.Errorf("done: duration %v, message %q; want 2ms and a requeue", e.Duration, e.Message)
		}
		if msg := events[0].Message; msg != "queued (depth 1)" {
			t.Errorf("add message = %q", msg)
		}
	})
	t.Run("RequeueAfterBackoff", func(t *testing.T) {
		tr := trace.New(trace.Options{})
		fakeClock := clock.NewFakeClock(epoch)
		q := NewRateLimiting(NewItemExponentialFailureRateLimiter[int](5*time.Millisecond, time.Second),
			Config{Name: "q", Clock: fakeClock, Tracer: tr})
		defer q.ShutDown()

		q.AddRateLimited(7)
		fakeClock.Step(5 * time.Millisecond) // the waiting loop Adds it
		events := waitEvents(t, tr, 2)
		wantSteps(t, events, step{trace.Workqueue, "requeue", "q", "7"}, step{trace.Workqueue, "add", "q", "7"})
		if e := events[0]; e.Upstream != upstreamAddRateLimited || !strings.Contains(e.Message, "5ms") {
			t.Errorf("requeue: upstream %q, message %q", e.Upstream, e.Message)
		}
	})
	t.Run("Off", func(t *testing.T) {
		q := New[string](Config{}) // nil Tracer
		q.Add("a")
		item, _ := q.Get()
		q.Done(item)
		if err := q.check(); err != nil {
			t.Fatal(err)
		}
	})
}

// BenchmarkQueueTrace is the cost of tracing one Add, Get and Done: off
// (nil Tracer) and on (a Tracer with no log and no subscribers, so each
// op pays for three events into the ring). docs/perf.md quotes it.
func BenchmarkQueueTrace(b *testing.B) {
	for _, bc := range []struct {
		name   string
		tracer *trace.Tracer
	}{
		{"off", nil},
		{"on", trace.New(trace.Options{})},
	} {
		b.Run(bc.name, func(b *testing.B) {
			q := New[string](Config{Name: "bench", Tracer: bc.tracer})
			b.ReportAllocs()
			for b.Loop() {
				q.Add("default/crontab")
				item, _ := q.Get()
				q.Done(item)
			}
		})
	}
}
