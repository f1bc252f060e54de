package endpoints

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strconv"
	"strings"
	"testing"

	apierrors "github.com/crdlab/crdlab/apis/errors"
	metav1 "github.com/crdlab/crdlab/apis/meta/v1"
	"github.com/crdlab/crdlab/apis/meta/v1/unstructured"
	"github.com/crdlab/crdlab/handler/negotiation"
	"github.com/crdlab/crdlab/handler/responsewriters"
	"github.com/crdlab/crdlab/registry"
	"github.com/crdlab/crdlab/scheme"
	"github.com/crdlab/crdlab/storage"
)

// widgetList is a list of n widgets, as storage returns it.
func widgetList(n int) *unstructured.UnstructuredList {
	l := &unstructured.UnstructuredList{Object: map[string]any{"apiVersion": "bench.crdlab.dev/v1", "kind": "WidgetList",
		"metadata": map[string]any{"resourceVersion": "12345", "continue": "abc"}}}
	for i := range n {
		l.Items = append(l.Items, *widgetEvent(i).Object.(*unstructured.Unstructured))
	}
	return l
}

// TestStreamList: a streamed list is byte for byte the list built whole,
// with its resourceVersion and continue token.
func TestStreamList(t *testing.T) {
	s := widgetScope()
	s.ListKind = "WidgetList"
	jsonOpts := negotiation.Options{MediaType: negotiation.MediaTypeJSON}
	for _, n := range []int{0, 1, 3, 3000} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			out, _, err := s.encodeList(widgetList(n), false)
			if err != nil {
				t.Fatal(err)
			}
			want, err := responsewriters.Marshal(jsonOpts, out)
			if err != nil {
				t.Fatal(err)
			}
			w := httptest.NewRecorder()
			streamList(context.Background(), w, s, jsonOpts, http.StatusOK, widgetList(n), false)
			if w.Code != 200 || w.Header().Get("Content-Type") != "application/json" {
				t.Errorf("%d %v", w.Code, w.Header())
			}
			if !bytes.Equal(w.Body.Bytes(), want) {
				t.Errorf("streamed:\n%.300s\nwant:\n%.300s", w.Body.Bytes(), want)
			}
			if !bytes.Contains(want, []byte(`"metadata":{"resourceVersion":"12345","continue":"abc"}`)) {
				t.Errorf("no resourceVersion and continue: %.200s", want)
			}
		})
	}
}

// encodedWidgetList is widgetList(n) as storage answers a list that asks
// for the stored bytes: each item's JSON without its resourceVersion.
func encodedWidgetList(t *testing.T, n int) *registry.EncodedList {
	t.Helper()
	l := widgetList(n)
	el := &registry.EncodedList{ListMeta: metav1.ListMeta{ResourceVersion: "12345", Continue: "abc"}}
	for i := range l.Items {
		u := l.Items[i].DeepCopy()
		rev, err := strconv.ParseInt(u.GetResourceVersion(), 10, 64)
		if err != nil {
			t.Fatal(err)
		}
		u.SetResourceVersion("")
		data, err := storage.JSONCodec{}.Encode(u)
		if err != nil {
			t.Fatal(err)
		}
		el.Items = append(el.Items, storage.ObjectJSON{Data: data, Rev: rev})
	}
	return el
}

