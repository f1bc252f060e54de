package discovery

import (
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"net/http"
	"reflect"
	"sort"
	"strings"
	"sync"

	apierrors "github.com/crdlab/crdlab/apis/errors"
	metav1 "github.com/crdlab/crdlab/apis/meta/v1"
	"github.com/crdlab/crdlab/handler/negotiation"
	"github.com/crdlab/crdlab/handler/responsewriters"
	"github.com/crdlab/crdlab/machinery/apiresource"
	"github.com/crdlab/crdlab/machinery/version"
	"github.com/crdlab/crdlab/scheme"
)

// Manager holds the discovery state and serves it. It is safe for
// concurrent use: hooks may run while requests are served.
//
// Mirrors the aggregated discovery ResourceManager (aggregated/handler.go)
// together with the legacy root, group and version handlers.
type Manager struct {
	mu sync.RWMutex // guards groups, priority, gen, lists and listBuilds
	// groups maps a group name to its versions, each version to its
	// resources sorted by name. A group is present iff it has at least one
	// version.
	groups map[string]map[string][]apiresource.Resource
	// order lists the groups in the order /apis shows them: groups added
	// with a priority first (see SetGroupPriority), then by name.
	priority map[string]int
	// gen counts the changes of groups and priority: the aggregated
	// document of one generation is encoded once (aggregatedBody).
	gen int64

	// lists holds a group version's APIResourceList as JSON, encoded on
	// its first request after a change of that group version (the
	// garbage collector's discovery reads every group version, again and
	// again while CRDs change); an entry is dropped when its group
	// version changes. listBuilds counts the encodings.
	lists      map[scheme.GroupVersion][]byte
	listBuilds int

	aggMu sync.Mutex // guards aggGen, agg, aggBuilds and gzBuilds
	// agg holds the encoded /apis documents of generation aggGen: the
	// aggregated ones by apiVersion (v2, v2beta1), the legacy one as
	// legacyDoc; aggBuilds counts the encodings, gzBuilds the
	// compressions.
	aggGen    int64
	agg       map[string]encodedDoc
	aggBuilds int
	gzBuilds  int
}

// encodedDoc is an encoded document and its ETag, and the document
// followed by a newline (as WriteEncoded answers it) gzip-compressed, once
// a client that accepts gzip asked for a document over the threshold.
type encodedDoc struct {
	body []byte
	etag string
	gz   []byte
}

// NewManager returns an empty Manager.
func NewManager() *Manager {
	return &Manager{groups: map[string]map[string][]apiresource.Resource{}, priority: map[string]int{},
		lists: map[scheme.GroupVersion][]byte{}}
}

// SetGroupPriority makes group appear before groups of lower priority in
// /apis (default 0; equal priorities sort by name). Upstream orders
// built-in groups before CRD groups the same way.
func (m *Manager) SetGroupPriority(group string, priority int) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if old, ok := m.priority[group]; !ok || old != priority {
		m.gen++
	}
	m.priority[group] = priority
}

// SetGroupVersion sets (adds or replaces) the resources served in gv. An
// empty list removes the version, as RemoveGroupVersion.
//
// Mirrors (*resourceDiscoveryManager).AddGroupVersion and the
// setDiscovery calls of DiscoveryController.sync.
func (m *Manager) SetGroupVersion(gv scheme.GroupVersion, resources []apiresource.Resource) {
	if len(resources) == 0 {
		m.RemoveGroupVersion(gv)
		return
	}
	rs := append([]apiresource.Resource(nil), resources...)
	sort.Slice(rs, func(i, j int) bool { return rs[i].Name < rs[j].Name })
	m.mu.Lock()
	defer m.mu.Unlock()
	vs := m.groups[gv.Group]
	if vs == nil {
		vs = map[string][]apiresource.Resource{}
		m.groups[gv.Group] = vs
	}
	// The discovery controller sets a group version on every change of
	// one of its CRDs; most (a condition) change nothing advertised.
	if old, ok := vs[gv.Version]; !ok || !reflect.DeepEqual(old, rs) {
		m.gen++
		delete(m.lists, gv)
	}
	vs[gv.Version] = rs
}

