package request_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/crdlab/crdlab/handler/request"
)

// FuzzRequestInfoFactory_NewRequestInfo checks that resolving a request
// never panics, whatever its method and request target, and that the
// parts it returns are single path segments: nothing it resolves can name
// more than one segment of a storage key.
func FuzzRequestInfoFactory_NewRequestInfo(f *testing.F) {
	for _, s := range [][2]string{
		{"GET", "/apis/stable.example.com/v1/namespaces/default/crontabs/a?watch=1"},
		{"PUT", "/apis/g/v1/namespaces/ns/crontabs/a/status"},
		{"DELETE", "/apis/g/v1/crontabs"},
		{"GET", "/apis/g/v1/watch/namespaces/ns/crontabs?fieldSelector=metadata.name%3Dx"},
		{"GET", "/api/v1/namespaces/ns/status"},
		{"GET", "/apis/g/v1/namespaces/..%2F..%2Fother/crontabs/a%00b"},
		{"POST", "//apis///g//v1/crontabs/"},
		{"PATCH", "/apis/g/v1/proxy/x"},
		{"GET", "/healthz"},
		{"BREW", "/apis/g/v1/crontabs/a/b/c/d/e"},
	} {
		f.Add(s[0], s[1])
	}
	factory := request.NewRequestInfoFactory()
	f.Fuzz(func(t *testing.T, method, target string) {
		u, err := url.ParseRequestURI(target)
		if err != nil {
			return // net/http answers 400 before any handler runs
		}
		r := &http.Request{Method: method, URL: u, Header: http.Header{}}
		info := factory.NewRequestInfo(r)
		if info == nil {
			t.Fatal("nil RequestInfo")
		}
		if info.Verb != strings.ToLower(info.Verb) {
			t.Fatalf("verb %q is not lower case", info.Verb)
		}
		for _, part := range []string{info.APIGroup, info.APIVersion, info.Namespace, info.Resource, info.Subresource} {
			if strings.Contains(part, "/") {
				t.Fatalf("%s %s: part %q spans segments: %+v", method, target, part, info)
			}
		}
		// Upstream's splitPath keeps empty segments ("//"), so only a path
		// without them must name a version.
		if info.IsResourceRequest && !strings.Contains(strings.Trim(u.Path, "/"), "//") {
			if info.APIVersion == "" {
				t.Fatalf("%s %s: resource request without a version: %+v", method, target, info)
			}
			if info.Name != "" && len(info.Parts) >= 2 && strings.Contains(info.Name, "/") {
				t.Fatalf("%s %s: name %q spans segments", method, target, info.Name)
			}
		}
		if info.LongRunning() && info.Verb != "watch" && info.Verb != "proxy" {
			t.Fatalf("long-running %q", info.Verb)
		}
	})
}
