package request_test

import (
	"github.com/crdlab/crdlab/handler/internal/check"
	"net/http/httptest"
	"testing"

	"github.com/crdlab/crdlab/handler/request"
)

func TestRequestInfoFactory_NewRequestInfo(t *testing.T) {
	f := request.NewRequestInfoFactory()
	tests := []struct {
		name, method, url string
		want              request.RequestInfo
	}{
		{"ClusterList", "GET", "/apis/stable.example.com/v1/crontabs",
			request.RequestInfo{IsResourceRequest: true, Verb: "list", APIPrefix: "apis", APIGroup: "stable.example.com", APIVersion: "v1", Resource: "crontabs", Parts: []string{"crontabs"}}},
		{"NamespacedGet", "GET", "/apis/stable.example.com/v1/namespaces/default/crontabs/a",
			request.RequestInfo{IsResourceRequest: true, Verb: "get", APIPrefix: "apis", APIGroup: "stable.example.com", APIVersion: "v1", Namespace: "default", Resource: "crontabs", Name: "a", Parts: []string{"crontabs", "a"}}},
		{"Status", "PUT", "/apis/g/v1/namespaces/ns/crontabs/a/status",
			request.RequestInfo{IsResourceRequest: true, Verb: "update", APIPrefix: "apis", APIGroup: "g", APIVersion: "v1", Namespace: "ns", Resource: "crontabs", Name: "a", Subresource: "status", Parts: []string{"crontabs", "a", "status"}}},
		{"Watch", "GET", "/apis/g/v1/crontabs?watch=1",
			request.RequestInfo{IsResourceRequest: true, Verb: "watch", APIPrefix: "apis", APIGroup: "g", APIVersion: "v1", Resource: "crontabs", Parts: []string{"crontabs"}}},
		{"WatchTrue", "GET", "/apis/g/v1/crontabs?watch=true&fieldSelector=metadata.name%3Dx",
			request.RequestInfo{IsResourceRequest: true, Verb: "watch", APIPrefix: "apis", APIGroup: "g", APIVersion: "v1", Resource: "crontabs", Name: "x", Parts: []string{"crontabs"}}},
		{"LegacyWatchPrefix", "GET", "/apis/g/v1/watch/namespaces/ns/crontabs",
			request.RequestInfo{IsResourceRequest: true, Verb: "watch", APIPrefix: "apis", APIGroup: "g", APIVersion: "v1", Namespace: "ns", Resource: "crontabs", Parts: []string{"crontabs"}}},
		{"Create", "POST", "/apis/g/v1/namespaces/ns/crontabs",
			request.RequestInfo{IsResourceRequest: true, Verb: "create", APIPrefix: "apis", APIGroup: "g", APIVersion: "v1", Namespace: "ns", Resource: "crontabs", Parts: []string{"crontabs"}}},
		{"Patch", "PATCH", "/apis/g/v1/crontabs/a",
			request.RequestInfo{IsResourceRequest: true, Verb: "patch", APIPrefix: "apis", APIGroup: "g", APIVersion: "v1", Resource: "crontabs", Name: "a", Parts: []string{"crontabs", "a"}}},
		{"Delete", "DELETE", "/apis/g/v1/crontabs/a",
			request.RequestInfo{IsResourceRequest: true, Verb: "delete", APIPrefix: "apis", APIGroup: "g", APIVersion: "v1", Resource: "crontabs", Name: "a", Parts: []string{"crontabs", "a"}}},
		{"DeleteCollection", "DELETE", "/apis/g/v1/namespaces/ns/crontabs",
			request.RequestInfo{IsResourceRequest: true, Verb: "deletecollection", APIPrefix: "apis", APIGroup: "g", APIVersion: "v1", Namespace: "ns", Resource: "crontabs", Parts: []string{"crontabs"}}},
		{"NamespaceItself", "GET", "/api/v1/namespaces/ns",
			request.RequestInfo{IsResourceRequest: true, Verb: "get", APIPrefix: "api", APIVersion: "v1", Namespace: "ns", Resource: "namespaces", Name: "ns", Parts: []string{"namespaces", "ns"}}},
		{"NamespaceStatus", "PUT", "/api/v1/namespaces/ns/status",
			request.RequestInfo{IsResourceRequest: true, Verb: "update", APIPrefix: "api", APIVersion: "v1", Namespace: "ns", Resource: "namespaces", Name: "ns", Subresource: "status", Parts: []string{"namespaces", "ns", "status"}}},
		{"GroupVersionDiscovery", "GET", "/apis/g/v1", request.RequestInfo{Verb: "get", APIPrefix: "apis"}},
		{"GroupDiscovery", "GET", "/apis/g", request.RequestInfo{Verb: "get"}},
		{"Root", "GET", "/apis", request.RequestInfo{Verb: "get"}},
		{"NonResource", "GET", "/healthz", request.RequestInfo{Verb: "get"}},
		{"OpenAPI", "GET", "/openapi/v3/apis/g/v1", request.RequestInfo{Verb: "get"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := httptest.NewRequest(tt.method, tt.url, nil)
			got := f.NewRequestInfo(r)
			tt.want.Path = r.URL.Path
			check.Equal(t, &tt.want, got)
		})
	}
}

func TestRequestInfo_LongRunning(t *testing.T) {
	f := request.NewRequestInfoFactory()
	check.True(t, f.NewRequestInfo(httptest.NewRequest("GET", "/apis/g/v1/x?watch=1", nil)).LongRunning())
	check.False(t, f.NewRequestInfo(httptest.NewRequest("GET", "/apis/g/v1/x", nil)).LongRunning())
	check.False(t, f.NewRequestInfo(httptest.NewRequest("GET", "/apis", nil)).LongRunning())
}

func TestWithRequestInfo(t *testing.T) {
	info := &request.RequestInfo{Verb: "get"}
	ctx := request.WithRequestInfo(httptest.NewRequest("GET", "/", nil).Context(), info)
	got, ok := request.RequestInfoFrom(ctx)
	check.True(t, ok)
	check.True(t, info == got)
}