// RemoveGroupVersion stops advertising gv; the group goes when its last
// version does.
//
// Mirrors (*resourceDiscoveryManager).RemoveGroupVersion.
func (m *Manager) RemoveGroupVersion(gv scheme.GroupVersion) {
	m.mu.Lock()
	defer m.mu.Unlock()
	vs := m.groups[gv.Group]
	if _, ok := vs[gv.Version]; ok {
		m.gen++
		delete(m.lists, gv)
	}
	delete(vs, gv.Version)
	if len(vs) == 0 {
		delete(m.groups, gv.Group)
	}
}

// GroupVersions returns every advertised group version, groups in /apis
// order and versions by preference.
func (m *Manager) GroupVersions() []scheme.GroupVersion {
	m.mu.RLock()
	defer m.mu.RUnlock()
	var out []scheme.GroupVersion
	for _, g := range m.sortedGroupsLocked() {
		for _, v := range sortedVersions(m.groups[g]) {
			out = append(out, scheme.GroupVersion{Group: g, Version: v})
		}
	}
	return out
}

// Resources returns the resources of gv and whether gv is advertised.
func (m *Manager) Resources(gv scheme.GroupVersion) ([]apiresource.Resource, bool) {
	m.mu.RLock()
	defer m.mu.RUnlock()
	rs, ok := m.groups[gv.Group][gv.Version]
	return append([]apiresource.Resource(nil), rs...), ok
}

// Serves reports whether gv advertises resource and, if subresource is
// not empty, that subresource of it. It allocates nothing: /metrics asks
// it for every request (apiserver/metrics.go).
func (m *Manager) Serves(gv scheme.GroupVersion, resource, subresource string) bool {
	m.mu.RLock()
	defer m.mu.RUnlock()
	for i := range m.groups[gv.Group][gv.Version] {
		r := &m.groups[gv.Group][gv.Version][i]
		if r.Name != resource {
			continue
		}
		if subresource == "" {
			return true
		}
		for _, sub := range r.Subresources {
			if sub.Name == subresource {
				return true
			}
		}
		return false
	}
	return false
}

func (m *Manager) sortedGroupsLocked() []string {
	gs := make([]string, 0, len(m.groups))
	for g := range m.groups {
		gs = append(gs, g)
	}
	sort.Slice(gs, func(i, j int) bool {
		pi, pj := m.priority[gs[i]], m.priority[gs[j]]
		if pi != pj {
			return pi > pj
		}
		return gs[i] < gs[j]
	})
	return gs
}

func sortedVersions(vs map[string][]apiresource.Resource) []string {
	out := make([]string, 0, len(vs))
	for v := range vs {
		out = append(out, v)
	}
	sort.Slice(out, func(i, j int) bool { return version.CompareKubeAwareVersionStrings(out[i], out[j]) > 0 })
	return out
}

// APIGroupList builds the legacy /apis document.
//
// Mirrors rootAPIsHandler in endpoints/discovery/root.go.
func (m *Manager) APIGroupList() *metav1.APIGroupList {
	m.mu.RLock()
	defer m.mu.RUnlock()
	list := &metav1.APIGroupList{TypeMeta: metav1.TypeMeta{Kind: "APIGroupList", APIVersion: "v1"}, Groups: []metav1.APIGroup{}}
	for _, g := range m.sortedGroupsLocked() {
		if g != "" { // the core group is /api's
			list.Groups = append(list.Groups, m.apiGroupLocked(g))
		}
	}
	return list
}

// APIGroup builds the /apis/<group> document.
//
// Mirrors APIGroupHandler in endpoints/discovery/group.go.
func (m *Manager) APIGroup(group string) (*metav1.APIGroup, bool) {
	m.mu.RLock()
	defer m.mu.RUnlock()
	if _, ok := m.groups[group]; !ok || group == "" {
		return nil, false
	}
	g := m.apiGroupLocked(group)
	g.TypeMeta = metav1.TypeMeta{Kind: "APIGroup", APIVersion: "v1"}
	return &g, true
}

