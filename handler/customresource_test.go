package handler_test

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	apiextensionsv1 "github.com/crdlab/crdlab/apis/apiextensions/v1"
	"github.com/crdlab/crdlab/handler"
	"github.com/crdlab/crdlab/handler/internal/check"
)

const crontabCRD = `{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition",
"metadata":{"name":"crontabs.stable.example.com"},
"spec":{"group":"stable.example.com","scope":"Namespaced",
 "names":{"plural":"crontabs","singular":"crontab","kind":"CronTab","shortNames":["ct"],"categories":["all"]},
 "versions":[
  {"name":"v1","served":true,"storage":true,"subresources":{"status":{}},
   "schema":{"openAPIV3Schema":{"type":"object","properties":{"spec":{"type":"object","properties":{"cronSpec":{"type":"string"},"replicas":{"type":"integer"}}}}}},
   "additionalPrinterColumns":[{"name":"Spec","type":"string","jsonPath":".spec.cronSpec"},{"name":"Replicas","type":"integer","jsonPath":".spec.replicas","priority":1},{"name":"Age","type":"date","jsonPath":".metadata.creationTimestamp"}]},
  {"name":"v2","served":true,"storage":false,"deprecated":true,
   "schema":{"openAPIV3Schema":{"type":"object","properties":{"spec":{"type":"object","properties":{"cronSpec":{"type":"string"},"replicas":{"type":"integer"}}}}}}},
  {"name":"v3","served":false,"storage":false}
 ]}}`

const establishedStatus = `{"status":{"conditions":[
 {"type":"NamesAccepted","status":"True","reason":"NoConflicts","message":"no conflicts found"},
 {"type":"Established","status":"True","reason":"InitialNamesAccepted","message":"the initial names have been accepted"}],
 "acceptedNames":{"plural":"crontabs","singular":"crontab","kind":"CronTab","shortNames":["ct"],"categories":["all"]}}}`

// crServer is a test server with the crontabs CRD created, made
// Established through /status and handed to the crdHandler's hook.
func crServer(t *testing.T) (*testServer, **memCRDB) {
	t.Helper()
	db := new(*memCRDB)
	ts := newTestServer(t, func(c *handler.Config) {
		c.CustomResourceStorage = func(crd *apiextensionsv1.CustomResourceDefinition) (*handler.CustomResourceStorage, error) {
			st, d := newMemCRStorage(crd)
			*db = d
			return st, nil
		}
		c.SchemaFor = func(*apiextensionsv1.JSONSchemaProps) (handler.Schema, error) { return testSchema{}, nil }
	})
	check.Equal(t, 201, ts.do(t, "POST", crdPath, crontabCRD).code)
	r := ts.do(t, "PATCH", crdPath+"/crontabs.stable.example.com/status", establishedStatus, "Content-Type", "application/merge-patch+json")
	check.Equal(t, 200, r.code, string(r.raw))
	ts.h.CRDs().OnAdd(decodeCRD(t, r.raw))
	return ts, db
}

func decodeCRD(t *testing.T, raw []byte) *apiextensionsv1.CustomResourceDefinition {
	t.Helper()
	var crd apiextensionsv1.CustomResourceDefinition
	check.NoError(t, json.Unmarshal(raw, &crd))
	return &crd
}

const ctPath = "/apis/stable.example.com/v1/namespaces/default/crontabs"

func crontab(name string, extra string) string {
	return `{"apiVersion":"stable.example.com/v1","kind":"CronTab","metadata":{"name":"` + name + `"},"spec":{"replicas":1` + extra + `}}`
}

