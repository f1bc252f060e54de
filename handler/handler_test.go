package handler_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"mime"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/crdlab/crdlab/apis/apiextensions/install"
	"github.com/crdlab/crdlab/handler"
	"github.com/crdlab/crdlab/handler/internal/check"
	"github.com/crdlab/crdlab/registry"
	"github.com/crdlab/crdlab/scheme"
)

type testServer struct {
	*httptest.Server
	h    *handler.GenericAPIServer
	rest *memCRDREST
}

// newTestServer serves apiextensions.k8s.io (v1 and v1beta1) on an
// in-memory CRD storage, and custom resources through the crdHandler, as
// the apiextensions link of a chain whose end is the 404.
func newTestServer(t *testing.T, mutate ...func(*handler.Config)) *testServer {
	t.Helper()
	s := scheme.NewScheme()
	install.Install(s)
	main, status := newMemCRDREST()
	cfg := handler.Config{
		Scheme: s, Codecs: scheme.NewCodecFactory(s),
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil)),
	}
	for _, m := range mutate {
		m(&cfg)
	}
	h, err := cfg.Complete().New("apiextensions-apiserver", nil)
	check.NoError(t, err)
	info := handler.NewDefaultAPIGroupInfo("apiextensions.k8s.io", s, scheme.NewCodecFactory(s))
	for _, v := range []string{"v1", "v1beta1"} {
		info.VersionedResourcesStorageMap[v] = map[string]registry.Storage{
			"customresourcedefinitions": main, "customresourcedefinitions/status": status}
	}
	check.NoError(t, h.InstallAPIGroup(&info))
	handler.NewCRDHandler(h)
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return &testServer{Server: srv, h: h, rest: main}
}

type response struct {
	code   int
	header http.Header
	raw    []byte
	body   map[string]any
}

func (ts *testServer) do(t *testing.T, method, path, body string, headers ...string) response {
	t.Helper()
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, err := http.NewRequest(method, ts.URL+path, rd)
	check.NoError(t, err)
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	check.NoError(t, err)
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	out := response{code: resp.StatusCode, header: resp.Header, raw: raw}
	_ = json.Unmarshal(raw, &out.body)
	return out
}

// status checks an error answer: code, reason, and a Status body.
func (r response) status(t *testing.T, code int, reason string) {
	t.Helper()
	check.Equal(t, code, r.code, string(r.raw))
	check.Equal(t, "Status", r.body["kind"], string(r.raw))
	check.Equal(t, "v1", r.body["apiVersion"])
	check.Equal(t, "Failure", r.body["status"])
	check.Equal(t, reason, r.body["reason"], string(r.raw))
	check.Equal(t, float64(code), r.body["code"])
	check.Equal(t, "application/json", r.header.Get("Content-Type"))
}

func get(m map[string]any, path ...string) any {
	var v any = m
	for _, p := range path {
		mm, ok := v.(map[string]any)
		if !ok {
			return nil
		}
		v = mm[p]
	}
	return v
}

const crdPath = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions"

func crdJSON(name, group, plural, kind string, extra ...string) string {
	body := `{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition",
	"metadata":{"name":"` + name + `"},
	"spec":{"group":"` + group + `","scope":"Namespaced",
	  "names":{"plural":"` + plural + `","singular":"` + strings.ToLower(kind) + `","kind":"` + kind + `","shortNames":["ct"]},
	  "versions":[{"name":"v1","served":true,"storage":true,
	    "schema":{"openAPIV3Schema":{"type":"object","properties":{"spec":{"type":"object","properties":{"cronSpec":{"type":"string"},"replicas":{"type":"integer"}}}}}}}]}`
	for _, e := range extra {
		body += e
	}
	return body + `}`
}

