package client

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"sync"

	metav1 "github.com/crdlab/crdlab/apis/meta/v1"
	"github.com/crdlab/crdlab/machinery/watch"
	"github.com/crdlab/crdlab/scheme"
)

// StreamWatcher turns the body of a watch answer — a stream of JSON objects
// {"type":…,"object":…} — into watch.Events. One goroutine reads the stream
// and sends each event on the result channel, which is unbuffered: a slow
// consumer slows the reading, and the server's buffers fill, as upstream.
//
// The result channel is closed exactly once, when the stream ends for any
// reason: the server closed it, Stop, ctx ended, or a broken event (which is
// first delivered as an ERROR event with a 500 Status).
//
// Mirrors k8s.io/apimachinery/pkg/watch.StreamWatcher with the event decoder
// of k8s.io/client-go/rest/watch/decoder.go.
type StreamWatcher struct {
	ctx    context.Context
	body   io.ReadCloser
	events *eventReader
	decode ObjectDecoder
	result chan watch.Event

	// stopOnce guards closing done and body.
	stopOnce sync.Once
	// done is closed by Stop; the reading goroutine then returns.
	done chan struct{}
}

var _ watch.Interface = (*StreamWatcher)(nil)

// NewStreamWatcher starts reading body. decode (nil: UnstructuredDecoder)
// turns each event's object into an object; ERROR events always carry a
// *metav1.Status. The watcher stops when ctx ends. body must allow Close
// while a Read is in progress, as an http.Response body does.
func NewStreamWatcher(ctx context.Context, body io.ReadCloser, decode ObjectDecoder) *StreamWatcher {
	if decode == nil {
		decode = UnstructuredDecoder
	}
	sw := &StreamWatcher{
		ctx:    ctx,
		body:   body,
		events: newEventReader(body),
		decode: decode,
		result: make(chan watch.Event),
		done:   make(chan struct{}),
	}
	go sw.receive()
	return sw
}

// ResultChan returns the events, in the order the server sent them.
func (sw *StreamWatcher) ResultChan() <-chan watch.Event { return sw.result }

// Stop closes the body, which ends the reading goroutine; the result channel
// is closed soon after. Safe to call more than once, from any goroutine.
func (sw *StreamWatcher) Stop() {
	sw.stopOnce.Do(func() {
		close(sw.done)
		sw.body.Close()
	})
}

// stopping reports whether the end was asked for (Stop or ctx), in which case
// a read error is the consequence, not news.
func (sw *StreamWatcher) stopping() bool {
	select {
	case <-sw.done:
		return true
	default:
		return sw.ctx.Err() != nil
	}
}

// receive reads events until the stream ends.
//
// Mirrors (*watch.StreamWatcher).receive.
func (sw *StreamWatcher) receive() {
	defer close(sw.result)
	defer sw.Stop()
	for {
		ev, err := sw.next()
		if err != nil {
			var broken *brokenEventError
			if sw.stopping() || !errors.As(err, &broken) {
				// Stopped, or the stream ended or broke off (EOF, reset):
				// the consumer sees the channel close and watches again.
				return
			}
			sw.send(watch.Event{Type: watch.Error, Object: decodingErrorStatus(err)})
			return
		}
		if !sw.send(ev) {
			return
		}
	}
}

// send delivers ev unless the watcher is stopped first.
func (sw *StreamWatcher) send(ev watch.Event) bool {
	select {
	case sw.result <- ev:
		return true
	case <-sw.done:
		return false
	case <-sw.ctx.Done():
		return false
	}
}

// brokenEventError is an event that arrived whole but cannot be understood:
// bad JSON, an unknown type, an object the decoder refuses. Transport errors
// are not wrapped in it.
type brokenEventError struct{ err error }

func (e *brokenEventError) Error() string { return e.err.Error() }
func (e *brokenEventError) Unwrap() error { return e.err }

// next reads and decodes one event.
//
// Mirrors (*rest/watch.Decoder).Decode.
func (sw *StreamWatcher) next() (watch.Event, error) {
	var raw metav1.WatchEvent
	if err := sw.events.next(&raw); err != nil {
		var syntax *json.SyntaxError
		var typ *json.UnmarshalTypeError
		if errors.As(err, &syntax) || errors.As(err, &typ) {
			return watch.Event{}, &brokenEventError{err}
		}
		return watch.Event{}, err
	}
	var obj scheme.Object
	var err error
	switch t := watch.EventType(raw.Type); t {
	case watch.Added, watch.Modified, watch.Deleted, watch.Bookmark:
		obj, err = sw.decode(raw.Object)
	case watch.Error:
		status := &metav1.Status{}
		err = json.Unmarshal(raw.Object, status)
		obj = status
	default:
		return watch.Event{}, &brokenEventError{fmt.Errorf("got invalid watch event type: %v", raw.Type)}
	}
	if err != nil {
		return watch.Event{}, &brokenEventError{fmt.Errorf("unable to decode watch event: %w", err)}
	}
	return watch.Event{Type: watch.EventType(raw.Type), Object: obj}, nil
}

// decodingErrorStatus is the Status of the ERROR event that reports a broken
// event.
//
// Mirrors errors.NewClientErrorReporter(500, "GET", "ClientWatchDecoding").AsObject.
func decodingErrorStatus(err error) *metav1.Status {
	err = fmt.Errorf("unable to decode an event from the watch stream: %w", err)
	se := newGenericServerResponse(http.StatusInternalServerError, http.MethodGet, scheme.GroupResource{}, "", err.Error(), 0)
	status := se.ErrStatus
	status.Details.Causes = append(status.Details.Causes, metav1.StatusCause{Type: "ClientWatchDecoding", Message: err.Error()})
	return &status
}
