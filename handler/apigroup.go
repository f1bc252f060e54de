package handler

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"net/http"
	"slices"
	"sort"
	"strings"

	apierrors "github.com/crdlab/crdlab/apis/errors"
	metav1 "github.com/crdlab/crdlab/apis/meta/v1"
	"github.com/crdlab/crdlab/handler/endpoints"
	"github.com/crdlab/crdlab/handler/request"
	"github.com/crdlab/crdlab/handler/responsewriters"
	"github.com/crdlab/crdlab/machinery/apiresource"
	"github.com/crdlab/crdlab/machinery/openapi"
	"github.com/crdlab/crdlab/machinery/strategicpatch"
	"github.com/crdlab/crdlab/registry"
	"github.com/crdlab/crdlab/scheme"
)

// This file installs compiled-in API groups on a link: the
// customresourcedefinitions of apiextensions.k8s.io, and the built-in
// kinds of the kube-apiserver link (namespaces, secrets, …). Each
// resource of an APIGroupInfo becomes an endpoints.RequestScope per version (decode
// in the URL's version and convert to the hub; encode back), a discovery
// entry and an OpenAPI description, all derived from its REST storage and
// the Go types in the scheme.

// APIGroupInfo is one API group to install: its REST storages by version
// and resource ("secrets", "namespaces/status"), and the scheme that knows
// its kinds.
//
// Mirrors k8s.io/apiserver/pkg/server.APIGroupInfo.
type APIGroupInfo struct {
	// PrioritizedVersions are the group's versions, preferred first.
	PrioritizedVersions []scheme.GroupVersion
	// VersionedResourcesStorageMap maps a version to its resources'
	// storages: "secrets", "namespaces/status". A version without an
	// entry is not served.
	VersionedResourcesStorageMap map[string]map[string]registry.Storage
	// Scheme converts the group's kinds; Codecs decode them.
	Scheme *scheme.Scheme
	Codecs scheme.CodecFactory
}

// NewDefaultAPIGroupInfo returns the APIGroupInfo of group, with its
// versions in the scheme's priority and no storage yet.
//
// Mirrors genericapiserver.NewDefaultAPIGroupInfo.
func NewDefaultAPIGroupInfo(group string, s *scheme.Scheme, codecs scheme.CodecFactory) APIGroupInfo {
	return APIGroupInfo{
		PrioritizedVersions:          s.PrioritizedVersionsForGroup(group),
		VersionedResourcesStorageMap: map[string]map[string]registry.Storage{},
		Scheme:                       s,
		Codecs:                       codecs,
	}
}

// Optional interfaces of a REST storage that discovery reads.
type (
	shortNamesProvider interface{ ShortNames() []string }
	categoriesProvider interface{ Categories() []string }
	// internalTableConvertor prints internal objects (registry/printers).
	internalTableConvertor interface {
		ConvertToTable(ctx context.Context, objs []scheme.Object) ([]metav1.TableColumnDefinition, [][]any, error)
	}
)

// InstallAPIGroup serves info's group under /apis/<group>/<version>.
//
// Mirrors (*GenericAPIServer).InstallAPIGroup.
func (h *GenericAPIServer) InstallAPIGroup(info *APIGroupInfo) error {
	return h.installAPIGroup(info, false)
}

// InstallLegacyAPIGroup serves the core group ("") under /api/<version>.
//
// Mirrors (*GenericAPIServer).InstallLegacyAPIGroup.
func (h *GenericAPIServer) InstallLegacyAPIGroup(info *APIGroupInfo) error {
	return h.installAPIGroup(info, true)
}

func (h *GenericAPIServer) installAPIGroup(info *APIGroupInfo, legacy bool) error {
	if info.Scheme == nil {
		return errors.New("APIGroupInfo has no Scheme")
	}
	if info.Codecs.Scheme() == nil {
		info.Codecs = scheme.NewCodecFactory(info.Scheme)
	}
	installed := 0
	for _, gv := range info.PrioritizedVersions {
		storages := info.VersionedResourcesStorageMap[gv.Version]
		if len(storages) == 0 {
			continue
		}
		if (gv.Group == "") != legacy {
			return fmt.Errorf("group %q: the core group is installed with InstallLegacyAPIGroup, the others with InstallAPIGroup", gv.Group)
		}
		if err := h.installGroupVersion(info, gv, storages); err != nil {
			return fmt.Errorf("installing %s: %w", gv, err)
		}
		installed++
	}
	if installed == 0 {
		return errors.New("APIGroupInfo has no storage for any of its versions")
	}
	return nil
}

