package ui

import (
	"io"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"
)

func get(t *testing.T, h http.Handler, method, path string, hdr map[string]string) *http.Response {
	t.Helper()
	req := httptest.NewRequest(method, path, nil)
	for k, v := range hdr {
		req.Header.Set(k, v)
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec.Result()
}

func body(t *testing.T, resp *http.Response) string {
	t.Helper()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestHandler_Assets(t *testing.T) {
	h := Handler()
	for _, tc := range []struct {
		path, contentType, contains string
	}{
		{"/ui/", "text/html; charset=utf-8", `<script src="app.js"`},
		{"/ui/index.html", "text/html; charset=utf-8", `<ol id="path"`},
		{"/ui/app.js", "text/javascript; charset=utf-8", "function upstreamURL("},
		{"/ui/style.css", "text/css; charset=utf-8", ".crd"},
	} {
		t.Run(tc.path, func(t *testing.T) {
			resp := get(t, h, http.MethodGet, tc.path, nil)
			b := body(t, resp)
			if resp.StatusCode != http.StatusOK {
				t.Fatalf("GET %s: %d %s", tc.path, resp.StatusCode, b)
			}
			if got := resp.Header.Get("Content-Type"); got != tc.contentType {
				t.Errorf("Content-Type = %q, want %q", got, tc.contentType)
			}
			if got := resp.Header.Get("Cache-Control"); got != "no-cache" {
				t.Errorf("Cache-Control = %q, want no-cache", got)
			}
			if got := resp.Header.Get("X-Content-Type-Options"); got != "nosniff" {
				t.Errorf("X-Content-Type-Options = %q, want nosniff", got)
			}
			if csp := resp.Header.Get("Content-Security-Policy"); !strings.Contains(csp, "default-src 'none'") || !strings.Contains(csp, "connect-src 'self'") {
				t.Errorf("Content-Security-Policy = %q, want default-src 'none' and connect-src 'self'", csp)
			}
			if !strings.Contains(b, tc.contains) {
				t.Errorf("GET %s: body does not contain %q", tc.path, tc.contains)
			}
		})
	}
}

func TestHandler_NotFound(t *testing.T) {
	h := Handler()
	for _, path := range []string{"/ui/nope.js", "/ui/static/app.js", "/ui/../ui/app.js", "/ui/app.js/", "/other/app.js", "/ui"} {
		t.Run(path, func(t *testing.T) {
			resp := get(t, h, http.MethodGet, path, nil)
			if resp.StatusCode != http.StatusNotFound {
				t.Errorf("GET %s: %d, want 404", path, resp.StatusCode)
			}
			if b := body(t, resp); !strings.Contains(b, `"kind":"Status"`) || !strings.Contains(b, `"reason":"NotFound"`) {
				t.Errorf("GET %s: body %s, want a NotFound Status", path, b)
			}
		})
	}
}

func TestHandler_Methods(t *testing.T) {
	h := Handler()
	t.Run("HEAD", func(t *testing.T) {
		resp := get(t, h, http.MethodHead, "/ui/app.js", nil)
		if resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Length") == "" {
			t.Errorf("HEAD: %d, Content-Length %q", resp.StatusCode, resp.Header.Get("Content-Length"))
		}
		if b := body(t, resp); b != "" {
			t.Errorf("HEAD: body of %d bytes", len(b))
		}
	})
	t.Run("POST", func(t *testing.T) {
		resp := get(t, h, http.MethodPost, "/ui/", nil)
		if resp.StatusCode != http.StatusMethodNotAllowed || resp.Header.Get("Allow") != "GET, HEAD" {
			t.Errorf("POST: %d, Allow %q; want 405, GET, HEAD", resp.StatusCode, resp.Header.Get("Allow"))
		}
		if b := body(t, resp); !strings.Contains(b, `"reason":"MethodNotAllowed"`) {
			t.Errorf("POST: body %s, want a MethodNotAllowed Status", b)
		}
	})
}

func TestHandler_ETag(t *testing.T) {
	h := Handler()
	first := get(t, h, http.MethodGet, "/ui/style.css", nil)
	etag := first.Header.Get("ETag")
	if etag == "" {
		t.Fatal("no ETag")
	}
	again := get(t, h, http.MethodGet, "/ui/style.css", map[string]string{"If-None-Match": etag})
	if again.StatusCode != http.StatusNotModified {
		t.Errorf("If-None-Match %s: %d, want 304", etag, again.StatusCode)
	}
	other := get(t, h, http.MethodGet, "/ui/style.css", map[string]string{"If-None-Match": `"stale"`})
	if other.StatusCode != http.StatusOK {
		t.Errorf("If-None-Match stale: %d, want 200", other.StatusCode)
	}
}

// TestAssets_Offline checks that the page needs nothing from the network:
// no absolute URL in any file except the two that are not fetched — the
// SVG namespace name and pkg.go.dev, the target of the "upstream" links a
// reader may follow — and no src or href in index.html that leaves the
// server.
func TestAssets_Offline(t *testing.T) {
	h := Handler()
	allowed := map[string]bool{
		"http://www.w3.org/2000/svg": true, // a namespace name, never fetched
		"https://pkg.go.dev/":        true, // link target of the upstream column
	}
	url := regexp.MustCompile(`(?i)\b(?:https?:)?//[a-z0-9.-]+\.[a-z]{2,}[^\s'"<>)]*`)
	names, err := fs.Glob(static, "static/*")
	if err != nil {
		t.Fatal(err)
	}
	if len(names) < 3 {
		t.Fatalf("embedded files %v: want index.html, app.js, style.css", names)
	}
	for _, name := range names {
		b := body(t, get(t, h, http.MethodGet, "/ui/"+strings.TrimPrefix(name, "static/"), nil))
		for _, u := range url.FindAllString(b, -1) {
			if !allowed[u] {
				t.Errorf("%s: absolute URL %q: the page must work offline (allowed: %v)", name, u, allowed)
			}
		}
	}
	index := body(t, get(t, h, http.MethodGet, "/ui/", nil))
	ref := regexp.MustCompile(`(?i)\b(?:src|href)\s*=\s*"([^"]*)"`)
	for _, m := range ref.FindAllStringSubmatch(index, -1) {
		if v := m[1]; strings.Contains(v, ":") && !strings.HasPrefix(v, "data:") || strings.HasPrefix(v, "/") {
			t.Errorf("index.html: %s: want a relative reference", m[0])
		}
	}
}
