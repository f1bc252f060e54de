package handler

import (
	"errors"
	"log/slog"
	"net/http"
	"path"
	"strings"
	"time"

	"github.com/gorilla/mux"

	apiextensionsv1 "github.com/crdlab/crdlab/apis/apiextensions/v1"
	"github.com/crdlab/crdlab/handler/admission"
	"github.com/crdlab/crdlab/handler/discovery"
	"github.com/crdlab/crdlab/handler/endpoints"
	"github.com/crdlab/crdlab/handler/filters"
	"github.com/crdlab/crdlab/handler/request"
	"github.com/crdlab/crdlab/handler/responsewriters"
	"github.com/crdlab/crdlab/scheme"
	"github.com/crdlab/crdlab/trace"
)

// Config is what every link of the server chain is made from: the scheme
// and codecs of the built-in kinds, the limits of requests, the clock,
// the tracer, admission. Complete fills in the defaults and makes the
// state the links share (discovery, OpenAPI), and New makes one link.
//
// Mirrors k8s.io/apiserver/pkg/server.Config (Complete, New).
type Config struct {
	// Scheme knows the built-in kinds (apiextensions.k8s.io, and the
	// groups of package apis/builtin). Required.
	Scheme *scheme.Scheme
	// Codecs decode request bodies; zero means codecs of Scheme.
	Codecs scheme.CodecFactory
	// Logger gets the request log and panics; nil means slog.Default().
	Logger *slog.Logger
	// RequestTimeout bounds every request but watches; 0 means 60 s,
	// negative disables the timeout.
	RequestTimeout time.Duration
	// MaxRequestBodyBytes bounds request bodies; 0 means 3 MiB.
	MaxRequestBodyBytes int64
	// WatchWriteTimeout bounds each write of a watch stream: a client that
	// stops reading (its socket buffers full) has its watch ended after
	// this long instead of holding it open forever. 0 means
	// endpoints.DefaultWatchWriteTimeout; negative disables it.
	WatchWriteTimeout time.Duration
	// Now is the clock of Table age cells; nil means time.Now.
	Now func() time.Time
	// Tracer, if set, gets a "request" and a "response" event per request
	// (filters.WithTrace) and rides in the request context to the
	// registry. Nil: tracing off.
	Tracer *trace.Tracer
	// Admission, if set, may refuse creates, updates and deletes
	// (package admission: NamespaceLifecycle). Nil admits everything.
	Admission admission.Interface
	// OpenAPIVersion is info.version of /openapi/v2 (the server's
	// version); "" means "unversioned".
	OpenAPIVersion string

	// CustomResourceStorage builds the REST storage of one CRD's custom
	// resources, in the CRD's storage version (the handler converts to and
	// from the other served versions). Required to serve custom resources;
	// package apiserver wires registry/customresource.NewStorage.
	//
	// validate is what the storage's strategy calls on every create and
	// update: the schema checks of the version the request was written in
	// (the OpenAPI schema, then the CEL rules), as upstream's
	// customResourceStrategy.Validate and ValidateUpdate do.
	CustomResourceStorage func(crd *apiextensionsv1.CustomResourceDefinition, validate CustomResourceValidator) (*CustomResourceStorage, error)
	// SchemaFor compiles one version's openAPIV3Schema for validation
	// (with its x-kubernetes-validations rules), defaulting and pruning;
	// nil means no schema checks. It runs once per CRD version each time
	// the CRD's serving info is built, never per request. Package
	// apiserver wires packages structural and cel.
	SchemaFor func(crd *apiextensionsv1.CustomResourceDefinition, version string) (Schema, error)
}

// CompletedConfig is a Config with its defaults filled in and the state
// the links of one chain share: what /apis and /openapi say is the sum of
// every link's groups, as upstream's aggregator makes it.
type CompletedConfig struct{ *completedConfig }

type completedConfig struct {
	Config
	discovery *discovery.Manager
	openapi   *openAPIService
}