func (m *Manager) apiGroupLocked(group string) metav1.APIGroup {
	g := metav1.APIGroup{Name: group}
	for _, v := range sortedVersions(m.groups[group]) {
		g.Versions = append(g.Versions, metav1.GroupVersionForDiscovery{
			GroupVersion: scheme.GroupVersion{Group: group, Version: v}.String(), Version: v})
	}
	if len(g.Versions) > 0 {
		g.PreferredVersion = g.Versions[0]
	}
	return g
}

// APIResourceList builds the /apis/<group>/<version> document.
//
// Mirrors APIVersionHandler in endpoints/discovery/version.go.
func (m *Manager) APIResourceList(gv scheme.GroupVersion) (*metav1.APIResourceList, bool) {
	m.mu.RLock()
	defer m.mu.RUnlock()
	return m.apiResourceListLocked(gv)
}

// apiResourceListLocked is APIResourceList; m.mu is held.
func (m *Manager) apiResourceListLocked(gv scheme.GroupVersion) (*metav1.APIResourceList, bool) {
	rs, ok := m.groups[gv.Group][gv.Version]
	if !ok {
		return nil, false
	}
	list := &metav1.APIResourceList{
		TypeMeta:     metav1.TypeMeta{Kind: "APIResourceList", APIVersion: "v1"},
		GroupVersion: gv.String(),
		APIResources: []metav1.APIResource{},
	}
	for _, r := range rs {
		list.APIResources = append(list.APIResources, metav1.APIResource{
			Name: r.Name, SingularName: r.SingularName, Namespaced: r.Namespaced, Kind: r.Kind,
			Verbs: nonNil(r.Verbs), ShortNames: r.ShortNames, Categories: r.Categories,
			StorageVersionHash: r.StorageVersionHash,
		})
		for _, s := range r.Subresources {
			ar := metav1.APIResource{
				Name: r.Name + "/" + s.Name, Namespaced: r.Namespaced, Kind: s.Kind.Kind, Verbs: nonNil(s.Verbs),
			}
			if s.Kind.GroupVersion() != gv {
				ar.Group, ar.Version = s.Kind.Group, s.Kind.Version
			}
			list.APIResources = append(list.APIResources, ar)
		}
	}
	return list, true
}

// APIGroupDiscoveryList builds the aggregated /apis document.
//
// Mirrors the aggregated discovery document of aggregated/handler.go.
func (m *Manager) APIGroupDiscoveryList() *APIGroupDiscoveryList {
	return m.aggregated(func(g string) bool { return g != "" })
}

// aggregated builds an aggregated document of the groups keep accepts:
// /apis has every group but the core one, /api the core one alone.
func (m *Manager) aggregated(keep func(group string) bool) *APIGroupDiscoveryList {
	m.mu.RLock()
	defer m.mu.RUnlock()
	list := &APIGroupDiscoveryList{
		TypeMeta: metav1.TypeMeta{Kind: "APIGroupDiscoveryList", APIVersion: GroupName + "/" + Version},
		Items:    []APIGroupDiscovery{},
	}
	for _, g := range m.sortedGroupsLocked() {
		if !keep(g) {
			continue
		}
		item := APIGroupDiscovery{ObjectMeta: metav1.ObjectMeta{Name: g}}
		for _, v := range sortedVersions(m.groups[g]) {
			vd := APIVersionDiscovery{Version: v, Freshness: DiscoveryFreshnessCurrent}
			for _, r := range m.groups[g][v] {
				vd.Resources = append(vd.Resources, aggregatedResource(g, v, r))
			}
			item.Versions = append(item.Versions, vd)
		}
		list.Items = append(list.Items, item)
	}
	return list
}

