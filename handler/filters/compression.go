package filters

import (
	"compress/gzip"
	"net/http"

	"github.com/crdlab/crdlab/handler/responsewriters"
)

// WithCompression sends an answer over 128 KiB (responsewriters.GzipThreshold)
// gzip-compressed, at level 1, to a client that accepts gzip, as upstream
// does for every answer its serializer writes: kubectl and client-go ask
// for it, and a list of 2,000 real-size CRDs is 530 MB as it is, about a
// tenth compressed. Smaller answers, streams (a watch flushes before it
// has written that much) and answers a handler compressed itself (the
// /apis and OpenAPI documents, kept compressed) go as they are.
//
// The writes of an answer are held until they pass the threshold or the
// handler ends (or flushes), so that a list streamed in chunks of 64 KiB
// (endpoints.writeList) is compressed whole. Upstream decides on the
// first write's size (deferredResponseWriter in
// k8s.io/apiserver/pkg/endpoints/handlers/responsewriters/writers.go;
// it holds back only a first write of at most 4 bytes, a streamed
// answer's opening brace, until 128 KiB have come).
//
// Clients that do not ask for gzip (bench's, the server's own) pass
// through untouched.
func WithCompression(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !responsewriters.AcceptsGzip(r) {
			h.ServeHTTP(w, r)
			return
		}
		cw := &compressWriter{w: w}
		defer func() {
			if p := recover(); p != nil {
				cw.abandon() // what was held never goes out: the panic is answered
				panic(p)
			}
			cw.finish()
		}()
		h.ServeHTTP(cw, r)
	})
}

// compressWriter holds an answer's first writes until they show whether
// it is worth compressing.
type compressWriter struct {
	w http.ResponseWriter
	// code is the status the handler wrote (0: none yet), sent with the
	// first bytes that go out.
	code int
	// held are the writes not sent yet (decided false).
	held []byte
	// decided is set once the answer's headers went out; zw is then the
	// compressor, or nil if the answer goes as it is.
	decided bool
	zw      *gzip.Writer
}

func (cw *compressWriter) Header() http.Header { return cw.w.Header() }

func (cw *compressWriter) WriteHeader(code int) {
	if cw.decided || cw.code != 0 {
		return
	}
	if code >= 100 && code < 200 { // informational: passes, as net/http lets it
		cw.w.WriteHeader(code)
		return
	}
	cw.code = code
}

func (cw *compressWriter) Write(p []byte) (int, error) {
	if !cw.decided {
		if cw.w.Header().Get("Content-Encoding") != "" {
			cw.decide(false) // the handler's own encoding
		} else if len(cw.held)+len(p) <= responsewriters.GzipThreshold {
			cw.held = append(cw.held, p...)
			return len(p), nil
		} else {
			cw.decide(true)
		}
	}
	if cw.zw != nil {
		return cw.zw.Write(p)
	}
	return cw.w.Write(p)
}

// decide sends the headers, compressing or not, then what was held.
func (cw *compressWriter) decide(compress bool) {
	cw.decided = true
	h := cw.w.Header()
	if compress {
		h.Set("Content-Encoding", "gzip")
		h.Add("Vary", "Accept-Encoding")
		h.Del("Content-Length")
		cw.zw = responsewriters.GzipWriter(cw.w)
	}
	if cw.code != 0 {
		cw.w.WriteHeader(cw.code)
	}
	if len(cw.held) > 0 {
		held := cw.held
		cw.held = nil
		if cw.zw != nil {
			_, _ = cw.zw.Write(held)
		} else {
			_, _ = cw.w.Write(held)
		}
	}
}

// Flush sends what was written so far: an answer that flushes before it
// is over the threshold is a stream, and goes as it is.
func (cw *compressWriter) Flush() {
	if !cw.decided {
		cw.decide(false)
	}
	if cw.zw != nil {
		_ = cw.zw.Flush()
	}
	_ = http.NewResponseController(cw.w).Flush()
}

// Unwrap lets http.ResponseController reach the underlying writer.
func (cw *compressWriter) Unwrap() http.ResponseWriter { return cw.w }

// finish sends what is still held (a small answer, as it is) and ends
// the compressed stream.
func (cw *compressWriter) finish() {
	if !cw.decided && (cw.code != 0 || len(cw.held) > 0) {
		cw.decide(false)
	}
	if cw.zw != nil {
		_ = cw.zw.Close()
		responsewriters.ReleaseGzipWriter(cw.zw)
		cw.zw = nil
	}
}

// abandon drops what is held and the compressor, sending nothing more.
func (cw *compressWriter) abandon() {
	cw.held = nil
	if cw.zw != nil {
		responsewriters.ReleaseGzipWriter(cw.zw)
		cw.zw = nil
	}
}
