package handler_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/crdlab/crdlab/apis/apiextensions/helpers"
	apiextensionsv1 "github.com/crdlab/crdlab/apis/apiextensions/v1"
	metav1 "github.com/crdlab/crdlab/apis/meta/v1"
	"github.com/crdlab/crdlab/handler"
	"github.com/crdlab/crdlab/handler/internal/check"
	"github.com/crdlab/crdlab/scheme"
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
	ts, db := newCRTestServer(t)
	check.Equal(t, 201, ts.do(t, "POST", crdPath, crontabCRD).code)
	r := ts.do(t, "PATCH", crdPath+"/crontabs.stable.example.com/status", establishedStatus, "Content-Type", "application/merge-patch+json")
	check.Equal(t, 200, r.code, string(r.raw))
	ts.h.CRDs().OnAdd(decodeCRD(t, r.raw))
	return ts, db
}

// newCRTestServer is a test server that can serve custom resources (in
// memory; *db is the storage of the last CRD served).
func newCRTestServer(t *testing.T) (*testServer, **memCRDB) {
	t.Helper()
	db := new(*memCRDB)
	ts := newTestServer(t, func(c *handler.Config) {
		c.CustomResourceStorage = func(crd *apiextensionsv1.CustomResourceDefinition, validate handler.CustomResourceValidator) (*handler.CustomResourceStorage, error) {
			st, d := newMemCRStorage(crd, validate)
			*db = d
			return st, nil
		}
		c.SchemaFor = func(*apiextensionsv1.CustomResourceDefinition, string) (handler.Schema, error) {
			return testSchema{}, nil
		}
	})
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
		check.Equal(t, `CronTab in version "v1" cannot be handled as a CronTab: strict decoding error: unknown field "spec.foo"`, r.body["message"])
	})
	// Issue 18: upstream refuses strictly before it validates.
	t.Run("ErrStrictBeforeSchema", func(t *testing.T) {
		r := ts.do(t, "POST", ctPath+"?fieldValidation=Strict", crontab("d", `,"foo":1,"cronSpec":7`))
		r.status(t, 400, "BadRequest")
		check.Equal(t, `CronTab in version "v1" cannot be handled as a CronTab: strict decoding error: unknown field "spec.foo"`, r.body["message"])
	})
	t.Run("WarnUnknownFieldPruned", func(t *testing.T) {
		r := ts.do(t, "POST", ctPath, crontab("d", `,"foo":1`))
		check.Equal(t, 201, r.code)
		check.Equal(t, `299 - "unknown field \"spec.foo\""`, r.header.Get("Warning"))
		check.Equal(t, nil, get(r.body, "spec", "foo"))
	})
	// metadata holds only ObjectMeta's fields, as upstream decodes it
	// into an ObjectMeta: another is unknown, as an unknown spec field.
	t.Run("ErrStrictUnknownMetadataField", func(t *testing.T) {
		b := strings.Replace(crontab("m", `,"foo":1`), `"name":"m"`, `"name":"m","junk":1`, 1)
		r := ts.do(t, "POST", ctPath+"?fieldValidation=Strict", b)
		r.status(t, 400, "BadRequest")
		check.Equal(t, `CronTab in version "v1" cannot be handled as a CronTab: strict decoding error: unknown field "metadata.junk", unknown field "spec.foo"`, r.body["message"])
	})
	t.Run("WarnUnknownMetadataFieldPruned", func(t *testing.T) {
		r := ts.do(t, "POST", ctPath, strings.Replace(crontab("m", ""), `"name":"m"`, `"name":"m","junk":1`, 1))
		check.Equal(t, 201, r.code, string(r.raw))
		check.Equal(t, `299 - "unknown field \"metadata.junk\""`, r.header.Get("Warning"))
		check.Equal(t, nil, get(r.body, "metadata", "junk"))
	})
	t.Run("ErrStrictDuplicateField", func(t *testing.T) {
		r := ts.do(t, "POST", ctPath+"?fieldValidation=Strict", crontab("dup", `,"replicas":2,"foo":1`))
		r.status(t, 400, "BadRequest")
		check.Equal(t, `CronTab in version "v1" cannot be handled as a CronTab: strict decoding error: duplicate field "spec.replicas", unknown field "spec.foo"`, r.body["message"])
		ts.do(t, "GET", ctPath+"/dup", "").status(t, 404, "NotFound")
	})
	t.Run("WarnDuplicateFieldLastWins", func(t *testing.T) {
		r := ts.do(t, "POST", ctPath, crontab("dup", `,"replicas":2`))
		check.Equal(t, 201, r.code, string(r.raw))
		check.Equal(t, `299 - "duplicate field \"spec.replicas\""`, r.header.Get("Warning"))
		check.Equal(t, float64(2), get(r.body, "spec", "replicas"))
		r = ts.do(t, "PUT", ctPath+"/dup?fieldValidation=Ignore", crontab("dup", `,"replicas":3`))
		check.Equal(t, 200, r.code, string(r.raw))
		check.Equal(t, "", r.header.Get("Warning"))
		check.Equal(t, float64(3), get(r.body, "spec", "replicas"))
	})
	t.Run("ErrNamespaceMismatch", func(t *testing.T) {
		b := strings.Replace(crontab("e", ""), `"name":"e"`, `"name":"e","namespace":"other"`, 1)
		r := ts.do(t, "POST", ctPath, b)
		r.status(t, 400, "BadRequest")
		check.Equal(t, "the namespace of the provided object does not match the namespace sent on the request", r.body["message"])
	})
	// Issue 18: another kind is a 422 on kind (upstream's
	// ValidateTypeMeta); another apiVersion stays a 400.
	t.Run("ErrWrongKind", func(t *testing.T) {
		r := ts.do(t, "POST", ctPath, strings.Replace(crontab("e", ""), `"CronTab"`, `"Other"`, 1))
		r.status(t, 422, "Invalid")
		check.Equal(t, `CronTab.stable.example.com "e" is invalid: kind: Invalid value: "Other": must be CronTab`, r.body["message"])
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
		// Upstream's crdHandler: custom resources have no Go type to take
		// patch metadata from, so its 415 lists the other types.
		r := ts.do(t, "PATCH", ctPath+"/a", `{}`, "Content-Type", "application/strategic-merge-patch+json")
		r.status(t, 415, "UnsupportedMediaType")
		check.Equal(t, "the body of the request was in an unknown format - accepted media types include: "+
			"application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml", r.body["message"])
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
		// Gone at once: a Status naming it (and its uid), as upstream's
		// generic store answers, not the object.
		r := ts.do(t, "DELETE", ctPath+"/a", "")
		check.Equal(t, 200, r.code, string(r.raw))
		check.Equal(t, "Status", r.body["kind"])
		check.Equal(t, "Success", r.body["status"])
		details, _ := r.body["details"].(map[string]any)
		check.Equal(t, "a", details["name"])
		check.Equal(t, "crontabs", details["kind"])
		check.Equal(t, "stable.example.com", details["group"])
		uid, _ := details["uid"].(string)
		check.NotEmpty(t, uid)
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

// TestCRDHandler_Hooks checks what the hooks decide: what is served. They
// do not touch discovery or OpenAPI (TestHandler_DiscoveryAndOpenAPI).
func TestCRDHandler_Hooks(t *testing.T) {
	ts, db := crServer(t)
	t.Run("NoDiscovery", func(t *testing.T) {
		check.Equal(t, 200, ts.do(t, "GET", ctPath, "").code)
		r := ts.do(t, "GET", "/apis/stable.example.com/v1", "")
		r.status(t, 404, "NotFound")
		r = ts.do(t, "GET", "/openapi/v3/apis/stable.example.com/v1", "")
		r.status(t, 404, "NotFound")
	})
	t.Run("NotEstablishedFallsThrough", func(t *testing.T) {
		crd, ok := ts.h.CRDs().Get("crontabs.stable.example.com")
		check.True(t, ok)
		crd.Status.Conditions = nil
		ts.h.CRDs().OnUpdate(crd)
		r := ts.do(t, "GET", ctPath, "")
		r.status(t, 404, "NotFound")
	})
	t.Run("SpecChangeRebuilds", func(t *testing.T) {
		r := ts.do(t, "GET", crdPath+"/crontabs.stable.example.com", "")
		crd := decodeCRD(t, r.raw)
		ts.h.CRDs().OnUpdate(crd)
		check.Equal(t, 200, ts.do(t, "GET", ctPath, "").code)
		first := *db
		crd = crd.DeepCopy() // the hook keeps what it is given: change a copy
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
		r.status(t, 403, "Forbidden")
		check.Equal(t, `crontabs.stable.example.com "z" is forbidden: create not allowed while custom resource definition is terminating`, r.body["message"])
		// Only creates: reads, updates and deletes go on (the finalizer
		// deletes the instances), and a bad body is still a 400.
		check.Equal(t, 200, ts.do(t, "GET", ctPath, "").code)
		r = ts.do(t, "POST", ctPath, `{"apiVersion":"stable.example.com/v9","kind":"CronTab"}`)
		r.status(t, 400, "BadRequest")
	})
	t.Run("TerminatingByDeletionTimestamp", func(t *testing.T) {
		crd, _ := ts.h.CRDs().Get("crontabs.stable.example.com")
		crd.Status.Conditions = crd.Status.Conditions[:len(crd.Status.Conditions)-1] // no Terminating condition yet
		now := metav1.Now()
		crd.DeletionTimestamp = &now
		ts.h.CRDs().OnUpdate(crd)
		r := ts.do(t, "POST", ctPath, `{"apiVersion":"stable.example.com/v1","kind":"CronTab","metadata":{"generateName":"z-"}}`)
		r.status(t, 403, "Forbidden")
		check.Equal(t, `crontabs.stable.example.com is forbidden: create not allowed while custom resource definition is terminating`, r.body["message"])
	})
	t.Run("Delete", func(t *testing.T) {
		crd, _ := ts.h.CRDs().Get("crontabs.stable.example.com")
		ts.h.CRDs().OnDelete(crd)
		_, ok := ts.h.CRDs().Get("crontabs.stable.example.com")
		check.False(t, ok)
		r := ts.do(t, "GET", ctPath, "")
		r.status(t, 404, "NotFound")
	})
}

// queued records the CRDs the crdHandler hands its Establisher.
type queued struct {
	mu    sync.Mutex
	names []string
}

func (q *queued) QueueCRD(name string) {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.names = append(q.names, name)
}

func (q *queued) get() []string {
	q.mu.Lock()
	defer q.mu.Unlock()
	return append([]string(nil), q.names...)
}

// TestCRDHandler_Establisher checks the hand-off of upstream's
// updateCustomResourceDefinition: a CRD whose names are accepted but that
// is not Established yet goes to the Establisher, on add and on update;
// no other does.
func TestCRDHandler_Establisher(t *testing.T) {
	ts, _ := newCRTestServer(t)
	q := &queued{}
	ts.h.CRDs().SetEstablisher(q)
	crd := decodeCRD(t, []byte(crdJSON("crontabs.stable.example.com", "stable.example.com", "crontabs", "CronTab")))
	cond := func(typ apiextensionsv1.CustomResourceDefinitionConditionType) apiextensionsv1.CustomResourceDefinitionCondition {
		return apiextensionsv1.CustomResourceDefinitionCondition{Type: typ, Status: apiextensionsv1.ConditionTrue}
	}
	t.Run("NamesNotAccepted", func(t *testing.T) {
		ts.h.CRDs().OnAdd(crd)
		check.Len(t, q.get(), 0)
	})
	t.Run("NamesAcceptedOnUpdate", func(t *testing.T) {
		crd = crd.DeepCopy() // the hook keeps what it is given: change a copy
		crd.Status.Conditions = []apiextensionsv1.CustomResourceDefinitionCondition{cond(apiextensionsv1.NamesAccepted)}
		ts.h.CRDs().OnUpdate(crd)
		check.Equal(t, []string{"crontabs.stable.example.com"}, q.get())
	})
	t.Run("NamesAcceptedOnAdd", func(t *testing.T) {
		other := crd.DeepCopy()
		other.Name = "others.stable.example.com"
		ts.h.CRDs().OnAdd(other)
		check.Equal(t, []string{"crontabs.stable.example.com", "others.stable.example.com"}, q.get())
	})
	t.Run("Established", func(t *testing.T) {
		crd = crd.DeepCopy()
		crd.Status.Conditions = append(crd.Status.Conditions, cond(apiextensionsv1.Established))
		ts.h.CRDs().OnUpdate(crd)
		check.Len(t, q.get(), 2)
	})
}

const aggregatedDiscovery = "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json"

// discoveryVerbs returns the verbs /apis/stable.example.com/v1 lists for
// crontabs, or nil if the document is not there.
func discoveryVerbs(t *testing.T, ts *testServer) []any {
	t.Helper()
	r := ts.do(t, "GET", "/apis/stable.example.com/v1", "")
	if r.code != 200 {
		return nil
	}
	res, _ := r.body["resources"].([]any)
	if len(res) == 0 {
		return nil
	}
	verbs, _ := res[0].(map[string]any)["verbs"].([]any)
	return verbs
}

// TestHandler_DiscoveryAndOpenAPI drives a CRD through its states over the
// API, with the controllers the server runs (startControllers): discovery
// and OpenAPI list it once it is Established, discovery keeps only the
// verbs that still work while it is Terminating, and both forget it once it
// is deleted.
func TestHandler_DiscoveryAndOpenAPI(t *testing.T) {
	ts, _ := newCRTestServer(t)
	startControllers(t, ts)
	const name = "crontabs.stable.example.com"

	t.Run("NotEstablished", func(t *testing.T) {
		check.Equal(t, 201, ts.do(t, "POST", crdPath, crontabCRD).code)
		eventually(t, "the hook sees the CRD", func() bool { _, ok := ts.h.CRDs().Get(name); return ok })
		r := ts.do(t, "GET", "/apis/stable.example.com/v1", "")
		r.status(t, 404, "NotFound")
		r = ts.do(t, "GET", "/openapi/v3/apis/stable.example.com/v1", "")
		r.status(t, 404, "NotFound")
	})

	t.Run("Established", func(t *testing.T) {
		ts.patchCRDStatus(t, name, establishedStatus)
		eventually(t, "discovery lists crontabs", func() bool { return discoveryVerbs(t, ts) != nil })
		r := ts.do(t, "GET", "/apis/stable.example.com/v1", "")
		res := r.body["resources"].([]any)
		check.Len(t, res, 2)
		check.Equal(t, "crontabs", res[0].(map[string]any)["name"])
		check.Equal(t, []any{"all"}, res[0].(map[string]any)["categories"])
		check.Equal(t, []any{"delete", "deletecollection", "get", "list", "patch", "create", "update", "watch"}, res[0].(map[string]any)["verbs"])
		check.Equal(t, "crontabs/status", res[1].(map[string]any)["name"])
		eventually(t, "aggregated discovery lists both served versions", func() bool {
			r := ts.do(t, "GET", "/apis", "", "Accept", aggregatedDiscovery)
			items, _ := r.body["items"].([]any)
			return len(items) == 2 && len(items[1].(map[string]any)["versions"].([]any)) == 2
		})
		r = ts.do(t, "GET", "/apis", "", "Accept", aggregatedDiscovery)
		items := r.body["items"].([]any)
		check.Equal(t, "stable.example.com", get(items[1].(map[string]any), "metadata", "name"))
		check.Equal(t, "v2", items[1].(map[string]any)["versions"].([]any)[0].(map[string]any)["version"])

		eventually(t, "OpenAPI documents both served versions", func() bool {
			r := ts.do(t, "GET", "/openapi/v3", "")
			return get(r.body, "paths", "apis/stable.example.com/v1") != nil && get(r.body, "paths", "apis/stable.example.com/v2") != nil
		})
		r = ts.do(t, "GET", "/openapi/v3", "")
		check.True(t, get(r.body, "paths", "apis/stable.example.com/v3") == nil, "v3 is not served")
	})

	t.Run("Terminating", func(t *testing.T) {
		ts.patchCRDStatus(t, name, `{"status":{"conditions":[
 {"type":"NamesAccepted","status":"True","reason":"NoConflicts","message":"no conflicts found"},
 {"type":"Established","status":"True","reason":"InitialNamesAccepted","message":"the initial names have been accepted"},
 {"type":"Terminating","status":"True","reason":"InstanceDeletionInProgress","message":"CustomResource deletion is in progress"}]}}`)
		eventually(t, "discovery drops create, update and patch", func() bool {
			v := discoveryVerbs(t, ts)
			return len(v) == 5
		})
		check.Equal(t, []any{"delete", "deletecollection", "get", "list", "watch"}, discoveryVerbs(t, ts))
		// The crdHandler's hook is another handler of the same informer:
		// it may see the update after the discovery controller does.
		eventually(t, "the hook sees Terminating", func() bool {
			crd, _ := ts.h.CRDs().Get(name)
			return helpers.IsCRDConditionTrue(crd, apiextensionsv1.Terminating)
		})
		r := ts.do(t, "POST", ctPath, crontab("z", ""))
		r.status(t, 403, "Forbidden")
	})

	t.Run("Deleted", func(t *testing.T) {
		check.Equal(t, 200, ts.do(t, "DELETE", crdPath+"/"+name, "").code)
		eventually(t, "discovery forgets the group", func() bool {
			return ts.do(t, "GET", "/apis/stable.example.com", "").code == 404
		})
		eventually(t, "OpenAPI forgets the group", func() bool {
			return ts.do(t, "GET", "/openapi/v3/apis/stable.example.com/v1", "").code == 404
		})
		r := ts.do(t, "GET", "/openapi/v3", "")
		check.True(t, get(r.body, "paths", "apis/stable.example.com/v2") == nil, string(r.raw))
		r = ts.do(t, "GET", ctPath, "")
		r.status(t, 404, "NotFound")
	})
}

// TestHandler_OpenAPI checks the documents UpdateGroupVersion makes, as
// the OpenAPI controller calls it.
func TestHandler_OpenAPI(t *testing.T) {
	ts, _ := crServer(t)
	crd, ok := ts.h.CRDs().Get("crontabs.stable.example.com")
	check.True(t, ok)
	v1 := scheme.GroupVersion{Group: "stable.example.com", Version: "v1"}
	ts.h.UpdateGroupVersion(v1, []*apiextensionsv1.CustomResourceDefinition{crd})

	r := ts.do(t, "GET", "/openapi/v3", "")
	check.Equal(t, 200, r.code)
	entry, ok := get(r.body, "paths", "apis/stable.example.com/v1").(map[string]any)
	check.True(t, ok, string(r.raw))
	check.True(t, get(r.body, "paths", "apis/stable.example.com/v2") == nil, "only the group versions handed over")
	url := entry["serverRelativeURL"].(string)
	check.Contains(t, url, "/openapi/v3/apis/stable.example.com/v1?hash=")
	check.True(t, get(r.body, "paths", "apis/apiextensions.k8s.io/v1") != nil)
	r = ts.do(t, "GET", url, "")
	check.Equal(t, 200, r.code)
	check.Equal(t, "public, immutable", r.header.Get("Cache-Control"))
	etag := r.header.Get("ETag")
	check.Equal(t, 304, ts.do(t, "GET", url, "", "If-None-Match", etag).code)

	patch := get(r.body, "paths", "/apis/stable.example.com/v1/namespaces/{namespace}/crontabs/{name}", "patch").(map[string]any)
	check.Equal(t, map[string]any{"group": "stable.example.com", "version": "v1", "kind": "CronTab"}, patch["x-kubernetes-group-version-kind"])
	found := false
	for _, p := range patch["parameters"].([]any) {
		found = found || p.(map[string]any)["name"] == "fieldValidation"
	}
	check.True(t, found)
	check.True(t, get(r.body, "paths", "/apis/stable.example.com/v1/namespaces/{namespace}/crontabs/{name}/status") != nil)
	check.True(t, get(r.body, "components", "schemas", "com.example.stable.v1.CronTab") != nil)
	check.True(t, get(r.body, "components", "schemas", "com.example.stable.v1.CronTabList") != nil)
	// apiVersion, kind and metadata are added to the CRD's schema, as
	// upstream does, so that kubectl explain lists them.
	props := get(r.body, "components", "schemas", "com.example.stable.v1.CronTab", "properties").(map[string]any)
	check.Equal(t, "string", get(props, "apiVersion", "type"))
	check.Equal(t, "string", get(props, "kind", "type"))
	check.Equal(t, []any{map[string]any{"$ref": "#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta"}}, get(props, "metadata", "allOf"))
	check.True(t, get(props, "spec", "properties", "cronSpec") != nil)
	check.Equal(t, "object", get(r.body, "components", "schemas", "io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta", "properties", "labels", "type"))
	check.Equal(t, "date-time", get(r.body, "components", "schemas", "io.k8s.apimachinery.pkg.apis.meta.v1.Time", "format"))

	t.Run("Encodings", func(t *testing.T) {
		// The document is kept compressed: gzip to a client that takes
		// it, plain JSON to one that does not.
		plain := ts.do(t, "GET", url, "", "Accept-Encoding", "identity")
		check.Equal(t, 200, plain.code)
		check.Equal(t, "", plain.header.Get("Content-Encoding"))
		check.True(t, get(plain.body, "components", "schemas", "com.example.stable.v1.CronTab") != nil, string(plain.raw))
		gz := ts.do(t, "GET", url, "", "Accept-Encoding", "br, gzip;q=0.5")
		check.Equal(t, 200, gz.code)
		check.Equal(t, "gzip", gz.header.Get("Content-Encoding"))
		zr, err := gzip.NewReader(bytes.NewReader(gz.raw))
		check.NoError(t, err)
		unzipped, err := io.ReadAll(zr)
		check.NoError(t, err)
		check.Equal(t, string(plain.raw), string(unzipped))
		check.Equal(t, "", ts.do(t, "GET", url, "", "Accept-Encoding", "gzip;q=0").header.Get("Content-Encoding"))
		check.Equal(t, string(plain.raw), string(ts.do(t, "GET", url, "", "Accept-Encoding", "identity").raw))
	})
	t.Run("StatusChangeKeepsDocument", func(t *testing.T) {
		// The OpenAPI controller hands over a group's CRDs on every change
		// of one; a condition changes nothing the document says.
		builds := handler.OpenAPIBuilds(ts.h)
		raw, err := json.Marshal(crd)
		check.NoError(t, err)
		changed := decodeCRD(t, raw) // a new object, as the informer's
		changed.ResourceVersion += "1"
		changed.Status.StoredVersions = append(changed.Status.StoredVersions, "v2")
		ts.h.UpdateGroupVersion(v1, []*apiextensionsv1.CustomResourceDefinition{changed})
		r := ts.do(t, "GET", "/openapi/v3", "")
		check.Equal(t, url, get(r.body, "paths", "apis/stable.example.com/v1", "serverRelativeURL"))
		check.Equal(t, 200, ts.do(t, "GET", url, "").code)
		check.Equal(t, builds, handler.OpenAPIBuilds(ts.h))
	})
	t.Run("ChangeNewHash", func(t *testing.T) {
		changed := crd.DeepCopy()
		changed.Spec.Versions[0].Schema.OpenAPIV3Schema.Description = "changed"
		ts.h.UpdateGroupVersion(v1, []*apiextensionsv1.CustomResourceDefinition{changed})
		r := ts.do(t, "GET", "/openapi/v3", "")
		check.NotEqual(t, url, get(r.body, "paths", "apis/stable.example.com/v1", "serverRelativeURL"))
		r = ts.do(t, "GET", url, "")
		check.Equal(t, "", r.header.Get("Cache-Control"))
		check.Equal(t, "changed", get(r.body, "components", "schemas", "com.example.stable.v1.CronTab", "description"))
	})
	t.Run("ErrNotFound", func(t *testing.T) {
		ts.h.UpdateGroupVersion(v1, nil)
		r := ts.do(t, "GET", "/openapi/v3/apis/stable.example.com/v1", "")
		r.status(t, 404, "NotFound")
		r = ts.do(t, "GET", "/openapi/v3/apis/nope.example.com/v1", "")
		r.status(t, 404, "NotFound")
	})
	t.Run("BuiltInGroupUntouched", func(t *testing.T) {
		ts.h.UpdateGroupVersion(scheme.GroupVersion{Group: "apiextensions.k8s.io", Version: "v1"}, nil)
		check.Equal(t, 200, ts.do(t, "GET", "/openapi/v3/apis/apiextensions.k8s.io/v1", "").code)
	})
}

// TestHandler_OpenAPI_CRDKind checks the schema of the
// CustomResourceDefinition kind itself, which `kubectl explain crd.spec`
// reads: real fields, with descriptions, through $refs.
func TestHandler_OpenAPI_CRDKind(t *testing.T) {
	ts := newTestServer(t)
	for _, version := range []string{"v1", "v1beta1"} {
		t.Run(version, func(t *testing.T) {
			r := ts.do(t, "GET", "/openapi/v3/apis/apiextensions.k8s.io/"+version, "")
			check.Equal(t, 200, r.code, string(r.raw))
			schemas := get(r.body, "components", "schemas").(map[string]any)
			// The kind's schema is the one tagged with its GVK.
			var crd map[string]any
			for _, s := range schemas {
				gvks, _ := get(s.(map[string]any), "x-kubernetes-group-version-kind").([]any)
				for _, g := range gvks {
					if g.(map[string]any)["kind"] == "CustomResourceDefinition" && g.(map[string]any)["version"] == version {
						crd = s.(map[string]any)
					}
				}
			}
			check.True(t, crd != nil, "no schema tagged apiextensions.k8s.io/"+version+" CustomResourceDefinition")
			resolve := func(s any) map[string]any {
				m := s.(map[string]any)
				if all, ok := m["allOf"].([]any); ok {
					m = all[0].(map[string]any)
				}
				if ref, ok := m["$ref"].(string); ok {
					return schemas[strings.TrimPrefix(ref, "#/components/schemas/")].(map[string]any)
				}
				return m
			}
			props := crd["properties"].(map[string]any)
			for _, f := range []string{"apiVersion", "kind", "metadata", "spec", "status"} {
				check.True(t, props[f] != nil, f)
			}
			check.Equal(t, []any{"spec"}, crd["required"])
			spec := resolve(props["spec"])
			names := resolve(get(spec, "properties", "names"))
			check.Equal(t, "string", get(names, "properties", "plural", "type"))
			check.Equal(t, "array", get(names, "properties", "shortNames", "type"))
			versions := get(spec, "properties", "versions")
			if versions == nil { // v1beta1 has spec.version and spec.versions
				versions = get(spec, "properties", "version")
			}
			check.True(t, versions != nil)
			if version == "v1" {
				check.Contains(t, crd["description"].(string), "CustomResourceDefinition represents a resource")
				check.Contains(t, get(props, "spec", "description").(string), "spec describes how the user wants the resources to appear")
				check.Contains(t, get(spec, "properties", "group", "description").(string), "group is the API group of the defined custom resource")
				check.Contains(t, get(spec, "properties", "names", "description").(string), "names specify the resource and kind names")
				check.Contains(t, get(names, "properties", "plural", "description").(string), "plural is the plural name of the resource to serve")
				check.Equal(t, []any{"group", "names", "scope", "versions"}, spec["required"])
				// A version's schema is JSONSchemaProps, which refers to itself.
				version := resolve(get(spec, "properties", "versions", "items"))
				schema := resolve(get(resolve(get(version, "properties", "schema")), "properties", "openAPIV3Schema"))
				check.True(t, get(resolve(get(schema, "properties", "properties", "additionalProperties")), "properties", "x-kubernetes-preserve-unknown-fields") != nil)
				check.Equal(t, "date-time", get(resolve(get(resolve(get(resolve(get(props, "status")), "properties", "conditions", "items")), "properties", "lastTransitionTime")), "format"))
			}
			// The paths kubectl needs for --validate=strict.
			patch := get(r.body, "paths", "/apis/apiextensions.k8s.io/"+version+"/customresourcedefinitions/{name}", "patch")
			check.True(t, patch != nil)
		})
	}
}

// TestHandler_UpdateGroupVersion_Concurrent runs the OpenAPI controller's
// updates alongside requests for the documents (run with -race).
func TestHandler_UpdateGroupVersion_Concurrent(t *testing.T) {
	ts, _ := crServer(t)
	crd, _ := ts.h.CRDs().Get("crontabs.stable.example.com")
	v1 := scheme.GroupVersion{Group: "stable.example.com", Version: "v1"}
	var wg sync.WaitGroup
	wg.Go(func() {
		for i := range 50 {
			if i%5 == 4 {
				ts.h.UpdateGroupVersion(v1, nil)
				continue
			}
			c := crd.DeepCopy()
			c.Spec.Versions[0].Schema.OpenAPIV3Schema.Description = strconv.Itoa(i)
			ts.h.UpdateGroupVersion(v1, []*apiextensionsv1.CustomResourceDefinition{c})
		}
	})
	// Not ts.do: it may call t.Fatal, which only the test's goroutine may.
	code := func(path string) int {
		resp, err := http.Get(ts.URL + path)
		if err != nil {
			t.Error(err)
			return 0
		}
		defer resp.Body.Close()
		_, _ = io.Copy(io.Discard, resp.Body)
		return resp.StatusCode
	}
	for range 2 {
		wg.Go(func() {
			for range 25 {
				if c := code("/openapi/v3"); c != 200 {
					t.Errorf("root: %d", c)
				}
				if c := code("/openapi/v3/apis/stable.example.com/v1"); c != 200 && c != 404 {
					t.Errorf("document: %d", c)
				}
			}
		})
	}
	wg.Wait()
	ts.h.UpdateGroupVersion(v1, []*apiextensionsv1.CustomResourceDefinition{crd})
	check.Equal(t, 200, ts.do(t, "GET", "/openapi/v3/apis/stable.example.com/v1", "").code)
}
