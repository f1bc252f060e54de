package handler

import (
	"container/list"
	"crypto/sha512"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"path"
	"reflect"
	"runtime/debug"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/crdlab/crdlab/apis/apiextensions"
	apiextensionsv1 "github.com/crdlab/crdlab/apis/apiextensions/v1"
	apierrors "github.com/crdlab/crdlab/apis/errors"
	metav1 "github.com/crdlab/crdlab/apis/meta/v1"
	"github.com/crdlab/crdlab/handler/responsewriters"
	"github.com/crdlab/crdlab/machinery/openapi"
	"github.com/crdlab/crdlab/scheme"
)

// openAPIService serves /openapi/v3 (the root: one entry per group
// version, with its document's hash) and /openapi/v3/apis/<group>/<version>
// (paths and schemas of one group version). Package openapi writes the
// documents; this holds what each describes and the built document.
//
// Its group versions are the enabled apiextensions.k8s.io versions, whose
// CustomResourceDefinition kind is described by reflection over its Go
// type (set once, by New), and the CRD group versions the OpenAPI
// controller hands over through (*GenericAPIServer).UpdateGroupVersion.
//
// What kubectl needs from the documents: for `kubectl create/apply` with
// the default --validate=strict, a PATCH operation on the resource's path
// tagged with x-kubernetes-group-version-kind and a fieldValidation query
// parameter (then kubectl leaves validation to the server); for `kubectl
// explain`, components.schemas tagged with the kind.
//
// Mirrors k8s.io/kube-openapi/pkg/handler3.OpenAPIService (root and
// per-group-version documents with ?hash=, UpdateGroupVersion,
// DeleteGroupVersion).
type openAPIService struct {
	log *slog.Logger
	// version is info.version of the v2 document.
	version string

	mu sync.Mutex // guards groups and the doc and hash of each group
	// groups holds every documented group version: the document exists
	// iff the group version is here.
	groups map[scheme.GroupVersion]*openAPIGroup
	// builds counts the documents built (tests read it).
	builds int
	// v2 is the /openapi/v2 document of the current groups, nil until
	// asked for and after any change (openapiv2.go).
	v2 *openAPIV2
	// plain holds recently asked-for documents uncompressed.
	plain *plainCache
	// recent holds the group versions whose built document is kept, most
	// recently asked for first; docBytes counts those documents, at most
	// maxDocBytes: past that the least recently asked-for are dropped
	// (their hashes stay, and they are built again on request).
	recent      *list.List
	docBytes    int
	maxDocBytes int
}

// maxOpenAPIDocs bounds the compressed documents kept: a fixed cost, not
// one per CRD. A provider's 265 KB CRD adds about 80 KB of compressed
// document per CRD; clients fetch the few group versions they need, and
// keep those by hash.
const maxOpenAPIDocs = 64 << 20

// openAPIGroup is one group version's document.
type openAPIGroup struct {
	// resources are what the document describes (never empty). A CRD's
	// resource has no SchemaJSON: its schema is encoded when the document
	// is built, from schemas[i] (the informer's object, read-only), so
	// that nothing but the document holds a copy.
	resources []openapi.Resource
	schemas   []*apiextensionsv1.JSONSchemaProps
	// crds are the CRDs described (nil for the server's own group).
	crds []*apiextensionsv1.CustomResourceDefinition
	// doc is the document built from resources, gzip-compressed (a
	// provider's group version is megabytes of JSON, mostly repeated
	// descriptions: a tenth of that compressed); nil until first asked
	// for. hash names the document's content ("" until first asked for:
	// hashLocked): for the server's own group versions openapi.Hash of the
	// uncompressed document, for CRDs crdsHash of what the document is
	// built from, known without building it (a request for /openapi/v3
	// lists every group version's hash: at 2,000 provider CRDs, building
	// 500 documents for it took longer than the request's timeout).
	doc  []byte
	hash string
	// kept is doc's element in openAPIService.recent (nil when doc is).
	kept *list.Element
	// builtin marks the group versions of installed API groups.
	builtin bool
}

func newOpenAPIService(log *slog.Logger, version string) *openAPIService {
	return &openAPIService{log: log, version: version, groups: map[scheme.GroupVersion]*openAPIGroup{}, plain: newPlainCache(maxPlainCache),
		recent: list.New(), maxDocBytes: maxOpenAPIDocs}
}

