package apiserver

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/crdlab/crdlab/apis/core"
	apierrors "github.com/crdlab/crdlab/apis/errors"
)

// doJSON sends method to the server and decodes the JSON answer (send,
// from apply_test.go, answered as a status code and a body).
func doJSON(t *testing.T, method, url, contentType, body string, headers ...string) (int, map[string]any) {
	t.Helper()
	a := send(t, method, url, contentType, body, headers...)
	if a.body == nil {
		a.body = map[string]any{"raw": a.raw}
	}
	return a.code, a.body
}

func readyServer(t *testing.T, cfg Config) *testServer {
	t.Helper()
	ts := startServer(t, cfg)
	eventually(t, "ready", func() bool { code, _ := get(t, ts.url+"/readyz"); return code == 200 })
	return ts
}

func nested(obj map[string]any, path ...string) any {
	var v any = obj
	for _, p := range path {
		m, ok := v.(map[string]any)
		if !ok {
			return nil
		}
		v = m[p]
	}
	return v
}

// The chain: a request the kube-apiserver link serves, one it hands to
// the apiextensions link, and one nobody serves.
func TestChain_Delegation(t *testing.T) {
	ts := readyServer(t, Config{})
	t.Run("KubeLink", func(t *testing.T) {
		code, body := doJSON(t, "GET", ts.url+"/api/v1/namespaces/default", "", "")
		if code != 200 || nested(body, "status", "phase") != "Active" {
			t.Errorf("%d %v", code, body)
		}
	})
	t.Run("ApiextensionsLink", func(t *testing.T) {
		if code, body := doJSON(t, "GET", ts.url+"/apis/apiextensions.k8s.io/v1/customresourcedefinitions", "", ""); code != 200 {
			t.Errorf("%d %v", code, body)
		}
	})
	t.Run("ErrUnknownCoreResource", func(t *testing.T) {
		code, body := doJSON(t, "GET", ts.url+"/api/v1/namespaces/default/pods", "", "")
		msg, _ := body["message"].(string)
		if code != 404 || !strings.Contains(msg, "crdlab serves only configmaps, events, namespaces, secrets in /api/v1") || !strings.Contains(msg, `"pods"`) {
			t.Errorf("%d %q", code, msg)
		}
	})
	t.Run("ErrUpstreamGroup", func(t *testing.T) {
		code, body := doJSON(t, "GET", ts.url+"/apis/apps/v1/namespaces/default/deployments", "", "")
		msg, _ := body["message"].(string)
		if code != 404 || !strings.Contains(msg, "not supported: the apps API group") || !strings.Contains(msg, "apis/coordination.k8s.io/v1: leases") {
			t.Errorf("%d %q", code, msg)
		}
	})
	t.Run("ErrUnknownGroup", func(t *testing.T) {
		code, body := doJSON(t, "GET", ts.url+"/apis/nope.example.com/v1/things", "", "")
		if code != 404 || body["message"] != "the server could not find the requested resource" {
			t.Errorf("%d %v", code, body)
		}
	})
}

func TestChain_Discovery(t *testing.T) {
	ts := readyServer(t, Config{})
	code, body := doJSON(t, "GET", ts.url+"/api", "", "")
	if code != 200 || body["kind"] != "APIVersions" {
		t.Errorf("/api: %d %v", code, body)
	}
	code, body = doJSON(t, "GET", ts.url+"/api/v1", "", "")
	raw, _ := json.Marshal(body)
	for _, want := range []string{`"name":"namespaces/finalize"`, `"name":"secrets"`, `"shortNames":["cm"]`} {
		if code != 200 || !bytes.Contains(raw, []byte(want)) {
			t.Errorf("/api/v1 lacks %s: %s", want, raw)
		}
	}
	_, body = doJSON(t, "GET", ts.url+"/apis", "", "")
	var groups []string
	for _, g := range body["groups"].([]any) {
		groups = append(groups, g.(map[string]any)["name"].(string))
	}
	if got := strings.Join(groups, ","); got != "events.k8s.io,authentication.k8s.io,authorization.k8s.io,apiextensions.k8s.io,coordination.k8s.io" {
		t.Errorf("/apis groups = %s", got)
	}
}

