package handler_test

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/crdlab/crdlab/apis/apiextensions"
	"github.com/crdlab/crdlab/apis/apiextensions/install"
	apiextensionsv1 "github.com/crdlab/crdlab/apis/apiextensions/v1"
	apierrors "github.com/crdlab/crdlab/apis/errors"
	metav1 "github.com/crdlab/crdlab/apis/meta/v1"
	"github.com/crdlab/crdlab/apis/meta/v1/unstructured"
	"github.com/crdlab/crdlab/handler"
	"github.com/crdlab/crdlab/handler/request"
	"github.com/crdlab/crdlab/machinery/apiresource"
	"github.com/crdlab/crdlab/machinery/watch"
	"github.com/crdlab/crdlab/registry"
	"github.com/crdlab/crdlab/scheme"
)

// spyCall is one call the handler made on a REST storage: what it served.
type spyCall struct {
	group, resource, subresource string
	// verb is the storage method's verb (Update serves update and patch).
	verb            string
	namespace, name string
}

// spyLog collects the calls of every spy of one server.
type spyLog struct {
	mu    sync.Mutex
	calls []spyCall
}

func (l *spyLog) take() []spyCall {
	l.mu.Lock()
	defer l.mu.Unlock()
	c := l.calls
	l.calls = nil
	return c
}

// spy is a REST storage of every verb that records each call and serves
// nothing (NotFound, empty lists, a watch that ends at once).
type spy struct {
	gr          scheme.GroupResource
	subresource string
	log         *spyLog
	newObj      func() scheme.Object
	newList     func() scheme.Object
}

var (
	_ registry.Getter            = (*spy)(nil)
	_ registry.Lister            = (*spy)(nil)
	_ registry.Watcher           = (*spy)(nil)
	_ registry.Creater           = (*spy)(nil)
	_ registry.Updater           = (*spy)(nil)
	_ registry.GracefulDeleter   = (*spy)(nil)
	_ registry.CollectionDeleter = (*spy)(nil)
)

func (s *spy) record(ctx context.Context, verb, name string) {
	s.log.mu.Lock()
	defer s.log.mu.Unlock()
	s.log.calls = append(s.log.calls, spyCall{group: s.gr.Group, resource: s.gr.Resource, subresource: s.subresource,
		verb: verb, namespace: registry.NamespaceFrom(ctx), name: name})
}

func (s *spy) New() scheme.Object     { return s.newObj() }
func (s *spy) NewList() scheme.Object { return s.newList() }
func (s *spy) Destroy()               {}

func (s *spy) Get(ctx context.Context, name string, _ *metav1.GetOptions) (scheme.Object, error) {
	s.record(ctx, "get", name)
	return nil, apierrors.NewNotFound(s.gr, name)
}

func (s *spy) List(ctx context.Context, _ *metav1.ListOptions) (scheme.Object, error) {
	s.record(ctx, "list", "")
	return s.newList(), nil
}

func (s *spy) Watch(ctx context.Context, _ *metav1.ListOptions) (watch.Interface, error) {
	s.record(ctx, "watch", "")
	w := watch.NewFake()
	w.Stop()
	return w, nil
}

func (s *spy) Create(ctx context.Context, obj scheme.Object, _ registry.ValidateObjectFunc, _ *metav1.CreateOptions) (scheme.Object, error) {
	name := ""
	if m, ok := metav1.Accessor(obj); ok {
		name = m.GetName()
	}
	s.record(ctx, "create", name)
	return nil, apierrors.NewAlreadyExists(s.gr, name)
}

func (s *spy) Update(ctx context.Context, name string, _ registry.UpdatedObjectInfo, _ registry.ValidateObjectFunc,
	_ registry.ValidateObjectUpdateFunc, _ bool, _ *metav1.UpdateOptions) (scheme.Object, bool, error) {
	s.record(ctx, "update", name)
	return nil, false, apierrors.NewNotFound(s.gr, name)
}

