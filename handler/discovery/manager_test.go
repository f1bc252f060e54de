package discovery_test

import (
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	metav1 "github.com/crdlab/crdlab/apis/meta/v1"
	"github.com/crdlab/crdlab/handler/discovery"
	"github.com/crdlab/crdlab/handler/internal/check"
	"github.com/crdlab/crdlab/machinery/apiresource"
	"github.com/crdlab/crdlab/scheme"
	sigsyaml "sigs.k8s.io/yaml"
)

func crontabs() apiresource.Resource {
	return apiresource.Resource{
		Name: "crontabs", SingularName: "crontab", Namespaced: true, Kind: "CronTab",
		Verbs: []string{"get", "list"}, ShortNames: []string{"ct"}, Categories: []string{"all"},
		Subresources: []apiresource.Subresource{
			{Name: "status", Kind: scheme.GroupVersionKind{Group: "stable.example.com", Version: "v1", Kind: "CronTab"}, Verbs: []string{"get", "patch", "update"}},
			{Name: "scale", Kind: scheme.GroupVersionKind{Group: "autoscaling", Version: "v1", Kind: "Scale"}, Verbs: []string{"get", "patch", "update"}},
		},
	}
}

func newManager() *discovery.Manager {
	m := discovery.NewManager()
	m.SetGroupVersion(scheme.GroupVersion{Group: "apiextensions.k8s.io", Version: "v1"}, []apiresource.Resource{{Name: "customresourcedefinitions", Kind: "CustomResourceDefinition"}})
	m.SetGroupPriority("apiextensions.k8s.io", 1000)
	m.SetGroupVersion(scheme.GroupVersion{Group: "stable.example.com", Version: "v1beta1"}, []apiresource.Resource{crontabs()})
	m.SetGroupVersion(scheme.GroupVersion{Group: "stable.example.com", Version: "v1"}, []apiresource.Resource{crontabs()})
	m.SetGroupVersion(scheme.GroupVersion{Group: "a.example.com", Version: "v1"}, []apiresource.Resource{{Name: "as", Kind: "A"}})
	return m
}

func get(t *testing.T, h http.HandlerFunc, accept string) *httptest.ResponseRecorder {
	t.Helper()
	r := httptest.NewRequest("GET", "/apis", nil)
	if accept != "" {
		r.Header.Set("Accept", accept)
	}
	w := httptest.NewRecorder()
	h(w, r)
	return w
}

func TestManager_ServeAPIs(t *testing.T) {
	m := newManager()
	t.Run("Legacy", func(t *testing.T) {
		w := get(t, m.ServeAPIs, "application/json")
		check.Equal(t, 200, w.Code)
		check.Equal(t, "application/json", w.Header().Get("Content-Type"))
		var list metav1.APIGroupList
		check.NoError(t, json.Unmarshal(w.Body.Bytes(), &list))
		check.Equal(t, "APIGroupList", list.Kind)
		check.Len(t, list.Groups, 3)
		check.Equal(t, "apiextensions.k8s.io", list.Groups[0].Name)
		check.Equal(t, "a.example.com", list.Groups[1].Name)
		g := list.Groups[2]
		check.Equal(t, "stable.example.com/v1", g.PreferredVersion.GroupVersion)
		check.Equal(t, []metav1.GroupVersionForDiscovery{{GroupVersion: "stable.example.com/v1", Version: "v1"}, {GroupVersion: "stable.example.com/v1beta1", Version: "v1beta1"}}, g.Versions)
	})
	t.Run("Aggregated", func(t *testing.T) {
		w := get(t, m.ServeAPIs, "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json")
		check.Equal(t, 200, w.Code)
		check.Equal(t, "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList", w.Header().Get("Content-Type"))
		var raw map[string]any
		check.NoError(t, json.Unmarshal(w.Body.Bytes(), &raw))
		check.Equal(t, "APIGroupDiscoveryList", raw["kind"])
		check.Equal(t, "apidiscovery.k8s.io/v2", raw["apiVersion"])
		var list discovery.APIGroupDiscoveryList
		check.NoError(t, json.Unmarshal(w.Body.Bytes(), &list))
		check.Len(t, list.Items, 3)
		st := list.Items[2]
		check.Equal(t, "stable.example.com", st.Name)
		check.Len(t, st.Versions, 2)
		check.Equal(t, "v1", st.Versions[0].Version)
		check.Equal(t, discovery.DiscoveryFreshnessCurrent, st.Versions[0].Freshness)
		r := st.Versions[0].Resources[0]
		check.Equal(t, "crontabs", r.Resource)
		check.Equal(t, discovery.ScopeNamespace, r.Scope)
		check.Equal(t, "crontab", r.SingularResource)
		check.Equal(t, &discovery.GroupVersionKind{Group: "stable.example.com", Version: "v1", Kind: "CronTab"}, r.ResponseKind)
		check.Len(t, r.Subresources, 2)
		check.Equal(t, "scale", r.Subresources[1].Subresource)
		check.Equal(t, "Scale", r.Subresources[1].ResponseKind.Kind)

		// The ETag makes a repeated request a 304.
		etag := w.Header().Get("ETag")
		check.NotEmpty(t, etag)
		r2 := httptest.NewRequest("GET", "/apis", nil)
		r2.Header.Set("Accept", "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList")
		r2.Header.Set("If-None-Match", etag)
		w2 := httptest.NewRecorder()
		m.ServeAPIs(w2, r2)
		check.Equal(t, http.StatusNotModified, w2.Code)
	})
	t.Run("ErrNotAcceptable", func(t *testing.T) {
		w := get(t, m.ServeAPIs, "application/vnd.kubernetes.protobuf")
		check.Equal(t, 406, w.Code)
	})
}