func TestChain_Secrets(t *testing.T) {
	ts := readyServer(t, Config{})
	base := ts.url + "/api/v1/namespaces/default/secrets"
	code, body := doJSON(t, "POST", base, "application/json",
		`{"apiVersion":"v1","kind":"Secret","metadata":{"name":"s","labels":{"owner":"helm"}},"stringData":{"password":"hunter2"},"data":{"user":"YWxpY2U="}}`)
	if code != 201 || nested(body, "data", "password") != "aHVudGVyMg==" || nested(body, "type") != "Opaque" || body["stringData"] != nil {
		t.Fatalf("create: %d %v", code, body)
	}
	t.Run("ErrTypeImmutable", func(t *testing.T) {
		code, body := doJSON(t, "PATCH", base+"/s", "application/merge-patch+json", `{"type":"kubernetes.io/basic-auth"}`)
		if code != 422 || !strings.Contains(body["message"].(string), "field is immutable") {
			t.Errorf("%d %v", code, body)
		}
	})
	t.Run("ErrTooLarge", func(t *testing.T) {
		big := strings.Repeat("x", 1<<20+1)
		code, body := doJSON(t, "POST", base, "application/json", `{"apiVersion":"v1","kind":"Secret","metadata":{"name":"big"},"stringData":{"a":"`+big+`"}}`)
		if code != 422 || !strings.Contains(body["message"].(string), "Too long") {
			t.Errorf("%d %v", code, body["message"])
		}
	})
	t.Run("LabelSelector", func(t *testing.T) {
		code, body := doJSON(t, "GET", base+"?labelSelector=owner%3Dhelm", "", "")
		if items, _ := body["items"].([]any); code != 200 || len(items) != 1 {
			t.Errorf("%d %v", code, body)
		}
	})
	t.Run("Table", func(t *testing.T) {
		code, body := doJSON(t, "GET", base, "", "", "Accept", "application/json;as=Table;v=v1;g=meta.k8s.io")
		raw, _ := json.Marshal(body)
		if code != 200 || !bytes.Contains(raw, []byte(`"cells":["s","Opaque",2,`)) {
			t.Errorf("%d %s", code, raw)
		}
	})
}

// Namespaces: the system ones exist; default may not be deleted; a
// deleted namespace is Terminating (no new objects) until /finalize
// clears its finalizer; objects need an existing namespace — custom
// resources too. The namespace controller is off, so that this test does
// the /finalize itself (TestNamespaceDeletion runs the controller).
func TestChain_NamespaceLifecycle(t *testing.T) {
	ts := readyServer(t, Config{Controllers: []string{"*", "-" + NamespaceControllerName}})
	for _, ns := range []string{"default", "kube-system", "kube-public", "kube-node-lease"} {
		if code, _ := doJSON(t, "GET", ts.url+"/api/v1/namespaces/"+ns, "", ""); code != 200 {
			t.Errorf("namespace %s: %d", ns, code)
		}
	}
	if code, body := doJSON(t, "DELETE", ts.url+"/api/v1/namespaces/default", "", ""); code != 403 {
		t.Errorf("delete default: %d %v", code, body)
	}
	if code, body := doJSON(t, "POST", ts.url+"/api/v1/namespaces/missing/configmaps", "application/json",
		`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"c"}}`); code != 404 || body["message"] != `namespaces "missing" not found` {
		t.Errorf("create in missing namespace: %d %v", code, body)
	}
	if code := post(t, ts.url+"/apis/apiextensions.k8s.io/v1/customresourcedefinitions", crdJSON); code != 201 {
		t.Fatal(code)
	}
	eventually(t, "CRD served", func() bool {
		code, _ := get(t, ts.url+"/apis/stable.example.com/v1/crontabs")
		return code == 200
	})
	if code, body := doJSON(t, "POST", ts.url+"/apis/stable.example.com/v1/namespaces/missing/crontabs", "application/json",
		`{"apiVersion":"stable.example.com/v1","kind":"CronTab","metadata":{"name":"c"}}`); code != 404 || body["message"] != `namespaces "missing" not found` {
		t.Errorf("custom resource in missing namespace: %d %v", code, body)
	}

	if code, _ := doJSON(t, "POST", ts.url+"/api/v1/namespaces", "application/json", `{"apiVersion":"v1","kind":"Namespace","metadata":{"name":"team"}}`); code != 201 {
		t.Fatal(code)
	}
	code, body := doJSON(t, "DELETE", ts.url+"/api/v1/namespaces/team", "", "")
	if code != 200 || nested(body, "status", "phase") != "Terminating" || nested(body, "metadata", "deletionTimestamp") == nil {
		t.Fatalf("delete: %d %v", code, body)
	}
	if fin, _ := nested(body, "spec", "finalizers").([]any); len(fin) != 1 || fin[0] != "kubernetes" {
		t.Errorf("spec.finalizers = %v", fin)
	}
	code, body = doJSON(t, "POST", ts.url+"/api/v1/namespaces/team/secrets", "application/json", `{"apiVersion":"v1","kind":"Secret","metadata":{"name":"s"}}`)
	causes, _ := nested(body, "details", "causes").([]any)
	if code != 403 || len(causes) != 1 || causes[0].(map[string]any)["reason"] != "NamespaceTerminating" {
		t.Errorf("create in Terminating: %d %v", code, body)
	}
	// /finalize with no finalizers left: the namespace is gone.
	code, body = doJSON(t, "PUT", ts.url+"/api/v1/namespaces/team/finalize", "application/json",
		`{"apiVersion":"v1","kind":"Namespace","metadata":{"name":"team"},"spec":{"finalizers":[]}}`)
	if code != 200 {
		t.Fatalf("finalize: %d %v", code, body)
	}
	if code, _ := doJSON(t, "GET", ts.url+"/api/v1/namespaces/team", "", ""); code != 404 {
		t.Errorf("after finalize: %d", code)
	}
}

