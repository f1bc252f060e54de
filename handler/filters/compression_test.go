package filters_test

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/crdlab/crdlab/handler/filters"
)

// doGzip serves one request through WithCompression (inside panic
// recovery, as in the chain) on a real server, asking with encoding
// (none if ""), and returns the answer with its body as received.
func doGzip(t *testing.T, h http.HandlerFunc, encoding string) (*http.Response, []byte) {
	t.Helper()
	srv := httptest.NewServer(filters.WithPanicRecovery(filters.WithCompression(h), slog.New(slog.NewTextHandler(io.Discard, nil))))
	defer srv.Close()
	req, err := http.NewRequest("GET", srv.URL, nil)
	if err != nil {
		t.Fatal(err)
	}
	if encoding != "" {
		req.Header.Set("Accept-Encoding", encoding) // the transport leaves the body as sent
	}
	resp, err := srv.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp, body
}

func gunzip(t *testing.T, b []byte) []byte {
	t.Helper()
	zr, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	out, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// doc is n bytes of JSON-like text.
func doc(n int) []byte {
	var b bytes.Buffer
	for i := 0; b.Len() < n; i++ {
		b.WriteString(`{"name":"item-` + strconv.Itoa(i) + `","value":"x"},`)
	}
	return b.Bytes()[:n]
}

// TestWithCompression: answers over 128 KiB go gzip-compressed to a client
// that accepts gzip, whether written at once or in chunks, with the
// handler's status; everything else goes as written.
func TestWithCompression(t *testing.T) {
	big, small := doc(300<<10), doc(100<<10)
	t.Run("LargeAtOnce", func(t *testing.T) {
		resp, body := doGzip(t, func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			w.Header().Set("Content-Length", strconv.Itoa(len(big)))
			w.WriteHeader(http.StatusCreated)
			_, _ = w.Write(big)
		}, "gzip")
		if resp.StatusCode != http.StatusCreated || resp.Header.Get("Content-Encoding") != "gzip" ||
			resp.Header.Get("Vary") != "Accept-Encoding" || resp.Header.Get("Content-Type") != "application/json" {
			t.Fatalf("status %d, headers %v", resp.StatusCode, resp.Header)
		}
		if len(body) >= len(big)/4 || !bytes.Equal(gunzip(t, body), big) {
			t.Errorf("%d bytes sent for %d, or not the answer", len(body), len(big))
		}
	})
	t.Run("LargeInChunks", func(t *testing.T) {
		resp, body := doGzip(t, func(w http.ResponseWriter, r *http.Request) {
			for c := range slices.Chunk(big, 64<<10) { // as a list streams
				_, _ = w.Write(c)
			}
		}, "gzip")
		if resp.Header.Get("Content-Encoding") != "gzip" || !bytes.Equal(gunzip(t, body), big) {
			t.Errorf("headers %v; the chunks were not compressed whole", resp.Header)
		}
	})
	t.Run("Small", func(t *testing.T) {
		resp, body := doGzip(t, func(w http.ResponseWriter, r *http.Request) {
			w.WriteHeader(http.StatusAccepted)
			_, _ = w.Write(small[:len(small)/2])
			_, _ = w.Write(small[len(small)/2:])
		}, "gzip")
		if resp.StatusCode != http.StatusAccepted || resp.Header.Get("Content-Encoding") != "" || !bytes.Equal(body, small) {
			t.Errorf("status %d, encoding %q, %d bytes", resp.StatusCode, resp.Header.Get("Content-Encoding"), len(body))
		}
	})
	t.Run("NoGzipAsked", func(t *testing.T) {
		for _, enc := range []string{"", "identity", "gzip;q=0"} {
			resp, body := doGzip(t, func(w http.ResponseWriter, r *http.Request) { _, _ = w.Write(big) }, enc)
			if resp.Header.Get("Content-Encoding") != "" || !bytes.Equal(body, big) {
				t.Errorf("Accept-Encoding %q: encoding %q, %d bytes", enc, resp.Header.Get("Content-Encoding"), len(body))
			}
		}
	})
	t.Run("HandlersOwnEncoding", func(t *testing.T) {
		var gz bytes.Buffer
		zw := gzip.NewWriter(&gz)
		_, _ = zw.Write(big)
		_ = zw.Close()
		resp, body := doGzip(t, func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Encoding", "gzip")
			_, _ = w.Write(gz.Bytes())
		}, "gzip")
		if resp.Header.Get("Content-Encoding") != "gzip" || !bytes.Equal(body, gz.Bytes()) {
			t.Errorf("the handler's compressed answer was changed: %d bytes for %d", len(body), gz.Len())
		}
	})
	t.Run("NoBody", func(t *testing.T) {
		resp, body := doGzip(t, func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("ETag", `"x"`)
			w.WriteHeader(http.StatusNotModified)
		}, "gzip")
		if resp.StatusCode != http.StatusNotModified || resp.Header.Get("ETag") != `"x"` || len(body) != 0 {
			t.Errorf("status %d, headers %v, %d bytes", resp.StatusCode, resp.Header, len(body))
		}
	})
	t.Run("PanicSendsNothingHeld", func(t *testing.T) {
		resp, body := doGzip(t, func(w http.ResponseWriter, r *http.Request) {
			_, _ = w.Write([]byte(`{"half":`))
			panic("boom")
		}, "gzip")
		if resp.StatusCode != http.StatusInternalServerError || strings.Contains(string(body), "half") {
			t.Errorf("status %d, body %q: want the panic's 500 alone", resp.StatusCode, body)
		}
	})
}

// TestWithCompression_Stream: an answer that flushes before it is over the
// threshold (a watch) goes as it is, each flushed part at once.
func TestWithCompression_Stream(t *testing.T) {
	next := make(chan struct{})
	srv := httptest.NewServer(filters.WithCompression(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusOK)
		w.(http.Flusher).Flush()
		for i := range 3 {
			_, _ = w.Write([]byte("event " + strconv.Itoa(i) + "\n"))
			w.(http.Flusher).Flush()
			select {
			case <-next:
			case <-r.Context().Done():
				return
			}
		}
	})))
	defer srv.Close()
	req, _ := http.NewRequest("GET", srv.URL, nil)
	req.Header.Set("Accept-Encoding", "gzip")
	resp, err := srv.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.Header.Get("Content-Encoding") != "" {
		t.Fatalf("a stream was compressed: %v", resp.Header)
	}
	rd := bufio.NewReader(resp.Body)
	for i := range 3 {
		line, err := rd.ReadString('\n') // before the handler goes on
		if err != nil || line != "event "+strconv.Itoa(i)+"\n" {
			t.Fatalf("line %d: %q, %v", i, line, err)
		}
		next <- struct{}{}
	}
}