func TestHandler_CRDs(t *testing.T) {
	ts := newTestServer(t)
	body := crdJSON("crontabs.stable.example.com", "stable.example.com", "crontabs", "CronTab")

	t.Run("Create", func(t *testing.T) {
		r := ts.do(t, "POST", crdPath, body)
		check.Equal(t, 201, r.code, string(r.raw))
		check.Equal(t, "application/json", r.header.Get("Content-Type"))
		check.Equal(t, "CustomResourceDefinition", r.body["kind"])
		check.Equal(t, "apiextensions.k8s.io/v1", r.body["apiVersion"])
		check.Equal(t, "crontabs.stable.example.com", get(r.body, "metadata", "name"))
	})
	t.Run("ErrAlreadyExists", func(t *testing.T) {
		r := ts.do(t, "POST", crdPath, body)
		r.status(t, 409, "AlreadyExists")
	})
	t.Run("Get", func(t *testing.T) {
		r := ts.do(t, "GET", crdPath+"/crontabs.stable.example.com", "")
		check.Equal(t, 200, r.code)
		check.Equal(t, "stable.example.com", get(r.body, "spec", "group"))
	})
	t.Run("GetV1beta1", func(t *testing.T) {
		r := ts.do(t, "GET", "/apis/apiextensions.k8s.io/v1beta1/customresourcedefinitions/crontabs.stable.example.com", "")
		check.Equal(t, 200, r.code, string(r.raw))
		check.Equal(t, "apiextensions.k8s.io/v1beta1", r.body["apiVersion"])
	})
	t.Run("GetYAML", func(t *testing.T) {
		r := ts.do(t, "GET", crdPath+"/crontabs.stable.example.com", "", "Accept", "application/yaml")
		check.Equal(t, 200, r.code)
		check.Equal(t, "application/yaml", r.header.Get("Content-Type"))
		check.Contains(t, string(r.raw), "kind: CustomResourceDefinition")
	})
	t.Run("ErrNotFound", func(t *testing.T) {
		r := ts.do(t, "GET", crdPath+"/nope.example.com", "")
		r.status(t, 404, "NotFound")
		check.Equal(t, "customresourcedefinitions", get(r.body, "details", "kind"))
		check.Equal(t, "apiextensions.k8s.io", get(r.body, "details", "group"))
	})
	t.Run("List", func(t *testing.T) {
		r := ts.do(t, "GET", crdPath, "")
		check.Equal(t, 200, r.code)
		check.Equal(t, "CustomResourceDefinitionList", r.body["kind"])
		check.Equal(t, "apiextensions.k8s.io/v1", r.body["apiVersion"])
		check.Len(t, r.body["items"], 1)
		check.Equal(t, "CustomResourceDefinition", get(r.body["items"].([]any)[0].(map[string]any), "kind"))
	})
	t.Run("ListTable", func(t *testing.T) {
		r := ts.do(t, "GET", crdPath, "", "Accept", "application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json")
		check.Equal(t, 200, r.code)
		check.Equal(t, "application/json;as=Table;v=v1;g=meta.k8s.io", r.header.Get("Content-Type"))
		check.Equal(t, "Table", r.body["kind"])
		check.Equal(t, "meta.k8s.io/v1", r.body["apiVersion"])
		cols := r.body["columnDefinitions"].([]any)
		check.Equal(t, "Name", cols[0].(map[string]any)["name"])
		check.Equal(t, "Created At", cols[1].(map[string]any)["name"])
		rows := r.body["rows"].([]any)
		check.Len(t, rows, 1)
		row := rows[0].(map[string]any)
		check.Equal(t, "crontabs.stable.example.com", row["cells"].([]any)[0])
		check.Equal(t, "PartialObjectMetadata", get(row, "object", "kind"))
		check.Equal(t, "meta.k8s.io/v1", get(row, "object", "apiVersion"))
	})
	t.Run("GetTableIncludeNone", func(t *testing.T) {
		r := ts.do(t, "GET", crdPath+"/crontabs.stable.example.com?includeObject=None", "", "Accept", "application/json;as=Table;v=v1;g=meta.k8s.io")
		check.Equal(t, 200, r.code)
		rows := r.body["rows"].([]any)
		check.Len(t, rows, 1)
		check.Equal(t, nil, rows[0].(map[string]any)["object"])
	})
	t.Run("ErrNotAcceptable", func(t *testing.T) {
		r := ts.do(t, "GET", crdPath, "", "Accept", "application/vnd.kubernetes.protobuf")
		r.status(t, 406, "NotAcceptable")
	})
	t.Run("ProtobufOrJSON", func(t *testing.T) {
		r := ts.do(t, "GET", crdPath, "", "Accept", "application/vnd.kubernetes.protobuf, application/json")
		check.Equal(t, 200, r.code)
	})
	t.Run("Update", func(t *testing.T) {
		cur := ts.do(t, "GET", crdPath+"/crontabs.stable.example.com", "")
		cur.body["metadata"].(map[string]any)["labels"] = map[string]any{"a": "b"}
		b, _ := json.Marshal(cur.body)
		r := ts.do(t, "PUT", crdPath+"/crontabs.stable.example.com", string(b))
		check.Equal(t, 200, r.code, string(r.raw))
		check.Equal(t, "b", get(r.body, "metadata", "labels", "a"))
	})
	t.Run("ErrConflict", func(t *testing.T) {
		cur := ts.do(t, "GET", crdPath+"/crontabs.stable.example.com", "")
		cur.body["metadata"].(map[string]any)["resourceVersion"] = "1"
		b, _ := json.Marshal(cur.body)
		r := ts.do(t, "PUT", crdPath+"/crontabs.stable.example.com", string(b))
		r.status(t, 409, "Conflict")
	})
	t.Run("ErrNameMismatch", func(t *testing.T) {
		r := ts.do(t, "PUT", crdPath+"/other.stable.example.com", body)
		r.status(t, 400, "BadRequest")
		check.Equal(t, "the name of the object (crontabs.stable.example.com) does not match the name on the URL (other.stable.example.com)", r.body["message"])
	})
	t.Run("MergePatch", func(t *testing.T) {
		r := ts.do(t, "PATCH", crdPath+"/crontabs.stable.example.com", `{"metadata":{"labels":{"c":"d"}}}`, "Content-Type", "application/merge-patch+json")
		check.Equal(t, 200, r.code, string(r.raw))
		check.Equal(t, "d", get(r.body, "metadata", "labels", "c"))
	})
	t.Run("JSONPatch", func(t *testing.T) {
		r := ts.do(t, "PATCH", crdPath+"/crontabs.stable.example.com", `[{"op":"add","path":"/metadata/labels/e","value":"f"}]`, "Content-Type", "application/json-patch+json")
		check.Equal(t, 200, r.code, string(r.raw))
		check.Equal(t, "f", get(r.body, "metadata", "labels", "e"))
	})
	t.Run("ErrJSONPatchNotApplicable", func(t *testing.T) {
		r := ts.do(t, "PATCH", crdPath+"/crontabs.stable.example.com", `[{"op":"replace","path":"/nope/x","value":"f"}]`, "Content-Type", "application/json-patch+json")
		r.status(t, 422, "Invalid")
	})
	t.Run("ErrMalformedPatch", func(t *testing.T) {
		r := ts.do(t, "PATCH", crdPath+"/crontabs.stable.example.com", `{not json`, "Content-Type", "application/merge-patch+json")
		r.status(t, 400, "BadRequest")
	})
	t.Run("ErrPatchNotFound", func(t *testing.T) {
		r := ts.do(t, "PATCH", crdPath+"/nope.example.com", `{}`, "Content-Type", "application/merge-patch+json")
		r.status(t, 404, "NotFound")
	})
	t.Run("StrategicMergePatch", func(t *testing.T) {
		// A CRD is a compiled-in kind: upstream's apiextensions-apiserver
		// applies a strategic merge patch to it (its lists, without patch
		// tags, are replaced whole).
		r := ts.do(t, "PATCH", crdPath+"/crontabs.stable.example.com?fieldManager=smp",
			`{"metadata":{"labels":{"smp":"yes"},"finalizers":["x.example.com/keep"]}}`, "Content-Type", "application/strategic-merge-patch+json")
		check.Equal(t, 200, r.code, string(r.raw))
		meta := r.body["metadata"].(map[string]any)
		check.Equal(t, "yes", meta["labels"].(map[string]any)["smp"])
		check.Equal(t, []any{"x.example.com/keep"}, meta["finalizers"])
		var managers []string
		for _, e := range meta["managedFields"].([]any) {
			e := e.(map[string]any)
			managers = append(managers, e["manager"].(string)+"/"+e["operation"].(string))
		}
		check.Contains(t, strings.Join(managers, " "), "smp/Update")
		r = ts.do(t, "PATCH", crdPath+"/crontabs.stable.example.com",
			`{"metadata":{"$deleteFromPrimitiveList/finalizers":["x.example.com/keep"],"labels":{"smp":null}}}`, "Content-Type", "application/strategic-merge-patch+json")
		check.Equal(t, 200, r.code, string(r.raw))
		meta = r.body["metadata"].(map[string]any)
		check.Equal(t, nil, meta["finalizers"])
		check.Equal(t, nil, meta["labels"].(map[string]any)["smp"])
	})
	t.Run("ErrStrategicMergePatchMalformed", func(t *testing.T) {
		r := ts.do(t, "PATCH", crdPath+"/crontabs.stable.example.com", `{"metadata":{"$retainKeys":"name"}}`, "Content-Type", "application/strategic-merge-patch+json")
		r.status(t, 400, "BadRequest")
		check.Equal(t, "invalid patch format of retainKeys", r.body["message"])
		r = ts.do(t, "PATCH", crdPath+"/crontabs.stable.example.com", `{"metadata":{"labels":{"$patch":"shuffle"}}}`, "Content-Type", "application/strategic-merge-patch+json")
		r.status(t, 422, "Invalid")
	})
	t.Run("ErrApplyPatchOfNoKind", func(t *testing.T) {
		r := ts.do(t, "PATCH", crdPath+"/crontabs.stable.example.com?fieldManager=kubectl", `{}`, "Content-Type", "application/apply-patch+yaml")
		r.status(t, 400, "BadRequest")
		check.Equal(t, "invalid object type: , Kind=", r.body["message"])
	})
	t.Run("ErrApplyPatchWithoutFieldManager", func(t *testing.T) {
		r := ts.do(t, "PATCH", crdPath+"/crontabs.stable.example.com", `{}`, "Content-Type", "application/apply-patch+yaml")
		r.status(t, 422, "Invalid")
		check.Equal(t, `PatchOptions.meta.k8s.io "" is invalid: fieldManager: Required value: is required for apply patch`, r.body["message"])
	})
	t.Run("ErrUnknownPatchType", func(t *testing.T) {
		r := ts.do(t, "PATCH", crdPath+"/crontabs.stable.example.com", `{}`, "Content-Type", "text/plain")
		r.status(t, 415, "UnsupportedMediaType")
	})
	t.Run("Status", func(t *testing.T) {
		r := ts.do(t, "PATCH", crdPath+"/crontabs.stable.example.com/status",
			`{"status":{"conditions":[{"type":"Established","status":"True","reason":"x","message":"y"}]}}`, "Content-Type", "application/merge-patch+json")
		check.Equal(t, 200, r.code, string(r.raw))
		check.Equal(t, "Established", get(r.body, "status", "conditions").([]any)[0].(map[string]any)["type"])
	})
	t.Run("ErrStatusPost", func(t *testing.T) {
		r := ts.do(t, "POST", crdPath+"/crontabs.stable.example.com/status", body)
		r.status(t, 405, "MethodNotAllowed")
	})
	t.Run("ErrPostNamed", func(t *testing.T) {
		r := ts.do(t, "POST", crdPath+"/crontabs.stable.example.com", body)
		r.status(t, 405, "MethodNotAllowed")
	})
	t.Run("ErrUnknownSubresource", func(t *testing.T) {
		r := ts.do(t, "GET", crdPath+"/crontabs.stable.example.com/scale", "")
		r.status(t, 404, "NotFound")
	})
	t.Run("Delete", func(t *testing.T) {
		r := ts.do(t, "DELETE", crdPath+"/crontabs.stable.example.com", "")
		check.Equal(t, 200, r.code, string(r.raw))
		check.Equal(t, "Status", r.body["kind"]) // gone at once: a Status naming it, as upstream
		check.Equal(t, "crontabs.stable.example.com", r.body["details"].(map[string]any)["name"])
		r = ts.do(t, "DELETE", crdPath+"/crontabs.stable.example.com", "")
		r.status(t, 404, "NotFound")
	})
	t.Run("DeleteWithFinalizer", func(t *testing.T) {
		b := strings.Replace(crdJSON("fins.stable.example.com", "stable.example.com", "fins", "Fin"), `"metadata":{`, `"metadata":{"finalizers":["x"],`, 1)
		check.Equal(t, 201, ts.do(t, "POST", crdPath, b).code)
		r := ts.do(t, "DELETE", crdPath+"/fins.stable.example.com", `{"kind":"DeleteOptions","apiVersion":"v1","propagationPolicy":"Background"}`)
		check.Equal(t, 200, r.code, string(r.raw))
		check.True(t, get(r.body, "metadata", "deletionTimestamp") != nil)
	})
	t.Run("ErrDeletePrecondition", func(t *testing.T) {
		r := ts.do(t, "DELETE", crdPath+"/fins.stable.example.com", `{"preconditions":{"resourceVersion":"999"}}`)
		r.status(t, 409, "Conflict")
	})
	t.Run("ErrDeleteBadPropagation", func(t *testing.T) {
		r := ts.do(t, "DELETE", crdPath+"/fins.stable.example.com?propagationPolicy=Sideways", "")
		r.status(t, 422, "Invalid")
	})
	t.Run("DeleteCollection", func(t *testing.T) {
		r := ts.do(t, "DELETE", crdPath, "")
		check.Equal(t, 200, r.code, string(r.raw))
		check.Equal(t, "CustomResourceDefinitionList", r.body["kind"])
		check.Len(t, r.body["items"], 1)
	})
}