// TestStreamList_Encoded: a list of stored bytes (registry.EncodedList)
// streams through the scope's EncodeStored, byte for byte the list of the
// same objects decoded; an error of EncodeStored before the first write
// is the client's Status.
func TestStreamList_Encoded(t *testing.T) {
	jsonOpts := negotiation.Options{MediaType: negotiation.MediaTypeJSON}
	for _, n := range []int{0, 1, 3000} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			s := widgetScope()
			s.ListKind = "WidgetList"
			want := httptest.NewRecorder()
			streamList(context.Background(), want, s, jsonOpts, http.StatusOK, widgetList(n), false)
			calls := 0
			s.EncodeStored = func(dst []byte, o storage.ObjectJSON) ([]byte, error) {
				calls++
				out, _, _, ok := o.AppendJSON(dst)
				if !ok {
					return dst, errors.New("declined")
				}
				return out, nil
			}
			w := httptest.NewRecorder()
			streamList(context.Background(), w, s, jsonOpts, http.StatusOK, encodedWidgetList(t, n), false)
			if w.Code != 200 || !bytes.Equal(w.Body.Bytes(), want.Body.Bytes()) {
				t.Errorf("%d, streamed:\n%.300s\nwant:\n%.300s", w.Code, w.Body.Bytes(), want.Body.Bytes())
			}
			if calls != n {
				t.Errorf("EncodeStored called %d times for %d items", calls, n)
			}
		})
	}
	// A page storage hands in two parts (registry.EncodedList.Rest): the
	// same answer, each item of the rest written before the next is read
	// into the same buffer.
	t.Run("Rest", func(t *testing.T) {
		s := widgetScope()
		s.ListKind = "WidgetList"
		want := httptest.NewRecorder()
		streamList(context.Background(), want, s, jsonOpts, http.StatusOK, widgetList(3000), false)
		s.EncodeStored = func(dst []byte, o storage.ObjectJSON) ([]byte, error) {
			out, _, _, ok := o.AppendJSON(dst)
			if !ok {
				return dst, errors.New("declined")
			}
			return out, nil
		}
		el := encodedWidgetList(t, 3000)
		el.Items, el.Rest = el.Items[:1000], restOf(el.Items[1000:], -1, nil)
		w := httptest.NewRecorder()
		streamList(context.Background(), w, s, jsonOpts, http.StatusOK, el, false)
		if w.Code != 200 || !bytes.Equal(w.Body.Bytes(), want.Body.Bytes()) {
			t.Errorf("%d, streamed:\n%.300s\nwant:\n%.300s", w.Code, w.Body.Bytes(), want.Body.Bytes())
		}
	})
	// Rest failing before anything was sent is the client's Status; after,
	// the answer is cut.
	t.Run("RestErr", func(t *testing.T) {
		gone := apierrors.NewResourceExpired("too old resource version: 5 (10)")
		for _, tc := range []struct {
			name  string
			after int // items Rest hands out before it fails
			cut   bool
		}{{"BeforeTheFirstWrite", 0, false}, {"AfterIt", 2000, true}} {
			t.Run(tc.name, func(t *testing.T) {
				s := widgetScope()
				s.ListKind = "WidgetList"
				s.EncodeStored = func(dst []byte, o storage.ObjectJSON) ([]byte, error) {
					out, _, _, _ := o.AppendJSON(dst)
					return out, nil
				}
				el := encodedWidgetList(t, 2001)
				el.Items, el.Rest = el.Items[:1], restOf(el.Items[1:], tc.after, gone)
				w := httptest.NewRecorder()
				cut := func() (cut bool) {
					defer func() {
						if r := recover(); r != nil {
							if r != http.ErrAbortHandler {
								panic(r)
							}
							cut = true
						}
					}()
					streamList(context.Background(), w, s, jsonOpts, http.StatusOK, el, false)
					return false
				}()
				if cut != tc.cut {
					t.Fatalf("cut = %v, want %v", cut, tc.cut)
				}
				if !tc.cut && (w.Code != 410 || !strings.Contains(w.Body.String(), `"reason":"Expired"`)) {
					t.Errorf("%d %s", w.Code, w.Body.String())
				}
			})
		}
	})
	t.Run("ErrBeforeTheFirstWrite", func(t *testing.T) {
		s := widgetScope()
		s.ListKind = "WidgetList"
		s.EncodeStored = func(dst []byte, o storage.ObjectJSON) ([]byte, error) {
			return dst, apierrors.NewInternalError(errors.New("cannot encode"))
		}
		w := httptest.NewRecorder()
		streamList(context.Background(), w, s, jsonOpts, http.StatusOK, encodedWidgetList(t, 2), false)
		if w.Code != 500 || !strings.Contains(w.Body.String(), "cannot encode") {
			t.Errorf("%d %s", w.Code, w.Body.String())
		}
	})
}

// restOf is an EncodedList.Rest handing out items as storage's does: each
// copied into one buffer that the next overwrites. After failAfter items
// (never if negative) it returns err.
func restOf(items []storage.ObjectJSON, failAfter int, err error) func(context.Context, func(storage.ObjectJSON) error) error {
	return func(ctx context.Context, fn func(storage.ObjectJSON) error) error {
		var buf []byte
		for i, o := range items {
			if i == failAfter {
				return err
			}
			buf = append(buf[:0], o.Data...)
			o.Data = buf
			if err := fn(o); err != nil {
				return err
			}
			clear(buf) // what fn kept of it is gone
		}
		if failAfter == len(items) {
			return err
		}
		return nil
	}
}