// setGroupVersion makes gv's document describe resources (none removes
// it); it is built on its next request. A group version set here belongs
// to the server (an installed API group): the CRDs' documents
// (UpdateGroupVersion) leave it alone.
func (o *openAPIService) setGroupVersion(gv scheme.GroupVersion, resources []openapi.Resource) {
	o.setGroup(gv, &openAPIGroup{resources: resources, builtin: true})
}

// setGroup makes g gv's document (g without resources removes it). A
// document already built stays if g describes the same CRDs as it did
// (sameCRDs): the OpenAPI controller hands over a group's CRDs on every
// change of one of them, and most changes (a condition, storedVersions)
// change nothing the document says.
func (o *openAPIService) setGroup(gv scheme.GroupVersion, g *openAPIGroup) {
	o.mu.Lock()
	defer o.mu.Unlock()
	old, ok := o.groups[gv]
	if ok && old.builtin && !g.builtin {
		return // an installed API group owns gv
	}
	if ok && old.crds != nil && g.crds != nil && len(g.resources) > 0 && sameCRDs(old.crds, g.crds) {
		// The document (or, if it was dropped, its hash) stays.
		g.doc, g.hash, g.kept = old.doc, old.hash, old.kept
		o.groups[gv] = g
		return // the v2 document, built from the same documents, stays too
	}
	// A CRD group version's hash is computed when first asked for
	// (hashLocked), not here: a burst of CRD creates in one group changes
	// its CRDs once per create, and hashing them all each time made the
	// work per CRD grow with the size of the group.
	if ok && old.kept != nil {
		o.recent.Remove(old.kept)
		o.docBytes -= len(old.doc)
	}
	if len(g.resources) == 0 {
		delete(o.groups, gv)
	} else {
		o.groups[gv] = g
	}
	o.v2 = nil
}

// sameCRDs reports whether a and b describe the same custom resources:
// the same CRDs (by UID) with equal specs and accepted names, in the same
// order. Objects the informer did not replace compare by pointer; specs
// compare by generation (the server bumps it on every change of spec),
// or, for objects without one (built in Go, not read from a server), by
// value.
func sameCRDs(a, b []*apiextensionsv1.CustomResourceDefinition) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] == b[i] {
			continue
		}
		if a[i].UID != b[i].UID || a[i].Generation != b[i].Generation ||
			!reflect.DeepEqual(a[i].Status.AcceptedNames, b[i].Status.AcceptedNames) ||
			a[i].Generation == 0 && !reflect.DeepEqual(a[i].Spec, b[i].Spec) {
			return false
		}
	}
	return true
}

// crdsHash names the document of gv built from crds (sorted by name) by
// what it is built from: each CRD's UID, generation (it changes with the
// spec) and accepted names, and the build of the server (buildStamp: the
// builder's output may change with it). Clients keep a document by its hash, so
// equal hashes must mean equal documents; equal documents under two
// hashes cost a client one more download. A CRD without a generation
// (built in Go, not read from a server) is named by its spec too.
//
// Upstream's hash is the document's own (handler3: a sha512 of the JSON,
// computed when the OpenAPI controller sets the spec); crdlab builds
// documents only when asked for, so the hash cannot wait for the build.
func crdsHash(serverVersion string, gv scheme.GroupVersion, crds []*apiextensionsv1.CustomResourceDefinition) string {
	h := sha512.New()
	fmt.Fprintf(h, "crdlab openapi v3 %q %q %q %q\n", serverVersion, buildStamp, gv.Group, gv.Version)
	for _, crd := range crds {
		names, _ := json.Marshal(crd.Status.AcceptedNames) // names are strings: no error
		fmt.Fprintf(h, "%q %q %d %s\n", crd.Name, crd.UID, crd.Generation, names)
		if crd.Generation == 0 {
			spec, err := json.Marshal(crd.Spec)
			if err != nil {
				spec = fmt.Appendf(nil, "%p", crd) // never equal to another's
			}
			h.Write(spec)
		}
	}
	return fmt.Sprintf("%X", h.Sum(nil))
}

// buildStamp names the build of this binary in crdsHash: the commit it was
// built from when the build says so and had no uncommitted changes (`go
// build` in a clean checkout), else the moment the process started. A
// change to the document builder without a change of the server's version
// then still changes every hash (with a dev build, at every restart:
// clients download each document once more), where a hash that stayed
// would have clients keep the old document for good.
var buildStamp = func() string {
	if bi, ok := debug.ReadBuildInfo(); ok {
		var rev, modified string
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				rev = s.Value
			case "vcs.modified":
				modified = s.Value
			}
		}
		if rev != "" && modified == "false" {
			return "commit " + rev
		}
	}
	return "started " + time.Now().UTC().Format(time.RFC3339Nano)
}()