// --namespace-lifecycle=false: any namespace name is accepted, as before
// crdlab served Namespaces.
func TestChain_NamespaceLifecycleOff(t *testing.T) {
	ts := readyServer(t, Config{DisableNamespaceLifecycle: true})
	if code, body := doJSON(t, "POST", ts.url+"/api/v1/namespaces/anything/configmaps", "application/json",
		`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"c"}}`); code != 201 {
		t.Errorf("%d %v", code, body)
	}
}

// NamespaceLifecycle reads namespaces from its informer once the server is
// ready (admission.go): every create used to read its namespace from
// storage.
func TestChain_NamespaceLifecycleCache(t *testing.T) {
	ts := readyServer(t, Config{Controllers: []string{"-" + NamespaceControllerName, "-" + GarbageCollectorControllerName}})
	ctx := context.Background()
	ns, err := ts.chain.namespaces.get(ctx, "default")
	if err != nil || ns.Name != "default" || ns.Status.Phase != core.NamespaceActive {
		t.Fatalf("cache at ready: %+v, %v", ns, err)
	}
	if _, err := ts.chain.namespaces.get(ctx, "team"); !apierrors.IsNotFound(err) {
		t.Fatalf("missing namespace: %v, want NotFound", err)
	}
	if code, _ := doJSON(t, "POST", ts.url+"/api/v1/namespaces", "application/json", `{"apiVersion":"v1","kind":"Namespace","metadata":{"name":"team"}}`); code != 201 {
		t.Fatal(code)
	}
	eventually(t, "the cache has the new namespace", func() bool {
		ns, err := ts.chain.namespaces.get(ctx, "team")
		return err == nil && ns.Status.Phase == core.NamespaceActive
	})
	if code, body := doJSON(t, "DELETE", ts.url+"/api/v1/namespaces/team", "", ""); code != 200 {
		t.Fatalf("delete: %d %v", code, body)
	}
	eventually(t, "the cache has it Terminating", func() bool {
		ns, err := ts.chain.namespaces.get(ctx, "team")
		return err == nil && ns.Status.Phase == core.NamespaceTerminating
	})
}

// One Event, two versions: written through core/v1, read through
// events.k8s.io/v1 (and selected by its field names there).
func TestChain_Events(t *testing.T) {
	ts := readyServer(t, Config{})
	code, body := doJSON(t, "POST", ts.url+"/api/v1/namespaces/default/events", "application/json",
		`{"apiVersion":"v1","kind":"Event","metadata":{"name":"e1"},"involvedObject":{"kind":"ConfigMap","name":"cm","namespace":"default"},
		  "reason":"Changed","message":"it changed","type":"Normal","count":2,"source":{"component":"me"}}`)
	if code != 201 {
		t.Fatalf("%d %v", code, body)
	}
	code, body = doJSON(t, "GET", ts.url+"/apis/events.k8s.io/v1/namespaces/default/events/e1", "", "")
	if code != 200 || body["note"] != "it changed" || nested(body, "regarding", "name") != "cm" || body["deprecatedCount"] != 2.0 {
		t.Errorf("events.k8s.io/v1: %d %v", code, body)
	}
	code, body = doJSON(t, "GET", ts.url+"/apis/events.k8s.io/v1/namespaces/default/events?fieldSelector=regarding.name%3Dcm", "", "")
	if items, _ := body["items"].([]any); code != 200 || len(items) != 1 {
		t.Errorf("field selector: %d %v", code, body)
	}
	if code, _ := doJSON(t, "GET", ts.url+"/apis/events.k8s.io/v1/namespaces/default/events?fieldSelector=involvedObject.name%3Dcm", "", ""); code != 400 {
		t.Errorf("core's field name through events.k8s.io: %d, want 400", code)
	}
}

