package apiserver

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
)

// celCRD has CEL rules at the spec (one of them a transition rule) and on
// a field; version v1 only.
const celCRD = `{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition",
"metadata":{"name":"volumes.storage.example.com"%s},
"spec":{"group":"storage.example.com","scope":"Cluster","names":{"plural":"volumes","singular":"volume","kind":"Volume"},
"versions":[{"name":"v1","served":true,"storage":true,"schema":{"openAPIV3Schema":{"type":"object","properties":{"spec":{"type":"object",
 "required":["size"],
 "properties":{"size":{"type":"integer"},"maxSize":{"type":"integer"},"class":{"type":"string"},"paused":{"type":"boolean"},
   "replicas":{"type":"integer","x-kubernetes-validations":[{"rule":"self >= 1"}%s]}},
 "x-kubernetes-validations":[
   {"rule":"self.size <= self.maxSize","message":"size must not exceed maxSize"},
   {"rule":"self.class == oldSelf.class","message":"class is immutable"}]}}}}}]}}`

// do sends a request and returns the code, the decoded body and the
// Warning headers.
func do(t *testing.T, method, url, body string) (int, map[string]any, []string) {
	t.Helper()
	req, err := http.NewRequest(method, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	var m map[string]any
	_ = json.Unmarshal(b, &m)
	return resp.StatusCode, m, resp.Header.Values("Warning")
}

// causeMessages lists "field: message" of a Status's causes.
func causeMessages(st map[string]any) string {
	d, _ := st["details"].(map[string]any)
	cs, _ := d["causes"].([]any)
	var out []string
	for _, c := range cs {
		m := c.(map[string]any)
		out = append(out, m["field"].(string)+": "+m["message"].(string))
	}
	return strings.Join(out, "\n")
}

// TestServer_CELRules runs a CRD's x-kubernetes-validations through the
// whole server: a rule that fails on create, a transition rule on update,
// the cause upstream adds when schema errors keep rules from running, a
// CRD whose rule does not compile, and ratcheting after the CRD adds a
// rule stored objects break.
func TestServer_CELRules(t *testing.T) {
	ts := startServer(t, Config{})
	eventually(t, "ready", func() bool { code, _ := get(t, ts.url+"/readyz"); return code == 200 })
	crds := ts.url + "/apis/apiextensions.k8s.io/v1/customresourcedefinitions"
	vols := ts.url + "/apis/storage.example.com/v1/volumes"
	volume := func(name, spec, rv string) string {
		md := `"name":"` + name + `"`
		if rv != "" {
			md += `,"resourceVersion":"` + rv + `"`
		}
		return `{"apiVersion":"storage.example.com/v1","kind":"Volume","metadata":{` + md + `},"spec":` + spec + `}`
	}

	t.Run("ErrCRDRuleDoesNotCompile", func(t *testing.T) {
		bad := strings.Replace(celCRD, `"self.size <= self.maxSize"`, `"self.size <= 'ten'"`, 1)
		code, st, _ := do(t, "POST", crds, strings.Replace(strings.Replace(bad, "%s", "", 1), "%s", "", 1))
		if code != 422 || !strings.Contains(causeMessages(st), "x-kubernetes-validations[0].rule: Invalid value:") || !strings.Contains(causeMessages(st), "found no matching overload for '_<=_'") {
			t.Fatalf("got %d %s", code, causeMessages(st))
		}
	})

	code, _, _ := do(t, "POST", crds, strings.Replace(strings.Replace(celCRD, "%s", "", 1), "%s", "", 1))
	if code != 201 {
		t.Fatalf("create CRD: %d", code)
	}
	eventually(t, "volumes served", func() bool { code, _ := get(t, vols); return code == 200 })

	t.Run("ErrCreate", func(t *testing.T) {
		code, st, _ := do(t, "POST", vols, volume("big", `{"size":10,"maxSize":5,"class":"gold","replicas":0}`, ""))
		want := "spec: Invalid value: size must not exceed maxSize\nspec.replicas: Invalid value: 0: failed rule: self >= 1"
		if code != 422 || causeMessages(st) != want {
			t.Fatalf("got %d\n%s\nwant 422\n%s", code, causeMessages(st), want)
		}
	})
	t.Run("ErrBlockedBySchema", func(t *testing.T) {
		code, st, _ := do(t, "POST", vols, volume("typo", `{"size":"ten","maxSize":5}`, ""))
		got := causeMessages(st)
		if code != 422 || !strings.Contains(got, "<nil>: Invalid value: null: some validation rules were not checked because the object was invalid") || strings.Contains(got, "maxSize") {
			t.Fatalf("got %d\n%s", code, got)
		}
	})
	var rv string
	t.Run("Create", func(t *testing.T) {
		code, obj, _ := do(t, "POST", vols, volume("v", `{"size":1,"maxSize":5,"class":"gold","replicas":3}`, ""))
		if code != 201 {
			t.Fatalf("create: %d %v", code, obj)
		}
		rv = obj["metadata"].(map[string]any)["resourceVersion"].(string)
	})
	t.Run("ErrTransition", func(t *testing.T) {
		code, st, _ := do(t, "PUT", vols+"/v", volume("v", `{"size":1,"maxSize":5,"class":"silver","replicas":3}`, rv))
		if code != 422 || causeMessages(st) != "spec: Invalid value: class is immutable" {
			t.Fatalf("got %d %s", code, causeMessages(st))
		}
	})

	t.Run("Ratcheting", func(t *testing.T) {
		// The CRD now wants replicas <= 2: v breaks it.
		_, crd, _ := do(t, "GET", crds+"/volumes.storage.example.com", "")
		crdRV := crd["metadata"].(map[string]any)["resourceVersion"].(string)
		tighter := strings.Replace(celCRD, "%s", `,"resourceVersion":"`+crdRV+`"`, 1)
		tighter = strings.Replace(tighter, "%s", `,{"rule":"self <= 2","message":"at most 2 replicas"}`, 1)
		if code, st, _ := do(t, "PUT", crds+"/volumes.storage.example.com", tighter); code != 200 {
			t.Fatalf("update CRD: %d %s", code, causeMessages(st))
		}
		// Wait until the handler serves the new rule (a new object breaking it is refused).
		eventually(t, "the new rule is served", func() bool {
			code, _, _ := do(t, "POST", vols+"?dryRun=All", volume("probe", `{"size":1,"maxSize":5,"class":"x","replicas":3}`, ""))
			return code == 422
		})
		code, obj, warnings := do(t, "PUT", vols+"/v", volume("v", `{"size":2,"maxSize":5,"class":"gold","replicas":3}`, rv))
		if code != 200 || len(warnings) != 1 || !strings.Contains(warnings[0], "spec.replicas: Invalid value: 3: at most 2 replicas") {
			t.Fatalf("an update that leaves replicas alone: got %d %v, warnings %q", code, causeMessages(obj), warnings)
		}
		rv = obj["metadata"].(map[string]any)["resourceVersion"].(string)
		code, st, _ := do(t, "PUT", vols+"/v", volume("v", `{"size":2,"maxSize":5,"class":"gold","replicas":4}`, rv))
		if code != 422 || causeMessages(st) != "spec.replicas: Invalid value: 4: at most 2 replicas" {
			t.Fatalf("an update of replicas: got %d %s", code, causeMessages(st))
		}
	})
}