// errNoDocument is document's error for a group version with no document.
var errNoDocument = errors.New("no OpenAPI document")

// document returns gv's document (gzip-compressed) and hash, building it
// if needed. It builds under the lock: two requests never build one
// document twice.
func (o *openAPIService) document(gv scheme.GroupVersion) (gz []byte, hash string, err error) {
	gz, _, hash, err = o.documentBuilt(gv)
	return gz, hash, err
}

// documentBuilt is document, and the uncompressed document if this call
// built it (nil otherwise): a client without gzip that asked for it is
// answered with it, and the plain cache keeps it, without decompressing
// what was compressed a moment before.
func (o *openAPIService) documentBuilt(gv scheme.GroupVersion) (gz, built []byte, hash string, err error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	g, ok := o.groups[gv]
	if !ok {
		return nil, nil, "", errNoDocument
	}
	if g.kept != nil {
		o.recent.MoveToFront(g.kept)
	}
	if g.doc == nil {
		resources := g.resources
		if g.schemas != nil {
			// Every schema's JSON in one buffer, sliced once it has
			// stopped growing.
			resources = make([]openapi.Resource, len(g.resources))
			var all []byte
			ends := make([]int, len(g.resources))
			for i, r := range g.resources {
				if g.schemas[i] != nil {
					if all, err = g.schemas[i].AppendJSON(all); err != nil {
						return nil, nil, "", fmt.Errorf("OpenAPI document of %s: the schema of %s: %w", gv, r.Plural, err)
					}
				}
				ends[i] = len(all)
			}
			start := 0
			for i, r := range g.resources {
				if g.schemas[i] != nil {
					r.SchemaJSON = all[start:ends[i]:ends[i]]
				}
				start = ends[i]
				resources[i] = r
			}
		}
		o.builds++
		doc, err := openapi.BuildGroupVersion(gv.Group, gv.Version, resources)
		if err != nil {
			return nil, nil, "", fmt.Errorf("OpenAPI document of %s: %w", gv, err)
		}
		if g.doc, err = responsewriters.Gzip(doc); err != nil {
			return nil, nil, "", fmt.Errorf("OpenAPI document of %s: %w", gv, err)
		}
		built = doc
		if o.hashLocked(gv, g) == "" {
			g.hash = openapi.Hash(doc)
		}
		g.kept = o.recent.PushFront(gv)
		o.docBytes += len(g.doc)
		for o.docBytes > o.maxDocBytes && o.recent.Len() > 1 {
			last := o.recent.Back()
			dropped := o.groups[last.Value.(scheme.GroupVersion)]
			o.recent.Remove(last)
			o.docBytes -= len(dropped.doc)
			dropped.doc, dropped.kept = nil, nil
		}
	}
	return g.doc, built, g.hash, nil
}

// hashLocked fills in g's hash if it can without building the document
// (a CRD group version's: crdsHash), and returns it ("" if not known).
// Caller holds o.mu.
func (o *openAPIService) hashLocked(gv scheme.GroupVersion, g *openAPIGroup) string {
	if g.hash == "" && g.crds != nil {
		g.hash = crdsHash(o.version, gv, g.crds)
	}
	return g.hash
}

// hash returns gv's document's hash, building the document only if its
// hash is not known.
func (o *openAPIService) hash(gv scheme.GroupVersion) (string, error) {
	o.mu.Lock()
	g, ok := o.groups[gv]
	if ok && o.hashLocked(gv, g) != "" {
		defer o.mu.Unlock()
		return g.hash, nil
	}
	o.mu.Unlock()
	_, hash, err := o.document(gv)
	return hash, err
}

// plainCache keeps the uncompressed documents that clients without gzip
// asked for most recently, up to max bytes in all: decompressing a
// provider's 1.4 MB document took 20 ms per request on the loaded
// 2-core machine. Entries are keyed by group version and hash, so a
// changed document is never answered from an older entry; those age out.
type plainCache struct {
	max int

	mu      sync.Mutex // guards size, lru and entries
	size    int
	lru     *list.List // of *plainEntry, most recently used first
	entries map[string]*list.Element
}

type plainEntry struct {
	key string
	b   []byte
}

