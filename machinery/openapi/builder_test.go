package openapi_test

import (
	"encoding/json"
	"errors"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/crdlab/crdlab/machinery/openapi"
)

const cronTabSchema = `{"type":"object","description":"CronTab runs things","properties":{
	"spec":{"type":"object","properties":{"cronSpec":{"type":"string"},"replicas":{"type":"integer","minimum":1,"default":1}}},
	"status":{"type":"object","properties":{"replicas":{"type":"integer"}}}}}`

var cronTab = openapi.Resource{
	Group: "stable.example.com", Version: "v1", Kind: "CronTab", ListKind: "CronTabList",
	Plural: "crontabs", Singular: "crontab", Namespaced: true,
	SchemaJSON: []byte(cronTabSchema), HasStatus: true,
	Scale: &openapi.ScaleInfo{SpecReplicasPath: ".spec.replicas", StatusReplicasPath: ".status.replicas"},
}

var cluster = openapi.Resource{
	Group: "stable.example.com", Version: "v1", Kind: "Widget", Plural: "widgets", Singular: "widget",
}

func build(t *testing.T, rs ...openapi.Resource) map[string]any {
	t.Helper()
	b, err := openapi.BuildGroupVersion("stable.example.com", "v1", rs)
	if err != nil {
		t.Fatalf("BuildGroupVersion: %v", err)
	}
	var doc map[string]any
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatalf("not JSON: %v", err)
	}
	return doc
}

func obj(v any) map[string]any { m, _ := v.(map[string]any); return m }

// supportsFieldValidation mirrors kubectl's supportsQueryParamV3: the first
// PATCH operation tagged with the GVK must list the query parameter.
func supportsFieldValidation(doc map[string]any, group, version, kind string) (path string, ok bool) {
	for p, item := range obj(doc["paths"]) {
		patch := obj(obj(item)["patch"])
		if patch == nil {
			continue
		}
		g := obj(patch["x-kubernetes-group-version-kind"])
		if g["group"] != group || g["version"] != version || g["kind"] != kind {
			continue
		}
		for _, prm := range patch["parameters"].([]any) {
			if obj(prm)["name"] == "fieldValidation" && obj(prm)["in"] == "query" {
				return p, true
			}
		}
		return p, false
	}
	return "", false
}

func TestBuildGroupVersion_FieldValidationOnEveryPatch(t *testing.T) {
	doc := build(t, cronTab, cluster)
	patches := 0
	for p, item := range obj(doc["paths"]) {
		for _, method := range []string{"patch", "put", "post"} {
			op := obj(obj(item)[method])
			if op == nil {
				continue
			}
			if method == "patch" {
				patches++
			}
			found := false
			for _, prm := range op["parameters"].([]any) {
				if obj(prm)["name"] == "fieldValidation" && obj(prm)["in"] == "query" {
					found = true
				}
			}
			if !found {
				t.Errorf("%s %s has no fieldValidation query parameter", strings.ToUpper(method), p)
			}
		}
	}
	if patches != 4 { // crontab item, status, scale; widget item
		t.Errorf("found %d PATCH operations, want 4", patches)
	}
	for _, kind := range []string{"CronTab", "Widget"} {
		if p, ok := supportsFieldValidation(doc, "stable.example.com", "v1", kind); !ok {
			t.Errorf("kubectl would not find fieldValidation for %s (path %q)", kind, p)
		}
	}
	if p, ok := supportsFieldValidation(doc, "autoscaling", "v1", "Scale"); !ok || !strings.HasSuffix(p, "/scale") {
		t.Errorf("scale PATCH: %q, %v", p, ok)
	}
}

