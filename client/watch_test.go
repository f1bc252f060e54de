package client_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	apierrors "github.com/crdlab/crdlab/apis/errors"
	metav1 "github.com/crdlab/crdlab/apis/meta/v1"
	"github.com/crdlab/crdlab/apis/meta/v1/unstructured"
	"github.com/crdlab/crdlab/client"
	"github.com/crdlab/crdlab/machinery/watch"
	"github.com/crdlab/crdlab/scheme"
)

// streamServer answers a watch with 200 and then writes every string sent on
// lines, flushing each; closing lines ends the stream. closed receives once
// when the handler returns because the client went away.
type streamServer struct {
	*httptest.Server
	lines  chan string
	closed chan struct{}
}

func newStreamServer(t *testing.T) *streamServer {
	t.Helper()
	s := &streamServer{lines: make(chan string), closed: make(chan struct{}, 1)}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusOK)
		w.(http.Flusher).Flush()
		for {
			select {
			case line, ok := <-s.lines:
				if !ok {
					return
				}
				io.WriteString(w, line)
				w.(http.Flusher).Flush()
			case <-r.Context().Done():
				s.closed <- struct{}{}
				return
			}
		}
	}))
	t.Cleanup(s.Close)
	return s
}

func (s *streamServer) watch(t *testing.T, ctx context.Context, dec client.ObjectDecoder) watch.Interface {
	t.Helper()
	c := newClient(t, s.URL)
	w, err := c.Get().Resource("crontabs").VersionedParams(&metav1.ListOptions{Watch: true}).Decoder(dec).Watch(ctx)
	if err != nil {
		t.Fatal(err)
	}
	return w
}

// next returns the next event, failing the test if none comes in time.
func next(t *testing.T, w watch.Interface) watch.Event {
	t.Helper()
	select {
	case ev, ok := <-w.ResultChan():
		if !ok {
			t.Fatal("result channel closed, want an event")
		}
		return ev
	case <-time.After(10 * time.Second):
		t.Fatal("no event")
		return watch.Event{}
	}
}

// closedSoon fails the test unless the result channel closes.
func closedSoon(t *testing.T, w watch.Interface) {
	t.Helper()
	for {
		select {
		case ev, ok := <-w.ResultChan():
			if !ok {
				return
			}
			t.Fatalf("event %s after the end", ev.Type)
		case <-time.After(10 * time.Second):
			t.Fatal("result channel not closed")
		}
	}
}

func eventLine(typ, obj string) string { return fmt.Sprintf(`{"type":%q,"object":%s}`+"\n", typ, obj) }

func TestWatch_Events(t *testing.T) {
	s := newStreamServer(t)
	w := s.watch(t, context.Background(), nil)
	defer w.Stop()

	go func() {
		s.lines <- eventLine("ADDED", `{"apiVersion":"stable.example.com/v1","kind":"CronTab","metadata":{"name":"a","resourceVersion":"5"},"spec":{"replicas":1}}`)
		// Two events in one chunk, and one split over two chunks.
		s.lines <- eventLine("MODIFIED", `{"kind":"CronTab","metadata":{"name":"a","resourceVersion":"6"}}`) +
			eventLine("BOOKMARK", `{"kind":"CronTab","metadata":{"resourceVersion":"7","annotations":{"k8s.io/initial-events-end":"true"}}}`)
		s.lines <- `{"type":"DELETED","obj`
		s.lines <- `ect":{"kind":"CronTab","metadata":{"name":"a","resourceVersion":"8"}}}` + "\n"
		s.lines <- eventLine("ERROR", `{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"too old resource version: 1 (5)","reason":"Expired","code":410}`)
		close(s.lines)
	}()

	for _, want := range []struct {
		typ watch.EventType
		rv  string
	}{{watch.Added, "5"}, {watch.Modified, "6"}, {watch.Bookmark, "7"}, {watch.Deleted, "8"}} {
		ev := next(t, w)
		u, ok := ev.Object.(*unstructured.Unstructured)
		if ev.Type != want.typ || !ok || u.GetResourceVersion() != want.rv {
			t.Fatalf("event = %s %#v, want %s at %s", ev.Type, ev.Object, want.typ, want.rv)
		}
		if ev.Type == watch.Bookmark && u.GetAnnotations()[metav1.InitialEventsAnnotationKey] != "true" {
			t.Fatalf("bookmark lost its annotation: %v", u.Object)
		}
	}
	ev := next(t, w)
	status, ok := ev.Object.(*metav1.Status)
	if ev.Type != watch.Error || !ok {
		t.Fatalf("event = %s %T, want ERROR *metav1.Status", ev.Type, ev.Object)
	}
	if err := apierrors.FromObject(status); !apierrors.IsResourceExpired(err) || status.Code != http.StatusGone {
		t.Fatalf("ERROR event status = %+v", status)
	}
	closedSoon(t, w) // the server ended the stream
}

