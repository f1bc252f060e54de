package ui

import (
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"encoding/json"
	"io/fs"
	"net/http"
	"path"
	"strconv"
	"strings"
)

// static holds the page: index.html, app.js and style.css. Nothing else is
// served, and the page loads nothing from anywhere else.
//
//go:embed static
var static embed.FS

// Prefix is the path the apiserver mounts Handler at.
const Prefix = "/ui/"

// contentSecurityPolicy lets the page load only its own files and talk
// only to the server that served it: a page projected in class must not
// depend on (or leak to) the Internet. Links out (pkg.go.dev) are plain
// navigation, which the policy does not restrict.
const contentSecurityPolicy = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

// contentTypes maps the extensions of the embedded files to their
// Content-Type, so that the answer does not depend on the machine's MIME
// tables (mime.TypeByExtension reads /etc/mime.types).
var contentTypes = map[string]string{
	".html": "text/html; charset=utf-8",
	".js":   "text/javascript; charset=utf-8",
	".css":  "text/css; charset=utf-8",
	".svg":  "image/svg+xml",
	".png":  "image/png",
	".ico":  "image/x-icon",
}

// file is one embedded asset, read once.
type file struct {
	body        []byte
	contentType string
	etag        string // strong validator: the hash of body, quoted
}

// handler serves the embedded files. It is immutable once built.
type handler struct {
	files map[string]file // by name under static/: "index.html", "app.js" …
}

// Handler serves the page for requests whose path is under Prefix ("/ui/"):
// it strips the prefix itself, serves "/ui/" as index.html, and answers 404
// for anything it does not embed. Every answer carries Cache-Control:
// no-cache (with an ETag, a reload costs a 304), a Content-Type and a
// Content-Security-Policy that forbids requests to other hosts.
//
// It holds no data and needs no authentication: the page's own requests to
// /debug/crdlab/* carry the token the user types in.
func Handler() http.Handler {
	h := &handler{files: map[string]file{}}
	err := fs.WalkDir(static, "static", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		body, err := static.ReadFile(p)
		if err != nil {
			return err
		}
		ct, ok := contentTypes[path.Ext(p)]
		if !ok {
			ct = "application/octet-stream"
		}
		sum := sha256.Sum256(body)
		h.files[strings.TrimPrefix(p, "static/")] = file{body: body, contentType: ct, etag: `"` + hex.EncodeToString(sum[:8]) + `"`}
		return nil
	})
	if err != nil {
		// The files are compiled in: failing to read them is a build bug.
		panic("ui: reading embedded files: " + err.Error())
	}
	return h
}

func (h *handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		writeStatus(w, http.StatusMethodNotAllowed, "MethodNotAllowed", r.Method+" is not supported on "+r.URL.Path+": the page is read-only")
		return
	}
	name, ok := strings.CutPrefix(r.URL.Path, Prefix)
	if name == "" {
		name = "index.html"
	}
	f, found := h.files[name]
	if !ok || !found {
		writeStatus(w, http.StatusNotFound, "NotFound", "the page has no file "+strconv.Quote(r.URL.Path))
		return
	}
	hdr := w.Header()
	hdr.Set("Content-Type", f.contentType)
	hdr.Set("Cache-Control", "no-cache")
	hdr.Set("X-Content-Type-Options", "nosniff")
	hdr.Set("Content-Security-Policy", contentSecurityPolicy)
	hdr.Set("ETag", f.etag)
	if match := r.Header.Get("If-None-Match"); match != "" && etagMatches(match, f.etag) {
		w.WriteHeader(http.StatusNotModified)
		return
	}
	hdr.Set("Content-Length", strconv.Itoa(len(f.body)))
	if r.Method == http.MethodHead {
		return
	}
	w.Write(f.body) //nolint:errcheck // the client went away; nothing to do
}

// etagMatches reports whether an If-None-Match header lists etag (or "*").
func etagMatches(header, etag string) bool {
	for _, m := range strings.Split(header, ",") {
		m = strings.TrimPrefix(strings.TrimSpace(m), "W/")
		if m == etag || m == "*" {
			return true
		}
	}
	return false
}

// writeStatus answers an error as the API does, with a metav1.Status
// (written by hand: this package uses the standard library only).
func writeStatus(w http.ResponseWriter, code int, reason, msg string) {
	body, _ := json.Marshal(map[string]any{
		"kind": "Status", "apiVersion": "v1", "metadata": map[string]any{},
		"status": "Failure", "message": msg, "reason": reason, "code": code,
	})
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(code)
	w.Write(body) //nolint:errcheck // the client went away; nothing to do
}
