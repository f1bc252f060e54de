package handler

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"time"

	"github.com/gorilla/mux"

	"github.com/crdlab/crdlab/apis/apiextensions"
	apiextensionsv1 "github.com/crdlab/crdlab/apis/apiextensions/v1"
	apierrors "github.com/crdlab/crdlab/apis/errors"
	metav1 "github.com/crdlab/crdlab/apis/meta/v1"
	"github.com/crdlab/crdlab/apis/meta/v1/unstructured"
	"github.com/crdlab/crdlab/handler/discovery"
	"github.com/crdlab/crdlab/handler/endpoints"
	"github.com/crdlab/crdlab/handler/filters"
	"github.com/crdlab/crdlab/handler/request"
	"github.com/crdlab/crdlab/handler/responsewriters"
	"github.com/crdlab/crdlab/machinery/apiresource"
	"github.com/crdlab/crdlab/machinery/openapi"
	"github.com/crdlab/crdlab/registry"
	"github.com/crdlab/crdlab/scheme"
	"github.com/crdlab/crdlab/trace"
)

// Config is what New needs. Scheme, CRDREST and CRDStatusREST are
// required.
type Config struct {
	// Scheme knows the apiextensions.k8s.io types (install.Install).
	Scheme *scheme.Scheme
	// Codecs decode request bodies of CRDs; zero means codecs of Scheme.
	Codecs scheme.CodecFactory
	// CRDREST and CRDStatusREST serve customresourcedefinitions and their
	// /status, on internal *apiextensions.CustomResourceDefinition objects
	// (registry/customresourcedefinition.NewREST).
	CRDREST       registry.Storage
	CRDStatusREST registry.Storage
	// EnabledVersions are the versions of apiextensions.k8s.io served;
	// nil means just "v1". Add "v1beta1" to serve it too.
	EnabledVersions []string
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
	// DefaultWatchWriteTimeout; negative disables it.
	WatchWriteTimeout time.Duration
	// Delegate serves what nothing here serves; nil answers 404 NotFound
	// "the server could not find the requested resource".
	Delegate http.Handler
	// Now is the clock of Table age cells; nil means time.Now.
	Now func() time.Time
	// Tracer, if set, gets a "request" and a "response" event per request
	// (filters.WithTrace) and rides in the request context to the
	// registry. Nil: tracing off.
	Tracer *trace.Tracer

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

// CustomResourceValidator checks a custom resource about to be written
// (old is nil on create) and returns one cause per violation; warnings go
// to the request's recorder (registry.AddWarning).
type CustomResourceValidator func(ctx context.Context, obj, old *unstructured.Unstructured) []metav1.StatusCause

// CustomResourceStorage is the REST storage of one CRD's custom
// resources: Status and Scale are nil when the storage version has no such
// subresource.
type CustomResourceStorage struct {
	Main, Status, Scale registry.Storage
}

// Schema is a compiled openAPIV3Schema of one CRD version.
//
// Mirrors what upstream's crdInfo keeps per version: the schema validator,
// the structural defaulter and the pruner.
type Schema interface {
	// Validate returns one cause per violation, each with its field path
	// ("spec.replicas"): the OpenAPI schema, then (when that leaves nothing
	// that blocks them) the x-kubernetes-validations rules. old is the
	// stored object on update, nil on create: transition rules and
	// ratcheting need it.
	Validate(ctx context.Context, obj, old map[string]any) []metav1.StatusCause
	// Default sets the schema's defaults in obj.
	Default(obj map[string]any)
	// Prune drops the fields the schema does not know and returns their
	// paths ("spec.foo"), sorted.
	Prune(obj map[string]any) []string
}

// Handler is the HTTP face of crdlab: filters, discovery, the
// customresourcedefinitions endpoints, the custom resources of every
// served CRD and OpenAPI.
//
// Mirrors what k8s.io/apiserver's GenericAPIServer.Handler and
// apiextensions-apiserver's completedConfig.New assemble.
type Handler struct {
	cfg       Config
	logger    *slog.Logger
	router    *mux.Router
	chain     http.Handler
	discovery *discovery.Manager
	crds      *CRDHandler
	openapi   *openAPIService
	// crdScopes serves apiextensions.k8s.io per enabled version: main and
	// status scope.
	crdScopes map[string][2]*endpoints.RequestScope
	// watchLines shares encoded watch events between watchers.
	watchLines endpoints.WatchLines
}

// New builds the handler. It returns an error if cfg lacks a required
// field.
func New(cfg Config) (*Handler, error) {
	switch {
	case cfg.Scheme == nil:
		return nil, errors.New("handler: Config.Scheme is required")
	case cfg.CRDREST == nil || cfg.CRDStatusREST == nil:
		return nil, errors.New("handler: Config.CRDREST and Config.CRDStatusREST are required")
	}
	if cfg.EnabledVersions == nil {
		cfg.EnabledVersions = []string{"v1"}
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	if cfg.RequestTimeout == 0 {
		cfg.RequestTimeout = 60 * time.Second
	}
	if cfg.WatchWriteTimeout == 0 {
		cfg.WatchWriteTimeout = endpoints.DefaultWatchWriteTimeout
	}
	if cfg.MaxRequestBodyBytes == 0 {
		cfg.MaxRequestBodyBytes = responsewriters.MaxRequestBodyBytes
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Delegate == nil {
		cfg.Delegate = http.HandlerFunc(notFoundHandler)
	}
	h := &Handler{
		cfg:       cfg,
		logger:    cfg.Logger,
		discovery: discovery.NewManager(),
		crdScopes: map[string][2]*endpoints.RequestScope{},
	}
	h.openapi = newOpenAPIService(cfg.Logger)
	h.crds = newCRDHandler(h)
	var markers openapi.Markers
	if m, ok := cfg.CRDREST.(registry.SchemaMarkersStrategy); ok {
		markers = m.SchemaMarkers()
	}
	crdResources := make([]openapi.Resource, len(cfg.EnabledVersions))
	for i, v := range cfg.EnabledVersions {
		gv := scheme.GroupVersion{Group: apiextensions.GroupName, Version: v}
		if !cfg.Scheme.IsVersionRegistered(gv) {
			return nil, errors.New("handler: apiextensions.k8s.io/" + v + " is not registered in the scheme")
		}
		res, err := crdKindOpenAPIResource(cfg.Scheme, gv, markers)
		if err != nil {
			return nil, fmt.Errorf("handler: OpenAPI schema of %s: %w", gv, err)
		}
		crdResources[i] = res
	}
	for i, v := range cfg.EnabledVersions {
		gv := scheme.GroupVersion{Group: apiextensions.GroupName, Version: v}
		main, status := h.newCRDScope(gv, ""), h.newCRDScope(gv, "status")
		var err error
		kind := gv.WithKind("CustomResourceDefinition")
		if main.FieldManager, err = h.newTypedFieldManager(crdResources, kind, "", cfg.CRDREST); err != nil {
			return nil, fmt.Errorf("handler: field manager of %s: %w", gv, err)
		}
		if status.FieldManager, err = h.newTypedFieldManager(crdResources, kind, "status", cfg.CRDStatusREST); err != nil {
			return nil, fmt.Errorf("handler: field manager of %s/status: %w", gv, err)
		}
		h.crdScopes[v] = [2]*endpoints.RequestScope{main, status}
		// The built-in group's discovery and OpenAPI are the server's
		// own, set once; those of CRD groups are the controllers'
		// (DiscoveryController, the OpenAPI controller).
		h.discovery.SetGroupVersion(gv, []apiresource.Resource{crdDiscoveryResource()})
		h.openapi.setGroupVersion(gv, []openapi.Resource{crdResources[i]})
	}
	// Built-in groups come before CRD groups in /apis, as upstream.
	h.discovery.SetGroupPriority(apiextensions.GroupName, 1000)
	h.router = h.routes()
	h.chain = h.buildChain(h.router)
	return h, nil
}

// ServeHTTP serves every request through the filter chain.
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) { h.chain.ServeHTTP(w, r) }

// Discovery returns the discovery state. The DiscoveryController
// (controller/discovery) is the only writer of CRD groups' discovery; the
// handler writes only apiextensions.k8s.io's, in New.
func (h *Handler) Discovery() *discovery.Manager { return h.discovery }

// CRDs returns the crdHandler, whose OnAdd/OnUpdate/OnDelete hooks the CRD
// informer calls. They decide what is served, not what discovery or
// OpenAPI say.
func (h *Handler) CRDs() *CRDHandler { return h.crds }

// buildChain wraps the router in the filters, outermost first.
//
// Mirrors DefaultBuildHandlerChain in k8s.io/apiserver/pkg/server/config.go.
func (h *Handler) buildChain(inner http.Handler) http.Handler {
	var c http.Handler = inner
	c = filters.WithTimeout(c, h.cfg.RequestTimeout)
	c = filters.WithMaxRequestBody(c, h.cfg.MaxRequestBodyBytes)
	c = filters.WithTrace(c, h.cfg.Tracer)
	c = filters.WithRequestInfo(c, request.NewRequestInfoFactory())
	c = filters.WithRequestLog(c, h.logger)
	c = filters.WithPanicRecovery(c, h.logger)
	return c
}

// routes lays out every path. Discovery and OpenAPI are routed by path;
// every other path under /apis/ is a resource request, served by what its
// RequestInfo says (serveResourceRequest).
func (h *Handler) routes() *mux.Router {
	r := mux.NewRouter()
	r.NotFoundHandler = h.cfg.Delegate
	r.MethodNotAllowedHandler = h.cfg.Delegate

	r.HandleFunc("/openapi/v3", h.openapi.serveRoot).Methods(http.MethodGet)
	r.HandleFunc("/openapi/v3/apis/{group}/{version}", func(w http.ResponseWriter, req *http.Request) {
		v := mux.Vars(req)
		h.openapi.serveGroupVersion(w, req, scheme.GroupVersion{Group: v["group"], Version: v["version"]})
	}).Methods(http.MethodGet)

	r.HandleFunc("/apis", h.discovery.ServeAPIs).Methods(http.MethodGet)
	r.HandleFunc("/apis/{group}", func(w http.ResponseWriter, req *http.Request) {
		h.discovery.ServeGroup(w, req, mux.Vars(req)["group"])
	}).Methods(http.MethodGet)
	r.HandleFunc("/apis/{group}/{version}", func(w http.ResponseWriter, req *http.Request) {
		v := mux.Vars(req)
		h.discovery.ServeGroupVersion(w, req, scheme.GroupVersion{Group: v["group"], Version: v["version"]})
	}).Methods(http.MethodGet)

	r.PathPrefix("/apis/").HandlerFunc(h.serveResourceRequest)
	return r
}

// serveResourceRequest serves a path under /apis/ that is not discovery by
// what its RequestInfo names — the one parse of the URL, which the
// authorizer read too — never by the path's look: apiextensions.k8s.io's
// customresourcedefinitions (crd.go), or else the crdHandler, which hands
// what it does not serve to the delegate. So a path is served as the
// resource it was authorized as, or not at all (a CRD whose plural is a
// special verb, proxy or watch, or a subresource of namespaces, status or
// finalize, has paths RequestInfo reads as something else; upstream serves
// none of them either).
//
// Mirrors the NonGoRestfulMux.HandlePrefix("/apis/", crdHandler) of
// apiextensions-apiserver's completedConfig.New, with the CRD API's own
// routes in front.
func (h *Handler) serveResourceRequest(w http.ResponseWriter, r *http.Request) {
	if info, ok := request.RequestInfoFrom(r.Context()); ok && info.IsResourceRequest &&
		info.APIGroup == apiextensions.GroupName && info.Resource == "customresourcedefinitions" {
		h.serveCRDs(w, r, info)
		return
	}
	h.crds.ServeHTTP(w, r)
}

// serverScope fills in what every scope of h shares: the tracer, the
// watch write timeout and the cache of encoded watch events.
func (h *Handler) serverScope(s *endpoints.RequestScope) *endpoints.RequestScope {
	s.Tracer, s.WatchWriteTimeout, s.WatchLines = h.cfg.Tracer, h.cfg.WatchWriteTimeout, &h.watchLines
	return s
}

// notFoundHandler is the end of the delegation chain: a 404 Status, as
// upstream's NotFoundHandler answers.
func notFoundHandler(w http.ResponseWriter, _ *http.Request) {
	e := apierrors.NewNotFound(scheme.GroupResource{}, "")
	e.ErrStatus.Message = "the server could not find the requested resource"
	e.ErrStatus.Details = &metav1.StatusDetails{}
	responsewriters.WriteError(w, e)
}