func TestChain_Leases(t *testing.T) {
	ts := readyServer(t, Config{})
	base := ts.url + "/apis/coordination.k8s.io/v1/namespaces/kube-system/leases"
	code, body := doJSON(t, "POST", base, "application/json",
		`{"apiVersion":"coordination.k8s.io/v1","kind":"Lease","metadata":{"name":"leader"},"spec":{"holderIdentity":"a","leaseDurationSeconds":15,"renewTime":"2026-01-02T03:04:05.000000Z"}}`)
	if code != 201 {
		t.Fatalf("%d %v", code, body)
	}
	rv := nested(body, "metadata", "resourceVersion").(string)
	update := func(holder string) int {
		code, _ := doJSON(t, "PUT", base+"/leader", "application/json",
			`{"apiVersion":"coordination.k8s.io/v1","kind":"Lease","metadata":{"name":"leader","resourceVersion":"`+rv+`"},"spec":{"holderIdentity":"`+holder+`"}}`)
		return code
	}
	if code := update("b"); code != 200 {
		t.Fatalf("first taker: %d", code)
	}
	if code := update("c"); code != 409 {
		t.Errorf("second taker with the same resourceVersion: %d, want 409", code)
	}
}

func TestChain_SelfReviews(t *testing.T) {
	ts := readyServer(t, Config{})
	code, body := doJSON(t, "POST", ts.url+"/apis/authorization.k8s.io/v1/selfsubjectaccessreviews", "application/json",
		`{"apiVersion":"authorization.k8s.io/v1","kind":"SelfSubjectAccessReview","spec":{"resourceAttributes":{"verb":"delete","resource":"secrets","namespace":"default"}}}`)
	if code != 201 || nested(body, "status", "allowed") != true {
		t.Errorf("access review: %d %v", code, body)
	}
	code, body = doJSON(t, "POST", ts.url+"/apis/authentication.k8s.io/v1/selfsubjectreviews", "application/json",
		`{"apiVersion":"authentication.k8s.io/v1","kind":"SelfSubjectReview"}`)
	if code != 201 || nested(body, "status", "userInfo", "username") != "system:anonymous" {
		t.Errorf("whoami: %d %v", code, body)
	}
	if code, _ := doJSON(t, "GET", ts.url+"/apis/authorization.k8s.io/v1/selfsubjectaccessreviews", "", ""); code != 405 {
		t.Errorf("list of reviews: %d, want 405", code)
	}
}

func TestChain_OpenAPI(t *testing.T) {
	ts := readyServer(t, Config{})
	code, body := doJSON(t, "GET", ts.url+"/openapi/v3", "", "")
	if code != 200 || nested(body, "paths", "api/v1") == nil || nested(body, "paths", "apis/coordination.k8s.io/v1") == nil {
		t.Fatalf("root: %d %v", code, body)
	}
	code, body = doJSON(t, "GET", ts.url+"/openapi/v3/api/v1", "", "")
	secret, _ := nested(body, "components", "schemas", "io.k8s.api.core.v1.Secret").(map[string]any)
	if code != 200 || nested(secret, "properties", "data", "additionalProperties", "format") != "byte" {
		t.Errorf("Secret schema: %d %v", code, secret)
	}
	code, body = doJSON(t, "GET", ts.url+"/openapi/v2", "", "")
	if code != 200 || nested(body, "definitions", "io.k8s.api.coordination.v1.Lease") == nil {
		t.Errorf("v2: %d", code)
	}
}