// installGroupVersion builds the scopes of one version's resources and
// adds the version to discovery and OpenAPI and to the router.
func (h *GenericAPIServer) installGroupVersion(info *APIGroupInfo, gv scheme.GroupVersion, storages map[string]registry.Storage) error {
	scopes := map[string]*endpoints.RequestScope{}
	var discoveryResources []apiresource.Resource
	var openAPIResources []openapi.Resource
	paths := slices.Sorted(maps.Keys(storages))
	for _, path := range paths {
		resource, sub, _ := strings.Cut(path, "/")
		if sub != "" {
			if _, ok := storages[resource]; !ok {
				return fmt.Errorf("%q has no main resource %q", path, resource)
			}
		}
		s, err := h.newTypedScope(info, gv, resource, sub, storages[path])
		if err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
		scopes[path] = s
	}
	for _, path := range paths {
		resource, sub, _ := strings.Cut(path, "/")
		if sub != "" {
			continue
		}
		s := scopes[path]
		d := apiresource.Resource{
			Name: resource, SingularName: strings.ToLower(s.Kind.Kind), Namespaced: s.Namespaced, Kind: s.Kind.Kind,
			Verbs:              verbsOf(s.Storage),
			StorageVersionHash: apiresource.StorageVersionHash(gv.Group, gv.Version, s.Kind.Kind),
		}
		if p, ok := s.Storage.(shortNamesProvider); ok {
			d.ShortNames = p.ShortNames()
		}
		if p, ok := s.Storage.(categoriesProvider); ok {
			d.Categories = p.Categories()
		}
		for _, p := range paths {
			if r, sub, ok := strings.Cut(p, "/"); ok && r == resource {
				d.Subresources = append(d.Subresources, apiresource.Subresource{Name: sub, Kind: scopes[p].Kind, Verbs: verbsOf(scopes[p].Storage)})
			}
		}
		discoveryResources = append(discoveryResources, d)
		o, err := h.openAPIResource(info.Scheme, gv, s, d)
		if err != nil {
			return fmt.Errorf("OpenAPI schema of %s: %w", resource, err)
		}
		o.HasStatus = scopes[resource+"/status"] != nil
		openAPIResources = append(openAPIResources, o)
	}
	// Field management (managedFields, server-side apply) of every
	// resource that can be written again, by the schemas just built.
	for _, path := range paths {
		sc := scopes[path]
		if _, ok := sc.Storage.(registry.Updater); !ok {
			continue // create-only (the self-reviews): nothing to manage
		}
		fm, err := h.newTypedFieldManager(openAPIResources, sc.Kind, sc.Subresource, sc.Storage)
		if err != nil {
			return fmt.Errorf("field manager of %s: %w", path, err)
		}
		sc.FieldManager = fm
	}
	h.groups[gv] = scopes
	h.cfg.discovery.SetGroupVersion(gv, discoveryResources)
	h.cfg.openapi.setGroupVersion(gv, openAPIResources)
	return nil
}

// verbsOf lists the verbs a REST storage serves, by the interfaces it
// implements.
//
// Mirrors the verb detection of the endpoints installer (installer.go).
func verbsOf(st registry.Storage) []string {
	var verbs []string
	add := func(ok bool, vs ...string) {
		if ok {
			verbs = append(verbs, vs...)
		}
	}
	_, creater := st.(registry.Creater)
	_, deleter := st.(registry.GracefulDeleter)
	_, collectionDeleter := st.(registry.CollectionDeleter)
	_, getter := st.(registry.Getter)
	_, lister := st.(registry.Lister)
	_, updater := st.(registry.Updater)
	_, watcher := st.(registry.Watcher)
	add(creater, "create")
	add(deleter, "delete")
	add(collectionDeleter, "deletecollection")
	add(getter, "get")
	add(lister, "list")
	add(updater && getter, "patch") // upstream's rest.Patcher: Getter and Updater
	add(updater, "update")
	add(watcher, "watch")
	sort.Strings(verbs)
	return verbs
}

