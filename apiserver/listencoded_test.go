package apiserver

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
)

// TestServer_ListTakesStoredBytes: a list in plain JSON writes storage's
// bytes (storage.ListOptions.Encoded) when reading changes nothing but the
// resourceVersion, and what a get of each object writes either way; once
// the CRD's schema gains a default, the same list applies it to every
// item (read-time defaulting: storage's bytes alone would lack it).
func TestServer_ListTakesStoredBytes(t *testing.T) {
	ts := startServer(t, Config{})
	const crds = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions"
	const crd = `{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition",
"metadata":{"name":"widgets.lab.example.com"},
"spec":{"group":"lab.example.com","scope":"Namespaced","names":{"plural":"widgets","kind":"Widget"},
"versions":[{"name":"v1","served":true,"storage":true,"schema":{"openAPIV3Schema":{"type":"object","properties":{
"spec":{"type":"object","properties":{"size":{"type":"integer"},"note":{"type":"string"}%s}}}}}}]}}`
	if code := post(t, ts.url+crds, strings.Replace(crd, "%s", "", 1)); code != 201 {
		t.Fatalf("create the CRD: %d", code)
	}
	widgets := ts.url + "/apis/lab.example.com/v1/namespaces/default/widgets"
	eventually(t, "the widgets are served", func() bool { code, _ := get(t, widgets); return code == 200 })
	for _, name := range []string{"b", "a", "c"} {
		body := `{"apiVersion":"lab.example.com/v1","kind":"Widget","metadata":{"name":"` + name + `","annotations":{"x":"<y>"}},"spec":{"size":3,"note":"a \"quoted\" <b>&</b> note é"}}`
		if code := post(t, widgets, body); code != 201 {
			t.Fatalf("create %s: %d", name, code)
		}
	}

	list := func() []map[string]any {
		t.Helper()
		code, body := get(t, widgets)
		if code != 200 {
			t.Fatalf("list: %d %s", code, body)
		}
		var l struct {
			Items []map[string]any `json:"items"`
		}
		if err := json.Unmarshal([]byte(body), &l); err != nil {
			t.Fatal(err)
		}
		return l.Items
	}
	items := list()
	if len(items) != 3 {
		t.Fatalf("%d items, want 3", len(items))
	}
	for i, name := range []string{"a", "b", "c"} {
		_, got := get(t, widgets+"/"+name)
		var want map[string]any
		if err := json.Unmarshal([]byte(got), &want); err != nil {
			t.Fatal(err)
		}
		if !jsonEqual(items[i], want) {
			t.Errorf("item %d of the list:\n%v\nthe get of %s:\n%v", i, items[i], name, want)
		}
	}

	// A default for a field none of the stored objects has. The update is
	// read, changed and written again on a conflict, as clients do
	// (retry.RetryOnConflict): the controllers write the CRD's status
	// meanwhile.
	var b []byte
	for attempt := 0; ; attempt++ {
		code, cur := get(t, ts.url+crds+"/widgets.lab.example.com")
		if code != 200 {
			t.Fatalf("get the CRD: %d", code)
		}
		var obj map[string]any
		if err := json.Unmarshal([]byte(cur), &obj); err != nil {
			t.Fatal(err)
		}
		props := obj["spec"].(map[string]any)["versions"].([]any)[0].(map[string]any)["schema"].(map[string]any)["openAPIV3Schema"].(map[string]any)["properties"].(map[string]any)["spec"].(map[string]any)["properties"].(map[string]any)
		props["color"] = map[string]any{"type": "string", "default": "blue"}
		body, _ := json.Marshal(obj)
		req, _ := http.NewRequest("PUT", ts.url+crds+"/widgets.lab.example.com", strings.NewReader(string(body)))
		req.Header.Set("Content-Type", "application/json")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		b, _ = io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode == http.StatusConflict && attempt < 10 {
			continue
		}
		if resp.StatusCode != 200 {
			t.Fatalf("update the CRD: %d %s", resp.StatusCode, b)
		}
		break
	}
	var updated struct {
		Metadata struct {
			ResourceVersion string `json:"resourceVersion"`
		} `json:"metadata"`
	}
	if err := json.Unmarshal(b, &updated); err != nil {
		t.Fatal(err)
	}
	// Wait for the handler to hear of the update, without a get: a get
	// would compile the new schemas, and the first list is to find them
	// not compiled (readsAsStored: encodeStored checks each object).
	informed := ts.chain.extensions.GenericAPIServer.CRDs()
	eventually(t, "the handler hears of the new schema", func() bool {
		c, ok := informed.Get("widgets.lab.example.com")
		return ok && c.ResourceVersion == updated.Metadata.ResourceVersion
	})
	for round := range 2 { // the first list compiles the schemas, the second knows them
		for _, it := range list() {
			if c := it["spec"].(map[string]any)["color"]; c != "blue" {
				t.Errorf("list %d: %v has no default color", round, it["metadata"].(map[string]any)["name"])
			}
		}
	}
}

