package apiserver

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"sort"
	"strings"
	"testing"

	metav1 "github.com/crdlab/crdlab/apis/meta/v1"
	"github.com/crdlab/crdlab/apis/meta/v1/unstructured"
	"github.com/crdlab/crdlab/client"
	"github.com/crdlab/crdlab/client/dynamic"
	"github.com/crdlab/crdlab/scheme"
	"github.com/crdlab/crdlab/trace"
)

// The CRD of the server-side apply tests: a Widget with /status and
// /scale, and lists and maps of each merge type.
const widgetCRD = `{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition",
"metadata":{"name":"widgets.example.com"},
"spec":{"group":"example.com","scope":"Namespaced","names":{"plural":"widgets","singular":"widget","kind":"Widget"},
"versions":[{"name":"v1","served":true,"storage":true,
 "subresources":{"status":{},"scale":{"specReplicasPath":".spec.replicas","statusReplicasPath":".status.replicas"}},
 "schema":{"openAPIV3Schema":{"type":"object","properties":{
  "spec":{"type":"object","properties":{
    "replicas":{"type":"integer"},
    "image":{"type":"string"},
    "command":{"type":"array","items":{"type":"string"}},
    "ports":{"type":"array","x-kubernetes-list-type":"map","x-kubernetes-list-map-keys":["name"],
      "items":{"type":"object","required":["name"],"properties":{"name":{"type":"string"},"port":{"type":"integer"}}}}}},
  "status":{"type":"object","properties":{"replicas":{"type":"integer"},"phase":{"type":"string"}}}}}}}]}}`

const widgetsPath = "/apis/example.com/v1/namespaces/default/widgets"

// applyServer is a server with the Widget CRD established and tracing on.
func applyServer(t *testing.T) (*testServer, *trace.Tracer) {
	t.Helper()
	tr := trace.New(trace.Options{})
	ts := startServer(t, Config{Tracer: tr})
	eventually(t, "ready", func() bool { code, _ := get(t, ts.url+"/readyz"); return code == 200 })
	if code := post(t, ts.url+crdsPath, widgetCRD); code != 201 {
		t.Fatalf("create CRD: %d", code)
	}
	eventually(t, "widgets served", func() bool { code, _ := get(t, ts.url+widgetsPath); return code == 200 })
	return ts, tr
}

// answer is a decoded response.
type answer struct {
	code int
	body map[string]any
	raw  string
	hdr  http.Header
}