func TestBuildGroupVersion_Paths(t *testing.T) {
	doc := build(t, cronTab, cluster)
	want := map[string]map[string]string{ // path → method → operationId
		"/apis/stable.example.com/v1/namespaces/{namespace}/crontabs": {
			"get": "listStableExampleComV1NamespacedCronTab", "post": "createStableExampleComV1NamespacedCronTab",
			"delete": "deleteStableExampleComV1CollectionNamespacedCronTab"},
		"/apis/stable.example.com/v1/namespaces/{namespace}/crontabs/{name}": {
			"get": "readStableExampleComV1NamespacedCronTab", "put": "replaceStableExampleComV1NamespacedCronTab",
			"patch": "patchStableExampleComV1NamespacedCronTab", "delete": "deleteStableExampleComV1NamespacedCronTab"},
		"/apis/stable.example.com/v1/namespaces/{namespace}/crontabs/{name}/status": {
			"get": "readStableExampleComV1NamespacedCronTabStatus", "put": "replaceStableExampleComV1NamespacedCronTabStatus",
			"patch": "patchStableExampleComV1NamespacedCronTabStatus"},
		"/apis/stable.example.com/v1/namespaces/{namespace}/crontabs/{name}/scale": {
			"get": "readStableExampleComV1NamespacedCronTabScale", "put": "replaceStableExampleComV1NamespacedCronTabScale",
			"patch": "patchStableExampleComV1NamespacedCronTabScale"},
		"/apis/stable.example.com/v1/crontabs": {"get": "listStableExampleComV1CronTabForAllNamespaces"},
		"/apis/stable.example.com/v1/widgets": {
			"get": "listStableExampleComV1Widget", "post": "createStableExampleComV1Widget",
			"delete": "deleteStableExampleComV1CollectionWidget"},
		"/apis/stable.example.com/v1/widgets/{name}": {
			"get": "readStableExampleComV1Widget", "put": "replaceStableExampleComV1Widget",
			"patch": "patchStableExampleComV1Widget", "delete": "deleteStableExampleComV1Widget"},
	}
	paths := obj(doc["paths"])
	if len(paths) != len(want) {
		var got []string
		for p := range paths {
			got = append(got, p)
		}
		sort.Strings(got)
		t.Errorf("paths = %q", got)
	}
	for p, methods := range want {
		item := obj(paths[p])
		if item == nil {
			t.Errorf("missing path %s", p)
			continue
		}
		for m, id := range methods {
			op := obj(item[m])
			if op == nil || op["operationId"] != id {
				t.Errorf("%s %s: operationId = %v, want %s", m, p, op["operationId"], id)
				continue
			}
			if tags := op["tags"].([]any); len(tags) != 1 || tags[0] != "stableExampleCom_v1" {
				t.Errorf("%s %s: tags = %v", m, p, tags)
			}
			if _, ok := obj(op["responses"])["401"]; !ok {
				t.Errorf("%s %s: no 401 response", m, p)
			}
		}
		for _, m := range []string{"get", "put", "post", "delete", "patch"} {
			if _, ok := methods[m]; !ok && item[m] != nil {
				t.Errorf("%s %s: unexpected operation", m, p)
			}
		}
	}
	t.Run("PatchContentTypes", func(t *testing.T) {
		op := obj(obj(paths["/apis/stable.example.com/v1/widgets/{name}"])["patch"])
		ct := obj(obj(op["requestBody"])["content"])
		for _, typ := range []string{"application/json-patch+json", "application/merge-patch+json", "application/apply-patch+yaml"} {
			if obj(obj(ct[typ])["schema"])["$ref"] != "#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.Patch" {
				t.Errorf("content %s = %v", typ, ct[typ])
			}
		}
		if _, ok := ct["application/strategic-merge-patch+json"]; ok {
			t.Error("custom resources do not take strategic merge patches")
		}
	})
	t.Run("ListParameters", func(t *testing.T) {
		op := obj(obj(paths["/apis/stable.example.com/v1/namespaces/{namespace}/crontabs"])["get"])
		var names []string
		for _, prm := range op["parameters"].([]any) {
			names = append(names, obj(prm)["name"].(string))
		}
		for _, n := range []string{"labelSelector", "fieldSelector", "limit", "continue", "watch", "resourceVersion", "allowWatchBookmarks", "sendInitialEvents"} {
			if !slices.Contains(names, n) {
				t.Errorf("list has no %s parameter (%v)", n, names)
			}
		}
		if ref := obj(obj(obj(obj(op["responses"])["200"])["content"])["application/json"])["schema"]; obj(ref)["$ref"] != "#/components/schemas/com.example.stable.v1.CronTabList" {
			t.Errorf("list response = %v", ref)
		}
	})
	t.Run("PathParameters", func(t *testing.T) {
		item := obj(paths["/apis/stable.example.com/v1/namespaces/{namespace}/crontabs/{name}"])
		var names []string
		for _, prm := range item["parameters"].([]any) {
			names = append(names, obj(prm)["name"].(string)+"/"+obj(prm)["in"].(string))
		}
		if !slices.Equal(names, []string{"name/path", "namespace/path", "pretty/query"}) {
			t.Errorf("parameters = %v", names)
		}
	})
}