func TestManager_ServeGroupVersion(t *testing.T) {
	m := newManager()
	t.Run("OK", func(t *testing.T) {
		w := httptest.NewRecorder()
		m.ServeGroupVersion(w, httptest.NewRequest("GET", "/apis/stable.example.com/v1", nil), scheme.GroupVersion{Group: "stable.example.com", Version: "v1"})
		check.Equal(t, 200, w.Code)
		var list metav1.APIResourceList
		check.NoError(t, json.Unmarshal(w.Body.Bytes(), &list))
		check.Equal(t, "stable.example.com/v1", list.GroupVersion)
		check.Len(t, list.APIResources, 3)
		check.Equal(t, "crontabs", list.APIResources[0].Name)
		check.Equal(t, []string{"ct"}, list.APIResources[0].ShortNames)
		check.Equal(t, "crontabs/status", list.APIResources[1].Name)
		check.Equal(t, "crontabs/scale", list.APIResources[2].Name)
		check.Equal(t, "autoscaling", list.APIResources[2].Group)
		check.Equal(t, "Scale", list.APIResources[2].Kind)
	})
	t.Run("ErrNotFound", func(t *testing.T) {
		w := httptest.NewRecorder()
		m.ServeGroupVersion(w, httptest.NewRequest("GET", "/apis/x/v1", nil), scheme.GroupVersion{Group: "x", Version: "v1"})
		check.Equal(t, 404, w.Code)
	})
	t.Run("Group", func(t *testing.T) {
		w := httptest.NewRecorder()
		m.ServeGroup(w, httptest.NewRequest("GET", "/apis/stable.example.com", nil), "stable.example.com")
		check.Equal(t, 200, w.Code)
		var g metav1.APIGroup
		check.NoError(t, json.Unmarshal(w.Body.Bytes(), &g))
		check.Equal(t, "APIGroup", g.Kind)
		check.Equal(t, "v1", g.PreferredVersion.Version)
		w = httptest.NewRecorder()
		m.ServeGroup(w, httptest.NewRequest("GET", "/apis/x", nil), "x")
		check.Equal(t, 404, w.Code)
	})
}

func TestManager_RemoveGroupVersion(t *testing.T) {
	m := newManager()
	m.RemoveGroupVersion(scheme.GroupVersion{Group: "a.example.com", Version: "v1"})
	m.SetGroupVersion(scheme.GroupVersion{Group: "stable.example.com", Version: "v1"}, nil)
	check.Equal(t, []scheme.GroupVersion{
		{Group: "apiextensions.k8s.io", Version: "v1"},
		{Group: "stable.example.com", Version: "v1beta1"},
	}, m.GroupVersions())
}

func TestManager_Concurrent(t *testing.T) {
	m := newManager()
	var wg sync.WaitGroup
	for i := 0; i < 4; i++ {
		wg.Add(2)
		go func() {
			defer wg.Done()
			for j := 0; j < 50; j++ {
				m.SetGroupVersion(scheme.GroupVersion{Group: "c.example.com", Version: "v1"}, []apiresource.Resource{crontabs()})
				m.RemoveGroupVersion(scheme.GroupVersion{Group: "c.example.com", Version: "v1"})
			}
		}()
		go func() {
			defer wg.Done()
			for j := 0; j < 50; j++ {
				_ = m.APIGroupDiscoveryList()
				_ = m.APIGroupList()
			}
		}()
	}
	wg.Wait()
}