func TestHandler_CRDBodyErrors(t *testing.T) {
	ts := newTestServer(t)
	body := crdJSON("crontabs.stable.example.com", "stable.example.com", "crontabs", "CronTab")
	tests := []struct {
		name, body, contains string
		code                 int
		reason               string
	}{
		{"ErrMalformedJSON", `{"apiVersion":`, "", 400, "BadRequest"},
		{"ErrWrongKind", strings.Replace(body, `"kind":"CustomResourceDefinition"`, `"kind":"Pod"`, 1), "the kind in the data (Pod) does not match the expected kind (CustomResourceDefinition)", 400, "BadRequest"},
		{"ErrWrongAPIVersion", strings.Replace(body, `apiextensions.k8s.io/v1"`, `apiextensions.k8s.io/v1beta1"`, 1), "the API version in the data (apiextensions.k8s.io/v1beta1) does not match the expected API version (apiextensions.k8s.io/v1)", 400, "BadRequest"},
		{"ErrMissingKind", `{"apiVersion":"apiextensions.k8s.io/v1","metadata":{"name":"a"}}`, "Object 'Kind' is missing", 400, "BadRequest"},
		{"ErrEmptyBody", ``, "", 400, "BadRequest"},
		{"ErrStrictUnknownField", strings.Replace(body, `"scope":`, `"foo":1,"scope":`, 1), `strict decoding error: unknown field "spec.foo"`, 400, "BadRequest"},
		{"ErrStrictBoth", strings.Replace(body, `"scope":`, `"scope":"Cluster","names":{},"bar":1,"scope":`, 1), `strict decoding error: duplicate field "spec.scope", duplicate field "spec.names", unknown field "spec.bar"`, 400, "BadRequest"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := crdPath
			if strings.HasPrefix(tt.name, "ErrStrict") {
				path += "?fieldValidation=Strict"
			}
			r := ts.do(t, "POST", path, tt.body)
			r.status(t, tt.code, tt.reason)
			if tt.contains != "" {
				check.Contains(t, r.body["message"].(string), tt.contains)
			}
		})
	}
	t.Run("ErrUnsupportedMediaType", func(t *testing.T) {
		r := ts.do(t, "POST", crdPath, body, "Content-Type", "application/xml")
		r.status(t, 415, "UnsupportedMediaType")
	})
	t.Run("ErrBadFieldValidation", func(t *testing.T) {
		r := ts.do(t, "POST", crdPath+"?fieldValidation=Loose", body)
		r.status(t, 400, "BadRequest")
	})
	t.Run("ErrBadDryRun", func(t *testing.T) {
		r := ts.do(t, "POST", crdPath+"?dryRun=Some", body)
		r.status(t, 400, "BadRequest")
	})
	t.Run("WarnUnknownField", func(t *testing.T) {
		r := ts.do(t, "POST", crdPath, strings.Replace(body, `"scope":`, `"foo":1,"scope":`, 1))
		check.Equal(t, 201, r.code, string(r.raw))
		check.Equal(t, `299 - "unknown field \"spec.foo\""`, r.header.Get("Warning"))
	})
	t.Run("IgnoreUnknownField", func(t *testing.T) {
		r := ts.do(t, "POST", crdPath+"?fieldValidation=Ignore&dryRun=All",
			strings.Replace(strings.Replace(body, `"scope":`, `"foo":1,"scope":`, 1), "crontabs.stable", "x.stable", 1))
		check.Equal(t, 201, r.code, string(r.raw))
		check.Equal(t, "", r.header.Get("Warning"))
	})
	t.Run("YAMLBody", func(t *testing.T) {
		y := "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata:\n  name: ys.stable.example.com\nspec:\n  group: stable.example.com\n  scope: Cluster\n  names: {plural: ys, kind: Yam}\n  versions: [{name: v1, served: true, storage: true}]\n"
		r := ts.do(t, "POST", crdPath, y, "Content-Type", "application/yaml")
		check.Equal(t, 201, r.code, string(r.raw))
	})
	t.Run("ProtobufBody", func(t *testing.T) {
		// What client-go's typed apiextensions clientset sends: it prefers
		// protobuf for built-in kinds and never falls back to JSON.
		pb, err := os.ReadFile("protobuf/testdata/crd-crontab.pb")
		check.NoError(t, err)
		fresh := newTestServer(t)
		r := fresh.do(t, "POST", crdPath, string(pb), "Content-Type", "application/vnd.kubernetes.protobuf",
			"Accept", "application/vnd.kubernetes.protobuf,application/json")
		check.Equal(t, 201, r.code, string(r.raw))
		check.Equal(t, "application/json", r.header.Get("Content-Type"))
		check.Equal(t, "crontabs.stable.example.com", get(r.body, "metadata", "name"))
		check.Equal(t, float64(10), get(r.body, "spec", "versions").([]any)[0].(map[string]any)["schema"].(map[string]any)["openAPIV3Schema"].(map[string]any)["properties"].(map[string]any)["spec"].(map[string]any)["properties"].(map[string]any)["replicas"].(map[string]any)["maximum"])
		// DeleteOptions come as protobuf too: their precondition is read.
		del, err := os.ReadFile("protobuf/testdata/delete-options.pb")
		check.NoError(t, err)
		r = fresh.do(t, "DELETE", crdPath+"/crontabs.stable.example.com", string(del), "Content-Type", "application/vnd.kubernetes.protobuf")
		r.status(t, 409, "Conflict")
		check.True(t, strings.Contains(r.body["message"].(string), "Precondition failed"), r.body["message"])
	})
	t.Run("ErrProtobufUnsupportedKind", func(t *testing.T) {
		// "k8s\x00", then runtime.Unknown{typeMeta: {apps/v1, Deployment}}.
		pb := "k8s\x00\x0a\x15\x0a\x07apps/v1\x12\x0aDeployment"
		r := ts.do(t, "POST", crdPath, pb, "Content-Type", "application/vnd.kubernetes.protobuf")
		r.status(t, 415, "UnsupportedMediaType")
		check.Equal(t, "crdlab reads protobuf only for apiextensions.k8s.io/v1 CustomResourceDefinition, the built-in kinds it serves and DeleteOptions, not apps/v1 Deployment: send application/json", r.body["message"])
	})
	t.Run("ErrProtobufMalformed", func(t *testing.T) {
		r := ts.do(t, "POST", crdPath, body, "Content-Type", "application/vnd.kubernetes.protobuf")
		r.status(t, 400, "BadRequest")
	})
	t.Run("ErrRequestEntityTooLarge", func(t *testing.T) {
		big := strings.Replace(body, `"scope":`, `"pad":"`+strings.Repeat("x", 3*1024*1024)+`","scope":`, 1)
		r := ts.do(t, "POST", crdPath, big)
		r.status(t, 413, "RequestEntityTooLarge")
	})
}