func (s *spy) Delete(ctx context.Context, name string, _ registry.ValidateObjectFunc, _ *metav1.DeleteOptions) (scheme.Object, bool, error) {
	s.record(ctx, "delete", name)
	return nil, false, apierrors.NewNotFound(s.gr, name)
}

func (s *spy) DeleteCollection(ctx context.Context, _ registry.ValidateObjectFunc, _ *metav1.DeleteOptions, _ *metav1.ListOptions) (scheme.Object, error) {
	s.record(ctx, "deletecollection", "")
	return s.newList(), nil
}

// spyGroup is the group of the spied custom resources.
const spyGroup = "g.example.com"

// spyCRDs are CRDs whose plurals RequestInfo reads specially — special
// verbs (proxy, watch), subresources of namespaces (status, finalize),
// namespaces itself — and an ordinary one with /status and /scale.
var spyCRDs = []struct {
	plural string
	scope  apiextensionsv1.ResourceScope
}{
	{"crontabs", apiextensionsv1.NamespaceScoped},
	{"proxy", apiextensionsv1.ClusterScoped},
	{"watch", apiextensionsv1.ClusterScoped},
	{"status", apiextensionsv1.NamespaceScoped},
	{"finalize", apiextensionsv1.NamespaceScoped},
	{"namespaces", apiextensionsv1.NamespaceScoped},
	{"clusterthings", apiextensionsv1.ClusterScoped},
}

// newSpyServer is a handler whose every storage — the CRD API's and each
// spyCRDs CRD's — is a spy logging to the returned log.
func newSpyServer(t testing.TB) (*handler.GenericAPIServer, *spyLog) {
	t.Helper()
	log := &spyLog{}
	s := scheme.NewScheme()
	install.Install(s)
	crdGR := scheme.GroupResource{Group: apiextensions.GroupName, Resource: "customresourcedefinitions"}
	newCRD := func() scheme.Object { return &apiextensions.CustomResourceDefinition{} }
	newCRDList := func() scheme.Object { return &apiextensions.CustomResourceDefinitionList{} }
	newCR := func() scheme.Object { return &unstructured.Unstructured{Object: map[string]any{}} }
	newCRList := func() scheme.Object { return &unstructured.UnstructuredList{Object: map[string]any{}} }
	cfg := handler.Config{
		Scheme: s, Codecs: scheme.NewCodecFactory(s),
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil)),
		CustomResourceStorage: func(crd *apiextensionsv1.CustomResourceDefinition, _ handler.CustomResourceValidator) (*handler.CustomResourceStorage, error) {
			gr := scheme.GroupResource{Group: crd.Spec.Group, Resource: crd.Spec.Names.Plural}
			return &handler.CustomResourceStorage{
				Main:   &spy{gr: gr, log: log, newObj: newCR, newList: newCRList},
				Status: &spy{gr: gr, subresource: "status", log: log, newObj: newCR, newList: newCRList},
				Scale:  &spy{gr: gr, subresource: "scale", log: log, newObj: newCR, newList: newCRList},
			}, nil
		},
	}
	h, err := cfg.Complete().New("apiextensions-apiserver", nil)
	if err != nil {
		t.Fatal(err)
	}
	info := handler.NewDefaultAPIGroupInfo(apiextensions.GroupName, s, scheme.NewCodecFactory(s))
	info.VersionedResourcesStorageMap["v1"] = map[string]registry.Storage{
		"customresourcedefinitions":        &spy{gr: crdGR, log: log, newObj: newCRD, newList: newCRDList},
		"customresourcedefinitions/status": &spy{gr: crdGR, subresource: "status", log: log, newObj: newCRD, newList: newCRDList},
	}
	if err := h.InstallAPIGroup(&info); err != nil {
		t.Fatal(err)
	}
	handler.NewCRDHandler(h)
	// What the DiscoveryController would publish: the router serves it.
	var resources []apiresource.Resource
	for _, c := range spyCRDs {
		resources = append(resources, apiresource.Resource{Name: c.plural, Kind: "Spy" + c.plural,
			Namespaced: c.scope == apiextensionsv1.NamespaceScoped, Verbs: []string{"get", "list"}})
	}
	h.Discovery().SetGroupVersion(scheme.GroupVersion{Group: spyGroup, Version: "v1"}, resources)
	for _, c := range spyCRDs {
		kind := "Spy" + c.plural
		h.CRDs().OnAdd(&apiextensionsv1.CustomResourceDefinition{
			ObjectMeta: metav1.ObjectMeta{Name: c.plural + "." + spyGroup, UID: metav1.UID("uid-" + c.plural)},
			Spec: apiextensionsv1.CustomResourceDefinitionSpec{
				Group: spyGroup, Scope: c.scope,
				Names: apiextensionsv1.CustomResourceDefinitionNames{Plural: c.plural, Kind: kind},
				Versions: []apiextensionsv1.CustomResourceDefinitionVersion{{Name: "v1", Served: true, Storage: true,
					Subresources: &apiextensionsv1.CustomResourceSubresources{
						Status: &apiextensionsv1.CustomResourceSubresourceStatus{},
						Scale:  &apiextensionsv1.CustomResourceSubresourceScale{SpecReplicasPath: ".spec.replicas", StatusReplicasPath: ".status.replicas"},
					}}},
			},
			Status: apiextensionsv1.CustomResourceDefinitionStatus{
				AcceptedNames: apiextensionsv1.CustomResourceDefinitionNames{Plural: c.plural, Kind: kind},
				Conditions: []apiextensionsv1.CustomResourceDefinitionCondition{
					{Type: apiextensionsv1.NamesAccepted, Status: apiextensionsv1.ConditionTrue},
					{Type: apiextensionsv1.Established, Status: apiextensionsv1.ConditionTrue},
				},
			},
		})
	}
	return h, log
}