// TestManager_AggregatedEncodedOncePerChange: the aggregated document is
// encoded once per change of what discovery advertises, per version of
// the document, and not again for a set that changes nothing (the
// discovery controller sets a group version on every change of one of
// its CRDs); a change shows in the next answer.
func TestManager_AggregatedEncodedOncePerChange(t *testing.T) {
	m := newManager()
	const v2 = "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList"
	const v2beta1 = "application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList"
	builds := discovery.DocumentBuilds(m)
	first := get(t, m.ServeAPIs, v2)
	for range 3 {
		w := get(t, m.ServeAPIs, v2)
		check.Equal(t, first.Body.String(), w.Body.String())
		check.Equal(t, first.Header().Get("ETag"), w.Header().Get("ETag"))
	}
	check.Equal(t, builds+1, discovery.DocumentBuilds(m))
	beta := get(t, m.ServeAPIs, v2beta1)
	check.Contains(t, beta.Body.String(), `"apiVersion":"apidiscovery.k8s.io/v2beta1"`)
	check.Equal(t, builds+2, discovery.DocumentBuilds(m))

	m.SetGroupVersion(scheme.GroupVersion{Group: "stable.example.com", Version: "v1"}, []apiresource.Resource{crontabs()})
	check.Equal(t, first.Body.String(), get(t, m.ServeAPIs, v2).Body.String())
	check.Equal(t, builds+2, discovery.DocumentBuilds(m))

	m.SetGroupVersion(scheme.GroupVersion{Group: "b.example.com", Version: "v1"}, []apiresource.Resource{crontabs()})
	w := get(t, m.ServeAPIs, v2)
	check.Contains(t, w.Body.String(), `"name":"b.example.com"`)
	check.NotEqual(t, first.Header().Get("ETag"), w.Header().Get("ETag"))
	m.RemoveGroupVersion(scheme.GroupVersion{Group: "b.example.com", Version: "v1"})
	check.Equal(t, first.Body.String(), get(t, m.ServeAPIs, v2).Body.String())
	m.SetGroupPriority("stable.example.com", 100)
	check.True(t, get(t, m.ServeAPIs, v2).Body.String() != first.Body.String(), "a new priority did not reorder the groups")
}

// The legacy /apis document is encoded once per change too, and is what
// writing the APIGroupList of the moment gives.
func TestManager_LegacyEncodedOncePerChange(t *testing.T) {
	m := newManager()
	want := func() string {
		b, err := json.Marshal(m.APIGroupList())
		check.NoError(t, err)
		return string(b) + "\n"
	}
	builds := discovery.DocumentBuilds(m)
	first := get(t, m.ServeAPIs, "application/json")
	check.Equal(t, http.StatusOK, first.Code)
	check.Equal(t, "application/json", first.Header().Get("Content-Type"))
	check.Equal(t, want(), first.Body.String())
	for range 3 {
		check.Equal(t, first.Body.String(), get(t, m.ServeAPIs, "").Body.String())
	}
	check.Equal(t, builds+1, discovery.DocumentBuilds(m))

	m.SetGroupVersion(scheme.GroupVersion{Group: "b.example.com", Version: "v1"}, []apiresource.Resource{crontabs()})
	w := get(t, m.ServeAPIs, "application/json")
	check.Contains(t, w.Body.String(), `"name":"b.example.com"`)
	check.Equal(t, want(), w.Body.String())
	check.Equal(t, builds+2, discovery.DocumentBuilds(m))
	m.RemoveGroupVersion(scheme.GroupVersion{Group: "b.example.com", Version: "v1"})
	check.Equal(t, first.Body.String(), get(t, m.ServeAPIs, "application/json").Body.String())

	// A YAML answer is written from the encoded document.
	y := get(t, m.ServeAPIs, "application/yaml")
	check.Contains(t, y.Body.String(), "kind: APIGroupList")
}