func TestCRDHandler_CRUD(t *testing.T) {
	ts, _ := crServer(t)
	t.Run("Create", func(t *testing.T) {
		r := ts.do(t, "POST", ctPath, crontab("a", ""))
		check.Equal(t, 201, r.code, string(r.raw))
		check.Equal(t, "stable.example.com/v1", r.body["apiVersion"])
		check.Equal(t, "default", get(r.body, "metadata", "namespace"))
		check.Equal(t, "* * * * *", get(r.body, "spec", "cronSpec")) // defaulted
	})
	t.Run("Get", func(t *testing.T) {
		r := ts.do(t, "GET", ctPath+"/a", "")
		check.Equal(t, 200, r.code)
		check.Equal(t, float64(1), get(r.body, "spec", "replicas"))
	})
	t.Run("GetOtherVersion", func(t *testing.T) {
		r := ts.do(t, "GET", "/apis/stable.example.com/v2/namespaces/default/crontabs/a", "")
		check.Equal(t, 200, r.code, string(r.raw))
		check.Equal(t, "stable.example.com/v2", r.body["apiVersion"])
		check.Contains(t, r.header.Get("Warning"), "stable.example.com/v2 CronTab is deprecated")
	})
	t.Run("CreateThroughOtherVersion", func(t *testing.T) {
		b := strings.Replace(crontab("b", ""), "stable.example.com/v1", "stable.example.com/v2", 1)
		r := ts.do(t, "POST", "/apis/stable.example.com/v2/namespaces/default/crontabs", b)
		check.Equal(t, 201, r.code, string(r.raw))
		check.Equal(t, "stable.example.com/v2", r.body["apiVersion"])
		r = ts.do(t, "GET", ctPath+"/b", "")
		check.Equal(t, "stable.example.com/v1", r.body["apiVersion"])
	})
	t.Run("ErrUnservedVersion", func(t *testing.T) {
		r := ts.do(t, "GET", "/apis/stable.example.com/v3/namespaces/default/crontabs/a", "")
		r.status(t, 404, "NotFound")
	})
	t.Run("ErrWrongScope", func(t *testing.T) {
		r := ts.do(t, "GET", "/apis/stable.example.com/v1/crontabs/a", "")
		r.status(t, 404, "NotFound")
	})
	t.Run("ListAllNamespaces", func(t *testing.T) {
		check.Equal(t, 201, ts.do(t, "POST", "/apis/stable.example.com/v1/namespaces/other/crontabs", crontab("c", "")).code)
		r := ts.do(t, "GET", "/apis/stable.example.com/v1/crontabs", "")
		check.Equal(t, 200, r.code)
		check.Equal(t, "CronTabList", r.body["kind"])
		check.Equal(t, "stable.example.com/v1", r.body["apiVersion"])
		check.Len(t, r.body["items"], 3)
		r = ts.do(t, "GET", ctPath, "")
		check.Len(t, r.body["items"], 2)
	})
	t.Run("ListLabelSelectorPassedThrough", func(t *testing.T) {
		r := ts.do(t, "GET", ctPath+"?labelSelector=x%3Dy", "")
		check.Len(t, r.body["items"], 0)
	})
	t.Run("Table", func(t *testing.T) {
		r := ts.do(t, "GET", "/apis/stable.example.com/v1/crontabs", "", "Accept", "application/json;as=Table;v=v1;g=meta.k8s.io,application/json")
		check.Equal(t, 200, r.code, string(r.raw))
		cols := r.body["columnDefinitions"].([]any)
		check.Len(t, cols, 4)
		check.Equal(t, "Name", cols[0].(map[string]any)["name"])
		check.Equal(t, "Spec", cols[1].(map[string]any)["name"])
		check.Equal(t, float64(1), cols[2].(map[string]any)["priority"])
		row := r.body["rows"].([]any)[0].(map[string]any)
		cells := row["cells"].([]any)
		check.Equal(t, "a", cells[0])
		check.Equal(t, "* * * * *", cells[1])
		check.Equal(t, float64(1), cells[2])
		check.True(t, strings.HasSuffix(cells[3].(string), "s"), cells[3])
		check.Equal(t, "default", get(row, "object", "metadata", "namespace"))
	})
	t.Run("ErrInvalid", func(t *testing.T) {
		b := `{"apiVersion":"stable.example.com/v1","kind":"CronTab","metadata":{"name":"Bad_Name","labels":{"a b":"c"}},"spec":{"replicas":-1,"cronSpec":5}}`
		r := ts.do(t, "POST", ctPath, b)
		r.status(t, 422, "Invalid")
		check.Equal(t, "CronTab", get(r.body, "details", "kind"))
		check.Equal(t, "stable.example.com", get(r.body, "details", "group"))
		var fields []string
		for _, c := range get(r.body, "details", "causes").([]any) {
			fields = append(fields, c.(map[string]any)["field"].(string))
		}
		check.Equal(t, []string{"metadata.name", "metadata.labels", "spec.replicas", "spec.cronSpec"}, fields)
		r = ts.do(t, "GET", ctPath+"/Bad_Name", "")
		r.status(t, 404, "NotFound")
	})
	t.Run("ErrStrictUnknownField", func(t *testing.T) {
		r := ts.do(t, "POST", ctPath+"?fieldValidation=Strict", crontab("d", `,"foo":1`))
		r.status(t, 400, "BadRequest")
		check.Equal(t, `strict decoding error: unknown field "spec.foo"`, r.body["message"])
	})
	t.Run("WarnUnknownFieldPruned", func(t *testing.T) {
		r := ts.do(t, "POST", ctPath, crontab("d", `,"foo":1`))
		check.Equal(t, 201, r.code)
		check.Equal(t, `299 - "unknown field \"spec.foo\""`, r.header.Get("Warning"))
		check.Equal(t, nil, get(r.body, "spec", "foo"))
	})
	t.Run("ErrNamespaceMismatch", func(t *testing.T) {
		b := strings.Replace(crontab("e", ""), `"name":"e"`, `"name":"e","namespace":"other"`, 1)
		r := ts.do(t, "POST", ctPath, b)
		r.status(t, 400, "BadRequest")
		check.Equal(t, "the namespace of the provided object does not match the namespace sent on the request", r.body["message"])
	})
	t.Run("ErrWrongKind", func(t *testing.T) {
		r := ts.do(t, "POST", ctPath, strings.Replace(crontab("e", ""), `"CronTab"`, `"Other"`, 1))
		r.status(t, 400, "BadRequest")
	})
	t.Run("Update", func(t *testing.T) {
		r := ts.do(t, "PUT", ctPath+"/a", crontab("a", `,"cronSpec":"1 * * * *"`))
		check.Equal(t, 200, r.code, string(r.raw))
		check.Equal(t, "1 * * * *", get(r.body, "spec", "cronSpec"))
	})
	t.Run("ErrUpdateNameMismatch", func(t *testing.T) {
		r := ts.do(t, "PUT", ctPath+"/b", crontab("a", ""))
		r.status(t, 400, "BadRequest")
		check.Equal(t, "the name of the object (a) does not match the name on the URL (b)", r.body["message"])
	})
	t.Run("MergePatch", func(t *testing.T) {
		r := ts.do(t, "PATCH", ctPath+"/a", `{"spec":{"replicas":3}}`, "Content-Type", "application/merge-patch+json")
		check.Equal(t, 200, r.code, string(r.raw))
		check.Equal(t, float64(3), get(r.body, "spec", "replicas"))
	})
	t.Run("ErrPatchInvalid", func(t *testing.T) {
		r := ts.do(t, "PATCH", ctPath+"/a", `{"spec":{"replicas":"x"}}`, "Content-Type", "application/merge-patch+json")
		r.status(t, 422, "Invalid")
	})
	t.Run("ErrPatchStrict", func(t *testing.T) {
		r := ts.do(t, "PATCH", ctPath+"/a?fieldValidation=Strict", `{"spec":{"bar":1}}`, "Content-Type", "application/merge-patch+json")
		r.status(t, 400, "BadRequest")
		check.Equal(t, `strict decoding error: unknown field "spec.bar"`, r.body["message"])
	})
	t.Run("PatchWarn", func(t *testing.T) {
		r := ts.do(t, "PATCH", ctPath+"/a", `{"spec":{"bar":1}}`, "Content-Type", "application/merge-patch+json")
		check.Equal(t, 200, r.code)
		check.Equal(t, `299 - "unknown field \"spec.bar\""`, r.header.Get("Warning"))
	})
	t.Run("JSONPatch", func(t *testing.T) {
		r := ts.do(t, "PATCH", ctPath+"/a", `[{"op":"test","path":"/spec/replicas","value":3},{"op":"add","path":"/metadata/labels","value":{"patched":"json"}}]`,
			"Content-Type", "application/json-patch+json")
		check.Equal(t, 200, r.code, string(r.raw))
		check.Equal(t, "json", get(r.body, "metadata", "labels", "patched"))
	})
	t.Run("ErrJSONPatchTestFails", func(t *testing.T) {
		// As upstream: 422 Invalid with empty details, so that kubectl
		// prints "The request is invalid: <message>" (a cause without a
		// field would print as "is invalid: : <message>").
		r := ts.do(t, "PATCH", ctPath+"/a", `[{"op":"test","path":"/spec/replicas","value":9}]`, "Content-Type", "application/json-patch+json")
		r.status(t, 422, "Invalid")
		check.Equal(t, "testing value /spec/replicas failed: test failed", r.body["message"])
		check.Equal(t, map[string]any{}, r.body["details"])
	})
	t.Run("ErrStrategicMergePatch", func(t *testing.T) {
		r := ts.do(t, "PATCH", ctPath+"/a", `{}`, "Content-Type", "application/strategic-merge-patch+json")
		r.status(t, 415, "UnsupportedMediaType")
	})
	t.Run("ErrPatchMissing", func(t *testing.T) {
		r := ts.do(t, "PATCH", ctPath+"/zzz", `{}`, "Content-Type", "application/merge-patch+json")
		r.status(t, 404, "NotFound")
		check.Equal(t, "crontabs", get(r.body, "details", "kind"))
	})
	t.Run("Status", func(t *testing.T) {
		r := ts.do(t, "PUT", ctPath+"/a/status", `{"apiVersion":"stable.example.com/v1","kind":"CronTab","metadata":{"name":"a"},"status":{"phase":"ok"}}`)
		check.Equal(t, 200, r.code, string(r.raw))
		check.Equal(t, "ok", get(r.body, "status", "phase"))
		check.Equal(t, float64(3), get(r.body, "spec", "replicas"))
	})
	t.Run("ErrNoScale", func(t *testing.T) {
		r := ts.do(t, "GET", ctPath+"/a/scale", "")
		r.status(t, 404, "NotFound")
	})
	t.Run("ErrStatusNotInV2", func(t *testing.T) {
		r := ts.do(t, "GET", "/apis/stable.example.com/v2/namespaces/default/crontabs/a/status", "")
		r.status(t, 404, "NotFound")
	})
	t.Run("ErrPostNamed", func(t *testing.T) {
		r := ts.do(t, "POST", ctPath+"/a", crontab("a", ""))
		r.status(t, 405, "MethodNotAllowed")
	})
	t.Run("ErrDeleteCollectionUnsupported", func(t *testing.T) {
		r := ts.do(t, "DELETE", ctPath, "")
		r.status(t, 405, "MethodNotAllowed")
	})
	t.Run("Delete", func(t *testing.T) {
		r := ts.do(t, "DELETE", ctPath+"/a", "")
		check.Equal(t, 200, r.code, string(r.raw))
		check.Equal(t, "CronTab", r.body["kind"])
	})
}

