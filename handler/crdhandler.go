package handler

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"reflect"
	"sort"
	"sync"
	"time"

	"github.com/crdlab/crdlab/apis/apiextensions/helpers"
	apiextensionsv1 "github.com/crdlab/crdlab/apis/apiextensions/v1"
	apierrors "github.com/crdlab/crdlab/apis/errors"
	metav1 "github.com/crdlab/crdlab/apis/meta/v1"
	"github.com/crdlab/crdlab/apis/meta/v1/unstructured"
	"github.com/crdlab/crdlab/handler/admission"
	"github.com/crdlab/crdlab/handler/endpoints"
	"github.com/crdlab/crdlab/handler/request"
	"github.com/crdlab/crdlab/handler/responsewriters"
	"github.com/crdlab/crdlab/registry"
	"github.com/crdlab/crdlab/scheme"
	"github.com/crdlab/crdlab/trace"
)

// CRDHandler serves the custom resources of every CRD:
// /apis/<group>/<version>/[namespaces/<ns>/]<plural>[/<name>[/status|/scale]].
//
// It follows the CRDs through its hooks (OnAdd, OnUpdate, OnDelete), which
// the CRD informer calls for every change; it keeps the latest CRDs (a
// lister: Get, List) and, per CRD UID, a crdInfo with what serving the CRD
// needs, built on first use and dropped when the CRD's spec or accepted
// names change or the CRD goes. The hooks touch neither discovery nor
// OpenAPI: the DiscoveryController and the OpenAPI controller, fed by the
// same informer, own those, as upstream.
//
// OnUpdate (and OnAdd) also hand a CRD whose names are accepted but that
// is not Established yet to the Establisher, as upstream's
// updateCustomResourceDefinition hands it to the EstablishingController.
//
// A request for a CRD that does not exist, does not serve the version, is
// of the other scope, or whose names are neither accepted nor established
// goes to the delegate (404), as upstream.
//
// Mirrors crdHandler in
// k8s.io/apiextensions-apiserver/pkg/apiserver/customresource_handler.go.
type CRDHandler struct {
	h *GenericAPIServer

	mu sync.RWMutex // guards crds, infos and establisher
	// crds holds the latest version of every CRD by name (the lister).
	crds map[string]*apiextensionsv1.CustomResourceDefinition
	// infos holds the serving info of a CRD by UID; an entry exists only
	// for a CRD that is in crds and was requested since its last change.
	infos map[metav1.UID]*crdInfo
	// establisher gets the CRDs to establish; nil until SetEstablisher.
	establisher Establisher
}

// Establisher is what the crdHandler hands each CRD whose names are
// accepted but that is not Established yet: the EstablishingController
// (controller/establish), which sets Established.
//
// Mirrors the establishingController of crdHandler (its QueueCRD).
type Establisher interface {
	QueueCRD(name string)
}

// SetEstablisher sets the Establisher; package apiserver wires the
// EstablishingController before the CRD informer starts.
func (c *CRDHandler) SetEstablisher(e Establisher) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.establisher = e
}

