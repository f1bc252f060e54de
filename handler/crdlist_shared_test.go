package handler_test

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/crdlab/crdlab/apis/apiextensions"
	"github.com/crdlab/crdlab/apis/apiextensions/install"
	apiextensionsv1 "github.com/crdlab/crdlab/apis/apiextensions/v1"
	metav1 "github.com/crdlab/crdlab/apis/meta/v1"
	"github.com/crdlab/crdlab/handler"
	"github.com/crdlab/crdlab/handler/internal/check"
	"github.com/crdlab/crdlab/internal/crdgen"
	"github.com/crdlab/crdlab/registry"
	"github.com/crdlab/crdlab/registry/customresourcedefinition"
	"github.com/crdlab/crdlab/scheme"
	"github.com/crdlab/crdlab/storage/bolt"
)

// sharingSpy is the CRD storage, its List also telling whether the list
// it served was of storage's shared objects: asked twice in the request's
// context, shared objects are the same (their specs' versions one array),
// copies are not.
type sharingSpy struct {
	*customresourcedefinition.REST
	lists, shared atomic.Int32
}

func (s *sharingSpy) List(ctx context.Context, opts *metav1.ListOptions) (scheme.Object, error) {
	a, err := s.REST.List(ctx, opts)
	if err != nil {
		return nil, err
	}
	b, err := s.REST.List(ctx, opts)
	if err != nil {
		return nil, err
	}
	s.lists.Add(1)
	x, y := a.(*apiextensions.CustomResourceDefinitionList).Items, b.(*apiextensions.CustomResourceDefinitionList).Items
	if len(x) > 0 && len(y) == len(x) && &x[0].Spec.Versions[0] == &y[0].Spec.Versions[0] {
		s.shared.Add(1)
	}
	return a, nil
}

// TestCRDList_ReadsSharedObjects: a list of CRDs asks the registry for
// storage's shared objects (the items are only encoded: AppendWire, or a
// conversion into a new object), in JSON as in YAML; before, every
// real-size CRD was deep-copied for it (docs/crd-memory.md, "Session 20").
func TestCRDList_ReadsSharedObjects(t *testing.T) {
	db, err := bolt.Open(filepath.Join(t.TempDir(), "crds.db"), bolt.Options{NoSync: true})
	check.NoError(t, err)
	t.Cleanup(func() { db.Close() })
	s := scheme.NewScheme()
	install.Install(s)
	main, status := customresourcedefinition.NewREST(db, s)
	spy := &sharingSpy{REST: main}
	h, err := (&handler.Config{Scheme: s, Codecs: scheme.NewCodecFactory(s), Logger: slog.New(slog.DiscardHandler)}).Complete().New("apiextensions-apiserver", nil)
	check.NoError(t, err)
	info := handler.NewDefaultAPIGroupInfo("apiextensions.k8s.io", s, scheme.NewCodecFactory(s))
	info.VersionedResourcesStorageMap["v1"] = map[string]registry.Storage{"customresourcedefinitions": spy, "customresourcedefinitions/status": status}
	check.NoError(t, h.InstallAPIGroup(&info))
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	const crds = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions"
	do := func(method, path, accept, body string) string {
		t.Helper()
		req, _ := http.NewRequest(method, srv.URL+path, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		if accept != "" {
			req.Header.Set("Accept", accept)
		}
		resp, err := http.DefaultClient.Do(req)
		check.NoError(t, err)
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		check.True(t, resp.StatusCode < 300, method, path, resp.StatusCode, string(b))
		return string(b)
	}
	var names []string
	for i := range 2 {
		opts := crdgen.Options{Group: "g.example.com", Bytes: 20 << 10, Versions: 2, Seed: 1}
		do("POST", crds, "", string(crdgen.CRD(i, opts)))
		names = append(names, crdgen.NamesOf(i, opts).Name)
	}
	for _, accept := range []string{"application/json", "application/yaml"} {
		body := do("GET", crds, accept, "")
		for _, name := range names {
			check.True(t, strings.Contains(body, name), accept, "the list has no", name)
		}
	}
	check.Equal(t, int32(2), spy.lists.Load())
	check.True(t, spy.shared.Load() == 2, "lists served from storage's shared objects:", spy.shared.Load(), "of", spy.lists.Load())
}

// TestCRDList_MetadataWithoutConversion: a metadata-only list of CRDs
// (PartialObjectMetadataList, what the garbage collector's monitor asks
// for) is read from storage's objects, not from a conversion of each to
// v1 (at 2,000 real-size CRDs that was 5 s of CPU at each start), and
// has the metadata the full list has.
func TestCRDList_MetadataWithoutConversion(t *testing.T) {
	db, err := bolt.Open(filepath.Join(t.TempDir(), "crds.db"), bolt.Options{NoSync: true})
	check.NoError(t, err)
	t.Cleanup(func() { db.Close() })
	s := scheme.NewScheme()
	install.Install(s)
	var conversions atomic.Int32
	scheme.AddConversion(s, func(in *apiextensions.CustomResourceDefinition, out *apiextensionsv1.CustomResourceDefinition) error {
		conversions.Add(1)
		return apiextensionsv1.Convert_apiextensions_CustomResourceDefinition_To_v1_CustomResourceDefinition(in, out)
	})
	main, status := customresourcedefinition.NewREST(db, s)
	h, err := (&handler.Config{Scheme: s, Codecs: scheme.NewCodecFactory(s), Logger: slog.New(slog.DiscardHandler)}).Complete().New("apiextensions-apiserver", nil)
	check.NoError(t, err)
	info := handler.NewDefaultAPIGroupInfo("apiextensions.k8s.io", s, scheme.NewCodecFactory(s))
	info.VersionedResourcesStorageMap["v1"] = map[string]registry.Storage{"customresourcedefinitions": main, "customresourcedefinitions/status": status}
	check.NoError(t, h.InstallAPIGroup(&info))
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	const crds = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions"
	do := func(method, path, accept, body string) []byte {
		t.Helper()
		req, _ := http.NewRequest(method, srv.URL+path, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		if accept != "" {
			req.Header.Set("Accept", accept)
		}
		resp, err := http.DefaultClient.Do(req)
		check.NoError(t, err)
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		check.True(t, resp.StatusCode < 300, method, path, resp.StatusCode, string(b))
		return b
	}
	for i := range 3 {
		opts := crdgen.Options{Group: "g.example.com", Bytes: 20 << 10, Versions: 2, Seed: 1}
		do("POST", crds, "", string(crdgen.CRD(i, opts)))
	}
	var full apiextensionsv1.CustomResourceDefinitionList
	check.NoError(t, json.Unmarshal(do("GET", crds, "application/yaml;q=0.1,application/json", ""), &full))

	conversions.Store(0)
	body := do("GET", crds, "application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1", "")
	check.Equal(t, int32(0), conversions.Load())
	var meta metav1.PartialObjectMetadataList
	check.NoError(t, json.Unmarshal(body, &meta))
	check.Equal(t, "PartialObjectMetadataList", meta.Kind)
	check.Equal(t, full.ResourceVersion, meta.ResourceVersion)
	check.Equal(t, len(full.Items), len(meta.Items))
	for i := range full.Items {
		want, err := json.Marshal(full.Items[i].ObjectMeta)
		check.NoError(t, err)
		got, err := json.Marshal(meta.Items[i].ObjectMeta)
		check.NoError(t, err)
		check.Equal(t, string(want), string(got))
	}

	// The counting conversion is the one the scope uses: a YAML list
	// converts each CRD.
	do("GET", crds, "application/yaml", "")
	check.Equal(t, int32(3), conversions.Load())
}