// countingWriter counts what is written and keeps none of it.
type countingWriter struct {
	h        http.Header
	code     int
	n        int
	maxWrite int
}

func (c *countingWriter) Header() http.Header  { return c.h }
func (c *countingWriter) WriteHeader(code int) { c.code = code }
func (c *countingWriter) Write(b []byte) (int, error) {
	c.n += len(b)
	c.maxWrite = max(c.maxWrite, len(b))
	return len(b), nil
}

// allocated returns the bytes f allocates (from the Go heap).
func allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// TestStreamList_Memory (issue 21, finding 9): writeList streams a list of
// 20,000 objects of about a KiB, and allocates a small fraction of its 25 MB answer —
// a chunk, and a few dozen bytes an item — and never writes more than a
// chunk (and an item) at once. Built whole, it allocated several times
// the answer.
func TestStreamList_Memory(t *testing.T) {
	s := widgetScope()
	s.ListKind = "WidgetList"
	jsonOpts := negotiation.Options{MediaType: negotiation.MediaTypeJSON}
	const n = 20000
	l := widgetList(n)
	payload := strings.Repeat("0123456789abcdef", 64) // 1 KiB
	for i := range l.Items {
		l.Items[i].Object["spec"].(map[string]any)["payload"] = payload
	}
	w := &countingWriter{h: http.Header{}}
	r := httptest.NewRequest("GET", "/apis/bench.crdlab.dev/v1/widgets", nil)
	a := allocated(func() { writeList(w, r, s, jsonOpts, http.StatusOK, l, false) })
	t.Logf("a list of %d objects, %d bytes: %d bytes allocated (%d an item), largest write %d bytes", n, w.n, a, a/n, w.maxWrite)
	if w.code != http.StatusOK || w.n < n*1024 {
		t.Fatalf("answer %d, %d bytes", w.code, w.n)
	}
	if a > uint64(w.n/8) {
		t.Errorf("streaming a %d-byte list allocated %d bytes, want under an eighth of the answer", w.n, a)
	}
	if w.maxWrite > listChunk+2048 {
		t.Errorf("a write of %d bytes, want at most a chunk (%d) and an item", w.maxWrite, listChunk)
	}
}

// TestStreamList_Errors: an item that cannot be encoded before the first
// chunk is written gives the client the error's Status; after it, the
// answer is cut (http.ErrAbortHandler), never ended as a shorter list; so
// is a list whose request's context ended.
func TestStreamList_Errors(t *testing.T) {
	jsonOpts := negotiation.Options{MediaType: negotiation.MediaTypeJSON}
	failAt := func(n int) *RequestScope {
		s := widgetScope()
		s.ListKind = "WidgetList"
		i := 0
		s.EncodeOwned = func(obj scheme.Object) (scheme.Object, error) {
			if i++; i == n {
				return nil, apierrors.NewInternalError(errors.New("cannot convert"))
			}
			return obj, nil
		}
		return s
	}
	t.Run("BeforeFirstWrite", func(t *testing.T) {
		w := httptest.NewRecorder()
		streamList(context.Background(), w, failAt(3), jsonOpts, http.StatusOK, widgetList(10), false)
		if w.Code != http.StatusInternalServerError || !strings.Contains(w.Body.String(), `"kind":"Status"`) {
			t.Errorf("%d %s", w.Code, w.Body)
		}
	})
	t.Run("AfterFirstWrite", func(t *testing.T) {
		w := &countingWriter{h: http.Header{}}
		defer func() {
			if p := recover(); p != http.ErrAbortHandler {
				t.Errorf("recovered %v, want http.ErrAbortHandler", p)
			}
			if w.code != http.StatusOK || w.n < listChunk {
				t.Errorf("before the cut: %d, %d bytes", w.code, w.n)
			}
		}()
		streamList(context.Background(), w, failAt(5000), jsonOpts, http.StatusOK, widgetList(6000), false)
		t.Error("an encoding error after the first chunk ended the answer normally")
	})
	t.Run("ContextEnded", func(t *testing.T) {
		w := &countingWriter{h: http.Header{}}
		ctx, cancel := context.WithCancel(context.Background())
		cancel() // the request timed out
		defer func() {
			if p := recover(); p != http.ErrAbortHandler {
				t.Errorf("recovered %v, want http.ErrAbortHandler", p)
			}
		}()
		streamList(ctx, w, failAt(-1), jsonOpts, http.StatusOK, widgetList(6000), false)
		t.Error("a list whose request ended was streamed to its end")
	})
}