func TestHandler_ListOptionsValidation(t *testing.T) {
	ts := newTestServer(t)
	tests := []struct{ name, query string }{
		{"ErrSendInitialEventsOnList", "?sendInitialEvents=true"},
		{"ErrSendInitialEventsWithoutMatch", "?watch=1&sendInitialEvents=true&allowWatchBookmarks=true"},
		{"ErrMatchWithoutRV", "?resourceVersionMatch=NotOlderThan"},
		{"ErrBadMatch", "?resourceVersion=1&resourceVersionMatch=Newest"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := ts.do(t, "GET", crdPath+tt.query, "")
			r.status(t, 422, "Invalid")
			check.Equal(t, "ListOptions", get(r.body, "details", "kind"))
		})
	}
	t.Run("ErrBadBool", func(t *testing.T) {
		r := ts.do(t, "GET", crdPath+"?watch=maybe", "")
		r.status(t, 400, "BadRequest")
	})
}

func readEvents(t *testing.T, body io.Reader, n int) []map[string]any {
	t.Helper()
	sc := bufio.NewScanner(body)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	var out []map[string]any
	for len(out) < n && sc.Scan() {
		var ev map[string]any
		check.NoError(t, json.Unmarshal(sc.Bytes(), &ev), sc.Text())
		out = append(out, ev)
	}
	check.Len(t, out, n)
	return out
}

