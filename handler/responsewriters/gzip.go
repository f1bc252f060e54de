package responsewriters

import (
	"bytes"
	"compress/gzip"
	"io"
	"net/http"
	"strings"
	"sync"

	"github.com/crdlab/crdlab/handler/negotiation"
)

// GzipThreshold is the size over which an answer is worth compressing:
// upstream compresses an answer whose first write is larger (128 KiB,
// defaultGzipThresholdBytes in responsewriters/writers.go) when the client
// accepts gzip, and sends smaller ones as they are.
const GzipThreshold = 128 << 10

// AcceptsGzip reports whether r's Accept-Encoding allows gzip (Go's
// client, and so kubectl and client-go, send "gzip"). A q of 0 refuses it;
// "*" allows it.
//
// Upstream (ContentEncodingSupported in responsewriters/compression.go)
// looks for the token "gzip" alone.
func AcceptsGzip(r *http.Request) bool {
	for _, v := range r.Header.Values("Accept-Encoding") {
		for e := range strings.SplitSeq(v, ",") {
			name, params, _ := strings.Cut(strings.TrimSpace(e), ";")
			name = strings.ToLower(strings.TrimSpace(name))
			if name != "gzip" && name != "*" {
				continue
			}
			q := strings.ReplaceAll(strings.TrimSpace(params), " ", "")
			if q == "q=0" || q == "q=0.0" || q == "q=0.00" || q == "q=0.000" {
				return false
			}
			return true
		}
	}
	return false
}

// gzipWriters are reused: a gzip.Writer carries about 600 KB of
// compressor state.
var gzipWriters = sync.Pool{New: func() any {
	zw, _ := gzip.NewWriterLevel(nil, gzip.BestSpeed) // the level is valid
	return zw
}}

// GzipWriter returns a gzip.Writer at level 1 writing to w, from a pool;
// ReleaseGzipWriter gives it back once closed (or abandoned).
func GzipWriter(w io.Writer) *gzip.Writer {
	zw := gzipWriters.Get().(*gzip.Writer)
	zw.Reset(w)
	return zw
}

// ReleaseGzipWriter returns zw to the pool GzipWriter takes it from.
func ReleaseGzipWriter(zw *gzip.Writer) {
	zw.Reset(nil)
	gzipWriters.Put(zw)
}

// Gzip compresses the concatenation of parts at level 1 (gzip.BestSpeed,
// upstream's gzipContentEncodingLevel: close to the best ratio for the
// least CPU) into a buffer with no slack, for a caller that keeps the
// result: a cached document is compressed once per change, not per
// request.
func Gzip(parts ...[]byte) ([]byte, error) {
	n := 0
	for _, p := range parts {
		n += len(p)
	}
	buf := bytes.NewBuffer(make([]byte, 0, n/8+512)) // API documents compress to about a tenth
	zw := gzipWriters.Get().(*gzip.Writer)
	defer gzipWriters.Put(zw)
	zw.Reset(buf)
	for _, p := range parts {
		_, _ = zw.Write(p) // a bytes.Buffer does not fail
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	if b := buf.Bytes(); cap(b)-len(b) <= len(b)/16 {
		return b, nil
	}
	return bytes.Clone(buf.Bytes()), nil
}

// WriteGzipped answers gz, the gzip-compressed form of what WriteEncoded
// would write (compact JSON followed by a newline), as it: the client
// must have accepted gzip (AcceptsGzip).
func WriteGzipped(w http.ResponseWriter, opts negotiation.Options, code int, gz []byte) {
	h := w.Header()
	h.Set("Content-Type", opts.ContentType())
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Content-Encoding", "gzip")
	h.Add("Vary", "Accept-Encoding")
	w.WriteHeader(code)
	_, _ = w.Write(gz)
}

// CompressibleKept reports whether an answer in the representation opts
// names, whose compressed form the server keeps (compressed once per
// change, not per request), may be sent as WriteGzipped sends it: r
// accepts gzip and the answer is compact JSON (indented and YAML answers
// are written anew). Its size does not matter: GzipThreshold weighs a
// compression's CPU, which a kept document does not spend again.
func CompressibleKept(r *http.Request, opts negotiation.Options) bool {
	return !opts.Pretty && opts.MediaType != negotiation.MediaTypeYAML && AcceptsGzip(r)
}