func TestWatch_TypedDecoder(t *testing.T) {
	s := newStreamServer(t)
	dec := client.JSONDecoder(func() scheme.Object { return &metav1.PartialObjectMetadata{} })
	w := s.watch(t, context.Background(), dec)
	defer w.Stop()
	go func() {
		s.lines <- eventLine("ADDED", `{"kind":"CronTab","metadata":{"name":"a"}}`)
		close(s.lines)
	}()
	ev := next(t, w)
	if obj, ok := ev.Object.(*metav1.PartialObjectMetadata); !ok || obj.Name != "a" {
		t.Fatalf("object = %#v", ev.Object)
	}
	closedSoon(t, w)
}

func TestWatch_BrokenEvent(t *testing.T) {
	for _, tc := range []struct{ name, line, want string }{
		{"BadJSON", "{not json}\n", "invalid character"},
		{"UnknownType", eventLine("RENAMED", `{}`), "got invalid watch event type: RENAMED"},
		{"ObjectNotAnObject", eventLine("ADDED", `[1,2]`), "unable to decode watch event"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := newStreamServer(t)
			w := s.watch(t, context.Background(), nil)
			defer w.Stop()
			go func() { s.lines <- tc.line }()
			ev := next(t, w)
			status, ok := ev.Object.(*metav1.Status)
			if ev.Type != watch.Error || !ok || status.Code != http.StatusInternalServerError {
				t.Fatalf("event = %s %#v, want ERROR with a 500 Status", ev.Type, ev.Object)
			}
			if !strings.Contains(status.Message, tc.want) {
				t.Fatalf("message %q does not contain %q", status.Message, tc.want)
			}
			closedSoon(t, w)
		})
	}
}

func TestWatch_Stop(t *testing.T) {
	t.Run("ClosesBodyAndChannel", func(t *testing.T) {
		s := newStreamServer(t)
		w := s.watch(t, context.Background(), nil)
		s.lines <- eventLine("ADDED", `{"kind":"CronTab","metadata":{"name":"a"}}`)
		next(t, w)
		w.Stop()
		w.Stop() // safe twice
		closedSoon(t, w)
		select {
		case <-s.closed:
		case <-time.After(10 * time.Second):
			t.Fatal("the server did not see the connection close")
		}
	})
	t.Run("WhileAnEventWaits", func(t *testing.T) {
		// The reader holds an event nobody receives; Stop must still end it.
		s := newStreamServer(t)
		w := s.watch(t, context.Background(), nil)
		s.lines <- eventLine("ADDED", `{"kind":"CronTab","metadata":{"name":"a"}}`)
		s.lines <- eventLine("ADDED", `{"kind":"CronTab","metadata":{"name":"b"}}`)
		w.Stop()
		for range w.ResultChan() { // at most the pending event, then closed
		}
	})
	t.Run("ContextCancel", func(t *testing.T) {
		s := newStreamServer(t)
		ctx, cancel := context.WithCancel(context.Background())
		w := s.watch(t, ctx, nil)
		defer w.Stop()
		cancel()
		closedSoon(t, w) // no ERROR event: the end was asked for
	})
	t.Run("ConcurrentStop", func(t *testing.T) {
		s := newStreamServer(t)
		w := s.watch(t, context.Background(), nil)
		done := make(chan struct{})
		for range 4 {
			go func() { w.Stop(); done <- struct{}{} }()
		}
		for range 4 {
			<-done
		}
		closedSoon(t, w)
	})
}

func TestWatch_ErrorAnswer(t *testing.T) {
	gr := scheme.GroupResource{Group: "stable.example.com", Resource: "crontabs"}
	ts := answering(t, http.StatusNotFound, "application/json", statusBody(t, apierrors.NewNotFound(gr, "")))
	_, err := newClient(t, ts.URL).Get().Resource("crontabs").Param("watch", "true").Watch(context.Background())
	if !apierrors.IsNotFound(err) {
		t.Fatalf("err = %v, want NotFound", err)
	}
}
