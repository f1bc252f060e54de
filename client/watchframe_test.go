package client

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"strings"
	"testing"
	"testing/iotest"

	metav1 "github.com/crdlab/crdlab/apis/meta/v1"
	"github.com/crdlab/crdlab/internal/crdgen"
)

var frameStreams = []string{
	`{"type":"ADDED","object":{"kind":"CronTab","metadata":{"name":"a","labels":{"x":"}{]["}},"spec":{"s":"a\"b\\","l":[{},[]]}}}` + "\n" +
		`{"type":"MODIFIED","object":{"metadata":{"name":"b"}}}` + "\n",
	`{"type":"BOOKMARK","object":{"metadata":{"resourceVersion":"9"}}}{"type":"DELETED","object":{}}`,
	"  \n" + `{"type":"ADDED","object":{}}` + "\n\n   ",
	// Runs of backslashes before quotes, in keys and values: the scan
	// jumps from quote to quote and counts the backslashes before each.
	`{"type":"ADDED","object":{"a\\\"}":"\\\\","b":"\\\\\"]","":"","c\\":["\"{\\\\"]}}` + "\n",
	// Another shape from the second event on: the decoder takes over.
	`{"type":"ADDED","object":{}}` + "\n" + `{"object":{"a":1},"type":"ADDED"}` + "\n" + `{"type":"DELETED","object":{}}`,
	`{ "type": "ADDED", "object": {"a": 1} }`,
	`{"type":"ADDED","object":[1,2]}`,
	`{"type":"ERROR","object":{"kind":"Status","code":410}}`,
	`{"type":"ADDED","object":{"a":`,
	`{"type":"ADDED","object":{"a":1}`,
	`{"type":"ADDED","object":{"a":tru}}`,
	`{"type":"ADDED","object":{"a":1}}]`,
	`{"type":7}`,
	`[]`,
	`{not json}`,
	"",
	`{"type":"ADDED","object":{"big":"` + strings.Repeat("x", 100<<10) + `"}}` + "\n" + `{"type":"DELETED","object":{}}`,
}

type frameResult struct {
	events []metav1.WatchEvent
	err    error
}

func readAll(next func(*metav1.WatchEvent) error) frameResult {
	var r frameResult
	for range 100 {
		var ev metav1.WatchEvent
		if err := next(&ev); err != nil {
			r.err = err
			return r
		}
		r.events = append(r.events, ev)
	}
	return r
}

// sameAsDecoder checks that the eventReader gives the events a
// json.Decoder gives, up to the first error; where the decoder refuses an
// event for bad JSON inside its object, the reader may hand the object on
// (the watcher's object decoder refuses it, and the watch ends there).
func sameAsDecoder(t *testing.T, stream string, oneByte bool) {
	t.Helper()
	var r io.Reader = strings.NewReader(stream)
	if oneByte {
		r = iotest.OneByteReader(r)
	}
	dec := json.NewDecoder(strings.NewReader(stream))
	want := readAll(func(ev *metav1.WatchEvent) error { return dec.Decode(ev) })
	got := readAll(newEventReader(r).next)
	for i, w := range want.events {
		if i >= len(got.events) {
			t.Fatalf("%.100q: %d events, want %d (error %v, want %v)", stream, len(got.events), len(want.events), got.err, want.err)
		}
		if g := got.events[i]; g.Type != w.Type || !bytes.Equal(g.Object, w.Object) {
			t.Fatalf("%.100q: event %d is %s %.100s, want %s %.100s", stream, i, g.Type, g.Object, w.Type, w.Object)
		}
	}
	// The watcher stops at an event it cannot decode: what follows one
	// does not matter.
	extra := got.events[len(want.events):]
	switch {
	case len(extra) > 0 && (want.err == nil || json.Valid(extra[0].Object)):
		t.Fatalf("%.100q: event %s %.100s, where the decoder says %v", stream, extra[0].Type, extra[0].Object, want.err)
	case len(extra) == 0 && (want.err == io.EOF) != (got.err == io.EOF):
		t.Fatalf("%.100q: error %v, want %v", stream, got.err, want.err)
	case len(extra) == 0 && want.err != io.EOF && got.err.Error() != want.err.Error():
		var syntax *json.SyntaxError
		if !errors.As(got.err, &syntax) || !errors.As(want.err, &syntax) {
			t.Fatalf("%.100q: error %v, want %v", stream, got.err, want.err)
		}
	}
}

// TestEventReader_SameAsDecoder: the events of a stream, read whole or a
// byte at a time, are the json.Decoder's.
func TestEventReader_SameAsDecoder(t *testing.T) {
	for _, s := range frameStreams {
		sameAsDecoder(t, s, false)
		sameAsDecoder(t, s, true)
	}
}

// TestEventReader_FastPathTaken: servers' events are cut without a
// decoder (the test above would pass either way).
func TestEventReader_FastPathTaken(t *testing.T) {
	e := newEventReader(iotest.OneByteReader(strings.NewReader(frameStreams[0] + frameStreams[1] + frameStreams[2] + frameStreams[3])))
	for range 6 {
		var ev metav1.WatchEvent
		if err := e.next(&ev); err != nil {
			t.Fatal(err)
		}
	}
	if e.dec != nil {
		t.Error("a json.Decoder took over")
	}
	var ev metav1.WatchEvent
	if err := e.next(&ev); err != io.EOF {
		t.Errorf("at the end: %v, want EOF", err)
	}
}

func FuzzEventReader(f *testing.F) {
	for _, s := range frameStreams[:len(frameStreams)-1] {
		f.Add(s, false)
	}
	f.Fuzz(sameAsDecoder)
}

// BenchmarkEventReader_RealSizeCRD cuts watch events of a real-size CRD
// (265 KiB, 2 versions) from a stream.
func BenchmarkEventReader_RealSizeCRD(b *testing.B) {
	event := `{"type":"MODIFIED","object":` + string(crdgen.CRD(0, crdgen.Options{Bytes: 265 << 10, Versions: 2, Seed: 1})) + "}\n"
	stream := strings.Repeat(event, 8)
	b.SetBytes(int64(len(stream)))
	for b.Loop() {
		e := newEventReader(strings.NewReader(stream))
		for range 8 {
			var ev metav1.WatchEvent
			if err := e.next(&ev); err != nil {
				b.Fatal(err)
			}
		}
		if e.dec != nil {
			b.Fatal("a json.Decoder took over")
		}
	}
}