// newTypedScope builds the endpoints.RequestScope of a compiled-in resource in gv:
// bodies are decoded in gv (defaults applied), strictly if asked, and
// converted to the hub the storage holds; answers are converted back to
// gv. Both steps go through the scheme's __internal version, as seed
// 002's kubectl convert walkthrough shows for Deployments.
//
// Mirrors the RequestScope the endpoints installer builds per resource
// (its Convertor, Defaulter, Typer and Serializer are the scheme's).
func (h *GenericAPIServer) newTypedScope(info *APIGroupInfo, gv scheme.GroupVersion, resource, subresource string, st registry.Storage) (*endpoints.RequestScope, error) {
	s := info.Scheme
	kinds, err := s.ObjectKinds(st.New())
	if err != nil {
		return nil, err
	}
	kind := gv.WithKind(kinds[0].Kind)
	if !s.Recognizes(kind) {
		return nil, fmt.Errorf("kind %s is not in the scheme", kind)
	}
	hub := scheme.GroupVersion{Group: gv.Group, Version: scheme.APIVersionInternal}
	namespaced := false
	if sc, ok := st.(registry.Scoper); ok {
		namespaced = sc.NamespaceScoped()
	}
	codecs := info.Codecs
	bodies, _ := st.(bodyDecoder)
	scope := &endpoints.RequestScope{
		Resource:    gv.WithResource(resource),
		Subresource: subresource,
		Kind:        kind,
		ListKind:    kind.Kind + "List",
		Namespaced:  namespaced,
		Storage:     st,
		Admit:       h.cfg.Admission,
		Decode: func(_ context.Context, body []byte, strict bool) (scheme.Object, *scheme.StrictDecodingError, error) {
			return decodeTyped(s, codecs, kind, bodies, body, strict)
		},
		Encode: func(obj scheme.Object) (scheme.Object, error) { return s.ConvertToVersion(obj, gv) },
		// A built-in kind's conversions copy ObjectMeta.
		MetadataAsStored: true,
		FieldLabel: func(label, value string) (string, string, error) {
			return s.ConvertFieldLabel(kind, label, value)
		},
	}
	if enc, ok := st.(wireEncoder); ok {
		scope.AppendJSON = func(dst []byte, obj scheme.Object) ([]byte, bool) { return enc.AppendWire(dst, obj, gv) }
		// A list's items are only encoded: AppendWire reads them, and a
		// conversion writes a new object, so storage's shared objects
		// will do. A copy of every real-size CRD, then its conversion,
		// was most of what the CRD informer's first list allocated: at
		// 2,000 CRDs, about 5 GB at each start (docs/crd-memory.md,
		// "Session 20").
		scope.EncodeShared = func(obj scheme.Object) (scheme.Object, bool, error) {
			out, err := s.ConvertToVersion(obj, gv)
			return out, false, err
		}
	}
	if enc, ok := st.(storedEncoder); ok && subresource == "" {
		scope.DecodeStored = enc.DecodeStored
		scope.ReadsAsStored = func() bool { return enc.ReadsAsStored(gv) }
		scope.EncodeStored = func(dst []byte, o registry.StoredJSON) ([]byte, error) {
			if out, ok := enc.AppendStored(dst, o, gv); ok {
				return out, nil
			}
			obj, err := enc.DecodeStored(o)
			if err != nil {
				return dst, err
			}
			if scope.AppendJSON != nil {
				if out, ok := scope.AppendJSON(dst, obj); ok {
					return out, nil
				}
			}
			wire, err := scope.Encode(obj)
			if err != nil {
				return dst, err
			}
			b, err := json.Marshal(wire)
			return append(dst, b...), err
		}
	}
	if tc, ok := st.(internalTableConvertor); ok && subresource == "" {
		scope.Table = hubTable{tc: tc, scheme: s, hub: hub}
	}
	// A strategic merge patch merges by the struct tags of the version's
	// Go type (upstream's smpPatcher: its schemaReferenceObj).
	wire, err := s.New(kind)
	if err != nil {
		return nil, err
	}
	if scope.StrategicMerge, err = strategicpatch.NewPatchMetaFromStruct(wire); err != nil {
		return nil, fmt.Errorf("patch metadata of %s: %w", kind, err)
	}
	return h.serverScope(scope), nil
}