func TestHandler_WatchCRDs(t *testing.T) {
	ts := newTestServer(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, "GET", ts.URL+crdPath+"?watch=1", nil)
	resp, err := http.DefaultClient.Do(req)
	check.NoError(t, err)
	defer resp.Body.Close()
	check.Equal(t, 200, resp.StatusCode)
	check.Equal(t, "application/json", resp.Header.Get("Content-Type"))
	check.Equal(t, 201, ts.do(t, "POST", crdPath, crdJSON("crontabs.stable.example.com", "stable.example.com", "crontabs", "CronTab")).code)
	check.Equal(t, 200, ts.do(t, "DELETE", crdPath+"/crontabs.stable.example.com", "").code)
	evs := readEvents(t, resp.Body, 2)
	check.Equal(t, "ADDED", evs[0]["type"])
	check.Equal(t, "apiextensions.k8s.io/v1", get(evs[0], "object", "apiVersion"))
	check.Equal(t, "CustomResourceDefinition", get(evs[0], "object", "kind"))
	check.Equal(t, "DELETED", evs[1]["type"])

	t.Run("Table", func(t *testing.T) {
		req, _ := http.NewRequestWithContext(ctx, "GET", ts.URL+crdPath+"?watch=true", nil)
		req.Header.Set("Accept", "application/json;as=Table;v=v1;g=meta.k8s.io,application/json")
		resp, err := http.DefaultClient.Do(req)
		check.NoError(t, err)
		defer resp.Body.Close()
		check.Equal(t, 201, ts.do(t, "POST", crdPath, crdJSON("crontabs.stable.example.com", "stable.example.com", "crontabs", "CronTab")).code)
		evs := readEvents(t, resp.Body, 1)
		check.Equal(t, "ADDED", evs[0]["type"])
		check.Equal(t, "Table", get(evs[0], "object", "kind"))
		check.Len(t, get(evs[0], "object", "rows"), 1)
	})
	t.Run("ErrExpired", func(t *testing.T) {
		resp, err := http.Get(ts.URL + crdPath + "?watch=1&resourceVersion=1")
		check.NoError(t, err)
		defer resp.Body.Close()
		check.Equal(t, 200, resp.StatusCode)
		evs := readEvents(t, resp.Body, 1)
		check.Equal(t, "ERROR", evs[0]["type"])
		check.Equal(t, "Status", get(evs[0], "object", "kind"))
		check.Equal(t, float64(410), get(evs[0], "object", "code"))
		check.Equal(t, "Expired", get(evs[0], "object", "reason"))
		rest, _ := io.ReadAll(resp.Body)
		check.Equal(t, "", string(bytes.TrimSpace(rest)))
	})
	t.Run("TimeoutSeconds", func(t *testing.T) {
		start := time.Now()
		resp, err := http.Get(ts.URL + crdPath + "?watch=1&timeoutSeconds=1")
		check.NoError(t, err)
		_, _ = io.ReadAll(resp.Body)
		resp.Body.Close()
		check.True(t, time.Since(start) < 5*time.Second)
	})
}