func TestBuildGroupVersion_Schemas(t *testing.T) {
	doc := build(t, cronTab, cluster)
	schemas := obj(obj(doc["components"])["schemas"])
	ct := obj(schemas["com.example.stable.v1.CronTab"])
	if ct == nil {
		t.Fatalf("no CronTab schema; have %v", keys(schemas))
	}
	if gvks := ct["x-kubernetes-group-version-kind"].([]any); len(gvks) != 1 ||
		obj(gvks[0])["group"] != "stable.example.com" || obj(gvks[0])["version"] != "v1" || obj(gvks[0])["kind"] != "CronTab" {
		t.Errorf("CronTab gvk = %v", gvks)
	}
	props := obj(ct["properties"])
	for _, p := range []string{"apiVersion", "kind", "metadata", "spec", "status"} {
		if props[p] == nil {
			t.Errorf("CronTab has no %s property", p)
		}
	}
	if ref := obj(obj(props["metadata"])["allOf"].([]any)[0])["$ref"]; ref != "#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta" {
		t.Errorf("metadata ref = %v", ref)
	}
	if ct["description"] != "CronTab runs things" || obj(obj(obj(props["spec"])["properties"])["replicas"])["minimum"] != 1.0 {
		t.Errorf("the CRD's schema was not kept: %v", ct)
	}
	list := obj(schemas["com.example.stable.v1.CronTabList"])
	if gvks := list["x-kubernetes-group-version-kind"].([]any); obj(gvks[0])["kind"] != "CronTabList" {
		t.Errorf("list gvk = %v", gvks)
	}
	w := obj(schemas["com.example.stable.v1.Widget"])
	if w["x-kubernetes-preserve-unknown-fields"] != true || w["type"] != "object" {
		t.Errorf("schemaless Widget = %v", w)
	}
	if schemas["com.example.stable.v1.WidgetList"] == nil {
		t.Error("no WidgetList (ListKind defaults to Kind+List)")
	}
	// Every $ref must resolve inside the document, or kubectl explain fails.
	var walk func(v any)
	walk = func(v any) {
		switch v := v.(type) {
		case map[string]any:
			if r, ok := v["$ref"].(string); ok {
				name := strings.TrimPrefix(r, "#/components/schemas/")
				if name == r || schemas[name] == nil {
					t.Errorf("dangling $ref %q", r)
				}
			}
			for _, e := range v {
				walk(e)
			}
		case []any:
			for _, e := range v {
				walk(e)
			}
		}
	}
	walk(doc)
	if doc["openapi"] != "3.0.0" {
		t.Errorf("openapi = %v", doc["openapi"])
	}
}

func keys(m map[string]any) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func TestBuildGroupVersion_NoScaleSchemasWithoutScale(t *testing.T) {
	doc := build(t, cluster)
	if obj(obj(doc["components"])["schemas"])["io.k8s.api.autoscaling.v1.Scale"] != nil {
		t.Error("Scale schema without a scale subresource")
	}
}

func TestBuildGroupVersion_Deterministic(t *testing.T) {
	a, _ := openapi.BuildGroupVersion("stable.example.com", "v1", []openapi.Resource{cronTab, cluster})
	b, _ := openapi.BuildGroupVersion("stable.example.com", "v1", []openapi.Resource{cronTab, cluster})
	if string(a) != string(b) || openapi.Hash(a) != openapi.Hash(b) {
		t.Error("two builds differ")
	}
}