// jsonEqual compares two decoded JSON values.
func jsonEqual(a, b any) bool {
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return string(x) == string(y)
}

// TestServer_LongListStreams: a list longer than storage's chunk, in plain
// JSON, is read from storage a chunk at a time as it is written
// (storage.ListOptions.Stream) — after a restart too, when every value is
// read out of the file into one reused buffer — and holds every object
// once, in order, as the paginated list does.
func TestServer_LongListStreams(t *testing.T) {
	dir := t.TempDir()
	ts := startServer(t, Config{DataDir: dir})
	const crds = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions"
	const crd = `{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition",
"metadata":{"name":"widgets.lab.example.com"},
"spec":{"group":"lab.example.com","scope":"Namespaced","names":{"plural":"widgets","kind":"Widget"},
"versions":[{"name":"v1","served":true,"storage":true,"schema":{"openAPIV3Schema":{"type":"object","properties":{
"spec":{"type":"object","properties":{"i":{"type":"integer"},"note":{"type":"string"}}}}}}}]}}`
	if code := post(t, ts.url+crds, crd); code != 201 {
		t.Fatalf("create the CRD: %d", code)
	}
	widgets := ts.url + "/apis/lab.example.com/v1/namespaces/default/widgets"
	eventually(t, "the widgets are served", func() bool { code, _ := get(t, widgets); return code == 200 })
	const n = 2345 // three chunks of storage's scan
	names := make(chan int)
	errs := make(chan error, 8)
	for range 8 {
		go func() {
			var err error
			for i := range names {
				if err != nil {
					continue
				}
				body := fmt.Sprintf(`{"apiVersion":"lab.example.com/v1","kind":"Widget","metadata":{"name":"w%05d"},"spec":{"i":%d,"note":"%s"}}`, i, i, strings.Repeat("x", i%300))
				resp, perr := http.Post(widgets, "application/json", strings.NewReader(body))
				if perr != nil {
					err = perr
					continue
				}
				_, _ = io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				if resp.StatusCode != 201 {
					err = fmt.Errorf("create w%05d: %d", i, resp.StatusCode)
				}
			}
			errs <- err
		}()
	}
	for i := range n {
		names <- i
	}
	close(names)
	for range 8 {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}

	type item struct {
		Metadata struct {
			Name            string `json:"name"`
			ResourceVersion string `json:"resourceVersion"`
		} `json:"metadata"`
		Spec struct {
			I    int    `json:"i"`
			Note string `json:"note"`
		} `json:"spec"`
	}
	list := func(url string) (items []item, cont string) {
		t.Helper()
		code, body := get(t, url)
		if code != 200 {
			t.Fatalf("list: %d %.300s", code, body)
		}
		var l struct {
			Metadata struct {
				Continue string `json:"continue"`
			} `json:"metadata"`
			Items []item `json:"items"`
		}
		if err := json.Unmarshal([]byte(body), &l); err != nil {
			t.Fatalf("%v: %.300s", err, body)
		}
		return l.Items, l.Metadata.Continue
	}
	check := func(what string, items []item) {
		t.Helper()
		if len(items) != n {
			t.Fatalf("%s: %d items, want %d", what, len(items), n)
		}
		for i, it := range items {
			if it.Metadata.Name != fmt.Sprintf("w%05d", i) || it.Spec.I != i || it.Spec.Note != strings.Repeat("x", i%300) || it.Metadata.ResourceVersion == "" {
				t.Fatalf("%s: item %d is %+v", what, i, it)
			}
		}
	}
	whole, _ := list(widgets)
	check("the list", whole)

	// After a restart every value is in the file.
	if err := ts.stop(t); err != nil {
		t.Fatal(err)
	}
	ts = startServer(t, Config{DataDir: dir})
	widgets = ts.url + "/apis/lab.example.com/v1/namespaces/default/widgets"
	eventually(t, "the widgets are served again", func() bool { code, _ := get(t, widgets); return code == 200 })
	again, _ := list(widgets)
	check("the list after a restart", again)
	var paged []item
	for url := widgets + "?limit=1000"; ; {
		page, cont := list(url)
		paged = append(paged, page...)
		if cont == "" {
			break
		}
		url = widgets + "?limit=1000&continue=" + cont
	}
	check("the paginated list", paged)
}