func TestHandler_Filters(t *testing.T) {
	t.Run("PanicRecovery", func(t *testing.T) {
		ts := newTestServer(t)
		ts.rest.db.panicOnGet = true
		r := ts.do(t, "GET", crdPath+"/x", "")
		r.status(t, 500, "InternalError")
		ts.rest.db.panicOnGet = false
		r = ts.do(t, "GET", crdPath+"/x", "")
		r.status(t, 404, "NotFound")
	})
	t.Run("Timeout", func(t *testing.T) {
		ts := newTestServer(t, func(c *handler.Config) { c.RequestTimeout = 100 * time.Millisecond })
		ts.rest.db.block = true
		r := ts.do(t, "GET", crdPath, "")
		r.status(t, 504, "Timeout")
		check.Contains(t, r.body["message"].(string), "request did not complete within requested timeout")
	})
	t.Run("WatchHasNoTimeout", func(t *testing.T) {
		// The timeout is long enough for the create below on a loaded
		// machine (with -race), and the watch outlives it.
		const timeout = time.Second
		ts := newTestServer(t, func(c *handler.Config) { c.RequestTimeout = timeout })
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		req, _ := http.NewRequestWithContext(ctx, "GET", ts.URL+crdPath+"?watch=1", nil)
		resp, err := http.DefaultClient.Do(req)
		check.NoError(t, err)
		defer resp.Body.Close()
		time.Sleep(timeout + timeout/2) // the watch must still be open after the request timeout
		check.Equal(t, 201, ts.do(t, "POST", crdPath, crdJSON("crontabs.stable.example.com", "stable.example.com", "crontabs", "CronTab")).code)
		evs := readEvents(t, resp.Body, 1)
		check.Equal(t, "ADDED", evs[0]["type"])
	})
}