// decodeTyped is the Decode of a typed scope of kind: the body's apiVersion
// and kind checked against the URL's (endpoints.CheckTypeMeta), then the
// body decoded in kind's version, strictly if asked, and converted to the
// hub (through bodies first, when the storage has a faster way).
//
// The kind is read without checking that the body is well-formed JSON
// (scheme.KindUnchecked): the decode reads the whole body and fails on
// anything malformed, and on any failure CheckTypeMeta is asked, whose
// error comes first, as when it ran first. Checking first went over every
// body once more with encoding/json's scanner: 1–2 ms for a real-size
// CRD, which a controller's /status write sends whole too.
// TestDecodeTyped_SameAsCheckingFirst compares the two orders.
func decodeTyped(s *scheme.Scheme, codecs scheme.CodecFactory, kind scheme.GroupVersionKind, bodies bodyDecoder,
	body []byte, strict bool) (scheme.Object, *scheme.StrictDecodingError, error) {
	if gvk, err := scheme.KindUnchecked(body); err != nil || endpoints.CheckKind(gvk, kind) != nil {
		if err := endpoints.CheckTypeMeta(body, kind); err != nil {
			return nil, nil, err
		}
	}
	obj, strictErr, err := decodeTypedBody(s, codecs, kind, bodies, body, strict)
	if err != nil {
		if kerr := endpoints.CheckTypeMeta(body, kind); kerr != nil {
			return nil, nil, kerr
		}
		return nil, nil, err
	}
	return obj, strictErr, nil
}

// decodeTypedBody is decodeTyped after the kind is checked.
func decodeTypedBody(s *scheme.Scheme, codecs scheme.CodecFactory, kind scheme.GroupVersionKind, bodies bodyDecoder,
	body []byte, strict bool) (scheme.Object, *scheme.StrictDecodingError, error) {
	if bodies != nil {
		if obj, strictErr, ok := bodies.DecodeBody(body, strict); ok {
			return obj, strictErr, nil
		}
	}
	obj, _, err := codecs.Decode(body, scheme.DecodeOptions{Strict: strict})
	var strictErr *scheme.StrictDecodingError
	if errors.As(err, &strictErr) {
		err = nil // decoded all the same
	}
	if err != nil {
		return nil, nil, err
	}
	internal, err := s.ConvertToVersion(obj, scheme.GroupVersion{Group: kind.Group, Version: scheme.APIVersionInternal})
	if err != nil {
		return nil, nil, err
	}
	return internal, strictErr, nil
}

// bodyDecoder is a REST storage that decodes some request bodies of its
// kind in its version faster than the scheme does, to the hub, with what
// strict decoding finds; ok false: decode the body the usual way. The CRD
// storage decodes a body whose spec it stored without reading the spec
// again (registry/customresourcedefinition/etcd.go:Codec.DecodeBody).
type bodyDecoder interface {
	DecodeBody(body []byte, strict bool) (obj scheme.Object, strictErr *scheme.StrictDecodingError, ok bool)
}

// wireEncoder is a REST storage that appends some of its objects to dst
// as the JSON of version gv faster than converting and writing them, byte
// for byte the same; ok false: encode the object the usual way. The CRD
// storage writes a CRD whose spec it read before by copying the spec's
// JSON (registry/customresourcedefinition/etcd.go:Codec.AppendWire).
type wireEncoder interface {
	AppendWire(dst []byte, obj scheme.Object, gv scheme.GroupVersion) (json []byte, ok bool)
}

// storedEncoder is a storage whose lists may go out as storage holds
// them (endpoints.RequestScope's ReadsAsStored, EncodeStored and
// DecodeStored): AppendStored appends an object's answer in gv straight
// from its stored bytes, or declines (ok false), and DecodeStored reads
// one it declined. The CRD storage is one
// (registry/customresourcedefinition/stored.go).
type storedEncoder interface {
	ReadsAsStored(gv scheme.GroupVersion) bool
	AppendStored(dst []byte, o registry.StoredJSON, gv scheme.GroupVersion) (json []byte, ok bool)
	DecodeStored(o registry.StoredJSON) (scheme.Object, error)
}

// hubTable prints wire objects with a printer of hub objects: each is
// converted back to the hub first (kubectl get asks for a handful).
type hubTable struct {
	tc     internalTableConvertor
	scheme *scheme.Scheme
	hub    scheme.GroupVersion
}

func (t hubTable) ConvertToTable(ctx context.Context, objs []scheme.Object) ([]metav1.TableColumnDefinition, [][]any, error) {
	internal := make([]scheme.Object, len(objs))
	for i, obj := range objs {
		o, err := t.scheme.ConvertToVersion(obj, t.hub)
		if err != nil {
			return nil, nil, err
		}
		internal[i] = o
	}
	return t.tc.ConvertToTable(ctx, internal)
}