// Strategic merge patches of built-in kinds merge lists by upstream's
// patch tags (ownerReferences by uid, finalizers as a set, a Namespace's
// conditions by type), honour the directives, go through the kind's
// write path (a Secret's stringData) and record an Update entry.
func TestChain_StrategicMergePatch(t *testing.T) {
	// The owners below do not exist: with the garbage collector on it
	// deletes "c" (every owner of it is absent) while the test
	// patches it, so this server runs without it.
	ts := readyServer(t, Config{Controllers: []string{"*", "-" + GarbageCollectorControllerName}})
	const smp = "application/strategic-merge-patch+json"
	cms := ts.url + "/api/v1/namespaces/default/configmaps"
	owner := func(uid, name string) string {
		return `{"apiVersion":"v1","kind":"ConfigMap","name":"` + name + `","uid":"` + uid + `"}`
	}
	if code, body := doJSON(t, "POST", cms, "application/json", `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"c",`+
		`"ownerReferences":[`+owner("1", "a")+`,`+owner("2", "b")+`],"finalizers":["x.example.com/a"]},"data":{"k":"v","old":"x"}}`); code != 201 {
		t.Fatalf("create: %d %v", code, body)
	}
	code, body := doJSON(t, "PATCH", cms+"/c?fieldManager=smp", smp, `{"metadata":{"ownerReferences":[`+owner("3", "c")+`,{"uid":"1","$patch":"delete"}],`+
		`"finalizers":["x.example.com/b"]},"data":{"k":"w","old":null}}`)
	raw, _ := json.Marshal(body)
	if code != 200 {
		t.Fatalf("patch: %d %s", code, raw)
	}
	for _, want := range []string{`"data":{"k":"w"}`, `"finalizers":["x.example.com/b","x.example.com/a"]`,
		`"ownerReferences":[` + owner("3", "c") + `,` + owner("2", "b") + `]`, `"manager":"smp","operation":"Update"`} {
		if !bytes.Contains(raw, []byte(want)) {
			t.Errorf("the patched ConfigMap lacks %s:\n%s", want, raw)
		}
	}

	t.Run("SecretStringData", func(t *testing.T) {
		secrets := ts.url + "/api/v1/namespaces/default/secrets"
		if code, body := doJSON(t, "POST", secrets, "application/json", `{"apiVersion":"v1","kind":"Secret","metadata":{"name":"s"},"data":{"a":"YQ=="}}`); code != 201 {
			t.Fatalf("create: %d %v", code, body)
		}
		code, body := doJSON(t, "PATCH", secrets+"/s", smp, `{"stringData":{"b":"b"}}`)
		if code != 200 || nested(body, "data", "a") != "YQ==" || nested(body, "data", "b") != "Yg==" {
			t.Errorf("%d %v", code, body)
		}
	})
	t.Run("NamespaceConditions", func(t *testing.T) {
		status := ts.url + "/api/v1/namespaces/default/status"
		set := `{"status":{"conditions":[{"type":"A","status":"True"},{"type":"B","status":"True"}]}}`
		if code, body := doJSON(t, "PATCH", status, smp, set); code != 200 {
			t.Fatalf("%d %v", code, body)
		}
		code, body := doJSON(t, "PATCH", status, smp, `{"status":{"conditions":[{"type":"B","status":"False"}]}}`)
		raw, _ := json.Marshal(body)
		if code != 200 || !bytes.Contains(raw, []byte(`"conditions":[{"lastTransitionTime":null,"status":"True","type":"A"},{"lastTransitionTime":null,"status":"False","type":"B"}]`)) {
			t.Errorf("conditions merged by type: %d %s", code, raw)
		}
	})
	t.Run("ErrMissingMergeKey", func(t *testing.T) {
		code, body := doJSON(t, "PATCH", cms+"/c", smp, `{"metadata":{"ownerReferences":[{"name":"z"}]}}`)
		if code != 422 || !strings.Contains(body["message"].(string), "does not contain declared merge key: uid") {
			t.Errorf("%d %v", code, body)
		}
	})
	t.Run("ErrNotAnObject", func(t *testing.T) {
		if code, body := doJSON(t, "PATCH", cms+"/c", smp, `["data"]`); code != 400 || body["reason"] != "BadRequest" {
			t.Errorf("%d %v", code, body)
		}
	})
	t.Run("ErrNotFound", func(t *testing.T) {
		if code, body := doJSON(t, "PATCH", cms+"/nope", smp, `{}`); code != 404 {
			t.Errorf("%d %v", code, body)
		}
	})
}
