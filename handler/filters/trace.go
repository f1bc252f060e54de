package filters

import (
	"context"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/crdlab/crdlab/handler/request"
	"github.com/crdlab/crdlab/trace"
)

// WithTrace tells tr about every request: a "request" event when it
// comes in (who sent it, what it asks) and a "response" event when it is
// answered (code, latency, and the object's key and resourceVersion when
// the handler noted them with NoteObject). It puts tr in the request's
// context for the registry (trace.FromContext). With tr nil it returns h
// itself: tracing off costs nothing here.
//
// Upstream's nearest relative is the request tracing of
// k8s.io/apiserver/pkg/endpoints/filters (WithTracing, and utiltrace
// steps logged for slow requests).
func WithTrace(h http.Handler, tr *trace.Tracer) http.Handler {
	if !tr.Enabled() {
		return h
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		ev := trace.Event{Component: trace.Handler, Actor: shortUserAgent(r.UserAgent())}
		info, _ := request.RequestInfoFrom(r.Context())
		verb := r.Method
		if info != nil && info.IsResourceRequest {
			verb = strings.ToUpper(info.Verb)
			ev.Resource = info.Resource
			if info.APIGroup != "" {
				ev.Resource += "." + info.APIGroup
			}
			if info.Subresource != "" {
				ev.Resource += "/" + info.Subresource
			}
			ev.Key = info.Name
			if info.Namespace != "" && info.Name != "" {
				ev.Key = info.Namespace + "/" + info.Name
			}
		}
		req := ev
		req.Step, req.Message, req.Upstream = "request", verb+" "+r.URL.RequestURI(), handlerUpstream(info)
		note := &objectNote{tr: tr}
		if verb == "CREATE" && ev.Key == "" {
			// The name is in the body: the "request" event waits for
			// NoteRequestKey, so that it names the object.
			note.pending = &req
		} else {
			tr.Emit(req)
		}

		ctx := context.WithValue(trace.WithTracer(r.Context(), tr), objectNoteKey{}, note)
		rw := &statusRecorder{ResponseWriter: w}
		h.ServeHTTP(rw, r.WithContext(ctx))

		note.mu.Lock()
		note.emitPendingLocked("")
		resp := ev
		resp.Key, resp.ResourceVersion = note.key, note.rv
		// Under the lock: after a timeout the handler may still be running
		// (WithTimeout) and noting.
		link := note.link
		note.mu.Unlock()
		resp.Step, resp.Duration = "response", time.Since(start)
		if resp.Key == "" {
			resp.Key = ev.Key
		}
		resp.Message = strconv.Itoa(rw.code()) + " " + http.StatusText(rw.code()) + " to " + verb + " " + r.URL.Path
		if link != "" {
			resp.Message += " (served by " + link + ")"
		}
		if rw.code() >= 400 {
			resp.Err = http.StatusText(rw.code())
		}
		tr.Emit(resp)
	})
}

type objectNoteKey struct{}

// objectNote is what the handler tells WithTrace about the object of a
// request. The handler may run in another goroutine than the filter
// (WithTimeout), hence the lock.
type objectNote struct {
	tr *trace.Tracer

	mu      sync.Mutex
	key, rv string
	// link is the link of the server chain that answered (NoteLink).
	link string
	// pending is a create's "request" event, held until its key is known.
	pending *trace.Event
}

func (n *objectNote) emitPendingLocked(key string) {
	if n.pending == nil {
		return
	}
	if key != "" {
		n.pending.Key = key
	}
	n.tr.Emit(*n.pending)
	n.pending = nil
}

// NoteRequestKey tells WithTrace the key ("namespace/name" or "name") of
// the object a create request carries in its body, once decoded: the
// request's "request" event is emitted then, with the key. Without
// WithTrace it does nothing.
func NoteRequestKey(ctx context.Context, key string) {
	if n, ok := ctx.Value(objectNoteKey{}).(*objectNote); ok {
		n.mu.Lock()
		n.emitPendingLocked(key)
		n.mu.Unlock()
	}
}

// NoteObject records, for WithTrace's "response" event, the key
// ("namespace/name" or "name") and resourceVersion of the object a
// request answers with. Without WithTrace it does nothing.
func NoteObject(ctx context.Context, key, rv string) {
	if n, ok := ctx.Value(objectNoteKey{}).(*objectNote); ok {
		n.mu.Lock()
		n.key, n.rv = key, rv
		n.mu.Unlock()
	}
}

// NoteLink records, for WithTrace's "response" event, which link of the
// server chain the request reached ("kube-apiserver",
// "apiextensions-apiserver"); each link notes itself as the request
// comes in, so the last one noted is the one that answered. Without
// WithTrace it does nothing.
func NoteLink(ctx context.Context, link string) {
	if n, ok := ctx.Value(objectNoteKey{}).(*objectNote); ok {
		n.mu.Lock()
		n.link = link
		n.mu.Unlock()
	}
}

// shortUserAgent keeps the program and version of a User-Agent:
// "kubectl/v1.37.2 (linux/amd64) kubernetes/abc" becomes "kubectl/v1.37.2".
func shortUserAgent(ua string) string {
	if i := strings.IndexByte(ua, ' '); i > 0 {
		return ua[:i]
	}
	return ua
}

// handlerUpstream names the upstream handler of a request's verb.
func handlerUpstream(info *request.RequestInfo) string {
	if info == nil || !info.IsResourceRequest {
		return "k8s.io/apiserver/pkg/server.(*APIServerHandler).ServeHTTP"
	}
	const pkg = "k8s.io/apiserver/pkg/endpoints/handlers."
	switch info.Verb {
	case "create":
		return pkg + "CreateResource"
	case "update":
		return pkg + "UpdateResource"
	case "patch":
		return pkg + "PatchResource"
	case "delete":
		return pkg + "DeleteResource"
	case "deletecollection":
		return pkg + "DeleteCollection"
	case "get":
		return pkg + "GetResource"
	case "list", "watch":
		return pkg + "ListResource"
	}
	return "k8s.io/apiserver/pkg/endpoints/handlers"
}