// send sends a request with a content type and extra headers (name,
// value, …).
func send(t *testing.T, method, url, contentType, body string, headers ...string) answer {
	t.Helper()
	req, err := http.NewRequest(method, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	a := answer{code: resp.StatusCode, raw: string(b), hdr: resp.Header}
	_ = json.Unmarshal(b, &a.body)
	return a
}

const applyType = "application/apply-patch+yaml"

func (ts *testServer) apply(t *testing.T, name, manager, body string, query ...string) answer {
	t.Helper()
	q := "?fieldManager=" + manager
	for _, x := range query {
		q += "&" + x
	}
	return send(t, "PATCH", ts.url+widgetsPath+"/"+name+q, applyType, body)
}

func widgetYAML(name, spec string) string {
	return "apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: " + name + "\nspec:\n" + indentYAML(spec)
}

func indentYAML(s string) string {
	var b strings.Builder
	for _, l := range strings.Split(strings.TrimSpace(s), "\n") {
		b.WriteString("  " + l + "\n")
	}
	return b.String()
}

// want checks a response's code, and its reason if it is an error.
func (a answer) want(t *testing.T, code int, reason string) {
	t.Helper()
	if a.code != code || reason != "" && a.body["reason"] != reason {
		t.Fatalf("got %d %v, want %d %s: %s", a.code, a.body["reason"], code, reason, a.raw)
	}
}

// managers summarises an object's managedFields: "manager/Operation[/subresource]: fieldsV1".
func managers(t *testing.T, obj map[string]any) []string {
	t.Helper()
	md, _ := obj["metadata"].(map[string]any)
	list, _ := md["managedFields"].([]any)
	var out []string
	for _, e := range list {
		m := e.(map[string]any)
		s := fmt.Sprintf("%v/%v", m["manager"], m["operation"])
		if sub, _ := m["subresource"].(string); sub != "" {
			s += "/" + sub
		}
		// An entry a /scale write brings to its parent has no time, as
		// upstream's ScaleHandler writes it.
		if m["fieldsType"] != "FieldsV1" || m["time"] == nil && m["subresource"] != "scale" || m["apiVersion"] == nil {
			t.Errorf("entry %v lacks fieldsType FieldsV1, time or apiVersion", m)
		}
		b, _ := json.Marshal(m["fieldsV1"])
		out = append(out, s+": "+string(b))
	}
	return out
}

// wantManagers compares managedFields with want, in any order (entries
// of one second are sorted by manager).
func wantManagers(t *testing.T, obj map[string]any, want ...string) {
	t.Helper()
	got := managers(t, obj)
	sort.Strings(got)
	want = append([]string(nil), want...)
	sort.Strings(want)
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("managedFields:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func spec(obj map[string]any) map[string]any {
	s, _ := obj["spec"].(map[string]any)
	return s
}

func TestServer_ServerSideApply(t *testing.T) {
	ts, tr := applyServer(t)

	t.Run("ApplyCreates", func(t *testing.T) {
		a := ts.apply(t, "w1", "deployer", widgetYAML("w1", "replicas: 1\nimage: nginx\ncommand: [run]"))
		a.want(t, 201, "")
		wantManagers(t, a.body, `deployer/Apply: {"f:spec":{"f:command":{},"f:image":{},"f:replicas":{}}}`)
		got := send(t, "GET", ts.url+widgetsPath+"/w1", "", "")
		wantManagers(t, got.body, `deployer/Apply: {"f:spec":{"f:command":{},"f:image":{},"f:replicas":{}}}`)
	})
	t.Run("ApplyAgainChangesNothing", func(t *testing.T) {
		before := send(t, "GET", ts.url+widgetsPath+"/w1", "", "")
		a := ts.apply(t, "w1", "deployer", widgetYAML("w1", "replicas: 1\nimage: nginx\ncommand: [run]"))
		a.want(t, 200, "")
		if fmt.Sprint(a.body["metadata"]) != fmt.Sprint(before.body["metadata"]) {
			t.Fatalf("a repeated apply changed metadata:\n%v\nwas\n%v", a.body["metadata"], before.body["metadata"])
		}
	})
	t.Run("ConflictNamesFieldAndManager", func(t *testing.T) {
		a := ts.apply(t, "w1", "autoscaler", widgetYAML("w1", "replicas: 5"))
		a.want(t, 409, "Conflict")
		if a.body["message"] != `Apply failed with 1 conflict: conflict with "deployer": .spec.replicas` {
			t.Fatalf("message %q", a.body["message"])
		}
		causes := a.body["details"].(map[string]any)["causes"].([]any)
		c := causes[0].(map[string]any)
		if len(causes) != 1 || c["reason"] != "FieldManagerConflict" || c["field"] != ".spec.replicas" || c["message"] != `conflict with "deployer"` {
			t.Fatalf("causes %v", causes)
		}
	})
	t.Run("ConflictIsTraced", func(t *testing.T) {
		var ev *trace.Event
		for _, e := range tr.Recent(0) {
			if e.Step == "apply" && e.Actor == "autoscaler" {
				ev = &e
			}
		}
		if ev == nil || ev.Component != trace.Handler || ev.Key != "default/w1" ||
			!strings.Contains(ev.Message, `.spec.replicas ("deployer")`) || !strings.Contains(ev.Err, "Apply failed with 1 conflict") {
			t.Fatalf("apply event %+v", ev)
		}
	})
	t.Run("ForceTakesTheField", func(t *testing.T) {
		a := ts.apply(t, "w1", "autoscaler", widgetYAML("w1", "replicas: 5"), "force=true")
		a.want(t, 200, "")
		if spec(a.body)["replicas"] != float64(5) {
			t.Fatalf("spec %v", spec(a.body))
		}
		wantManagers(t, a.body,
			`deployer/Apply: {"f:spec":{"f:command":{},"f:image":{}}}`,
			`autoscaler/Apply: {"f:spec":{"f:replicas":{}}}`)
		var ev *trace.Event
		for _, e := range tr.Recent(0) {
			if e.Step == "apply" && e.Actor == "autoscaler" {
				ev = &e
			}
		}
		if ev == nil || ev.Err != "" || !strings.Contains(ev.Message, "force-applied") || ev.ResourceVersion == "" {
			t.Fatalf("apply event %+v", ev)
		}
	})
	t.Run("FieldsLeftOutAreRemovedUnlessOwnedElsewhere", func(t *testing.T) {
		// deployer stops applying command; replicas is autoscaler's.
		a := ts.apply(t, "w1", "deployer", widgetYAML("w1", "image: nginx"))
		a.want(t, 200, "")
		if _, ok := spec(a.body)["command"]; ok {
			t.Fatalf("command kept: %v", spec(a.body))
		}
		if spec(a.body)["replicas"] != float64(5) {
			t.Fatalf("replicas lost: %v", spec(a.body))
		}
	})
	t.Run("ListTypeMapEntriesHaveTheirOwners", func(t *testing.T) {
		ts.apply(t, "w1", "deployer", widgetYAML("w1", "image: nginx\nports: [{name: http, port: 80}]")).want(t, 200, "")
		a := ts.apply(t, "w1", "sidecar", widgetYAML("w1", "ports: [{name: metrics, port: 9090}]"))
		a.want(t, 200, "")
		if n := len(spec(a.body)["ports"].([]any)); n != 2 {
			t.Fatalf("ports %v", spec(a.body)["ports"])
		}
		ts.apply(t, "w1", "sidecar", widgetYAML("w1", "ports: [{name: http, port: 81}]")).want(t, 409, "Conflict")
	})
	t.Run("JSONBody", func(t *testing.T) {
		a := ts.apply(t, "w2", "json", `{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"w2"},"spec":{"replicas":2}}`)
		a.want(t, 201, "")
		wantManagers(t, a.body, `json/Apply: {"f:spec":{"f:replicas":{}}}`)
	})
	t.Run("DryRunStoresNothing", func(t *testing.T) {
		ts.apply(t, "dry", "deployer", widgetYAML("dry", "replicas: 1"), "dryRun=All").want(t, 201, "")
		send(t, "GET", ts.url+widgetsPath+"/dry", "", "").want(t, 404, "NotFound")
	})
	t.Run("StatusApply", func(t *testing.T) {
		a := send(t, "PATCH", ts.url+widgetsPath+"/w2/status?fieldManager=operator", applyType,
			"apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: w2\nstatus:\n  phase: Ready\n")
		a.want(t, 200, "")
		wantManagers(t, a.body,
			`json/Apply: {"f:spec":{"f:replicas":{}}}`,
			`operator/Apply/status: {"f:status":{"f:phase":{}}}`)
		// Status through the main endpoint is reset, and owned by nobody.
		a = ts.apply(t, "w2", "json", `{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"w2"},"spec":{"replicas":2},"status":{"phase":"Broken"}}`)
		a.want(t, 200, "")
		if a.body["status"].(map[string]any)["phase"] != "Ready" {
			t.Fatalf("status %v", a.body["status"])
		}
		wantManagers(t, a.body,
			`json/Apply: {"f:spec":{"f:replicas":{}}}`,
			`operator/Apply/status: {"f:status":{"f:phase":{}}}`)
	})
	t.Run("ScaleMovesTheReplicasOwner", func(t *testing.T) {
		a := send(t, "PUT", ts.url+widgetsPath+"/w2/scale?fieldManager=hpa", "application/json",
			`{"apiVersion":"autoscaling/v1","kind":"Scale","metadata":{"name":"w2","namespace":"default"},"spec":{"replicas":7}}`)
		a.want(t, 200, "")
		got := send(t, "GET", ts.url+widgetsPath+"/w2", "", "")
		if spec(got.body)["replicas"] != float64(7) {
			t.Fatalf("spec %v", spec(got.body))
		}
		wantManagers(t, got.body,
			`operator/Apply/status: {"f:status":{"f:phase":{}}}`,
			`hpa/Update/scale: {"f:spec":{"f:replicas":{}}}`)
		// The Scale itself shows who owns its replicas.
		sc := send(t, "GET", ts.url+widgetsPath+"/w2/scale", "", "")
		sc.want(t, 200, "")
		a = send(t, "PATCH", ts.url+widgetsPath+"/w2/scale?fieldManager=keda", applyType,
			"apiVersion: autoscaling/v1\nkind: Scale\nmetadata:\n  name: w2\nspec:\n  replicas: 3\n")
		a.want(t, 409, "Conflict")
		if !strings.Contains(a.body["message"].(string), `conflict with "hpa" with subresource "scale" using autoscaling/v1`) {
			t.Fatalf("message %q", a.body["message"])
		}
		a = send(t, "PATCH", ts.url+widgetsPath+"/w2/scale?fieldManager=keda&force=true", applyType,
			"apiVersion: autoscaling/v1\nkind: Scale\nmetadata:\n  name: w2\nspec:\n  replicas: 3\n")
		a.want(t, 200, "")
		got = send(t, "GET", ts.url+widgetsPath+"/w2", "", "")
		wantManagers(t, got.body,
			`keda/Apply/scale: {"f:spec":{"f:replicas":{}}}`,
			`operator/Apply/status: {"f:status":{"f:phase":{}}}`)
	})
	t.Run("UpdatesRecordTheirManager", func(t *testing.T) {
		a := send(t, "POST", ts.url+widgetsPath, "application/json",
			`{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"w3"},"spec":{"replicas":1}}`,
			"User-Agent", "my-tool/1.2 (linux/amd64)")
		a.want(t, 201, "")
		wantManagers(t, a.body, `my-tool/Update: {"f:spec":{".":{},"f:replicas":{}}}`)
		a.body["spec"].(map[string]any)["image"] = "busybox"
		b, _ := json.Marshal(a.body)
		u := send(t, "PUT", ts.url+widgetsPath+"/w3?fieldManager=editor", "application/json", string(b))
		u.want(t, 200, "")
		p := send(t, "PATCH", ts.url+widgetsPath+"/w3?fieldManager=patcher", "application/merge-patch+json", `{"metadata":{"labels":{"a":"b"}}}`)
		p.want(t, 200, "")
		wantManagers(t, p.body,
			`my-tool/Update: {"f:spec":{".":{},"f:replicas":{}}}`,
			`editor/Update: {"f:spec":{"f:image":{}}}`,
			`patcher/Update: {"f:metadata":{"f:labels":{".":{},"f:a":{}}}}`)
	})
	t.Run("ResetWithAnEmptyEntry", func(t *testing.T) {
		send(t, "PATCH", ts.url+widgetsPath+"/w3", "application/merge-patch+json", `{"metadata":{"managedFields":[{}]}}`).want(t, 200, "")
		got := send(t, "GET", ts.url+widgetsPath+"/w3", "", "")
		if mf := got.body["metadata"].(map[string]any)["managedFields"]; mf != nil {
			t.Fatalf("managedFields %v after [{}]", mf)
		}
	})
	t.Run("ResetWithAnEmptyList", func(t *testing.T) {
		ts.apply(t, "w4", "deployer", widgetYAML("w4", "replicas: 1")).want(t, 201, "")
		send(t, "PATCH", ts.url+widgetsPath+"/w4", "application/json-patch+json", `[{"op":"replace","path":"/metadata/managedFields","value":[]}]`).want(t, 200, "")
		got := send(t, "GET", ts.url+widgetsPath+"/w4", "", "")
		if mf := got.body["metadata"].(map[string]any)["managedFields"]; mf != nil {
			t.Fatalf("managedFields %v after []", mf)
		}
	})
	t.Run("AbsentManagedFieldsKeepThem", func(t *testing.T) {
		ts.apply(t, "w5", "deployer", widgetYAML("w5", "replicas: 1")).want(t, 201, "")
		got := send(t, "GET", ts.url+widgetsPath+"/w5", "", "")
		delete(got.body["metadata"].(map[string]any), "managedFields")
		got.body["spec"].(map[string]any)["image"] = "x"
		b, _ := json.Marshal(got.body)
		u := send(t, "PUT", ts.url+widgetsPath+"/w5?fieldManager=unaware", "application/json", string(b))
		u.want(t, 200, "")
		wantManagers(t, u.body, `deployer/Apply: {"f:spec":{"f:replicas":{}}}`, `unaware/Update: {"f:spec":{"f:image":{}}}`)
	})
	t.Run("InvalidEntriesAre422", func(t *testing.T) {
		got := send(t, "GET", ts.url+widgetsPath+"/w5", "", "")
		entries := got.body["metadata"].(map[string]any)["managedFields"].([]any)
		entries[0].(map[string]any)["manager"] = "bad\u0001manager"
		b, _ := json.Marshal(got.body)
		a := send(t, "PUT", ts.url+widgetsPath+"/w5", "application/json", string(b))
		a.want(t, 422, "Invalid")
		if !strings.Contains(a.body["message"].(string), "metadata.managedFields[0].manager: Invalid value") {
			t.Fatalf("message %q", a.body["message"])
		}
	})
	t.Run("UndecodableEntriesKeepLive", func(t *testing.T) {
		got := send(t, "GET", ts.url+widgetsPath+"/w5", "", "")
		entries := got.body["metadata"].(map[string]any)["managedFields"].([]any)
		entries[0].(map[string]any)["fieldsType"] = "" // decodes no more
		b, _ := json.Marshal(got.body)
		a := send(t, "PUT", ts.url+widgetsPath+"/w5?fieldManager=unaware", "application/json", string(b))
		a.want(t, 200, "")
		wantManagers(t, a.body, `deployer/Apply: {"f:spec":{"f:replicas":{}}}`, `unaware/Update: {"f:spec":{"f:image":{}}}`)
	})
	t.Run("Errors", func(t *testing.T) {
		long := strings.Repeat("m", 129)
		for _, c := range []struct {
			name, method, path, ctype, body, reason, message string
			code                                             int
		}{
			{"ForceOnMergePatch", "PATCH", "/w1?force=true", "application/merge-patch+json", `{}`, "Invalid",
				`PatchOptions.meta.k8s.io "" is invalid: force: Forbidden: may not be specified for non-apply patch`, 422},
			{"ApplyWithoutFieldManager", "PATCH", "/w1", applyType, widgetYAML("w1", "replicas: 1"), "Invalid",
				`PatchOptions.meta.k8s.io "" is invalid: fieldManager: Required value: is required for apply patch`, 422},
			{"FieldManagerTooLong", "POST", "?fieldManager=" + long, "application/json", `{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"x"}}`, "Invalid",
				`CreateOptions.meta.k8s.io "" is invalid: fieldManager: Too long: may not be more than 128 bytes`, 422},
			{"FieldManagerUnprintable", "PUT", "/w1?fieldManager=a%07b", "application/json", `{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"w1"}}`, "Invalid",
				`UpdateOptions.meta.k8s.io "" is invalid: fieldManager: Invalid value: "a\ab": invalid character U+0007 (at position 1)`, 422},
			{"ManagedFieldsInApply", "PATCH", "/w1?fieldManager=m", applyType, widgetYAML("w1", "replicas: 1") + "  x: 1\n", "BadRequest",
				`failed to create typed patch object (/w1; example.com/v1, Kind=Widget): .spec.x: field not declared in schema`, 400},
			{"OtherVersion", "PATCH", "/w1?fieldManager=m", applyType, "apiVersion: example.com/v2\nkind: Widget\nmetadata:\n  name: w1\n", "BadRequest",
				"invalid object type: example.com/v2, Kind=Widget", 400},
			{"NotAnObject", "PATCH", "/w1?fieldManager=m", applyType, "- a\n- b\n", "BadRequest", "", 400},
			{"DuplicateKeysStrict", "PATCH", "/w1?fieldManager=deployer&fieldValidation=Strict", applyType,
				"apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: w1\nspec:\n  image: nginx\n  image: nginx\n", "BadRequest", "", 400},
			// A JSON body takes the fast scan first; its repeated key still
			// gets the YAML decoder's message, as upstream's.
			{"DuplicateKeysStrictJSON", "PATCH", "/w1?fieldManager=deployer&fieldValidation=Strict", applyType,
				`{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"w1"},"spec":{"image":"a","image":"nginx"}}`, "BadRequest",
				"error strict decoding patch: error converting YAML to JSON: yaml: unmarshal errors:\n  line 1: key \"image\" already set in map", 400},
		} {
			t.Run(c.name, func(t *testing.T) {
				a := send(t, c.method, ts.url+widgetsPath+c.path, c.ctype, c.body)
				a.want(t, c.code, c.reason)
				if c.message != "" && a.body["message"] != c.message {
					t.Fatalf("message %q, want %q", a.body["message"], c.message)
				}
			})
		}
		a := send(t, "PATCH", ts.url+widgetsPath+"/w1?fieldManager=m", applyType,
			"apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: w1\n  managedFields: []\n")
		a.want(t, 400, "BadRequest")
		if a.body["message"] != "metadata.managedFields must be nil" {
			t.Fatalf("message %q", a.body["message"])
		}
	})
	t.Run("BoundedUpdateEntries", func(t *testing.T) {
		send(t, "POST", ts.url+widgetsPath+"?fieldManager=creator", "application/json",
			`{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"w6"},"spec":{"replicas":1}}`).want(t, 201, "")
		for i := range 12 {
			send(t, "PATCH", ts.url+widgetsPath+fmt.Sprintf("/w6?fieldManager=m%02d", i), "application/merge-patch+json",
				fmt.Sprintf(`{"metadata":{"labels":{"l%02d":"v"}}}`, i)).want(t, 200, "")
		}
		got := managers(t, send(t, "GET", ts.url+widgetsPath+"/w6", "", "").body)
		if len(got) != 10 || !strings.HasPrefix(got[0], "ancient-changes/Update") && !strings.Contains(strings.Join(got, "\n"), "ancient-changes/Update") {
			t.Fatalf("%d entries, want 10 with ancient-changes:\n%s", len(got), strings.Join(got, "\n"))
		}
	})
	t.Run("ClientSideApplyMigrates", func(t *testing.T) {
		last := `{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"w7","namespace":"default"},"spec":{"image":"a","replicas":1}}`
		body := fmt.Sprintf(`{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"w7","annotations":{"kubectl.kubernetes.io/last-applied-configuration":%q}},"spec":{"image":"a","replicas":1}}`, last+"\n")
		send(t, "POST", ts.url+widgetsPath+"?fieldManager=kubectl-client-side-apply", "application/json", body).want(t, 201, "")
		// Another manager meets conflicts; kubectl takes over.
		ts.apply(t, "w7", "other", widgetYAML("w7", "replicas: 2")).want(t, 409, "Conflict")
		a := ts.apply(t, "w7", "kubectl", widgetYAML("w7", "image: b\nreplicas: 2"))
		a.want(t, 200, "")
		ann := a.body["metadata"].(map[string]any)["annotations"].(map[string]any)["kubectl.kubernetes.io/last-applied-configuration"].(string)
		if !strings.Contains(ann, `"image":"b"`) || !strings.HasSuffix(ann, "\n") {
			t.Fatalf("last-applied %q", ann)
		}
		got := managers(t, a.body)
		if !strings.HasPrefix(got[0], `kubectl/Apply: {"f:spec":{"f:image":{},"f:replicas":{}}}`) {
			t.Fatalf("entries %q", got)
		}
	})
}

func TestServer_ServerSideApply_CRD(t *testing.T) {
	ts := startServer(t, Config{})
	eventually(t, "ready", func() bool { code, _ := get(t, ts.url+"/readyz"); return code == 200 })
	crd := `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: gadgets.example.com
spec:
  group: example.com
  scope: Cluster
  names: {plural: gadgets, kind: Gadget}
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}
`
	a := send(t, "PATCH", ts.url+crdsPath+"/gadgets.example.com?fieldManager=helm", applyType, crd)
	a.want(t, 201, "")
	got := managers(t, a.body)
	if len(got) != 1 || !strings.HasPrefix(got[0], `helm/Apply: {"f:spec":{"f:group":{},"f:names":{"f:kind":{},"f:plural":{}},"f:scope":{},"f:versions":{}}}`) {
		t.Fatalf("entries %q", got)
	}
	// The status the controllers write has its own entry, on /status.
	eventually(t, "status entry", func() bool {
		got := send(t, "GET", ts.url+crdsPath+"/gadgets.example.com", "", "")
		return strings.Contains(strings.Join(managers(t, got.body), "\n"), "/Update/status")
	})
	// Helm upgrades with a new version list: one owner, no conflict.
	crd2 := strings.Replace(crd, "scope: Cluster", "scope: Cluster\n  preserveUnknownFields: false", 1)
	send(t, "PATCH", ts.url+crdsPath+"/gadgets.example.com?fieldManager=helm", applyType, crd2).want(t, 200, "")
	send(t, "PATCH", ts.url+crdsPath+"/gadgets.example.com?fieldManager=other", applyType,
		strings.Replace(crd, "scope: Cluster", "scope: Namespaced", 1)).want(t, 409, "Conflict")
}

func TestServer_ServerSideApply_DynamicClient(t *testing.T) {
	ts, _ := applyServer(t)
	dyn, err := dynamic.NewForConfig(&client.Config{Host: ts.url, QPS: -1})
	if err != nil {
		t.Fatal(err)
	}
	widgets := dyn.Resource(scheme.GroupVersionResource{Group: "example.com", Version: "v1", Resource: "widgets"}).Namespace("default")
	w := &unstructured.Unstructured{Object: map[string]any{"apiVersion": "example.com/v1", "kind": "Widget",
		"metadata": map[string]any{"name": "dyn"}, "spec": map[string]any{"replicas": int64(1)}}}
	out, err := widgets.Apply(t.Context(), "dyn", w, metav1.ApplyOptions{FieldManager: "dyn"})
	if err != nil {
		t.Fatal(err)
	}
	if mf := out.GetManagedFields(); len(mf) != 1 || mf[0].Manager != "dyn" || mf[0].Operation != metav1.ManagedFieldsOperationApply {
		t.Fatalf("managedFields %+v", mf)
	}
	_, err = widgets.Apply(t.Context(), "dyn", w, metav1.ApplyOptions{FieldManager: "dyn"})
	if err != nil {
		t.Fatal(err)
	}
	st := &unstructured.Unstructured{Object: map[string]any{"apiVersion": "example.com/v1", "kind": "Widget",
		"metadata": map[string]any{"name": "dyn"}, "status": map[string]any{"phase": "Up"}}}
	out, err = widgets.ApplyStatus(t.Context(), "dyn", st, metav1.ApplyOptions{FieldManager: "op"})
	if err != nil {
		t.Fatal(err)
	}
	if phase, _, _ := unstructured.NestedString(out.Object, "status", "phase"); phase != "Up" {
		t.Fatalf("status %v", out.Object["status"])
	}
	if _, err := widgets.Apply(t.Context(), "dyn", out, metav1.ApplyOptions{FieldManager: "dyn"}); !errors.Is(err, dynamic.ErrManagedFieldsSet) {
		t.Fatalf("apply of an object with managedFields: %v", err)
	}
}
