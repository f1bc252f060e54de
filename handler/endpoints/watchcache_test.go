package endpoints

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"sync"
	"testing"
	"weak"

	metav1 "github.com/crdlab/crdlab/apis/meta/v1"
	"github.com/crdlab/crdlab/apis/meta/v1/unstructured"
	"github.com/crdlab/crdlab/handler/negotiation"
	"github.com/crdlab/crdlab/handler/responsewriters"
	"github.com/crdlab/crdlab/machinery/watch"
	"github.com/crdlab/crdlab/scheme"
	"github.com/crdlab/crdlab/storage"
)

// widgetScope is a scope of custom resources that encodes them as the
// handler's None conversion does: apiVersion set to the URL's, on a copy
// (Encode) or in place (EncodeOwned).
func widgetScope() *RequestScope {
	gv := scheme.GroupVersion{Group: "bench.crdlab.dev", Version: "v1"}
	owned := func(obj scheme.Object) (scheme.Object, error) {
		u := obj.(*unstructured.Unstructured)
		u.SetAPIVersion(gv.String())
		return u, nil
	}
	return &RequestScope{
		Kind:        gv.WithKind("Widget"),
		Encode:      func(obj scheme.Object) (scheme.Object, error) { return owned(obj.DeepCopyObject()) },
		EncodeOwned: owned,
		WatchLines:  &WatchLines{},
	}
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
	s := widgetScope()
	r := httptest.NewRequest("GET", "/apis/bench.crdlab.dev/v1/widgets?watch=1", nil)
	ev := widgetEvent(1)
	want, err := encodeWatchEvent(r, s, negotiation.Options{}, ev)
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
			lines[i], _ = watchLine(r, s, negotiation.Options{}, ev)
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
		table := negotiation.TableV1
		if _, _, ok := cacheable(ev, s, &table); ok {
			t.Error("a Table line was shared")
		}
	})
	t.Run("PartialObjectMetadata", func(t *testing.T) {
		// The metadata line is shared too, but is not the object's line.
		target := negotiation.PartialObjectMetadataV1
		partial := negotiation.Options{MediaType: negotiation.MediaTypeJSON, Convert: &target}
		meta, err := watchLine(r, s, partial, ev)
		if err != nil {
			t.Fatal(err)
		}
		if string(meta) == string(want) || !strings.Contains(string(meta), `"kind":"PartialObjectMetadata"`) {
			t.Errorf("metadata line %s", meta)
		}
		again, _ := watchLine(r, s, partial, ev)
		if &again[0] != &meta[0] {
			t.Error("the metadata line was encoded again")
		}
	})
	t.Run("Eviction", func(t *testing.T) {
		for i := range watchLinesSize + 10 {
			if _, err := watchLine(r, s, negotiation.Options{}, widgetEvent(i)); err != nil {
				t.Fatal(err)
			}
		}
		if n := len(s.WatchLines.entries); n > watchLinesSize {
			t.Errorf("%d entries, want at most %d", n, watchLinesSize)
		}
	})
}

// TestWatchLines_KeepsNoObjectAlive: a remembered line does not keep its
// event's object in memory (storage drops an object once its watchers have
// written it), and an entry whose object is gone is not taken for the
// object now at the same address.
func TestWatchLines_KeepsNoObjectAlive(t *testing.T) {
	s := widgetScope()
	r := httptest.NewRequest("GET", "/apis/bench.crdlab.dev/v1/widgets?watch=1", nil)
	gone := func() weak.Pointer[unstructured.Unstructured] {
		ev := widgetEvent(1)
		if _, err := watchLine(r, s, negotiation.Options{}, ev); err != nil {
			t.Fatal(err)
		}
		return weak.Make(ev.Object.(*unstructured.Unstructured))
	}()
	for i := 0; gone.Value() != nil; i++ {
		if i == 100 {
			t.Fatal("the event's object is still alive after 100 collections: the cache holds it")
		}
		runtime.GC()
	}

	// An entry under the address of ev's object whose weak pointer is not
	// ev's object (the address was reused) is encoded again.
	ev := widgetEvent(2)
	key, obj, ok := cacheable(ev, s, nil)
	if !ok {
		t.Fatal("not cacheable")
	}
	other := widgetEvent(3).Object.(*unstructured.Unstructured)
	stale := &encodedLine{obj: weak.Make(other)}
	stale.once.Do(func() { stale.line = []byte("stale\n") })
	s.WatchLines.mu.Lock()
	s.WatchLines.entries[key] = stale
	s.WatchLines.mu.Unlock()
	line, err := s.WatchLines.get(key, obj, func() ([]byte, error) { return []byte("fresh\n"), nil })
	if err != nil {
		t.Fatal(err)
	}
	if string(line) != "fresh\n" {
		t.Errorf("got %q: the line of the object that had the address before", line)
	}
	runtime.KeepAlive(other)
}