func TestHandler_Discovery(t *testing.T) {
	ts := newTestServer(t)
	t.Run("API", func(t *testing.T) {
		r := ts.do(t, "GET", "/api", "")
		r.status(t, 404, "NotFound")
	})
	t.Run("APIs", func(t *testing.T) {
		r := ts.do(t, "GET", "/apis", "")
		check.Equal(t, 200, r.code)
		groups := r.body["groups"].([]any)
		check.Len(t, groups, 1)
		g := groups[0].(map[string]any)
		check.Equal(t, "apiextensions.k8s.io", g["name"])
		check.Equal(t, "v1", get(g, "preferredVersion", "version"))
		check.Len(t, g["versions"], 2)
	})
	t.Run("GroupVersion", func(t *testing.T) {
		r := ts.do(t, "GET", "/apis/apiextensions.k8s.io/v1", "")
		check.Equal(t, 200, r.code)
		res := r.body["resources"].([]any)
		check.Len(t, res, 2)
		check.Equal(t, "customresourcedefinitions", res[0].(map[string]any)["name"])
		check.Equal(t, []any{"crd", "crds"}, res[0].(map[string]any)["shortNames"])
		check.Equal(t, "customresourcedefinitions/status", res[1].(map[string]any)["name"])
	})
	t.Run("ErrUnknownPath", func(t *testing.T) {
		r := ts.do(t, "GET", "/apis/nope.example.com/v1/things", "")
		r.status(t, 404, "NotFound")
	})
}

