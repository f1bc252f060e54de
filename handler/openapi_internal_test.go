package handler

import (
	"bytes"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http/httptest"
	"strings"
	"testing"

	apiextensionsv1 "github.com/crdlab/crdlab/apis/apiextensions/v1"
	metav1 "github.com/crdlab/crdlab/apis/meta/v1"
	"github.com/crdlab/crdlab/handler/internal/check"
	"github.com/crdlab/crdlab/internal/crdgen"
	"github.com/crdlab/crdlab/scheme"
)

// TestOpenAPIService_KeepsBoundedDocuments: the built documents kept stay
// within maxDocBytes, the least recently asked-for going first; a dropped
// document's hash is still known (the root document lists it without
// building it again) and the document is built again, the same, when
// asked for; a CRD change still replaces it.
func TestOpenAPIService_KeepsBoundedDocuments(t *testing.T) {
	h := &GenericAPIServer{logger: slog.New(slog.DiscardHandler)}
	o := newOpenAPIService(slog.New(slog.DiscardHandler), "v")
	var gvs []scheme.GroupVersion
	crds := map[scheme.GroupVersion][]*apiextensionsv1.CustomResourceDefinition{}
	for i := range 4 {
		opts := crdgen.Options{Group: fmt.Sprintf("g%d.example.com", i), Bytes: 40 << 10, Versions: 1, Seed: 1}
		var crd apiextensionsv1.CustomResourceDefinition
		check.NoError(t, json.Unmarshal(crdgen.CRD(i, opts), &crd))
		crd.Status.AcceptedNames = crd.Spec.Names
		gv := scheme.GroupVersion{Group: opts.Group, Version: crd.Spec.Versions[0].Name}
		gvs = append(gvs, gv)
		crds[gv] = []*apiextensionsv1.CustomResourceDefinition{&crd}
		o.setGroup(gv, h.crdOpenAPIResources(gv, crds[gv]))
	}
	// A service without the bound tells each document and its hash.
	all := newOpenAPIService(slog.New(slog.DiscardHandler), "v")
	docs := map[scheme.GroupVersion][]byte{}
	hashes := map[scheme.GroupVersion]string{}
	for _, gv := range gvs {
		all.setGroup(gv, h.crdOpenAPIResources(gv, crds[gv]))
		doc, hash, err := all.document(gv)
		check.NoError(t, err)
		docs[gv], hashes[gv] = doc, hash
	}
	// Room for about two and a half documents.
	o.maxDocBytes = len(docs[gvs[2]]) + len(docs[gvs[3]]) + len(docs[gvs[3]])/2
	invariants := func() {
		t.Helper()
		o.mu.Lock()
		defer o.mu.Unlock()
		check.True(t, o.docBytes <= o.maxDocBytes, o.docBytes, o.maxDocBytes)
		kept, bytes := 0, 0
		for _, gv := range gvs {
			if g := o.groups[gv]; g != nil && g.doc != nil {
				kept++
				bytes += len(g.doc)
				check.True(t, g.kept != nil, "a kept document is not in the list")
			}
		}
		check.Equal(t, o.recent.Len(), kept)
		check.Equal(t, o.docBytes, bytes)
	}
	for _, gv := range gvs {
		doc, hash, err := o.document(gv)
		check.NoError(t, err)
		check.Equal(t, hashes[gv], hash)
		check.Equal(t, string(docs[gv]), string(doc))
		invariants()
	}
	check.Equal(t, 4, o.builds)
	o.mu.Lock()
	check.True(t, o.groups[gvs[0]].doc == nil, "the least recently asked-for document was kept")
	check.True(t, o.groups[gvs[3]].doc != nil, "the last document built was dropped")
	o.mu.Unlock()
	// The root lists every hash without building anything; an update
	// with the same CRDs keeps the hash of a dropped document too.
	o.setGroup(gvs[0], h.crdOpenAPIResources(gvs[0], crds[gvs[0]]))
	for _, gv := range gvs {
		got, err := o.hash(gv)
		check.NoError(t, err)
		check.Equal(t, hashes[gv], got)
	}
	check.Equal(t, 4, o.builds)
	// A dropped document is built again, the same, when asked for.
	doc, hash, err := o.document(gvs[0])
	check.NoError(t, err)
	check.Equal(t, 5, o.builds)
	check.Equal(t, hashes[gvs[0]], hash)
	check.Equal(t, string(docs[gvs[0]]), string(doc))
	invariants()

	// A changed CRD replaces its document, kept or not.
	changed := crds[gvs[0]][0].DeepCopy()
	changed.Spec.Versions[0].Schema.OpenAPIV3Schema.Description = "changed"
	o.setGroup(gvs[0], h.crdOpenAPIResources(gvs[0], []*apiextensionsv1.CustomResourceDefinition{changed}))
	got, err := o.hash(gvs[0])
	check.NoError(t, err)
	check.True(t, got != hashes[gvs[0]], "the changed CRD's document kept its old hash")
	invariants()
	// A group version removed takes its document out of the count.
	o.setGroup(gvs[3], &openAPIGroup{})
	invariants()
}