// BenchmarkWatchFanoutEncode is the encoding work of one event sent to 100
// watchers: once per watcher (before WatchLines) and shared.
func BenchmarkWatchFanoutEncode(b *testing.B) {
	const watchers = 100
	s := widgetScope()
	r := httptest.NewRequest("GET", "/apis/bench.crdlab.dev/v1/widgets?watch=1", nil)
	b.Run("per-watcher", func(b *testing.B) {
		b.ReportAllocs()
		i := 0
		for b.Loop() {
			ev := widgetEvent(i)
			i++
			for range watchers {
				if _, err := encodeWatchEvent(r, s, negotiation.Options{}, ev); err != nil {
					b.Fatal(err)
				}
			}
		}
	})
	b.Run("shared", func(b *testing.B) {
		s.WatchLines = &WatchLines{}
		b.ReportAllocs()
		i := 0
		for b.Loop() {
			ev := widgetEvent(i)
			i++
			for range watchers {
				if _, err := watchLine(r, s, negotiation.Options{}, ev); err != nil {
					b.Fatal(err)
				}
			}
		}
	})
}

// BenchmarkListEncode encodes a list of 5,000 custom resources the way the
// list handler did before (a copy of each item, encoding/json over the
// list, which scans every item's MarshalJSON output again) and does now
// (each item encoded in place, AppendJSON straight into the body), and
// streamed (the same, a chunk at a time: issue 21, finding 9).
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
				e, err := s.Encode(it)
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
	b.Run("stream", func(b *testing.B) {
		s.ListKind = "WidgetList"
		b.ReportAllocs()
		for b.Loop() {
			b.StopTimer()
			l := list()
			b.StartTimer()
			w := &countingWriter{h: http.Header{}}
			streamList(context.Background(), w, s, negotiation.Options{MediaType: negotiation.MediaTypeJSON}, http.StatusOK, l, false)
			if w.code != http.StatusOK {
				b.Fatal(w.code)
			}
		}
	})
}

// TestWatchLines_SweepsGoneObjects: lines of events whose objects are gone
// are dropped within sweepEvery new entries, not kept until the ring
// comes round; lines of live objects stay shared, and the ring still
// names exactly the entries.
func TestWatchLines_SweepsGoneObjects(t *testing.T) {
	s := widgetScope()
	r := httptest.NewRequest("GET", "/apis/bench.crdlab.dev/v1/widgets?watch=1", nil)
	var kept []watch.Event
	var keptLines [][]byte
	var gone []weak.Pointer[unstructured.Unstructured]
	for i := range 3 * sweepEvery {
		ev := widgetEvent(i)
		line, err := watchLine(r, s, negotiation.Options{}, ev)
		if err != nil {
			t.Fatal(err)
		}
		if i%50 == 0 {
			kept, keptLines = append(kept, ev), append(keptLines, line)
		} else {
			gone = append(gone, weak.Make(ev.Object.(*unstructured.Unstructured)))
		}
	}
	for i := 0; ; i++ {
		alive := 0
		for _, g := range gone {
			if g.Value() != nil {
				alive++
			}
		}
		if alive == 0 {
			break
		}
		if i == 100 {
			t.Fatalf("%d objects still alive after 100 collections", alive)
		}
		runtime.GC()
	}
	var more []watch.Event // alive until the end: their lines stay
	for i := range sweepEvery {
		ev := widgetEvent(10000 + i)
		more = append(more, ev)
		if _, err := watchLine(r, s, negotiation.Options{}, ev); err != nil {
			t.Fatal(err)
		}
	}
	c := s.WatchLines
	c.mu.Lock()
	n, inRing := len(c.entries), 0
	for _, k := range c.ring {
		if k.addr == 0 {
			continue
		}
		inRing++
		if _, ok := c.entries[k]; !ok {
			t.Errorf("the ring names %v, not in the entries", k)
		}
	}
	c.mu.Unlock()
	if n != len(kept)+len(more) || inRing != n {
		t.Errorf("%d entries, %d in the ring; want %d: the %d live objects' lines", n, inRing, len(kept)+len(more), len(kept)+len(more))
	}
	for i, ev := range kept {
		line, _ := watchLine(r, s, negotiation.Options{}, ev)
		if &line[0] != &keptLines[i][0] {
			t.Errorf("kept event %d was encoded again", i)
		}
	}
	runtime.KeepAlive(more)
}