// checkServedAsNamed serves r and checks that what the router served is
// what r's RequestInfo names: every storage call it makes is on the
// resource RequestInfo names — group, resource, subresource, namespace,
// name and verb — and a discovery document (the router's path routes) is
// served only for a path RequestInfo reads as that very discovery path,
// not a resource. What the authorizer decided on is what is served, or
// nothing is.
func checkServedAsNamed(t *testing.T, h *handler.GenericAPIServer, log *spyLog, r *http.Request) {
	t.Helper()
	info := request.NewRequestInfoFactory().NewRequestInfo(r)
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	calls := log.take()
	checkDiscoveryAsNamed(t, r, info, w)
	if len(calls) > 1 {
		t.Fatalf("%s %s: %d storage calls: %+v", r.Method, r.URL, len(calls), calls)
	}
	for _, c := range calls {
		want := spyCall{group: info.APIGroup, resource: info.Resource, subresource: info.Subresource, verb: info.Verb, namespace: info.Namespace}
		switch info.Verb {
		case "patch":
			want.verb = "update"
			fallthrough
		case "get", "update", "delete":
			want.name = info.Name
		case "create":
			want.name = c.name // the body's
		}
		if c.group != "apiextensions.k8s.io" && !namespacedSpy(c.resource) {
			want.namespace = "" // cluster-scoped: the URL has none, or is not served
		}
		if !info.IsResourceRequest || c != want {
			t.Fatalf("%s %s (%d): served %+v; RequestInfo names %+v (resource request: %v)", r.Method, r.URL, w.Code, c, want, info.IsResourceRequest)
		}
	}
}