// Complete fills in the defaults.
func (c Config) Complete() CompletedConfig {
	if c.Logger == nil {
		c.Logger = slog.Default()
	}
	if c.RequestTimeout == 0 {
		c.RequestTimeout = 60 * time.Second
	}
	if c.WatchWriteTimeout == 0 {
		c.WatchWriteTimeout = endpoints.DefaultWatchWriteTimeout
	}
	if c.MaxRequestBodyBytes == 0 {
		c.MaxRequestBodyBytes = responsewriters.MaxRequestBodyBytes
	}
	if c.Now == nil {
		c.Now = time.Now
	}
	if c.Codecs.Scheme() == nil && c.Scheme != nil {
		c.Codecs = scheme.NewCodecFactory(c.Scheme)
	}
	if c.OpenAPIVersion == "" {
		c.OpenAPIVersion = "unversioned"
	}
	return CompletedConfig{&completedConfig{Config: c, discovery: discovery.NewManager(), openapi: newOpenAPIService(c.Logger, c.OpenAPIVersion)}}
}

// Discovery returns the discovery state the links share. The
// DiscoveryController (controller/discovery) is the only writer of CRD
// groups' discovery; InstallAPIGroup writes the built-in groups'.
func (c CompletedConfig) Discovery() *discovery.Manager { return c.discovery }

// DelegationTarget is the next link of the chain: what a link does not
// serve, it hands to the delegate's unprotected handler (the router,
// without the filters, which ran once already).
//
// Mirrors k8s.io/apiserver/pkg/server.DelegationTarget.
type DelegationTarget interface {
	UnprotectedHandler() http.Handler
	// Name names the link in traces.
	Name() string
}

// emptyDelegate is the end of the chain.
type emptyDelegate struct{ h http.Handler }

func (d emptyDelegate) UnprotectedHandler() http.Handler { return d.h }
func (d emptyDelegate) Name() string                     { return "the end of the chain (404)" }

// NewEmptyDelegate ends a chain with h; nil is NotFoundHandler.
//
// Mirrors genericapiserver.NewEmptyDelegateWithCustomHandler.
func NewEmptyDelegate(h http.Handler) DelegationTarget {
	if h == nil {
		h = http.HandlerFunc(NotFoundHandler)
	}
	return emptyDelegate{h}
}

// GenericAPIServer is one link of the server chain: the API groups it
// installed (InstallAPIGroup, InstallLegacyAPIGroup), the handlers added
// to it (the crdHandler of the apiextensions link), discovery and OpenAPI
// (shared by every link), and a delegate for the rest. Its ServeHTTP runs
// the filters and then its router; a link in the middle of a chain is
// reached through UnprotectedHandler, so that the filters run once.
//
// Mirrors k8s.io/apiserver/pkg/server.GenericAPIServer.
type GenericAPIServer struct {
	// name says which link this is in logs and traces
	// ("kube-apiserver", "apiextensions-apiserver").
	name   string
	cfg    *completedConfig
	logger *slog.Logger
	// router serves what this link has; its NotFoundHandler is delegate.
	router   *mux.Router
	delegate http.Handler
	// chain is the filters around router.
	chain http.Handler
	// crds is the crdHandler, if NewCRDHandler installed one.
	crds *CRDHandler
	// groups holds the scopes of every installed group version, by
	// "resource" or "resource/subresource". Written by Install*APIGroup
	// before the server serves, read-only after.
	groups map[scheme.GroupVersion]map[string]*endpoints.RequestScope
	// watchLines shares encoded watch events between watchers.
	watchLines endpoints.WatchLines
}

// New makes one link named name, handing what it does not serve to
// delegate (nil: the end of the chain, NotFoundHandler).
//
// Mirrors (completedConfig).New in k8s.io/apiserver/pkg/server/config.go.
func (c CompletedConfig) New(name string, delegate DelegationTarget) (*GenericAPIServer, error) {
	if c.Scheme == nil {
		return nil, errors.New("handler: Config.Scheme is required")
	}
	if delegate == nil {
		delegate = NewEmptyDelegate(nil)
	}
	s := &GenericAPIServer{
		name:   name,
		cfg:    c.completedConfig,
		logger: c.Logger,
		groups: map[scheme.GroupVersion]map[string]*endpoints.RequestScope{},
	}
	s.delegate = s.delegateTo(delegate)
	s.router = s.routes()
	s.chain = s.buildChain(s.UnprotectedHandler())
	return s, nil
}