func TestBuildGroupVersion_Errors(t *testing.T) {
	other := cluster
	other.Version = "v2"
	noKind := cluster
	noKind.Kind = ""
	badSchema := cluster
	badSchema.SchemaJSON = []byte(`{"type":`)
	arraySchema := cluster
	arraySchema.SchemaJSON = []byte(`[]`)
	badProps := cluster
	badProps.SchemaJSON = []byte(`{"properties":[]}`)
	tests := []struct {
		name   string
		group  string
		rs     []openapi.Resource
		substr string
	}{
		{"ErrResourceOfAnotherGroup", "", []openapi.Resource{cluster}, `resource "widgets" is in stable.example.com/v1, not /v1`},
		{"ErrOtherVersion", "stable.example.com", []openapi.Resource{other}, `resource "widgets" is in stable.example.com/v2`},
		{"ErrNoKind", "stable.example.com", []openapi.Resource{noKind}, "kind and plural must not be empty"},
		{"ErrDuplicate", "stable.example.com", []openapi.Resource{cluster, cluster}, `resource "widgets" appears twice`},
		{"ErrBadSchema", "stable.example.com", []openapi.Resource{badSchema}, "is not valid JSON"},
		{"ErrArraySchema", "stable.example.com", []openapi.Resource{arraySchema}, "is not a JSON object"},
		{"ErrBadProperties", "stable.example.com", []openapi.Resource{badProps}, "properties is not an object"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := openapi.BuildGroupVersion(tt.group, "v1", tt.rs)
			if err == nil || !strings.Contains(err.Error(), tt.substr) || !errors.Is(err, openapi.ErrInvalidResource) {
				t.Errorf("err = %v, want one containing %q", err, tt.substr)
			}
		})
	}
}

func TestSchemaName(t *testing.T) {
	for _, tt := range []struct{ g, v, k, want string }{
		{"stable.example.com", "v1", "CronTab", "com.example.stable.v1.CronTab"},
		{"example.com", "v1beta1", "FooList", "com.example.v1beta1.FooList"},
		{"local", "v1", "X", "local.v1.X"},
	} {
		if got := openapi.SchemaName(tt.g, tt.v, tt.k); got != tt.want {
			t.Errorf("SchemaName(%q, %q, %q) = %q, want %q", tt.g, tt.v, tt.k, got, tt.want)
		}
	}
}

func TestRootDocument(t *testing.T) {
	doc := openapi.RootDocument(map[string]string{"apis/stable.example.com/v1": "ABC", "apis/b.io/v2": "DEF"})
	want := `{"paths":{"apis/b.io/v2":{"serverRelativeURL":"/openapi/v3/apis/b.io/v2?hash=DEF"},"apis/stable.example.com/v1":{"serverRelativeURL":"/openapi/v3/apis/stable.example.com/v1?hash=ABC"}}}`
	if string(doc) != want {
		t.Errorf("got  %s\nwant %s", doc, want)
	}
	if got := string(openapi.RootDocument(nil)); got != `{"paths":{}}` {
		t.Errorf("empty root = %s", got)
	}
}

func TestHash(t *testing.T) {
	h := openapi.Hash([]byte("abc"))
	if len(h) != 128 || strings.ToUpper(h) != h || !strings.HasPrefix(h, "DDAF35A193617ABA") {
		t.Errorf("Hash = %s", h)
	}
	if openapi.Hash([]byte("abd")) == h {
		t.Error("different documents, same hash")
	}
}

