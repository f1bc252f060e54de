package handler

import (
	"encoding/json"
	"fmt"
	"log/slog"
	"testing"

	apiextensionsv1 "github.com/crdlab/crdlab/apis/apiextensions/v1"
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
