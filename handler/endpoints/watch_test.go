package endpoints

import (
	"bufio"
	"bytes"
	"context"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/crdlab/crdlab/handler/negotiation"
	"github.com/crdlab/crdlab/machinery/watch"
)

// endlessPoller is a watch.Poller that always has one more event, up to
// stopAfter of them (0: no end), and counts what was taken.
type endlessPoller struct {
	mu        sync.Mutex
	taken     int
	stopAfter int
	stopped   bool
	ready     chan struct{}
}

func (p *endlessPoller) TryNext() (watch.Event, bool, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.stopped || (p.stopAfter > 0 && p.taken == p.stopAfter) {
		return watch.Event{}, false, true
	}
	p.taken++
	return widgetEvent(p.taken), true, false
}
func (p *endlessPoller) Ready() <-chan struct{} { return p.ready }
func (p *endlessPoller) Wake() {
	select {
	case p.ready <- struct{}{}:
	default:
	}
}
func (p *endlessPoller) ResultChan() <-chan watch.Event { panic("a Poller is polled") }
func (p *endlessPoller) Stop() {
	p.mu.Lock()
	p.stopped = true
	p.mu.Unlock()
}

// TestServeWatch_Poller: serveWatch reads a watch.Poller without its
// channel and writes every event, in order, until the watch ends.
func TestServeWatch_Poller(t *testing.T) {
	s := widgetScope()
	p := &endlessPoller{stopAfter: 200, ready: make(chan struct{})}
	r := httptest.NewRequest("GET", "/apis/bench.crdlab.dev/v1/widgets?watch=1", nil)
	rec := httptest.NewRecorder()
	serveWatch(rec, r, s, negotiation.Options{}, p, 0)
	sc := bufio.NewScanner(bytes.NewReader(rec.Body.Bytes()))
	n := 0
	for sc.Scan() {
		n++
		want, err := encodeWatchEvent(r, s, negotiation.Options{}, widgetEvent(n))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(sc.Bytes(), want) {
			t.Fatalf("line %d:\n got %s\nwant %s", n, sc.Bytes(), want)
		}
	}
	if n != 200 {
		t.Fatalf("%d lines, want 200", n)
	}
}

// TestServeWatch_EndlessStreamStillEnds: a watch whose events never stop
// coming still ends when its request is cancelled: serveWatch looks at
// the context between batches, not only when it has nothing to write.
func TestServeWatch_EndlessStreamStillEnds(t *testing.T) {
	s := widgetScope()
	p := &endlessPoller{ready: make(chan struct{})}
	ctx, cancel := context.WithCancel(context.Background())
	r := httptest.NewRequest("GET", "/apis/bench.crdlab.dev/v1/widgets?watch=1", nil).WithContext(ctx)
	cancel()
	done := make(chan struct{})
	go func() {
		defer close(done)
		serveWatch(httptest.NewRecorder(), r, s, negotiation.Options{}, p, 0)
	}()
	select {
	case <-done:
	case <-time.After(time.Minute):
		t.Fatal("serveWatch still writing a minute after its request was cancelled")
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.stopped {
		t.Error("serveWatch did not stop the watch")
	}
}
