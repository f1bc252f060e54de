package workload

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
)

func TestResourceVersion(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{`{"apiVersion":"v1","metadata":{"name":"a","resourceVersion":"42"},"spec":{}}`, "42"},
		{`{"kind":"WidgetList","metadata":{"resourceVersion":"7"},"items":[{"metadata":{"resourceVersion":"5"}}]}`, "7"},
		{`{"type":"MODIFIED","object":{"metadata":{"resourceVersion":"9"}}}`, "9"},
		{`{"metadata":{}}`, ""},
	} {
		if got := resourceVersion([]byte(tc.in)); got != tc.want {
			t.Errorf("resourceVersion(%s) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestEventType(t *testing.T) {
	if got := eventType([]byte(`{"type":"MODIFIED","object":{}}`)); got != "MODIFIED" {
		t.Errorf("eventType = %q", got)
	}
	if got := eventType([]byte(`{}`)); got != "" {
		t.Errorf("eventType = %q", got)
	}
}

func TestCRD(t *testing.T) {
	c := NewCRD("widgets")
	if c.Kind != "Widget" || c.Name() != "widgets.bench.crdlab.dev" {
		t.Errorf("NewCRD = %+v, %s", c, c.Name())
	}
	if p := c.Path("ns"); p != "/apis/bench.crdlab.dev/v1/namespaces/ns/widgets" {
		t.Errorf("Path = %s", p)
	}
	for name, b := range map[string][]byte{"crd": c.JSON(), "object": c.Object("ns", "w-1", 3, "17")} {
		if !json.Valid(b) {
			t.Errorf("%s manifest is not valid JSON: %s", name, b)
		}
	}
	var obj struct {
		Metadata struct{ ResourceVersion string }
		Spec     struct{ Counter int }
	}
	if err := json.Unmarshal(c.Object("ns", "w-1", 3, "17"), &obj); err != nil || obj.Metadata.ResourceVersion != "17" || obj.Spec.Counter != 3 {
		t.Errorf("Object = %+v, %v", obj, err)
	}
}

// TimedGets reads every body whole (into the buffer it keeps), checks the
// status and reports the failing answer's start.
func TestTimedGets(t *testing.T) {
	doc := bytes.Repeat([]byte("x"), 2<<20)
	var served atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/missing" {
			http.Error(w, `{"kind":"Status","reason":"NotFound"}`, http.StatusNotFound)
			return
		}
		if r.Header.Get("Accept") != "application/json" {
			http.Error(w, "accept", http.StatusNotAcceptable)
			return
		}
		n, _ := w.Write(doc)
		served.Add(int64(n))
	}))
	defer srv.Close()
	tg := NewTarget("test", srv.URL)
	timed, err := tg.TimedGets(context.Background(), []string{"/a", "/b"}, 5, "application/json", "")
	if err != nil {
		t.Fatal(err)
	}
	if len(timed.Latencies) != 5 || served.Load() != 5*int64(len(doc)) {
		t.Errorf("%d latencies, %d bytes served; want 5 and %d", len(timed.Latencies), served.Load(), 5*len(doc))
	}
	for i, l := range timed.Latencies {
		if l <= 0 {
			t.Errorf("latency %d is %v", i, l)
		}
	}
	if timed.Bytes != len(doc) {
		t.Errorf("Bytes %d, want %d", timed.Bytes, len(doc))
	}
	_, err = tg.TimedGets(context.Background(), []string{"/missing"}, 2, "application/json", "")
	if err == nil || !strings.Contains(err.Error(), "404") || !strings.Contains(err.Error(), "NotFound") {
		t.Errorf("a 404 gave %v", err)
	}
}

// With encoding "gzip", TimedGets asks as kubectl does and reads the body as
// sent: compressed bytes are counted compressed, checked to decompress, and
// a server that does not compress is read as it is.
func TestTimedGets_Gzip(t *testing.T) {
	doc := bytes.Repeat([]byte(`{"a":"b"},`), 50_000)
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	_, _ = zw.Write(doc)
	_ = zw.Close()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch {
		case r.URL.Path == "/broken":
			w.Header().Set("Content-Encoding", "gzip")
			_, _ = w.Write(gz.Bytes()[:gz.Len()/2])
		case r.URL.Path == "/gz" && r.Header.Get("Accept-Encoding") == "gzip":
			w.Header().Set("Content-Encoding", "gzip")
			_, _ = w.Write(gz.Bytes())
		default:
			_, _ = w.Write(doc)
		}
	}))
	defer srv.Close()
	tg := NewTarget("test", srv.URL)
	for _, c := range []struct {
		path, encoding string
		want           int
	}{{"/gz", "gzip", gz.Len()}, {"/gz", "", len(doc)}, {"/plain", "gzip", len(doc)}} {
		timed, err := tg.TimedGets(context.Background(), []string{c.path}, 3, "application/json", c.encoding)
		if err != nil {
			t.Fatal(err)
		}
		if timed.Bytes != c.want || len(timed.Latencies) != 3 {
			t.Errorf("%s, encoding %q: %d bytes, %d latencies; want %d and 3", c.path, c.encoding, timed.Bytes, len(timed.Latencies), c.want)
		}
	}
	if _, err := tg.TimedGets(context.Background(), []string{"/broken"}, 1, "application/json", "gzip"); err == nil || !strings.Contains(err.Error(), "gzip") {
		t.Errorf("a truncated gzip body gave %v", err)
	}
}