// checkDiscoveryAsNamed checks a discovery answer of the router's path
// routes (/apis, /apis/<group>, /apis/<group>/<version>) against
// RequestInfo: a non-resource request for the path of exactly the group
// or group version the document describes.
func checkDiscoveryAsNamed(t *testing.T, r *http.Request, info *request.RequestInfo, w *httptest.ResponseRecorder) {
	t.Helper()
	if w.Code != http.StatusOK {
		return
	}
	var doc struct{ Kind, GroupVersion, Name string }
	if json.Unmarshal(w.Body.Bytes(), &doc) != nil {
		return
	}
	var path string
	switch doc.Kind {
	case "APIGroupList":
		path = "/apis"
	case "APIGroup":
		path = "/apis/" + doc.Name
	case "APIResourceList":
		path = "/apis/" + doc.GroupVersion
	default:
		return
	}
	if info.IsResourceRequest || info.Path != path || r.URL.Path != path {
		t.Fatalf("%s %s: the router served the %s of %s; RequestInfo reads %+v", r.Method, r.URL, doc.Kind, path, info)
	}
}

func namespacedSpy(plural string) bool {
	for _, c := range spyCRDs {
		if c.plural == plural {
			return c.scope == apiextensionsv1.NamespaceScoped
		}
	}
	return false
}