// The core group is served at /api and /api/v1 and left out of /apis.
func TestManager_LegacyGroup(t *testing.T) {
	m := discovery.NewManager()
	m.SetGroupVersion(scheme.GroupVersion{Version: "v1"}, []apiresource.Resource{{Name: "secrets", Kind: "Secret", Namespaced: true, Verbs: []string{"get"}}})
	m.SetGroupVersion(scheme.GroupVersion{Group: "stable.example.com", Version: "v1"}, []apiresource.Resource{{Name: "crontabs", Kind: "CronTab"}})

	get := func(serve http.HandlerFunc, accept string) string {
		rec := httptest.NewRecorder()
		req := httptest.NewRequest(http.MethodGet, "/x", nil)
		req.Header.Set("Accept", accept)
		serve(rec, req)
		if rec.Code != http.StatusOK {
			t.Fatalf("code %d: %s", rec.Code, rec.Body)
		}
		return rec.Body.String()
	}
	if body := get(m.ServeLegacyAPI, "application/json"); !strings.Contains(body, `"kind":"APIVersions"`) || !strings.Contains(body, `"versions":["v1"]`) {
		t.Errorf("/api = %s", body)
	}
	agg := get(m.ServeLegacyAPI, "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList")
	if !strings.Contains(agg, `"resource":"secrets"`) || strings.Contains(agg, "crontabs") {
		t.Errorf("aggregated /api = %s", agg)
	}
	if body := get(func(w http.ResponseWriter, r *http.Request) { m.ServeLegacyGroupVersion(w, r, "v1") }, "application/json"); !strings.Contains(body, `"groupVersion":"v1"`) {
		t.Errorf("/api/v1 = %s", body)
	}
	for _, accept := range []string{"application/json", "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList"} {
		if body := get(m.ServeAPIs, accept); strings.Contains(body, "secrets") || strings.Contains(body, `"name":""`) || !strings.Contains(body, "stable.example.com") {
			t.Errorf("/apis (%s) = %s", accept, body)
		}
	}
}

// The aggregated document is encoded once and written as it is: its JSON
// is the document's encoding followed by a newline, and asked for
// indented or as YAML it says the same.
func TestManager_AggregatedWrittenAsEncoded(t *testing.T) {
	m := newManager()
	const v2 = "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList"
	plain := get(t, m.ServeAPIs, v2)
	check.Equal(t, http.StatusOK, plain.Code)
	want, err := json.Marshal(m.APIGroupDiscoveryList())
	check.NoError(t, err)
	check.Equal(t, string(want)+"\n", plain.Body.String())

	var doc, pretty discovery.APIGroupDiscoveryList
	check.NoError(t, json.Unmarshal(plain.Body.Bytes(), &doc))
	p := get(t, m.ServeAPIs, v2+";pretty=1")
	check.Equal(t, http.StatusOK, p.Code)
	check.Contains(t, p.Body.String(), "\n  \"kind\": \"APIGroupDiscoveryList\"")
	check.NoError(t, json.Unmarshal(p.Body.Bytes(), &pretty))
	check.Equal(t, len(doc.Items), len(pretty.Items))

	y := get(t, m.ServeAPIs, "application/yaml;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList")
	check.Equal(t, http.StatusOK, y.Code)
	check.Contains(t, y.Body.String(), "kind: APIGroupDiscoveryList\n")
	check.Contains(t, y.Body.String(), "    name: stable.example.com\n")
}

// BenchmarkManager_ServeAggregated serves the aggregated document of 2,000
// CRDs, 8 to a group, two versions (bench's many-CRDs family): a request
// writes the encoded document, it encodes nothing.
func BenchmarkManager_ServeAggregated(b *testing.B) {
	m := discovery.NewManager()
	for g := range 250 {
		group := fmt.Sprintf("svc%d.provider.example.io", g)
		var rs []apiresource.Resource
		for i := range 8 {
			r := crontabs()
			r.Name, r.Kind = fmt.Sprintf("kind%ds", g*8+i), fmt.Sprintf("Kind%d", g*8+i)
			rs = append(rs, r)
		}
		for _, v := range []string{"v1beta1", "v1beta2"} {
			m.SetGroupVersion(scheme.GroupVersion{Group: group, Version: v}, rs)
		}
	}
	r := httptest.NewRequest("GET", "/apis", nil)
	r.Header.Set("Accept", "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList")
	for b.Loop() {
		w := httptest.NewRecorder()
		m.ServeAPIs(w, r)
		if w.Code != http.StatusOK {
			b.Fatal(w.Code)
		}
	}
}

