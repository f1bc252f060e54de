package handler

import (
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"sync"
	"testing"

	metav1 "github.com/crdlab/crdlab/apis/meta/v1"
	"github.com/crdlab/crdlab/apis/meta/v1/unstructured"
	"github.com/crdlab/crdlab/handler/negotiation"
	"github.com/crdlab/crdlab/handler/responsewriters"
	"github.com/crdlab/crdlab/machinery/watch"
	"github.com/crdlab/crdlab/scheme"
)

func widgetScope() *requestScope {
	gv := scheme.GroupVersion{Group: "bench.crdlab.dev", Version: "v1"}
	c := &crCodec{kind: gv.WithKind("Widget"), storageGV: gv, namespaced: true}
	return &requestScope{kind: c.kind, encode: c.encode, encodeOwned: c.encodeOwned}
}

func widgetEvent(i int) watch.Event {
	return watch.Event{Type: watch.Modified, Object: &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "bench.crdlab.dev/v1", "kind": "Widget",
		"metadata": map[string]any{"name": fmt.Sprintf("w-%06d", i), "namespace": "bench", "resourceVersion": fmt.Sprint(1000 + i)},
		"spec":     map[string]any{"size": int64(i), "color": "blue", "payload": "0123456789abcdef0123456789abcdef"},
	}}}
}

// TestWatchLines checks that every watcher of a scope gets the same line
// for the same event, encoded once, and that the line is what
// encodeWatchEvent writes.
func TestWatchLines(t *testing.T) {
	h := &Handler{}
	s := widgetScope()
	r := httptest.NewRequest("GET", "/apis/bench.crdlab.dev/v1/widgets?watch=1", nil)
	ev := widgetEvent(1)
	want, err := h.encodeWatchEvent(r, s, negotiation.Options{}, ev)
	if err != nil {
		t.Fatal(err)
	}
	want = append(want, '\n')
	var wg sync.WaitGroup
	lines := make([][]byte, 50)
	for i := range lines {
		wg.Add(1)
		go func() {
			defer wg.Done()
			lines[i], _ = h.watchLine(r, s, negotiation.Options{}, ev, false)
		}()
	}
	wg.Wait()
	for i, l := range lines {
		if string(l) != string(want) {
			t.Fatalf("watcher %d got %s, want %s", i, l, want)
		}
		if &l[0] != &lines[0][0] {
			t.Errorf("watcher %d got its own copy: the event was encoded again", i)
		}
	}
	t.Run("Table", func(t *testing.T) {
		if _, ok := cacheable(ev, s, true); ok {
			t.Error("a Table line was shared")
		}
	})
	t.Run("Eviction", func(t *testing.T) {
		for i := range watchLinesSize + 10 {
			if _, err := h.watchLine(r, s, negotiation.Options{}, widgetEvent(i), false); err != nil {
				t.Fatal(err)
			}
		}
		if n := len(h.watchLines.entries); n > watchLinesSize {
			t.Errorf("%d entries, want at most %d", n, watchLinesSize)
		}
	})
}

// BenchmarkWatchFanoutEncode is the encoding work of one event sent to 100
// watchers: once per watcher (before watchLines) and shared.
func BenchmarkWatchFanoutEncode(b *testing.B) {
	const watchers = 100
	s := widgetScope()
	r := httptest.NewRequest("GET", "/apis/bench.crdlab.dev/v1/widgets?watch=1", nil)
	b.Run("per-watcher", func(b *testing.B) {
		h := &Handler{}
		b.ReportAllocs()
		i := 0
		for b.Loop() {
			ev := widgetEvent(i)
			i++
			for range watchers {
				if _, err := h.encodeWatchEvent(r, s, negotiation.Options{}, ev); err != nil {
					b.Fatal(err)
				}
			}
		}
	})
	b.Run("shared", func(b *testing.B) {
		h := &Handler{}
		b.ReportAllocs()
		i := 0
		for b.Loop() {
			ev := widgetEvent(i)
			i++
			for range watchers {
				if _, err := h.watchLine(r, s, negotiation.Options{}, ev, false); err != nil {
					b.Fatal(err)
				}
			}
		}
	})
}