func aggregatedResource(group, version string, r apiresource.Resource) APIResourceDiscovery {
	scope := ScopeCluster
	if r.Namespaced {
		scope = ScopeNamespace
	}
	d := APIResourceDiscovery{
		Resource:         r.Name,
		ResponseKind:     &GroupVersionKind{Group: group, Version: version, Kind: r.Kind},
		Scope:            scope,
		SingularResource: r.SingularName,
		Verbs:            nonNil(r.Verbs),
		ShortNames:       r.ShortNames,
		Categories:       r.Categories,
	}
	for _, s := range r.Subresources {
		d.Subresources = append(d.Subresources, APISubresourceDiscovery{
			Subresource:  s.Name,
			ResponseKind: &GroupVersionKind{Group: s.Kind.Group, Version: s.Kind.Version, Kind: s.Kind.Kind},
			Verbs:        nonNil(s.Verbs),
		})
	}
	return d
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// aggregatedAllowed accepts the aggregated discovery conversions.
func aggregatedAllowed(t negotiation.Target) bool {
	return t == negotiation.DiscoveryV2 || t == negotiation.DiscoveryV2beta1
}

// ServeAPIs answers /apis: the aggregated document if the client asks for
// it (with an ETag; If-None-Match gives 304), else the APIGroupList;
// gzip-compressed to a client that accepts gzip, whatever its size, as the
// OpenAPI v3 documents are (upstream: only an answer over 128 KiB). With
// 2,000 CRDs the legacy list is 73 KB (4 KB compressed): sent plain, its
// p50 was 0.6-0.7 ms against 0.2 ms at 100 CRDs on one machine, and about
// 0.3 ms compressed.
//
// Mirrors (*resourceDiscoveryManager).ServeHTTP, which falls back to the
// legacy handler.
func (m *Manager) ServeAPIs(w http.ResponseWriter, r *http.Request) {
	opts, err := negotiation.Negotiate(r.Header.Get("Accept"), aggregatedAllowed)
	if err != nil {
		responsewriters.WriteError(w, err)
		return
	}
	w.Header().Add("Vary", "Accept")
	doc := legacyDoc
	if opts.Convert != nil {
		doc = GroupName + "/" + opts.Convert.Version
	}
	d, err := m.encoded(doc)
	if err != nil {
		responsewriters.WriteError(w, err)
		return
	}
	if opts.Convert != nil {
		w.Header().Set("ETag", d.etag)
		if match := r.Header.Get("If-None-Match"); match != "" && strings.Contains(match, d.etag) {
			w.WriteHeader(http.StatusNotModified)
			return
		}
	}
	if responsewriters.CompressibleKept(r, opts) {
		gz, err := m.gzipped(doc, d)
		if err != nil {
			responsewriters.WriteError(w, err)
			return
		}
		responsewriters.WriteGzipped(w, opts, http.StatusOK, gz)
		return
	}
	// Without copying megabytes into a new body.
	responsewriters.WriteEncoded(w, opts, http.StatusOK, d.body)
}

// gzipped returns d, the document doc of some generation, compressed: kept
// with d while d is the current one, so that each generation's document is
// compressed at most once. Upstream compresses each answer over 128 KiB
// anew (deferredResponseWriter), and no smaller one; 2,000 real-size CRDs'
// aggregated document is 2.1 MB, and kubectl's discovery asks for it with
// gzip.
func (m *Manager) gzipped(doc string, d encodedDoc) ([]byte, error) {
	m.aggMu.Lock()
	defer m.aggMu.Unlock()
	cur, ok := m.agg[doc]
	if ok && cur.gz != nil && &cur.body[0] == &d.body[0] {
		return cur.gz, nil
	}
	gz, err := responsewriters.Gzip(d.body, newline)
	if err != nil {
		return nil, err
	}
	m.gzBuilds++
	if ok && &cur.body[0] == &d.body[0] {
		cur.gz = gz
		m.agg[doc] = cur
	}
	return gz, nil
}

var newline = []byte{'\n'}

// legacyDoc is encoded's name of the APIGroupList.
const legacyDoc = "v1/APIGroupList"

// encoded returns a /apis document, encoded, and its ETag: the legacy
// APIGroupList (doc legacyDoc) or the aggregated document in apiVersion
// doc. Each is encoded once per generation of the discovery state, not
// per request: a provider's hundreds of CRDs made each request build and
// encode the whole document (2,000 real-size CRDs: 2.1 MB aggregated, 73
// KB legacy, and the legacy one's p99 went from 5 ms at 100 CRDs to 13 ms
// while the heap was large). The document is at least as new as the
// state when the call began.
//
// Upstream keeps the aggregated document and its ETag between changes
// (aggregated/handler.go: cachedResponse, cachedResponseETag), encoding
// it per request, and builds the legacy list per request
// (endpoints/discovery/root.go).
func (m *Manager) encoded(doc string) (encodedDoc, error) {
	m.mu.RLock()
	gen := m.gen
	m.mu.RUnlock()
	m.aggMu.Lock()
	defer m.aggMu.Unlock()
	if m.aggGen != gen || m.agg == nil {
		m.aggGen, m.agg = gen, map[string]encodedDoc{}
	}
	if d, ok := m.agg[doc]; ok {
		return d, nil
	}
	var v any
	if doc == legacyDoc {
		v = m.APIGroupList()
	} else {
		agg := m.APIGroupDiscoveryList()
		agg.APIVersion = doc
		v = agg
	}
	body, err := json.Marshal(v)
	if err != nil {
		return encodedDoc{}, err
	}
	m.aggBuilds++
	d := encodedDoc{body: body, etag: fmt.Sprintf("%q", fmt.Sprintf("%X", sha256.Sum256(body)))}
	m.agg[doc] = d
	return d, nil
}

// ServeGroup answers /apis/<group>, or 404.
func (m *Manager) ServeGroup(w http.ResponseWriter, r *http.Request, group string) {
	opts, err := negotiation.Negotiate(r.Header.Get("Accept"), nil)
	if err != nil {
		responsewriters.WriteError(w, err)
		return
	}
	g, ok := m.APIGroup(group)
	if !ok {
		responsewriters.WriteError(w, notFound())
		return
	}
	responsewriters.WriteObject(w, opts, http.StatusOK, g)
}

// ServeGroupVersion answers /apis/<group>/<version>, or 404.
func (m *Manager) ServeGroupVersion(w http.ResponseWriter, r *http.Request, gv scheme.GroupVersion) {
	opts, err := negotiation.Negotiate(r.Header.Get("Accept"), nil)
	if err != nil {
		responsewriters.WriteError(w, err)
		return
	}
	body, ok, err := m.resourceListJSON(gv)
	if err != nil {
		responsewriters.WriteError(w, err)
		return
	}
	if !ok {
		responsewriters.WriteError(w, notFound())
		return
	}
	responsewriters.WriteEncoded(w, opts, http.StatusOK, body)
}

// resourceListJSON returns gv's APIResourceList as JSON (ok false if gv is
// not served), encoded once per change of gv.
func (m *Manager) resourceListJSON(gv scheme.GroupVersion) (body []byte, ok bool, err error) {
	m.mu.RLock()
	body, ok = m.lists[gv]
	m.mu.RUnlock()
	if ok {
		return body, true, nil
	}
	// Encoded under the write lock, so that no change of gv comes between
	// reading its resources and keeping the result.
	m.mu.Lock()
	defer m.mu.Unlock()
	if body, ok := m.lists[gv]; ok {
		return body, true, nil
	}
	list, ok := m.apiResourceListLocked(gv)
	if !ok {
		return nil, false, nil
	}
	if body, err = json.Marshal(list); err != nil {
		return nil, false, err
	}
	m.lists[gv] = body
	m.listBuilds++
	return body, true, nil
}

// notFound is the answer of a path nothing serves: upstream's delegate
// chain ends in a 404 "the server could not find the requested resource".
func notFound() error {
	e := apierrors.NewNotFound(scheme.GroupResource{}, "")
	e.ErrStatus.Message = "the server could not find the requested resource"
	e.ErrStatus.Details = &metav1.StatusDetails{}
	return e
}