// TestOpenAPIService_CRDHashWithoutBuilding: /openapi/v3 lists the hash of
// every CRD group version's document without building one (at 2,000
// provider CRDs, building them all for the root took longer than the
// request's timeout). The hash stays while the CRDs' specs and accepted
// names do (a condition changes nothing), and changes with a spec (the
// generation) or an accepted name; equal hashes are equal documents.
func TestOpenAPIService_CRDHashWithoutBuilding(t *testing.T) {
	h := &GenericAPIServer{logger: slog.New(slog.DiscardHandler)}
	o := newOpenAPIService(slog.New(slog.DiscardHandler), "v")
	crd := *servedCRD(t, 0, crdgen.Options{Group: "g.example.com", Bytes: 40 << 10, Versions: 1, Seed: 1})
	crd.UID, crd.ResourceVersion = "uid-1", "10"
	gv := scheme.GroupVersion{Group: crd.Spec.Group, Version: crd.Spec.Versions[0].Name}
	set := func(c *apiextensionsv1.CustomResourceDefinition) string {
		t.Helper()
		o.setGroup(gv, h.crdOpenAPIResources(gv, []*apiextensionsv1.CustomResourceDefinition{c}))
		hash, err := o.hash(gv)
		check.NoError(t, err)
		check.Equal(t, 0, o.builds)
		return hash
	}
	first := set(&crd)
	check.True(t, first != "", "no hash")
	w := httptest.NewRecorder()
	o.serveRoot(w, httptest.NewRequest("GET", "/openapi/v3", nil))
	check.Equal(t, 200, w.Code)
	check.Contains(t, w.Body.String(), first)
	check.Equal(t, 0, o.builds)

	status := crd.DeepCopy()
	status.ResourceVersion = "11"
	status.Status.Conditions = append(status.Status.Conditions, apiextensionsv1.CustomResourceDefinitionCondition{Type: apiextensionsv1.Established, Status: apiextensionsv1.ConditionTrue})
	check.Equal(t, first, set(status))

	spec := status.DeepCopy()
	spec.Generation = 2
	spec.Spec.Versions[0].Schema.OpenAPIV3Schema.Description = "changed"
	second := set(spec)
	check.True(t, second != first, "a new spec kept the hash")

	renamed := spec.DeepCopy()
	renamed.Status.AcceptedNames.ShortNames = []string{"short"}
	check.True(t, set(renamed) != second, "new accepted names kept the hash")

	// Another service with the same CRD: the same hash and the same document.
	other := newOpenAPIService(slog.New(slog.DiscardHandler), "v")
	other.setGroup(gv, h.crdOpenAPIResources(gv, []*apiextensionsv1.CustomResourceDefinition{renamed.DeepCopy()}))
	doc1, hash1, err := o.document(gv)
	check.NoError(t, err)
	doc2, hash2, err := other.document(gv)
	check.NoError(t, err)
	check.Equal(t, hash1, hash2)
	check.Equal(t, string(doc1), string(doc2))
	check.Equal(t, 1, o.builds)
}

// TestCRDsHash_ChangesWithTheBuild: a CRD document's hash names the build
// that wrote it, so that a changed builder never serves a client's cached
// document under its old hash. A test binary carries no VCS stamp: its
// stamp is the process's start.
func TestCRDsHash_ChangesWithTheBuild(t *testing.T) {
	if !strings.HasPrefix(buildStamp, "started ") && !strings.HasPrefix(buildStamp, "commit ") {
		t.Fatalf("buildStamp = %q, want a commit or a start time", buildStamp)
	}
	var crd apiextensionsv1.CustomResourceDefinition
	check.NoError(t, json.Unmarshal(crdgen.CRD(0, crdgen.Options{Group: "g.example.com", Bytes: 4 << 10, Versions: 1, Seed: 1}), &crd))
	crd.Generation, crd.UID = 1, "u"
	gv := scheme.GroupVersion{Group: crd.Spec.Group, Version: crd.Spec.Versions[0].Name}
	crds := []*apiextensionsv1.CustomResourceDefinition{&crd}
	before := crdsHash("v", gv, crds)
	check.Equal(t, before, crdsHash("v", gv, crds))
	old := buildStamp
	t.Cleanup(func() { buildStamp = old })
	buildStamp = "commit 0123"
	if crdsHash("v", gv, crds) == before {
		t.Errorf("the hash did not change with the build")
	}
}