// BenchmarkListEncode encodes a list of 5,000 custom resources the way the
// list handler did before (a copy of each item, encoding/json over the
// list, which scans every item's MarshalJSON output again) and does now
// (each item encoded in place, AppendJSON straight into the body).
func BenchmarkListEncode(b *testing.B) {
	s := widgetScope()
	list := func() *unstructured.UnstructuredList {
		l := &unstructured.UnstructuredList{Object: map[string]any{"apiVersion": "bench.crdlab.dev/v1", "kind": "WidgetList"}}
		for i := range 5000 {
			l.Items = append(l.Items, *widgetEvent(i).Object.(*unstructured.Unstructured))
		}
		return l
	}
	b.Run("copy+encoding-json", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			b.StopTimer()
			l := list()
			b.StartTimer()
			items, err := listItems(l)
			if err != nil {
				b.Fatal(err)
			}
			out := &wireList{Metadata: listMetaOf(l)}
			for _, it := range items {
				e, err := s.encode(it)
				if err != nil {
					b.Fatal(err)
				}
				out.Items = append(out.Items, e)
			}
			if _, err := json.Marshal(out); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("in-place+AppendJSON", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			b.StopTimer()
			l := list()
			b.StartTimer()
			out, _, err := s.encodeList(l, false)
			if err != nil {
				b.Fatal(err)
			}
			if _, err := responsewriters.Marshal(negotiation.Options{MediaType: negotiation.MediaTypeJSON}, out); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// fakeDefaults is a Schema that reports whether it has defaults.
type fakeDefaults struct{ has bool }

func (fakeDefaults) Validate(map[string]any) []metav1.StatusCause { return nil }
func (fakeDefaults) Default(map[string]any)                       {}
func (fakeDefaults) Prune(map[string]any) []string                { return nil }
func (f fakeDefaults) HasDefaults() bool                          { return f.has }

// TestCrCodec_EncodeShared checks that a shared object is served as is
// only when reading would not change it, and is never changed.
func TestCrCodec_EncodeShared(t *testing.T) {
	gv := scheme.GroupVersion{Group: "bench.crdlab.dev", Version: "v1"}
	obj := func(apiVersion string) *unstructured.Unstructured {
		return &unstructured.Unstructured{Object: map[string]any{
			"apiVersion": apiVersion, "kind": "Widget", "metadata": map[string]any{"name": "a"},
		}}
	}
	for _, tc := range []struct {
		name       string
		noDefaults bool
		apiVersion string
		reused     bool
	}{
		{"OK", true, "bench.crdlab.dev/v1", true},
		{"OtherVersion", true, "bench.crdlab.dev/v2", false},
		{"Defaults", false, "bench.crdlab.dev/v1", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := &crCodec{kind: gv.WithKind("Widget"), storageGV: gv, noDefaults: tc.noDefaults}
			in := obj(tc.apiVersion)
			out, reused, err := c.encodeShared(in)
			if err != nil {
				t.Fatal(err)
			}
			if reused != tc.reused || (out == scheme.Object(in)) != tc.reused {
				t.Errorf("reused = %v (same object: %v), want %v", reused, out == scheme.Object(in), tc.reused)
			}
			if in.GetAPIVersion() != tc.apiVersion {
				t.Errorf("the shared object was changed: apiVersion %s", in.GetAPIVersion())
			}
			if got := out.(*unstructured.Unstructured).GetAPIVersion(); got != "bench.crdlab.dev/v1" {
				t.Errorf("encoded apiVersion %s", got)
			}
		})
	}
	t.Run("SchemaReportsDefaults", func(t *testing.T) {
		var s Schema = fakeDefaults{has: true}
		if d, ok := s.(defaultsReporter); !ok || !d.HasDefaults() {
			t.Error("a schema with defaults is not seen as one")
		}
	})
}