// NewCRDHandler makes the crdHandler of the apiextensions link s and
// serves it there: every /apis/<group>/<version>/… path the groups s
// installed do not claim comes to it, and what it does not serve goes to
// s's delegate.
//
// Mirrors NewCustomResourceDefinitionHandler and the
// NonGoRestfulMux.Handle("/apis", crdHandler) of apiextensions-apiserver's
// completedConfig.New.
func NewCRDHandler(s *GenericAPIServer) *CRDHandler {
	c := &CRDHandler{
		h:     s,
		crds:  map[string]*apiextensionsv1.CustomResourceDefinition{},
		infos: map[metav1.UID]*crdInfo{},
	}
	s.crds = c
	return c
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

// OnAdd records a new CRD, as OnUpdate does. Upstream queues a CRD for
// the establishing controller on updates only, and relies on its 5-minute
// resync for a CRD found half-installed at start-up; queueing on add too
// establishes it at once.
//
// Mirrors (*crdHandler).createCustomResourceDefinition.
func (c *CRDHandler) OnAdd(crd *apiextensionsv1.CustomResourceDefinition) {
	c.OnUpdate(crd)
}

// OnUpdate records a changed CRD. Its serving info is rebuilt on next use
// if its UID, spec or accepted names changed; status-only changes (say,
// Established turning True) keep it. A CRD whose names are accepted but
// that is not Established yet then goes to the Establisher (seed 000,
// "CRD Handler": an update may be the one that must reach the
// EstablishingController); it is recorded first, so it is served by the
// time it is Established.
//
// crd is kept as it is, not copied: it is the informer's cached object,
// read-only for everyone (as upstream's crdHandler reads its lister's
// objects), so a caller must not change it afterwards. A private deep copy
// of every CRD cost as much memory as the informer's cache itself (0.6 MiB
// for a 265 KB CRD; docs/crd-memory.md).
//
// Mirrors (*crdHandler).updateCustomResourceDefinition.
func (c *CRDHandler) OnUpdate(crd *apiextensionsv1.CustomResourceDefinition) {
	if crd == nil {
		return
	}
	c.mu.Lock()
	old := c.crds[crd.Name]
	c.crds[crd.Name] = crd
	var dropped *crdInfo
	if old != nil {
		if info, ok := c.infos[old.UID]; ok {
			if old.UID != crd.UID || !reflect.DeepEqual(*info.spec, crd.Spec) ||
				!reflect.DeepEqual(info.acceptedNames, crd.Status.AcceptedNames) {
				delete(c.infos, old.UID)
				dropped = info
			} else {
				// The same spec: the info now points at the new object's,
				// so that the old object can go.
				info.spec = &crd.Spec
				if info.typeConverter != nil {
					info.typeConverter.repoint(&crd.Spec)
				}
				if info.schemas != nil {
					info.schemas.repoint(crd)
				}
			}
		}
	}
	establisher := c.establisher
	c.mu.Unlock()
	if dropped != nil {
		dropped.release()
	}
	if establisher != nil && helpers.IsCRDConditionTrue(crd, apiextensionsv1.NamesAccepted) &&
		!helpers.IsCRDConditionTrue(crd, apiextensionsv1.Established) {
		establisher.QueueCRD(crd.Name)
	}
	if tr := c.h.cfg.Tracer; tr.Enabled() {
		tr.Emit(trace.Event{
			Component: trace.CRDHandler, Step: "update", Key: crd.Name, ResourceVersion: crd.ResourceVersion,
			Resource: "customresourcedefinitions.apiextensions.k8s.io",
			Message:  crdServingMessage(crd, dropped != nil),
			Upstream: "k8s.io/apiextensions-apiserver/pkg/apiserver.(*crdHandler).updateCustomResourceDefinition",
		})
	}
}

// crdServingMessage says what the crdHandler will do with requests for
// crd's custom resources now.
func crdServingMessage(crd *apiextensionsv1.CustomResourceDefinition, rebuilt bool) string {
	path := "/apis/" + crd.Spec.Group + "/*/" + crd.Status.AcceptedNames.Plural
	var msg string
	switch {
	case crd.DeletionTimestamp != nil:
		msg = "CRD is terminating: " + path + " refuses new objects (403)"
	case helpers.IsCRDConditionTrue(crd, apiextensionsv1.Established):
		msg = "CRD is Established: serving " + path
	case helpers.IsCRDConditionTrue(crd, apiextensionsv1.NamesAccepted):
		msg = "names accepted, not Established yet: serving " + path + "; handed to the establishing controller"
	default:
		msg = "names not accepted yet: " + "/apis/" + crd.Spec.Group + "/*/" + crd.Spec.Names.Plural + " is not served"
	}
	if rebuilt {
		msg += " (spec or names changed: serving info rebuilt on next request)"
	}
	return msg
}

// OnDelete forgets a CRD and drops its serving info.
//
// Mirrors (*crdHandler).removeDeadStorage for one CRD.
func (c *CRDHandler) OnDelete(crd *apiextensionsv1.CustomResourceDefinition) {
	if crd == nil {
		return
	}
	c.mu.Lock()
	old := c.crds[crd.Name]
	if old != nil && old.UID == crd.UID || old != nil && crd.UID == "" {
		delete(c.crds, crd.Name)
	} else {
		old = nil
	}
	var dropped []*crdInfo
	for _, uid := range []metav1.UID{crd.UID, uidOf(old)} {
		if info, ok := c.infos[uid]; ok {
			delete(c.infos, uid)
			dropped = append(dropped, info)
		}
	}
	c.mu.Unlock()
	for _, info := range dropped {
		info.release()
	}
	if tr := c.h.cfg.Tracer; tr.Enabled() {
		tr.Emit(trace.Event{
			Component: trace.CRDHandler, Step: "delete", Key: crd.Name, ResourceVersion: crd.ResourceVersion,
			Resource: "customresourcedefinitions.apiextensions.k8s.io",
			Message:  "CRD deleted: its custom resources are no longer served, their storage is released",
			Upstream: "k8s.io/apiextensions-apiserver/pkg/apiserver.(*crdHandler).removeDeadStorage",
		})
	}
}

func uidOf(crd *apiextensionsv1.CustomResourceDefinition) metav1.UID {
	if crd == nil {
		return ""
	}
	return crd.UID
}

// Get returns the latest CRD of that name (a copy), as a lister would.
func (c *CRDHandler) Get(name string) (*apiextensionsv1.CustomResourceDefinition, bool) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	crd, ok := c.crds[name]
	if !ok {
		return nil, false
	}
	return crd.DeepCopy(), true
}