// TestManager_ServeGroupVersionEncodedOncePerChange: a group version's
// document is encoded on its first request after a change of that group
// version only, and every answer (JSON, pretty, YAML) is what encoding the
// document built afresh gives.
func TestManager_ServeGroupVersionEncodedOncePerChange(t *testing.T) {
	m := newManager()
	v1 := scheme.GroupVersion{Group: "stable.example.com", Version: "v1"}
	serve := func(path, accept string) string {
		t.Helper()
		r := httptest.NewRequest("GET", path, nil)
		if accept != "" {
			r.Header.Set("Accept", accept)
		}
		w := httptest.NewRecorder()
		m.ServeGroupVersion(w, r, v1)
		check.Equal(t, 200, w.Code)
		return w.Body.String()
	}
	want := func(pretty, yaml bool) string {
		t.Helper()
		list, ok := m.APIResourceList(v1)
		check.True(t, ok, "no document")
		var b []byte
		var err error
		if pretty {
			b, err = json.MarshalIndent(list, "", "  ")
		} else {
			b, err = json.Marshal(list)
		}
		check.NoError(t, err)
		if yaml {
			b, err = sigsyaml.JSONToYAML(b)
			check.NoError(t, err)
			return string(b)
		}
		return string(b) + "\n"
	}
	builds := discovery.ResourceListBuilds(m)
	for range 3 {
		check.Equal(t, want(false, false), serve("/apis/stable.example.com/v1", ""))
		check.Equal(t, want(true, false), serve("/apis/stable.example.com/v1", "application/json;pretty=true"))
		check.Equal(t, want(false, true), serve("/apis/stable.example.com/v1", "application/yaml"))
	}
	check.Equal(t, builds+1, discovery.ResourceListBuilds(m))

	// Setting the same resources again changes nothing; other group
	// versions' changes leave it.
	m.SetGroupVersion(v1, []apiresource.Resource{crontabs()})
	m.SetGroupVersion(scheme.GroupVersion{Group: "a.example.com", Version: "v1"}, []apiresource.Resource{{Name: "bs", Kind: "B"}})
	serve("/apis/stable.example.com/v1", "")
	check.Equal(t, builds+1, discovery.ResourceListBuilds(m))

	more := crontabs()
	more.Name, more.Kind = "morecrontabs", "MoreCronTab"
	m.SetGroupVersion(v1, []apiresource.Resource{crontabs(), more})
	check.Contains(t, serve("/apis/stable.example.com/v1", ""), `"name":"morecrontabs"`)
	check.Equal(t, want(false, false), serve("/apis/stable.example.com/v1", ""))
	check.Equal(t, builds+2, discovery.ResourceListBuilds(m))

	m.RemoveGroupVersion(v1)
	w := httptest.NewRecorder()
	m.ServeGroupVersion(w, httptest.NewRequest("GET", "/apis/stable.example.com/v1", nil), v1)
	check.Equal(t, 404, w.Code)
}