// openAPIResource describes one resource for /openapi/v3: the schema of
// its kind in gv, read from the Go type the scheme holds, with the
// descriptions of its SwaggerDoc methods, under upstream's schema names.
func (h *GenericAPIServer) openAPIResource(s *scheme.Scheme, gv scheme.GroupVersion, sc *endpoints.RequestScope, d apiresource.Resource) (openapi.Resource, error) {
	types := s.KnownTypes(gv)
	t, ok := types[sc.Kind.Kind]
	if !ok {
		return openapi.Resource{}, fmt.Errorf("%s is not in the scheme", sc.Kind)
	}
	// The list and map markers the storage's strategy declares (which
	// server-side apply merges by).
	var markers openapi.Markers
	if m, ok := sc.Storage.(registry.SchemaMarkersStrategy); ok {
		markers = m.SchemaMarkers()
	}
	schema, defs, err := openapi.GoTypes{Name: openAPITypeName, Markers: markers}.SchemaOf(t)
	if err != nil {
		return openapi.Resource{}, err
	}
	b, err := json.Marshal(schema)
	if err != nil {
		return openapi.Resource{}, err
	}
	r := openapi.Resource{
		Group: gv.Group, Version: gv.Version, Kind: sc.Kind.Kind, ListKind: sc.ListKind,
		Plural: d.Name, Singular: d.SingularName, Namespaced: d.Namespaced,
		SchemaJSON: b, Definitions: defs, Name: openAPITypeName(t), Verbs: d.Verbs,
	}
	if lt, ok := types[sc.ListKind]; ok {
		r.ListName = openAPITypeName(lt)
	}
	return r, nil
}

// serveInstalled serves a request under an installed group version. The
// RequestInfo says which resource, namespace, name and subresource it
// asks for; a resource the version does not have is a 404 that says what
// the version has (the path is this link's: it is not delegated).
//
// Mirrors the routes the endpoints installer registers per resource
// (installer.go: registerResourceHandlers).
func (h *GenericAPIServer) serveInstalled(w http.ResponseWriter, r *http.Request, gv scheme.GroupVersion, info *request.RequestInfo) {
	scopes := h.groups[gv]
	path := info.Resource
	if info.Subresource != "" {
		path += "/" + info.Subresource
	}
	s, ok := scopes[path]
	if !info.IsResourceRequest || !ok || len(info.Parts) > 3 {
		responsewriters.WriteError(w, h.notServed(gv, info))
		return
	}
	// The namespace of the URL must fit the resource's scope: a namespaced
	// resource is asked for in a namespace (lists and watches may span
	// them all); a cluster-scoped one never is. /api/v1/namespaces/<name>
	// names a namespace itself (RequestInfo's Namespace is its name). The
	// name comes from the path (RequestInfo also fills it from a
	// metadata.name field selector, for authorization).
	named := len(info.Parts) > 1
	namespaces := s.Resource.Group == "" && s.Resource.Resource == "namespaces"
	switch {
	case s.Namespaced && info.Namespace == "" && named,
		!s.Namespaced && info.Namespace != "" && !namespaces:
		responsewriters.WriteError(w, h.notServed(gv, info))
		return
	}
	endpoints.Serve(w, r, s, info)
}

// notServed is the 404 of a path under an installed group version that
// names no resource of it: upstream's "the server could not find the
// requested resource", and what crdlab serves in that version.
func (h *GenericAPIServer) notServed(gv scheme.GroupVersion, info *request.RequestInfo) error {
	var served []string
	for path := range h.groups[gv] {
		if !strings.Contains(path, "/") {
			served = append(served, path)
		}
	}
	sort.Strings(served)
	e := apierrors.NewNotFound(scheme.GroupResource{Group: gv.Group, Resource: info.Resource}, "")
	e.ErrStatus.Message = fmt.Sprintf("the server could not find the requested resource: crdlab serves only %s in %s",
		strings.Join(served, ", "), gvPath(gv))
	if info.Resource != "" {
		e.ErrStatus.Message += fmt.Sprintf(" (not supported: %q, which kube-apiserver may serve)", info.Resource)
	}
	e.ErrStatus.Details = &metav1.StatusDetails{Group: gv.Group, Kind: info.Resource}
	return e
}

// gvPath is the URL path of a group version: /api/v1 or /apis/<g>/<v>.
func gvPath(gv scheme.GroupVersion) string {
	if gv.Group == "" {
		return "/api/" + gv.Version
	}
	return "/apis/" + gv.Group + "/" + gv.Version
}