// Name is the link's name.
func (h *GenericAPIServer) Name() string { return h.name }

// ServeHTTP serves every request through the filter chain.
func (h *GenericAPIServer) ServeHTTP(w http.ResponseWriter, r *http.Request) { h.chain.ServeHTTP(w, r) }

// UnprotectedHandler is the link without its filters: what the link in
// front of it delegates to. It notes the link for the trace first: the
// last link a request reaches is the one that answers it.
//
// A resource request goes to serveResourceRequest at once: the router
// would send it there too, after trying each discovery and OpenAPI route's
// regular expressions in turn (none can match a path RequestInfo reads as
// a resource), in every link it passes through. A path the router would
// clean first (and redirect) still goes through it.
func (h *GenericAPIServer) UnprotectedHandler() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		filters.NoteLink(r.Context(), h.name)
		if info, ok := request.RequestInfoFrom(r.Context()); ok && info.IsResourceRequest && path.Clean(r.URL.Path) == r.URL.Path {
			h.serveResourceRequest(w, r)
			return
		}
		h.router.ServeHTTP(w, r)
	})
}

// delegateTo is the link's NotFoundHandler: the delegate's unprotected
// handler, with a "delegate" trace event that says who hands what to
// whom.
//
// Mirrors the director of k8s.io/apiserver/pkg/server/handler.go, whose
// NotFoundHandler is the delegate's UnprotectedHandler.
func (h *GenericAPIServer) delegateTo(d DelegationTarget) http.Handler {
	next, nextName := d.UnprotectedHandler(), d.Name()
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if tr := trace.FromContext(r.Context()); tr.Enabled() {
			actor, _, _ := strings.Cut(r.UserAgent(), " ")
			tr.Emit(trace.Event{
				Component: trace.Handler, Step: "delegate", Actor: actor,
				Message:  h.name + " does not serve " + r.Method + " " + r.URL.Path + ": handed to " + nextName,
				Upstream: "k8s.io/apiserver/pkg/server.director.ServeHTTP (NotFoundHandler: the delegate's UnprotectedHandler)",
			})
		}
		filters.NoteLink(r.Context(), nextName)
		next.ServeHTTP(w, r)
	})
}

// Discovery returns the discovery state the links share.
func (h *GenericAPIServer) Discovery() *discovery.Manager { return h.cfg.discovery }

// CRDs returns the crdHandler (nil unless NewCRDHandler made one), whose
// OnAdd/OnUpdate/OnDelete hooks the CRD informer calls. They decide what
// is served, not what discovery or OpenAPI say.
func (h *GenericAPIServer) CRDs() *CRDHandler { return h.crds }

// buildChain wraps the router in the filters, outermost first.
//
// Mirrors DefaultBuildHandlerChain in k8s.io/apiserver/pkg/server/config.go.
func (h *GenericAPIServer) buildChain(inner http.Handler) http.Handler {
	var c http.Handler = inner
	c = filters.WithCompression(c)
	c = filters.WithTimeout(c, h.cfg.RequestTimeout)
	c = filters.WithMaxRequestBody(c, h.cfg.MaxRequestBodyBytes)
	c = filters.WithTrace(c, h.cfg.Tracer)
	c = filters.WithRequestInfo(c, request.NewRequestInfoFactory())
	c = filters.WithRequestLog(c, h.logger)
	c = filters.WithPanicRecovery(c, h.logger)
	return c
}

