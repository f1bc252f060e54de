package filters

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"sync"
	"time"

	apierrors "github.com/crdlab/crdlab/apis/errors"
	"github.com/crdlab/crdlab/handler/request"
	"github.com/crdlab/crdlab/handler/responsewriters"
)

// WithPanicRecovery answers a panicking request with a 500 InternalError
// Status (if nothing was written yet) and logs the panic; the server lives
// on. http.ErrAbortHandler is re-panicked, as net/http expects.
//
// Mirrors WithPanicRecovery in k8s.io/apiserver/pkg/server/filters/wrap.go.
func WithPanicRecovery(h http.Handler, logger *slog.Logger) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rw := &statusRecorder{ResponseWriter: w}
		defer func() {
			p := recover()
			if p == nil {
				return
			}
			if p == http.ErrAbortHandler {
				panic(p)
			}
			logger.Error("panic serving request", "method", r.Method, "path", r.URL.Path, "panic", fmt.Sprint(p))
			if !rw.wroteHeader() {
				responsewriters.WriteError(rw, apierrors.NewInternalError(
					fmt.Errorf("this request caused a panic in the server: %v", p)))
			}
		}()
		h.ServeHTTP(rw, r)
	})
}

// WithRequestLog logs one line per request once it is done — at debug
// level, or info for a server error or a slow request: method, path,
// verb, resource, code, bytes and latency.
//
// Mirrors the request logging of k8s.io/apiserver/pkg/server/httplog.
func WithRequestLog(h http.Handler, logger *slog.Logger) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		rw := &statusRecorder{ResponseWriter: w}
		h.ServeHTTP(rw, r)
		latency := time.Since(start)
		level := slog.LevelDebug
		if rw.code() >= http.StatusInternalServerError || (latency > SlowRequest && !isWatch(r)) {
			level = slog.LevelInfo
		}
		if !logger.Enabled(r.Context(), level) {
			return
		}
		attrs := []any{
			"method", r.Method, "uri", r.URL.RequestURI(), "code", rw.code(),
			"bytes", rw.bytes(), "latency", latency, "userAgent", r.UserAgent(),
		}
		if info, ok := request.RequestInfoFrom(r.Context()); ok && info.IsResourceRequest {
			attrs = append(attrs, "verb", info.Verb, "resource", info.Resource)
		}
		logger.Log(r.Context(), level, "HTTP", attrs...)
	})
}

// SlowRequest is the latency past which WithRequestLog logs a request at
// info level (the others go to debug). Upstream logs each request only at
// -v=3 (httplog) and traces requests slower than a few hundred
// milliseconds; a line per request at info costs a write to stderr per
// request, a few percent of a create's CPU.
const SlowRequest = time.Second

// isWatch reports whether r is a watch, which is long by design.
func isWatch(r *http.Request) bool {
	v := r.URL.Query().Get("watch")
	return v == "1" || v == "true"
}

// WithRequestInfo resolves the request's RequestInfo and stores it in the
// context, unless a filter in front (package apiserver's) did: a request's
// URL is parsed once, and whoever authorizes it and whoever serves it read
// the same answer.
//
// Mirrors WithRequestInfo in k8s.io/apiserver/pkg/endpoints/filters/requestinfo.go.
func WithRequestInfo(h http.Handler, f *request.RequestInfoFactory) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if _, ok := request.RequestInfoFrom(r.Context()); ok {
			h.ServeHTTP(w, r)
			return
		}
		info := f.NewRequestInfo(r)
		h.ServeHTTP(w, r.WithContext(request.WithRequestInfo(r.Context(), info)))
	})
}

// WithMaxRequestBody rejects bodies larger than limit bytes with a 413
// RequestEntityTooLarge: at once when Content-Length says so, else when the
// handler reads past the limit (the read fails with *http.MaxBytesError,
// which the error table answers as 413).
func WithMaxRequestBody(h http.Handler, limit int64) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.ContentLength > limit {
			responsewriters.WriteError(w, apierrors.NewRequestEntityTooLarge(fmt.Sprintf("limit is %d", limit)))
			return
		}
		if r.Body != nil {
			r.Body = http.MaxBytesReader(w, r.Body, limit)
		}
		h.ServeHTTP(w, r)
	})
}

// WithTimeout gives every request that is not long-running (see
// RequestInfo.LongRunning) a deadline of timeout. If the handler has not
// begun its answer by then, the client gets a 504 Timeout Status and
// whatever the handler writes later is dropped; if it has, it gets
// AnswerGrace to finish, and else the answer is cut (the connection
// closed, or the HTTP/2 stream reset), as a half-sent answer cannot become
// a 504. timeout <= 0 disables the filter.
//
// The answer is written through, not buffered: a list of a hundred
// megabytes streams to the client (endpoints.writeList) instead of being
// held here whole.
//
// Mirrors WithTimeoutForNonLongRunningRequests in
// k8s.io/apiserver/pkg/server/filters/timeout.go (baseTimeoutWriter).
func WithTimeout(h http.Handler, timeout time.Duration) http.Handler {
	if timeout <= 0 {
		return h
	}
	workers := newHandlerWorkers(maxIdleHandlerWorkers, handlerWorkerIdle)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if info, ok := request.RequestInfoFrom(r.Context()); ok && info.LongRunning() {
			h.ServeHTTP(w, r)
			return
		}
		ctx, cancel := context.WithTimeout(r.Context(), timeout)
		defer cancel()
		tw := &timeoutWriter{w: w, h: http.Header{}}
		done := make(chan struct{})
		panicCh := make(chan any, 1)
		workers.Go(func() {
			defer func() {
				if p := recover(); p != nil {
					panicCh <- p
				}
				close(done)
			}()
			h.ServeHTTP(tw, r.WithContext(ctx))
		})
		handlerDone := func() {
			select {
			case p := <-panicCh:
				panic(p) // let WithPanicRecovery answer it
			default:
			}
		}
		select {
		case <-done:
			handlerDone()
			return
		case <-ctx.Done():
		}
		if !tw.timeout(fmt.Errorf("request did not complete within requested timeout - %w", ctx.Err())) {
			return // the 504 went out
		}
		// The answer had begun. Its handler, whose context has ended,
		// may be finishing it (an error it got from that context): let it,
		// for a moment; else cut the answer.
		grace := time.NewTimer(AnswerGrace)
		defer grace.Stop()
		select {
		case <-done:
			handlerDone()
		case <-grace.C:
			tw.cut()
		}
	})
}