func TestCRDHandler_Watch(t *testing.T) {
	ts, _ := crServer(t)
	check.Equal(t, 201, ts.do(t, "POST", ctPath, crontab("a", "")).code)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, "GET", ts.URL+"/apis/stable.example.com/v1/crontabs?watch=1&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true", nil)
	resp, err := http.DefaultClient.Do(req)
	check.NoError(t, err)
	defer resp.Body.Close()
	check.Equal(t, 200, resp.StatusCode)
	evs := readEvents(t, resp.Body, 2)
	check.Equal(t, "ADDED", evs[0]["type"])
	check.Equal(t, "BOOKMARK", evs[1]["type"])
	check.Equal(t, "true", get(evs[1], "object", "metadata", "annotations", "k8s.io/initial-events-end"))
	check.Equal(t, 200, ts.do(t, "PATCH", ctPath+"/a", `{"spec":{"replicas":2}}`, "Content-Type", "application/merge-patch+json").code)
	evs = readEvents(t, resp.Body, 1)
	check.Equal(t, "MODIFIED", evs[0]["type"])
	check.Equal(t, "stable.example.com/v1", get(evs[0], "object", "apiVersion"))

	t.Run("ServerShutdownEndsWatch", func(t *testing.T) {
		req, _ := http.NewRequest("GET", ts.URL+ctPath+"?watch=1", nil)
		resp, err := http.DefaultClient.Do(req)
		check.NoError(t, err)
		defer resp.Body.Close()
		done := make(chan struct{})
		go func() {
			buf := make([]byte, 1024)
			for {
				if _, err := resp.Body.Read(buf); err != nil {
					close(done)
					return
				}
			}
		}()
		ts.CloseClientConnections()
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			t.Fatal("watch did not end")
		}
	})
}

