package filters_test

import (
	"net/http"
	"net/http/httptest"
	"reflect"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/crdlab/crdlab/handler/filters"
	"github.com/crdlab/crdlab/handler/request"
	"github.com/crdlab/crdlab/trace"
)

func TestWithTrace_Off(t *testing.T) {
	h := http.HandlerFunc(func(http.ResponseWriter, *http.Request) {})
	got := filters.WithTrace(h, nil)
	require.Equal(t, reflect.ValueOf(h).Pointer(), reflect.ValueOf(got).Pointer(), "tracing off adds no filter")
}

func TestWithTrace_RequestAndResponse(t *testing.T) {
	tr := trace.New(trace.Options{})
	var inner *trace.Tracer
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		inner = trace.FromContext(r.Context())
		filters.NoteObject(r.Context(), "default/my-cron", "42")
		w.WriteHeader(http.StatusCreated)
	})
	chain := filters.WithRequestInfo(filters.WithTrace(h, tr), request.NewRequestInfoFactory())
	req := httptest.NewRequest("POST", "/apis/stable.example.com/v1/namespaces/default/crontabs", nil)
	req.Header.Set("User-Agent", "kubectl/v1.37.2 (linux/amd64) kubernetes/abc")
	chain.ServeHTTP(httptest.NewRecorder(), req)

	require.Same(t, tr, inner, "the registry finds the tracer in the context")
	events := tr.Recent(0)
	require.Len(t, events, 2)
	in, out := events[0], events[1]
	require.Equal(t, trace.Handler, in.Component)
	require.Equal(t, "request", in.Step)
	require.Equal(t, "kubectl/v1.37.2", in.Actor)
	require.Equal(t, "crontabs.stable.example.com", in.Resource)
	require.Equal(t, "CREATE /apis/stable.example.com/v1/namespaces/default/crontabs", in.Message)
	require.Equal(t, "k8s.io/apiserver/pkg/endpoints/handlers.CreateResource", in.Upstream)

	require.Equal(t, "response", out.Step)
	require.Equal(t, "default/my-cron", out.Key)
	require.Equal(t, "42", out.ResourceVersion)
	require.Equal(t, "201 Created to CREATE /apis/stable.example.com/v1/namespaces/default/crontabs", out.Message)
	require.Empty(t, out.Err)
	require.Positive(t, out.Duration)
}