// TestPartialMetadataJSON: a custom resource's PartialObjectMetadata is
// written as the Unstructured {apiVersion, kind, metadata} would be.
func TestPartialMetadataJSON(t *testing.T) {
	for name, metadata := range map[string]any{
		"Full": map[string]any{
			"name": "w", "namespace": "default", "uid": "u-1", "resourceVersion": "12", "generation": int64(1),
			"labels":        map[string]any{"app": "x", "shard": "s1"},
			"managedFields": []any{map[string]any{"manager": "m", "fieldsV1": map[string]any{"f:spec": map[string]any{".": map[string]any{}}}}},
		},
		"NoMetadata": nil,
	} {
		t.Run(name, func(t *testing.T) {
			want, err := (&unstructured.Unstructured{Object: map[string]any{
				"apiVersion": "meta.k8s.io/v1", "kind": "PartialObjectMetadata", "metadata": metadata,
			}}).AppendJSON(nil)
			if err != nil {
				t.Fatal(err)
			}
			got, err := partialMetadataJSON{metadata: metadata}.AppendJSON(nil)
			if err != nil || string(got) != string(want) {
				t.Errorf("got %s, %v\nwant %s", got, err, want)
			}
		})
	}
}

// TestEncodeWatchEvent_MetadataJSON: the line of an event whose object is
// storage's MetadataJSON (a metadata-only watch) is the line of the same
// event with the object decoded, for a PartialObjectMetadata watcher.
func TestEncodeWatchEvent_MetadataJSON(t *testing.T) {
	s := widgetScope()
	target := negotiation.PartialObjectMetadataV1
	opts := negotiation.Options{Convert: &target}
	r := httptest.NewRequest("GET", "/apis/bench.crdlab.dev/v1/widgets?watch=1", nil)
	res := storage.NewResource(storage.ResourceConfig{Prefix: "/w", NewFunc: func() storage.Object { return &unstructured.Unstructured{} }, Codec: storage.JSONCodec{}})
	decoded := widgetEvent(7).Object.(*unstructured.Unstructured)
	decoded.SetOwnerReferences([]metav1.OwnerReference{{APIVersion: "v1", Kind: "ConfigMap", Name: "o", UID: "u-o"}})
	decoded.SetFinalizers([]string{"example.com/f"})
	data, err := res.Encode("/w/a", decoded)
	if err != nil {
		t.Fatal(err)
	}
	decoded.SetResourceVersion("1007")
	raw := storage.NewMetadataJSON(res.Codec, data, 1007)
	if raw == nil {
		t.Fatal("JSONCodec cut no metadata")
	}
	for _, typ := range []watch.EventType{watch.Added, watch.Modified, watch.Deleted} {
		want, err := encodeWatchEvent(r, s, opts, watch.Event{Type: typ, Object: decoded})
		if err != nil {
			t.Fatal(err)
		}
		got, err := encodeWatchEvent(r, s, opts, watch.Event{Type: typ, Object: raw})
		if err != nil || string(got) != string(want) {
			t.Errorf("%s: got %s, %v\nwant %s", typ, got, err, want)
		}
	}
}