// routes lays out every path. Discovery and OpenAPI are routed by path
// (the same shared answers, whichever link is asked); every other path
// under /api/ and /apis/ is a resource request, served by what its
// RequestInfo says (serveResourceRequest).
func (h *GenericAPIServer) routes() *mux.Router {
	r := mux.NewRouter()
	r.NotFoundHandler = h.delegate
	r.MethodNotAllowedHandler = h.delegate
	d, o := h.cfg.discovery, h.cfg.openapi

	r.HandleFunc("/openapi/v2", o.serveV2).Methods(http.MethodGet)
	r.HandleFunc("/openapi/v3", o.serveRoot).Methods(http.MethodGet)
	r.HandleFunc("/openapi/v3/api/{version}", func(w http.ResponseWriter, req *http.Request) {
		o.serveGroupVersion(w, req, scheme.GroupVersion{Version: mux.Vars(req)["version"]})
	}).Methods(http.MethodGet)
	r.HandleFunc("/openapi/v3/apis/{group}/{version}", func(w http.ResponseWriter, req *http.Request) {
		v := mux.Vars(req)
		o.serveGroupVersion(w, req, scheme.GroupVersion{Group: v["group"], Version: v["version"]})
	}).Methods(http.MethodGet)

	r.HandleFunc("/api", d.ServeLegacyAPI).Methods(http.MethodGet)
	r.HandleFunc("/api/{version}", func(w http.ResponseWriter, req *http.Request) {
		d.ServeLegacyGroupVersion(w, req, mux.Vars(req)["version"])
	}).Methods(http.MethodGet)
	r.HandleFunc("/apis", d.ServeAPIs).Methods(http.MethodGet)
	r.HandleFunc("/apis/{group}", func(w http.ResponseWriter, req *http.Request) {
		d.ServeGroup(w, req, mux.Vars(req)["group"])
	}).Methods(http.MethodGet)
	r.HandleFunc("/apis/{group}/{version}", func(w http.ResponseWriter, req *http.Request) {
		v := mux.Vars(req)
		d.ServeGroupVersion(w, req, scheme.GroupVersion{Group: v["group"], Version: v["version"]})
	}).Methods(http.MethodGet)

	r.PathPrefix("/api/").HandlerFunc(h.serveResourceRequest)
	r.PathPrefix("/apis/").HandlerFunc(h.serveResourceRequest)
	return r
}

// serveResourceRequest serves a path under /api/ or /apis/ that is not
// discovery by what its RequestInfo names — the one parse of the URL,
// which the authorizer read too — never by the path's look: a group
// version this link installed (InstallAPIGroup) is served here, a 404
// included; else the crdHandler, if the link has one, serves it or hands
// it on; else the delegate, the next link. So a path is served as the
// resource it was authorized as, or not at all (a CRD whose plural is a
// special verb, proxy or watch, or a subresource of namespaces, status or
// finalize, has paths RequestInfo reads as something else; upstream serves
// none of them either).
//
// Mirrors the APIServerHandler's director (handler.go in
// k8s.io/apiserver/pkg/server): go-restful serves the installed groups'
// paths, the NonGoRestfulMux the rest — in the apiextensions link its
// HandlePrefix("/apis/", crdHandler) — and its NotFoundHandler delegates.
func (h *GenericAPIServer) serveResourceRequest(w http.ResponseWriter, r *http.Request) {
	info, ok := request.RequestInfoFrom(r.Context())
	if !ok {
		info = request.NewRequestInfoFactory().NewRequestInfo(r)
	}
	if info.IsResourceRequest {
		gv := scheme.GroupVersion{Group: info.APIGroup, Version: info.APIVersion}
		if _, installed := h.groups[gv]; installed && (gv.Group == "") == (info.APIPrefix == "api") {
			h.serveInstalled(w, r, gv, info)
			return
		}
	}
	if h.crds != nil {
		h.crds.ServeHTTP(w, r)
		return
	}
	h.delegate.ServeHTTP(w, r)
}

// serverScope fills in what every scope of h shares: the tracer, the
// watch write timeout and the cache of encoded watch events.
func (h *GenericAPIServer) serverScope(s *endpoints.RequestScope) *endpoints.RequestScope {
	s.Tracer, s.WatchWriteTimeout, s.WatchLines = h.cfg.Tracer, h.cfg.WatchWriteTimeout, &h.watchLines
	return s
}