// TestHandler_ServesWhatRequestInfoNames checks issue 21's cases and their
// neighbours: a path is served as the resource its RequestInfo names (the
// authorizer's view), never as the path merely looks.
func TestHandler_ServesWhatRequestInfoNames(t *testing.T) {
	h, log := newSpyServer(t)
	for _, c := range []struct {
		method, target string
		served         bool // whether some storage is called
	}{
		{"GET", "/apis/g.example.com/v1/namespaces/default/crontabs/a", true},
		{"GET", "/apis/g.example.com/v1/namespaces/default/crontabs/a/status", true},
		{"PUT", "/apis/g.example.com/v1/namespaces/default/crontabs/a/scale", true},
		{"GET", "/apis/g.example.com/v1/crontabs", true},
		{"GET", "/apis/g.example.com/v1/watch/namespaces/default/crontabs", true},
		{"GET", "/apis/g.example.com/v1/clusterthings/a", true},
		{"GET", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions/a/status", true},
		// Issue 21, finding 2: RequestInfo reads these as a non-resource
		// (discovery) path, or as a namespace's status or finalize.
		{"GET", "/apis/g.example.com/v1/proxy", false},
		{"GET", "/apis/g.example.com/v1/proxy?watch=1", false},
		{"GET", "/apis/g.example.com/v1/watch", false},
		{"POST", "/apis/g.example.com/v1/watch", false},
		{"GET", "/apis/g.example.com/v1/proxy/a", false},
		// Served, but as RequestInfo reads it: the status of namespaces.g.example.com
		// "default" (a CRD of spyCRDs), not the CRD status.g.example.com.
		{"GET", "/apis/g.example.com/v1/namespaces/default/status", true},
		{"GET", "/apis/g.example.com/v1/namespaces/default/status/a", false},
		{"PATCH", "/apis/g.example.com/v1/namespaces/default/status/a", false},
		{"DELETE", "/apis/g.example.com/v1/namespaces/default/finalize/a", false},
		{"GET", "/apis/g.example.com/v1/namespaces/default/finalize", false},
		{"GET", "/apis/g.example.com/v1/namespaces/default/crontabs/a/status/extra", false},
	} {
		t.Run(c.method+c.target, func(t *testing.T) {
			r := newSpyRequest(c.method, c.target)
			checkServedAsNamed(t, h, log, r)
			r = newSpyRequest(c.method, c.target)
			h.ServeHTTP(httptest.NewRecorder(), r)
			if served := len(log.take()) > 0; served != c.served {
				t.Errorf("served: %v, want %v", served, c.served)
			}
		})
	}
}

func newSpyRequest(method, target string) *http.Request {
	var body io.Reader
	ct := ""
	switch method {
	case "POST", "PUT":
		body, ct = strings.NewReader(`{"apiVersion":"g.example.com/v1","kind":"Spycrontabs","metadata":{"name":"a"}}`), "application/json"
		if strings.Contains(target, "customresourcedefinitions") {
			body = strings.NewReader(`{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition","metadata":{"name":"a"}}`)
		}
		if strings.Contains(target, "/scale") {
			body = strings.NewReader(`{"apiVersion":"autoscaling/v1","kind":"Scale","metadata":{"name":"a"}}`)
		}
	case "PATCH":
		body, ct = strings.NewReader(`{}`), "application/merge-patch+json"
	}
	r := httptest.NewRequest(method, "http://x"+target, body)
	if ct != "" {
		r.Header.Set("Content-Type", ct)
	}
	return r
}

// spyTokens are the path segments FuzzHandler_ServesWhatRequestInfoNames
// builds paths of.
var spyTokens = []string{
	"apis", "api", "g.example.com", "apiextensions.k8s.io", "v1", "v2", "namespaces", "default",
	"crontabs", "proxy", "watch", "status", "finalize", "scale", "customresourcedefinitions",
	"clusterthings", "a", "",
	// Segments a router and RequestInfo could read differently: dot
	// segments, an escaped slash, another case.
	"..", ".", "a%2Fstatus", "Proxy",
}

// FuzzHandler_ServesWhatRequestInfoNames builds request paths of segments
// that RequestInfo and a router may read differently, and checks that the
// handler serves each as the resource RequestInfo — the URL parser behind
// authorization — names (checkServedAsNamed).
func FuzzHandler_ServesWhatRequestInfoNames(f *testing.F) {
	// Seeds: method, query, then segment indexes into spyTokens.
	seed := func(method, query byte, segs ...string) {
		b := []byte{method, query}
		for _, s := range segs {
			for i, tok := range spyTokens {
				if tok == s {
					b = append(b, byte(i))
				}
			}
		}
		f.Add(b)
	}
	seed(0, 0, "apis", "g.example.com", "v1", "proxy")
	seed(0, 1, "apis", "g.example.com", "v1", "watch")
	seed(0, 0, "apis", "g.example.com", "v1", "namespaces", "default", "status", "a")
	seed(4, 0, "apis", "g.example.com", "v1", "namespaces", "default", "finalize", "a")
	seed(0, 2, "apis", "g.example.com", "v1", "watch", "namespaces", "default", "crontabs", "a")
	seed(3, 0, "apis", "g.example.com", "v1", "namespaces", "default", "crontabs", "a", "scale")
	seed(1, 0, "apis", "apiextensions.k8s.io", "v1", "customresourcedefinitions", "a", "status")
	seed(2, 0, "apis", "g.example.com", "v1", "namespaces", "default", "namespaces")
	seed(0, 0, "apis", "g.example.com", "v1")
	seed(0, 0, "apis", "g.example.com")
	seed(0, 0, "apis")
	seed(0, 0, "apis", "g.example.com", "v1", "crontabs", "..", "..", "v1")
	seed(0, 0, "apis", "g.example.com", "v1", "namespaces", "default", "crontabs", "a%2Fstatus")
	h, log := newSpyServer(f)
	methods := []string{"GET", "POST", "DELETE", "PUT", "PATCH", "HEAD", "OPTIONS"}
	queries := []string{"", "?watch=1", "?fieldSelector=metadata.name%3Da", "?watch=true&fieldSelector=metadata.name%3Db"}
	f.Fuzz(func(t *testing.T, b []byte) {
		if len(b) < 2 || len(b) > 12 {
			return
		}
		segs := make([]string, 0, len(b)-2)
		for _, c := range b[2:] {
			segs = append(segs, spyTokens[int(c)%len(spyTokens)])
		}
		target := "/" + strings.Join(segs, "/") + queries[int(b[1])%len(queries)]
		checkServedAsNamed(t, h, log, newSpyRequest(methods[int(b[0])%len(methods)], target))
	})
}