// maxPlainCache bounds plainCache: a fixed cost, not one per CRD, paid
// only when clients without gzip ask. It was 64 MiB: bench's 50 group
// versions of provider CRDs (8 to a group, 1.36 MB each uncompressed,
// 68 MB in all) asked in turn did not fit, and in least-recently-used
// order every request then missed and decompressed its document (OpenAPI
// p99 64 ms at 500 CRDs, against 11.5 ms at 100, where all fitted). A
// client going round more documents than fit still misses every time.
const maxPlainCache = 128 << 20

func newPlainCache(maxBytes int) *plainCache {
	return &plainCache{max: maxBytes, lru: list.New(), entries: map[string]*list.Element{}}
}

// get returns the document gz (gv's, with hash) uncompressed.
func (c *plainCache) get(gv scheme.GroupVersion, hash string, gz []byte) ([]byte, error) {
	key := plainKey(gv, hash)
	c.mu.Lock()
	if e, ok := c.entries[key]; ok {
		c.lru.MoveToFront(e)
		b := e.Value.(*plainEntry).b
		c.mu.Unlock()
		return b, nil
	}
	c.mu.Unlock()
	b, err := gunzip(gz)
	if err != nil {
		return nil, err
	}
	c.put(key, b)
	return b, nil
}

// put keeps b, the document of key, unless it alone is larger than the
// cache.
func (c *plainCache) put(key string, b []byte) {
	if len(b) > c.max {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.entries[key]; !ok {
		c.entries[key] = c.lru.PushFront(&plainEntry{key: key, b: b})
		c.size += len(b)
		for c.size > c.max {
			last := c.lru.Back()
			pe := last.Value.(*plainEntry)
			c.lru.Remove(last)
			delete(c.entries, pe.key)
			c.size -= len(pe.b)
		}
	}
}

func plainKey(gv scheme.GroupVersion, hash string) string { return gv.String() + "\x00" + hash }

// groupVersions lists the documented group versions, sorted.
func (o *openAPIService) groupVersions() []scheme.GroupVersion {
	o.mu.Lock()
	defer o.mu.Unlock()
	out := make([]scheme.GroupVersion, 0, len(o.groups))
	for gv := range o.groups {
		out = append(out, gv)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].String() < out[j].String() })
	return out
}

func (o *openAPIService) serveRoot(w http.ResponseWriter, _ *http.Request) {
	hashes := map[string]string{}
	for _, gv := range o.groupVersions() {
		hash, err := o.hash(gv)
		if err != nil {
			if !errors.Is(err, errNoDocument) { // else removed meanwhile
				o.log.Error("cannot build OpenAPI document", "groupVersion", gv.String(), "err", err)
			}
			continue
		}
		hashes[strings.TrimPrefix(gvPath(gv), "/")] = hash
	}
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write(openapi.RootDocument(hashes))
}