// TestOpenAPIService_CRDHashWhenAskedFor: a change of a group version's
// CRDs does not hash them (a burst of creates in a group of hundreds of
// CRDs hashed the whole group on every create); the hash is computed when
// first asked for, once, and is that of the CRDs last set.
func TestOpenAPIService_CRDHashWhenAskedFor(t *testing.T) {
	h := &GenericAPIServer{logger: slog.New(slog.DiscardHandler)}
	o := newOpenAPIService(slog.New(slog.DiscardHandler), "v")
	opts := crdgen.Options{Group: "g.example.com", Bytes: 4 << 10, Versions: 1, Seed: 1}
	var crds []*apiextensionsv1.CustomResourceDefinition
	var gv scheme.GroupVersion
	for i := range 3 {
		var crd apiextensionsv1.CustomResourceDefinition
		check.NoError(t, json.Unmarshal(crdgen.CRD(i, opts), &crd))
		crd.UID, crd.Generation = metav1.UID(fmt.Sprintf("uid-%d", i)), 1
		crd.Status.AcceptedNames = crd.Spec.Names
		gv = scheme.GroupVersion{Group: opts.Group, Version: crd.Spec.Versions[0].Name}
		crds = append(crds, &crd)
		o.setGroup(gv, h.crdOpenAPIResources(gv, crds))
		o.mu.Lock()
		check.Equal(t, "", o.groups[gv].hash, "hashed on set, after %d CRDs", i+1)
		o.mu.Unlock()
	}
	got, err := o.hash(gv)
	check.NoError(t, err)
	check.Equal(t, crdsHash("v", gv, crds), got)
	check.Equal(t, 0, o.builds)
}

// TestOpenAPIService_BuiltDocumentAnswersPlainClient: the request that
// builds a document without gzip is answered with the document just
// built, which the plain cache then keeps; a gzip client gets the same
// document compressed, and a second plain request the cached one.
func TestOpenAPIService_BuiltDocumentAnswersPlainClient(t *testing.T) {
	h := &GenericAPIServer{logger: slog.New(slog.DiscardHandler)}
	o := newOpenAPIService(slog.New(slog.DiscardHandler), "v")
	crd := servedCRD(t, 0, crdgen.Options{Group: "g.example.com", Bytes: 40 << 10, Versions: 1, Seed: 1})
	gv := scheme.GroupVersion{Group: crd.Spec.Group, Version: crd.Spec.Versions[0].Name}
	o.setGroup(gv, h.crdOpenAPIResources(gv, []*apiextensionsv1.CustomResourceDefinition{crd}))
	get := func(gz bool) *httptest.ResponseRecorder {
		r := httptest.NewRequest("GET", gvPath(gv), nil)
		if gz {
			r.Header.Set("Accept-Encoding", "gzip")
		}
		w := httptest.NewRecorder()
		o.serveGroupVersion(w, r, gv)
		check.Equal(t, 200, w.Code)
		return w
	}
	first := get(false).Body.Bytes()
	check.Equal(t, 1, o.builds)
	check.Equal(t, len(first), o.plain.size)
	zipped := get(true)
	check.Equal(t, "gzip", zipped.Header().Get("Content-Encoding"))
	plain, err := gunzip(zipped.Body.Bytes())
	check.NoError(t, err)
	check.True(t, bytes.Equal(first, plain), "the gzip answer is another document")
	check.True(t, cap(plain) <= len(plain)+bytes.MinRead, "gunzip grew its buffer past the trailer's length", len(plain), cap(plain))
	second := get(false).Body.Bytes()
	check.True(t, bytes.Equal(first, second), "the cached answer is another document")
	check.Equal(t, 1, o.builds)
	var doc map[string]any
	check.NoError(t, json.Unmarshal(first, &doc))
	check.True(t, doc["components"] != nil, "no components")
}

// servedCRD is generated CRD i as a server holds it: its names accepted,
// a UID, and generation 1 (crdsHash then names it without its spec).
func servedCRD(tb testing.TB, i int, opts crdgen.Options) *apiextensionsv1.CustomResourceDefinition {
	tb.Helper()
	var crd apiextensionsv1.CustomResourceDefinition
	if err := json.Unmarshal(crdgen.CRD(i, opts), &crd); err != nil {
		tb.Fatal(err)
	}
	crd.Status.AcceptedNames = crd.Spec.Names
	crd.Generation, crd.UID = 1, metav1.UID("uid-"+crd.Name)
	return &crd
}