// TestManager_AggregatedGzipped: a /apis document, aggregated or legacy,
// is sent gzip-compressed to a client that accepts gzip (as kubectl's
// discovery asks) whatever its size (upstream: over 128 KiB), compressed
// once per change of the document, and decompresses to exactly the plain
// answer; a client that refuses gzip and an indented answer get the plain
// bytes.
func TestManager_AggregatedGzipped(t *testing.T) {
	m := newManager()
	const v2 = "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList"
	getEnc := func(accept, encoding string) *httptest.ResponseRecorder {
		t.Helper()
		r := httptest.NewRequest("GET", "/apis", nil)
		r.Header.Set("Accept", accept)
		r.Header.Set("Accept-Encoding", encoding)
		w := httptest.NewRecorder()
		m.ServeAPIs(w, r)
		check.Equal(t, http.StatusOK, w.Code)
		return w
	}
	plainOf := func(w *httptest.ResponseRecorder) string {
		t.Helper()
		if w.Header().Get("Content-Encoding") != "gzip" {
			return w.Body.String()
		}
		zr, err := gzip.NewReader(w.Body)
		check.NoError(t, err)
		b, err := io.ReadAll(zr)
		check.NoError(t, err)
		return string(b)
	}

	// Small (under upstream's 128 KiB): compressed all the same.
	small := getEnc(v2, "gzip")
	check.Equal(t, "gzip", small.Header().Get("Content-Encoding"))
	check.Equal(t, get(t, m.ServeAPIs, v2).Body.String(), plainOf(small))
	smallLegacy := getEnc("application/json", "gzip")
	check.Equal(t, "gzip", smallLegacy.Header().Get("Content-Encoding"))
	check.Equal(t, get(t, m.ServeAPIs, "application/json").Body.String(), plainOf(smallLegacy))

	for i := range 600 {
		m.SetGroupVersion(scheme.GroupVersion{Group: fmt.Sprintf("g%03d.example.com", i), Version: "v1"}, []apiresource.Resource{crontabs()})
	}
	plain := get(t, m.ServeAPIs, v2)
	check.True(t, plain.Body.Len() > 128<<10, "the document is %d bytes, want over 128 KiB", plain.Body.Len())
	gzBuilds := discovery.GzipBuilds(m)
	for _, enc := range []string{"gzip", "gzip, deflate", "br;q=1.0, GZIP;q=0.5", "*"} {
		w := getEnc(v2, enc)
		check.Equal(t, "gzip", w.Header().Get("Content-Encoding"), "Accept-Encoding %q", enc)
		check.Contains(t, strings.Join(w.Header().Values("Vary"), ","), "Accept-Encoding")
		check.Equal(t, plain.Header().Get("ETag"), w.Header().Get("ETag"))
		check.Equal(t, plain.Header().Get("Content-Type"), w.Header().Get("Content-Type"))
		check.True(t, w.Body.Len() < plain.Body.Len()/4, "compressed to %d of %d bytes", w.Body.Len(), plain.Body.Len())
		check.Equal(t, plain.Body.String(), plainOf(w))
	}
	check.Equal(t, gzBuilds+1, discovery.GzipBuilds(m))

	// Go's client (so client-go's and kubectl's) asks for gzip by itself
	// and reads the answer decompressed.
	srv := httptest.NewServer(http.HandlerFunc(m.ServeAPIs))
	defer srv.Close()
	req, err := http.NewRequest("GET", srv.URL+"/apis", nil)
	check.NoError(t, err)
	req.Header.Set("Accept", v2)
	resp, err := http.DefaultClient.Do(req)
	check.NoError(t, err)
	body, err := io.ReadAll(resp.Body)
	check.NoError(t, err)
	check.NoError(t, resp.Body.Close())
	check.True(t, resp.Uncompressed, "Go's transport did not decompress the answer")
	check.Equal(t, plain.Body.String(), string(body))

	for _, enc := range []string{"", "identity", "gzip;q=0", "deflate"} {
		w := getEnc(v2, enc)
		check.Equal(t, "", w.Header().Get("Content-Encoding"), "Accept-Encoding %q", enc)
		check.Equal(t, plain.Body.String(), w.Body.String())
	}
	pretty := getEnc(v2+";pretty=true", "gzip")
	check.Equal(t, "", pretty.Header().Get("Content-Encoding"))
	check.Contains(t, pretty.Body.String(), "\n  ")

	// The legacy list of 600 groups (under 128 KiB, which upstream sends
	// plain): compressed, to under a quarter.
	legacyPlain := get(t, m.ServeAPIs, "application/json")
	check.True(t, legacyPlain.Body.Len() < 128<<10, "the legacy list is %d bytes", legacyPlain.Body.Len())
	legacy := getEnc("application/json", "gzip")
	check.Equal(t, "gzip", legacy.Header().Get("Content-Encoding"))
	check.True(t, legacy.Body.Len() < legacyPlain.Body.Len()/4, "compressed to %d of %d bytes", legacy.Body.Len(), legacyPlain.Body.Len())
	check.Equal(t, legacyPlain.Body.String(), plainOf(legacy))
	check.Equal(t, legacyPlain.Body.String(), getEnc("application/json", "identity").Body.String())

	// A change: compressed again, and the compressed answer shows it.
	m.SetGroupVersion(scheme.GroupVersion{Group: "new.example.com", Version: "v1"}, []apiresource.Resource{crontabs()})
	builds := discovery.GzipBuilds(m)
	w := getEnc(v2, "gzip")
	check.Equal(t, "gzip", w.Header().Get("Content-Encoding"))
	got := plainOf(w)
	check.Contains(t, got, `"name":"new.example.com"`)
	check.Equal(t, get(t, m.ServeAPIs, v2).Body.String(), got)
	check.Equal(t, builds+1, discovery.GzipBuilds(m))
}