// maxIdleHandlerWorkers bounds the goroutines WithTimeout keeps waiting
// for the next request's handler (see handlerWorkers): enough for the
// requests two cores serve at once many times over, and at most a few
// MiB of stacks.
const maxIdleHandlerWorkers = 64

// handlerWorkerIdle is how long an idle handler worker waits for the next
// request before it ends: requests further apart than that start on a
// new goroutine, as every request did before.
const handlerWorkerIdle = 5 * time.Second

// AnswerGrace is how long WithTimeout lets a handler that has begun its
// answer finish it after the deadline, before it cuts the answer.
const AnswerGrace = time.Second

// timeoutWriter passes a handler's answer through until WithTimeout's
// deadline, and nothing after it.
//
// Mirrors baseTimeoutWriter in k8s.io/apiserver/pkg/server/filters/timeout.go.
type timeoutWriter struct {
	w http.ResponseWriter
	// h is the handler's header, copied to w's when the answer begins:
	// a 504 must not carry the headers of an answer that never was.
	h http.Header

	mu sync.Mutex // guards everything below, and every use of w
	// timedOut is set iff the deadline passed; writes after it fail.
	timedOut bool
	// wroteHeader is set iff the answer has begun (its status line sent).
	wroteHeader bool
}

func (tw *timeoutWriter) Header() http.Header { return tw.h }

// begin sends the header with code; tw.mu is held.
func (tw *timeoutWriter) begin(code int) {
	if tw.wroteHeader {
		return
	}
	tw.wroteHeader = true
	for k, v := range tw.h {
		tw.w.Header()[k] = v
	}
	tw.w.WriteHeader(code)
}

func (tw *timeoutWriter) WriteHeader(code int) {
	tw.mu.Lock()
	defer tw.mu.Unlock()
	if !tw.timedOut {
		tw.begin(code)
	}
}

func (tw *timeoutWriter) Write(b []byte) (int, error) {
	tw.mu.Lock()
	defer tw.mu.Unlock()
	if tw.timedOut {
		return 0, http.ErrHandlerTimeout
	}
	tw.begin(http.StatusOK)
	return tw.w.Write(b)
}

// Flush sends what was written so far.
func (tw *timeoutWriter) Flush() {
	tw.mu.Lock()
	defer tw.mu.Unlock()
	if !tw.timedOut {
		tw.begin(http.StatusOK)
		_ = http.NewResponseController(tw.w).Flush()
	}
}

// timeout answers 504 and reports false if the answer has not begun;
// else it reports true and changes nothing.
func (tw *timeoutWriter) timeout(err error) (begun bool) {
	tw.mu.Lock()
	defer tw.mu.Unlock()
	if tw.wroteHeader {
		return true
	}
	tw.timedOut = true
	responsewriters.WriteError(tw.w, apierrors.NewTimeoutError(err.Error(), 0))
	return false
}

// cut ends a begun answer: later writes fail, and http.ErrAbortHandler
// makes net/http close the connection (or reset the HTTP/2 stream)
// without logging a panic, so the client sees a failed answer, never a
// short one.
func (tw *timeoutWriter) cut() {
	tw.mu.Lock()
	tw.timedOut = true
	tw.mu.Unlock()
	panic(http.ErrAbortHandler)
}

// statusRecorder remembers the code and size of an answer for the log and
// for panic recovery. It passes Flush through, which watches need.
type statusRecorder struct {
	http.ResponseWriter

	mu sync.Mutex // guards status and n
	// status is 0 until WriteHeader (or the first Write) happens.
	status int
	n      int
}

func (s *statusRecorder) WriteHeader(code int) {
	s.mu.Lock()
	if s.status == 0 {
		s.status = code
	}
	s.mu.Unlock()
	s.ResponseWriter.WriteHeader(code)
}

func (s *statusRecorder) Write(b []byte) (int, error) {
	s.mu.Lock()
	if s.status == 0 {
		s.status = http.StatusOK
	}
	s.mu.Unlock()
	n, err := s.ResponseWriter.Write(b)
	s.mu.Lock()
	s.n += n
	s.mu.Unlock()
	return n, err
}

// Flush flushes the underlying writer, if it can.
func (s *statusRecorder) Flush() {
	s.mu.Lock()
	if s.status == 0 {
		s.status = http.StatusOK
	}
	s.mu.Unlock()
	if f, ok := s.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// Unwrap lets http.ResponseController reach the underlying writer.
func (s *statusRecorder) Unwrap() http.ResponseWriter { return s.ResponseWriter }

func (s *statusRecorder) wroteHeader() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.status != 0
}

func (s *statusRecorder) code() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.status
}

func (s *statusRecorder) bytes() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.n
}