// List returns every known CRD (copies), sorted by name.
func (c *CRDHandler) List() []*apiextensionsv1.CustomResourceDefinition {
	c.mu.RLock()
	defer c.mu.RUnlock()
	out := make([]*apiextensionsv1.CustomResourceDefinition, 0, len(c.crds))
	for _, crd := range c.crds {
		out = append(out, crd.DeepCopy())
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// ServeHTTP serves a resource request of a custom resource, as its
// RequestInfo names it — the RequestInfo the authorizer decided on: the
// CRD is <resource>.<group>; a request for a CRD that does not exist, is
// of the other scope, does not serve the version, or whose names are
// neither accepted nor established goes to the delegate (404), as does a
// path that is not a resource request.
//
// Mirrors (*crdHandler).ServeHTTP.
func (c *CRDHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	info, ok := request.RequestInfoFrom(r.Context())
	if !ok {
		responsewriters.WriteError(w, apierrors.NewInternalError(errors.New("no RequestInfo found in the context")))
		return
	}
	// Upstream serves /apis/<g>/<v> discovery here; crdlab's router has
	// done that already. A path of more than resource/name/subresource is
	// no resource's.
	if !info.IsResourceRequest || len(info.Parts) > 3 {
		c.h.delegate.ServeHTTP(w, r)
		return
	}
	c.mu.RLock()
	crd := c.crds[info.Resource+"."+info.APIGroup]
	c.mu.RUnlock()
	if crd == nil || crd.Spec.Group != info.APIGroup {
		c.h.delegate.ServeHTTP(w, r)
		return
	}
	namespacedCRD, namespacedReq := crd.Spec.Scope == apiextensionsv1.NamespaceScoped, info.Namespace != ""
	if !namespacedCRD && namespacedReq {
		c.h.delegate.ServeHTTP(w, r)
		return
	}
	// Only list and watch may span every namespace.
	if namespacedCRD && !namespacedReq && info.Verb != "list" && info.Verb != "watch" {
		c.h.delegate.ServeHTTP(w, r)
		return
	}
	if !helpers.HasServedCRDVersion(crd, info.APIVersion) {
		c.h.delegate.ServeHTTP(w, r)
		return
	}
	if !helpers.IsCRDConditionTrue(crd, apiextensionsv1.NamesAccepted) &&
		!helpers.IsCRDConditionTrue(crd, apiextensionsv1.Established) {
		c.h.delegate.ServeHTTP(w, r)
		return
	}
	crdInfo, err := c.getOrCreateInfo(crd)
	if err != nil {
		c.h.logger.Error("cannot serve custom resource", "crd", crd.Name, "err", err)
		responsewriters.WriteError(w, apierrors.NewInternalError(err))
		return
	}
	if !crdInfo.acquire() {
		// Dropped between lookup and use: the CRD changed. Try once more.
		if crdInfo, err = c.getOrCreateInfo(crd); err != nil || !crdInfo.acquire() {
			responsewriters.WriteError(w, apierrors.NewServiceUnavailable("the custom resource definition changed; retry"))
			return
		}
	}
	defer crdInfo.done()

	v, ok := crdInfo.versions[info.APIVersion]
	if !ok {
		c.h.delegate.ServeHTTP(w, r)
		return
	}
	var s *endpoints.RequestScope
	switch info.Subresource {
	case "":
		s = v.main
	case "status":
		s = v.status
	case "scale":
		s = v.scale
	}
	if s == nil {
		gr := scheme.GroupResource{Group: info.APIGroup, Resource: info.Resource}
		responsewriters.WriteError(w, apierrors.NewNotFound(gr, info.Name))
		return
	}
	// A terminating CRD takes no new objects: its creates meet an
	// admission step that refuses them (403), as upstream's.
	if crd.DeletionTimestamp != nil || helpers.IsCRDConditionTrue(crd, apiextensionsv1.Terminating) {
		cp := *s
		cp.Admit = forbidCreateAdmission{delegate: s.Admit}
		s = &cp
	}
	endpoints.Serve(w, r, s, info)
}

// forbidCreateAdmission refuses every create, with a 403 Forbidden, and
// hands the rest to delegate (the scope's admission, may be nil): the
// crdHandler puts it in front of the writes of a terminating CRD's custom
// resources, whose instances the finalizer is deleting.
//
// Mirrors forbidCreateAdmission in customresource_handler.go.
type forbidCreateAdmission struct {
	delegate admission.Interface
}

var _ admission.Handler = forbidCreateAdmission{}

// Handles is true for creates, and for what the delegate handles.
func (f forbidCreateAdmission) Handles(op admission.Operation) bool {
	return op == admission.Create || f.delegate != nil && admission.Handles(f.delegate, op)
}

func (f forbidCreateAdmission) Admit(ctx context.Context, a admission.Attributes) error {
	if a.Operation == admission.Create {
		return admission.NewForbidden(a, errors.New("create not allowed while custom resource definition is terminating"))
	}
	if f.delegate == nil {
		return nil
	}
	return f.delegate.Admit(ctx, a)
}

// getOrCreateInfo returns the serving info of crd, building it if needed.
//
// Mirrors (*crdHandler).getOrCreateServingInfoFor.
func (c *CRDHandler) getOrCreateInfo(crd *apiextensionsv1.CustomResourceDefinition) (*crdInfo, error) {
	c.mu.RLock()
	info, ok := c.infos[crd.UID]
	c.mu.RUnlock()
	if ok {
		return info, nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if info, ok := c.infos[crd.UID]; ok {
		return info, nil
	}
	// Build from the latest copy: crd may be older than what a hook stored.
	latest, ok := c.crds[crd.Name]
	if !ok || latest.UID != crd.UID {
		return nil, fmt.Errorf("custom resource definition %s changed while serving a request", crd.Name)
	}
	info, err := c.h.buildCRDInfo(latest)
	if err != nil {
		return nil, err
	}
	c.infos[crd.UID] = info
	return info, nil
}

// crdInfo is what serving one CRD needs, for every served version: the
// request scopes (storage, codec, schema, table convertor) of the main
// resource and its subresources.
//
// Mirrors crdInfo in customresource_handler.go.
type crdInfo struct {
	// spec and acceptedNames are those the info was built from: the info
	// is stale iff the CRD's differ. spec points into the CRD object the
	// crdHandler holds (read-only, never copied), as upstream's crdInfo
	// does; guarded by CRDHandler.mu.
	spec          *apiextensionsv1.CustomResourceDefinitionSpec
	acceptedNames apiextensionsv1.CustomResourceDefinitionNames
	// storageVersion is the version objects are stored in.
	storageVersion string
	// typeConverter types the custom resources for server-side apply's
	// bookkeeping, built on the first write (nil for a test's info).
	typeConverter *lazyTypeConverter
	// schemas are the versions' compiled schemas, compiled on the first
	// read or write of an object (nil for a test's info).
	schemas *crdSchemas
	// versions holds the scopes of every served version.
	versions map[string]*versionScopes
	// destroy releases the storages (may be nil).
	destroy func()

	mu sync.Mutex // guards inflight and released
	// inflight counts the requests using the info.
	inflight int
	// released is true once the info was dropped; it is destroyed when
	// inflight drops to zero (or after releaseTimeout, for long watches).
	released bool
	drained  chan struct{}
}

// versionScopes are the scopes of one version: status and scale are nil
// when the version has no such subresource.
type versionScopes struct {
	main, status, scale *endpoints.RequestScope
}

// releaseTimeout bounds how long a dropped crdInfo waits for its requests
// (watches) before its storage is destroyed, as upstream waits a minute.
const releaseTimeout = time.Minute

func (i *crdInfo) acquire() bool {
	i.mu.Lock()
	defer i.mu.Unlock()
	if i.released {
		return false
	}
	i.inflight++
	return true
}

func (i *crdInfo) done() {
	i.mu.Lock()
	defer i.mu.Unlock()
	i.inflight--
	if i.released && i.inflight == 0 && i.drained != nil {
		close(i.drained)
		i.drained = nil
	}
}

// release marks the info dropped and destroys its storage once its
// requests are done.
func (i *crdInfo) release() {
	i.mu.Lock()
	i.released = true
	if i.inflight == 0 || i.destroy == nil {
		i.mu.Unlock()
		if i.destroy != nil {
			i.destroy()
		}
		return
	}
	drained := make(chan struct{})
	i.drained = drained
	i.mu.Unlock()
	go func() {
		t := time.NewTimer(releaseTimeout)
		defer t.Stop()
		select {
		case <-drained:
		case <-t.C:
		}
		i.destroy()
	}()
}