// serveGroupVersion answers one group version's document, with its hash as
// ETag; a URL whose ?hash= is the current one may be cached for good.
//
// Mirrors (*handler3.OpenAPIService).HandleGroupVersion.
func (o *openAPIService) serveGroupVersion(w http.ResponseWriter, r *http.Request, gv scheme.GroupVersion) {
	doc, built, hash, err := o.documentBuilt(gv)
	if errors.Is(err, errNoDocument) {
		NotFoundHandler(w, r)
		return
	}
	if err != nil {
		o.log.Error("cannot build OpenAPI document", "groupVersion", gv.String(), "err", err)
		responsewriters.WriteError(w, apierrors.NewInternalError(err))
		return
	}
	etag := `"` + hash + `"`
	w.Header().Set("ETag", etag)
	if r.URL.Query().Get("hash") == hash {
		w.Header().Set("Cache-Control", "public, immutable")
	}
	if r.Header.Get("If-None-Match") == etag {
		w.WriteHeader(http.StatusNotModified)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Vary", "Accept-Encoding")
	if responsewriters.AcceptsGzip(r) {
		w.Header().Set("Content-Encoding", "gzip")
		_, _ = w.Write(doc)
		return
	}
	if built != nil {
		o.plain.put(plainKey(gv, hash), built)
		_, _ = w.Write(built)
		return
	}
	plain, err := o.plain.get(gv, hash, doc)
	if err != nil {
		responsewriters.WriteError(w, apierrors.NewInternalError(err))
		return
	}
	_, _ = w.Write(plain)
}

// UpdateGroupVersion makes /openapi/v3/apis/<group>/<version> describe
// exactly crds: the Established CRDs that serve gv, as the OpenAPI
// controller (package controller/openapi) hands them over. An empty crds
// removes the document. The document is built on its next request, from
// these CRDs only, never from the crdHandler's own (possibly older) view.
// apiextensions.k8s.io belongs to the server and is left as it is.
//
// Mirrors (*handler3.OpenAPIService).UpdateGroupVersion and
// DeleteGroupVersion, which upstream's openapiv3 controller calls with
// the specs it built with controller/openapi/builder.
func (h *GenericAPIServer) UpdateGroupVersion(gv scheme.GroupVersion, crds []*apiextensionsv1.CustomResourceDefinition) {
	if gv.Group == apiextensions.GroupName {
		return
	}
	h.cfg.openapi.setGroup(gv, h.crdOpenAPIResources(gv, crds))
}

// crdOpenAPIResources describes the version gv.Version of each CRD that
// serves it, named by its accepted names (those it is served under). A CRD
// whose plural another of the list already has is left out: the naming
// controller never accepts both. The schemas stay the CRDs' own, encoded
// when the document is built.
func (h *GenericAPIServer) crdOpenAPIResources(gv scheme.GroupVersion, crds []*apiextensionsv1.CustomResourceDefinition) *openAPIGroup {
	g := &openAPIGroup{crds: crds, schemas: []*apiextensionsv1.JSONSchemaProps{}}
	if g.crds == nil {
		g.crds = []*apiextensionsv1.CustomResourceDefinition{}
	}
	plurals := map[string]string{}
	for _, crd := range crds {
		if crd.Spec.Group != gv.Group {
			continue
		}
		names := crd.Status.AcceptedNames
		if names.Plural == "" || names.Kind == "" {
			names = crd.Spec.Names
		}
		for _, v := range crd.Spec.Versions {
			if v.Name != gv.Version || !v.Served {
				continue
			}
			if other, ok := plurals[names.Plural]; ok {
				h.logger.Warn("OpenAPI: two CRDs with one plural; describing the first", "groupVersion", gv.String(), "plural", names.Plural, "first", other, "second", crd.Name)
				continue
			}
			plurals[names.Plural] = crd.Name
			r := openapi.Resource{
				Group: gv.Group, Version: gv.Version, Kind: names.Kind, ListKind: names.ListKind,
				Plural: names.Plural, Singular: names.Singular,
				Namespaced: crd.Spec.Scope == apiextensionsv1.NamespaceScoped,
			}
			var schema *apiextensionsv1.JSONSchemaProps
			if v.Schema != nil {
				schema = v.Schema.OpenAPIV3Schema
			}
			if sub := v.Subresources; sub != nil {
				r.HasStatus = sub.Status != nil
				if sc := sub.Scale; sc != nil {
					r.Scale = &openapi.ScaleInfo{SpecReplicasPath: sc.SpecReplicasPath, StatusReplicasPath: sc.StatusReplicasPath}
					if sc.LabelSelectorPath != nil {
						r.Scale.LabelSelectorPath = *sc.LabelSelectorPath
					}
				}
			}
			g.resources = append(g.resources, r)
			g.schemas = append(g.schemas, schema)
		}
	}
	return g
}

// apisPackage is the Go package path under which crdlab's API types live
// ("github.com/crdlab/crdlab/apis").
var apisPackage = path.Dir(path.Dir(reflect.TypeFor[metav1.ObjectMeta]().PkgPath()))

// openAPITypeName names a Go type's schema the way upstream names the same
// type's: crdlab's apis/meta/v1 is k8s.io/apimachinery/pkg/apis/meta/v1,
// apis/apiextensions/<version> is
// k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/<version>, and
// kube-openapi writes "k8s.io/x/y" as "io.k8s.x.y". So ObjectMeta is
// "io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta", as in every upstream
// document.
func openAPITypeName(t reflect.Type) string {
	rel, ok := strings.CutPrefix(t.PkgPath(), apisPackage+"/")
	if !ok {
		return strings.ReplaceAll(t.PkgPath(), "/", ".") + "." + t.Name()
	}
	switch {
	case rel == "meta/v1":
		return "io.k8s.apimachinery.pkg.apis.meta.v1." + t.Name()
	case strings.HasPrefix(rel, "apiextensions/"):
		return "io.k8s.apiextensions-apiserver.pkg.apis." + strings.ReplaceAll(rel, "/", ".") + "." + t.Name()
	}
	return "io.k8s.api." + strings.ReplaceAll(rel, "/", ".") + "." + t.Name()
}