// TestServer_MetadataListOfCustomResources: a metadata-only list of custom
// resources (PartialObjectMetadataList, what the garbage collector's
// monitors ask for) reads each item's metadata out of storage's bytes;
// in each served version, a page at a time and with a label selector
// (whose objects storage decodes), every item's metadata is what a get
// of the object in that version answers, resourceVersion included, and
// nothing else of the object goes out.
func TestServer_MetadataListOfCustomResources(t *testing.T) {
	ts := startServer(t, Config{})
	const crds = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions"
	const crd = `{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition",
"metadata":{"name":"gadgets.lab.example.com"},
"spec":{"group":"lab.example.com","scope":"Namespaced","names":{"plural":"gadgets","kind":"Gadget"},
"versions":[
 {"name":"v1","served":true,"storage":true,"schema":{"openAPIV3Schema":{"type":"object","properties":{
  "spec":{"type":"object","properties":{"size":{"type":"integer","default":7}}}}}}},
 {"name":"v2","served":true,"storage":false,"schema":{"openAPIV3Schema":{"type":"object","properties":{
  "spec":{"type":"object","properties":{"size":{"type":"integer"}}}}}}}]}}`
	if code := post(t, ts.url+crds, crd); code != 201 {
		t.Fatalf("create the CRD: %d", code)
	}
	base := ts.url + "/apis/lab.example.com/%s/namespaces/default/gadgets"
	eventually(t, "the gadgets are served", func() bool { code, _ := get(t, fmt.Sprintf(base, "v1")); return code == 200 })
	for i, name := range []string{"c", "a", "d", "b", "e"} {
		body := fmt.Sprintf(`{"apiVersion":"lab.example.com/v1","kind":"Gadget","metadata":{"name":%q,
"labels":{"tier":"t%d","app":"gadget"},"annotations":{"note":"a \"quoted\" <b>&</b> é"},
"finalizers":["lab.example.com/keep"],
"ownerReferences":[{"apiVersion":"v1","kind":"ConfigMap","name":"owner","uid":"6f1e3c2a-0000-4000-8000-00000000000%d"}]},
"spec":{"size":%d}}`, name, i%2, i, i)
		if code := post(t, fmt.Sprintf(base, "v1"), body); code != 201 {
			t.Fatalf("create %s: %d", name, code)
		}
	}

	const accept = "application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1"
	metaList := func(url string) (items []map[string]any, cont string) {
		t.Helper()
		req, _ := http.NewRequest(http.MethodGet, url, nil)
		req.Header.Set("Accept", accept)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		if resp.StatusCode != 200 {
			t.Fatalf("GET %s: %d %s", url, resp.StatusCode, b)
		}
		var l struct {
			APIVersion, Kind string
			Metadata         struct{ Continue string }
			Items            []map[string]any
		}
		if err := json.Unmarshal(b, &l); err != nil {
			t.Fatal(err)
		}
		if l.APIVersion != "meta.k8s.io/v1" || l.Kind != "PartialObjectMetadataList" {
			t.Fatalf("GET %s: %s %s, want meta.k8s.io/v1 PartialObjectMetadataList", url, l.APIVersion, l.Kind)
		}
		return l.Items, l.Metadata.Continue
	}
	for _, version := range []string{"v1", "v2"} {
		list := fmt.Sprintf(base, version)
		var whole []map[string]any
		for cont := ""; ; {
			items, next := metaList(list + "?limit=2&continue=" + cont)
			whole = append(whole, items...)
			if next == "" {
				break
			}
			cont = next
		}
		all, _ := metaList(list)
		selected, _ := metaList(list + "?labelSelector=tier%3Dt1")
		for _, tc := range []struct {
			name  string
			items []map[string]any
			want  []string
		}{
			{"all", all, []string{"a", "b", "c", "d", "e"}},
			{"pages", whole, []string{"a", "b", "c", "d", "e"}},
			{"selected", selected, []string{"a", "b"}},
		} {
			if len(tc.items) != len(tc.want) {
				t.Fatalf("%s %s: %d items, want %d", version, tc.name, len(tc.items), len(tc.want))
			}
			for i, it := range tc.items {
				if it["apiVersion"] != "meta.k8s.io/v1" || it["kind"] != "PartialObjectMetadata" || len(it) != 3 {
					t.Errorf("%s %s: item %d has %v, want apiVersion, kind and metadata alone", version, tc.name, i, it)
				}
				code, body := get(t, list+"/"+tc.want[i])
				if code != 200 {
					t.Fatalf("get %s: %d %s", tc.want[i], code, body)
				}
				var obj map[string]any
				if err := json.Unmarshal([]byte(body), &obj); err != nil {
					t.Fatal(err)
				}
				if !jsonEqual(it["metadata"], obj["metadata"]) {
					t.Errorf("%s %s: item %d:\n%v\nthe get of %s:\n%v", version, tc.name, i, it["metadata"], tc.want[i], obj["metadata"])
				}
			}
		}
	}
}