// The legacy core group is served under /api/v1; a built-in kind keeps
// its Go schema name; a resource with only create has only a POST.
func TestBuildGroupVersion_CoreGroupAndVerbs(t *testing.T) {
	doc, err := openapi.BuildGroupVersion("", "v1", []openapi.Resource{{
		Group: "", Version: "v1", Kind: "ConfigMap", Plural: "configmaps", Namespaced: true,
		Name: "io.k8s.api.core.v1.ConfigMap", ListName: "io.k8s.api.core.v1.ConfigMapList",
	}})
	if err != nil {
		t.Fatal(err)
	}
	var d struct {
		Paths      map[string]map[string]any `json:"paths"`
		Components struct {
			Schemas map[string]any `json:"schemas"`
		} `json:"components"`
	}
	if err := json.Unmarshal(doc, &d); err != nil {
		t.Fatal(err)
	}
	item := d.Paths["/api/v1/namespaces/{namespace}/configmaps/{name}"]
	if item == nil || item["patch"] == nil || d.Paths["/api/v1/configmaps"] == nil {
		t.Errorf("paths = %v", d.Paths)
	}
	if op, _ := item["patch"].(map[string]any); op["operationId"] != "patchCoreV1NamespacedConfigMap" {
		t.Errorf("operationId = %v", op["operationId"])
	}
	if d.Components.Schemas["io.k8s.api.core.v1.ConfigMap"] == nil || d.Components.Schemas["io.k8s.api.core.v1.ConfigMapList"] == nil {
		t.Errorf("schemas = %v", d.Components.Schemas)
	}

	doc, err = openapi.BuildGroupVersion("authorization.k8s.io", "v1", []openapi.Resource{{
		Group: "authorization.k8s.io", Version: "v1", Kind: "SelfSubjectAccessReview", Plural: "selfsubjectaccessreviews",
		Verbs: []string{"create"},
	}})
	if err != nil {
		t.Fatal(err)
	}
	d.Paths = nil
	if err := json.Unmarshal(doc, &d); err != nil {
		t.Fatal(err)
	}
	if len(d.Paths) != 1 || d.Paths["/apis/authorization.k8s.io/v1/selfsubjectaccessreviews"]["post"] == nil ||
		d.Paths["/apis/authorization.k8s.io/v1/selfsubjectaccessreviews"]["get"] != nil {
		t.Errorf("create-only paths = %v", d.Paths)
	}
}

// TestBuildGroupVersion_UpstreamSchemaShape covers issue 18's OpenAPI v3
// differences, checked against upstream's builder.BuildOpenAPIV3 for the
// same CRD: a custom resource's metadata (and its list's) has no
// default {}; ShardInfo is a component (ListMeta.shardInfo refers to it);
// every x-kubernetes-embedded-resource object gets apiVersion, kind and
// metadata properties and requires kind and apiVersion.
func TestBuildGroupVersion_UpstreamSchemaShape(t *testing.T) {
	r := openapi.Resource{Group: "stable.example.com", Version: "v1", Kind: "Emb", Plural: "embs", Singular: "emb",
		SchemaJSON: []byte(`{"type":"object","properties":{"spec":{"type":"object","properties":{
			"template":{"type":"object","x-kubernetes-embedded-resource":true,"x-kubernetes-preserve-unknown-fields":true},
			"typed":{"type":"object","x-kubernetes-embedded-resource":true,"required":["spec"],"properties":{"spec":{"type":"object"}}},
			"list":{"type":"array","items":{"type":"object","x-kubernetes-embedded-resource":true,"x-kubernetes-preserve-unknown-fields":true}}}}}}`)}
	doc := build(t, r)
	schemas := obj(obj(doc["components"])["schemas"])
	kind := obj(schemas["com.example.stable.v1.Emb"])
	for _, s := range []map[string]any{kind, obj(schemas["com.example.stable.v1.EmbList"])} {
		md := obj(obj(s["properties"])["metadata"])
		if _, ok := md["default"]; ok || md["allOf"] == nil {
			t.Errorf("metadata: %v", md)
		}
	}
	if obj(schemas["io.k8s.apimachinery.pkg.apis.meta.v1.ShardInfo"]) == nil ||
		obj(obj(obj(schemas["io.k8s.apimachinery.pkg.apis.meta.v1.ListMeta"])["properties"])["shardInfo"]) == nil {
		t.Error("no ShardInfo")
	}
	spec := obj(obj(obj(kind["properties"])["spec"])["properties"])
	for name, want := range map[string][]any{"template": {"kind", "apiVersion"}, "typed": {"spec", "kind", "apiVersion"}} {
		s := obj(spec[name])
		props := obj(s["properties"])
		if props["apiVersion"] == nil || props["kind"] == nil || obj(props["metadata"])["allOf"] == nil {
			t.Errorf("%s properties: %v", name, props)
		}
		if got, _ := s["required"].([]any); !slices.Equal(got, want) {
			t.Errorf("%s required %v, want %v", name, got, want)
		}
	}
	if items := obj(obj(spec["list"])["items"]); obj(items["properties"])["kind"] == nil {
		t.Errorf("list items: %v", items)
	}
}