func TestCRDHandler_Hooks(t *testing.T) {
	ts, db := crServer(t)
	t.Run("Discovery", func(t *testing.T) {
		r := ts.do(t, "GET", "/apis/stable.example.com/v1", "")
		check.Equal(t, 200, r.code, string(r.raw))
		res := r.body["resources"].([]any)
		check.Len(t, res, 2)
		check.Equal(t, "crontabs", res[0].(map[string]any)["name"])
		check.Equal(t, []any{"all"}, res[0].(map[string]any)["categories"])
		check.Equal(t, "crontabs/status", res[1].(map[string]any)["name"])
		r = ts.do(t, "GET", "/apis", "", "Accept", "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json")
		items := r.body["items"].([]any)
		check.Len(t, items, 2)
		check.Equal(t, "stable.example.com", get(items[1].(map[string]any), "metadata", "name"))
		vs := items[1].(map[string]any)["versions"].([]any)
		check.Len(t, vs, 2)
		check.Equal(t, "v2", vs[0].(map[string]any)["version"])
	})
	t.Run("NotEstablishedFallsThrough", func(t *testing.T) {
		crd, ok := ts.h.CRDs().Get("crontabs.stable.example.com")
		check.True(t, ok)
		crd.Status.Conditions = nil
		ts.h.CRDs().OnUpdate(crd)
		r := ts.do(t, "GET", ctPath, "")
		r.status(t, 404, "NotFound")
		r = ts.do(t, "GET", "/apis/stable.example.com/v1", "")
		r.status(t, 404, "NotFound")
	})
	t.Run("SpecChangeRebuilds", func(t *testing.T) {
		r := ts.do(t, "GET", crdPath+"/crontabs.stable.example.com", "")
		crd := decodeCRD(t, r.raw)
		ts.h.CRDs().OnUpdate(crd)
		check.Equal(t, 200, ts.do(t, "GET", ctPath, "").code)
		first := *db
		crd.Spec.Versions[1].Served = false
		ts.h.CRDs().OnUpdate(crd)
		r = ts.do(t, "GET", "/apis/stable.example.com/v2/namespaces/default/crontabs", "")
		r.status(t, 404, "NotFound")
		check.Equal(t, 2, first.destroys) // main and status
	})
	t.Run("Terminating", func(t *testing.T) {
		crd, _ := ts.h.CRDs().Get("crontabs.stable.example.com")
		crd.Status.Conditions = append(crd.Status.Conditions, apiextensionsv1.CustomResourceDefinitionCondition{Type: apiextensionsv1.Terminating, Status: apiextensionsv1.ConditionTrue})
		ts.h.CRDs().OnUpdate(crd)
		r := ts.do(t, "POST", ctPath, crontab("z", ""))
		r.status(t, 405, "MethodNotAllowed")
		check.Equal(t, "create not allowed while custom resource definition is terminating", r.body["message"])
	})
	t.Run("Delete", func(t *testing.T) {
		crd, _ := ts.h.CRDs().Get("crontabs.stable.example.com")
		ts.h.CRDs().OnDelete(crd)
		_, ok := ts.h.CRDs().Get("crontabs.stable.example.com")
		check.False(t, ok)
		r := ts.do(t, "GET", ctPath, "")
		r.status(t, 404, "NotFound")
		r = ts.do(t, "GET", "/apis/stable.example.com", "")
		r.status(t, 404, "NotFound")
	})
}