// /openapi/v2 is derived from the v3 documents: JSON by default, the
// protobuf client-go asks for when asked, with an ETag.
func TestHandler_OpenAPIV2(t *testing.T) {
	ts := newTestServer(t)
	r := ts.do(t, "GET", "/openapi/v2", "")
	check.Equal(t, 200, r.code)
	check.Equal(t, "2.0", r.body["swagger"])
	defs, _ := r.body["definitions"].(map[string]any)
	if defs["io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.CustomResourceDefinition"] == nil {
		t.Errorf("no CustomResourceDefinition definition in %d definitions", len(defs))
	}
	paths, _ := r.body["paths"].(map[string]any)
	if paths["/apis/apiextensions.k8s.io/v1/customresourcedefinitions/{name}"] == nil {
		t.Errorf("paths: %v", len(paths))
	}
	// client-go asks with the older media type; the answer's Content-Type
	// is the one mime.ParseMediaType accepts (client-go parses it).
	for _, accept := range []string{"application/com.github.proto-openapi.spec.v2@v1.0+protobuf",
		"application/com.github.proto-openapi.spec.v2.v1.0+protobuf"} {
		pb := ts.do(t, "GET", "/openapi/v2", "", "Accept", accept)
		ct := pb.header.Get("Content-Type")
		check.Equal(t, "application/com.github.proto-openapi.spec.v2.v1.0+protobuf", ct)
		if _, _, err := mime.ParseMediaType(ct); err != nil {
			t.Errorf("Content-Type %q: %v", ct, err)
		}
		if len(pb.raw) == 0 || pb.raw[0] != 0x0a { // field 1 (swagger), length-delimited
			t.Errorf("protobuf body starts with %x", pb.raw[:min(4, len(pb.raw))])
		}
	}
	etag := r.header.Get("ETag")
	check.Equal(t, 304, ts.do(t, "GET", "/openapi/v2", "", "If-None-Match", etag).code)
}