func TestHandler_OpenAPI(t *testing.T) {
	ts, _ := crServer(t)
	r := ts.do(t, "GET", "/openapi/v3", "")
	check.Equal(t, 200, r.code)
	entry, ok := get(r.body, "paths", "apis/stable.example.com/v1").(map[string]any)
	check.True(t, ok, string(r.raw))
	url := entry["serverRelativeURL"].(string)
	check.Contains(t, url, "/openapi/v3/apis/stable.example.com/v1?hash=")
	check.True(t, get(r.body, "paths", "apis/apiextensions.k8s.io/v1") != nil)
	r = ts.do(t, "GET", url, "")
	check.Equal(t, 200, r.code)
	patch := get(r.body, "paths", "/apis/stable.example.com/v1/namespaces/{namespace}/crontabs/{name}", "patch").(map[string]any)
	check.Equal(t, map[string]any{"group": "stable.example.com", "version": "v1", "kind": "CronTab"}, patch["x-kubernetes-group-version-kind"])
	found := false
	for _, p := range patch["parameters"].([]any) {
		found = found || p.(map[string]any)["name"] == "fieldValidation"
	}
	check.True(t, found)
	check.True(t, get(r.body, "components", "schemas", "com.example.stable.v1.CronTab") != nil)
	// apiVersion, kind and metadata are added to the CRD's schema, as
	// upstream does, so that kubectl explain lists them.
	props := get(r.body, "components", "schemas", "com.example.stable.v1.CronTab", "properties").(map[string]any)
	check.Equal(t, "string", get(props, "apiVersion", "type"))
	check.Equal(t, "string", get(props, "kind", "type"))
	check.Equal(t, []any{map[string]any{"$ref": "#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta"}}, get(props, "metadata", "allOf"))
	check.True(t, get(props, "spec", "properties", "cronSpec") != nil)
	check.Equal(t, "object", get(r.body, "components", "schemas", "io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta", "properties", "labels", "type"))
	check.Equal(t, "date-time", get(r.body, "components", "schemas", "io.k8s.apimachinery.pkg.apis.meta.v1.Time", "format"))
	r = ts.do(t, "GET", "/openapi/v3/apis/nope.example.com/v1", "")
	r.status(t, 404, "NotFound")
	r = ts.do(t, "GET", "/openapi/v2", "")
	check.Equal(t, 404, r.code)
}
