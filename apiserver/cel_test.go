package apiserver

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/crdlab/crdlab/apis/apiextensions/cel"
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
		// The CRD now wants replicas <= 2: v breaks it. The CRD controllers
		// may still be writing its status: a 409 means read it again.
		eventually(t, "the CRD updated", func() bool {
			_, crd, _ := do(t, "GET", crds+"/volumes.storage.example.com", "")
			crdRV := crd["metadata"].(map[string]any)["resourceVersion"].(string)
			tighter := strings.Replace(celCRD, "%s", `,"resourceVersion":"`+crdRV+`"`, 1)
			tighter = strings.Replace(tighter, "%s", `,{"rule":"self <= 2","message":"at most 2 replicas"}`, 1)
			code, st, _ := do(t, "PUT", crds+"/volumes.storage.example.com", tighter)
			if code != 200 && code != 409 {
				t.Fatalf("update CRD: %d %s", code, causeMessages(st))
			}
			return code == 200
		})
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

// twoVersionCELCRD serves v1 and v2, each with three rules (one of them a
// transition rule).
const twoVersionCELCRD = `{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition",
"metadata":{"name":"quotas.limits.example.com"},
"spec":{"group":"limits.example.com","scope":"Cluster","names":{"plural":"quotas","singular":"quota","kind":"Quota"},
"versions":[%s,%s]}}`

const celVersion = `{"name":"%s","served":true,"storage":%t,"schema":{"openAPIV3Schema":{"type":"object","properties":{"spec":{"type":"object",
 "properties":{"used":{"type":"integer"},"limit":{"type":"integer"},"owner":{"type":"string","maxLength":63}},
 "x-kubernetes-validations":[
   {"rule":"self.used <= self.limit","message":"used must not exceed limit"},
   {"rule":"self.owner.startsWith('team-')","messageExpression":"'owner ' + self.owner + ' is not a team'"},
   {"rule":"self.owner == oldSelf.owner","message":"owner is immutable"}]}}}}}`

// TestServer_CELCompiledOncePerVersion counts the rules the process
// really compiles (cel.Compilations): creating a CRD with two served
// versions of three rules each compiles them when the CRD is validated
// and when each version's serving info is built, and then a hundred
// custom resource writes, valid and invalid, in both versions compile
// nothing more.
func TestServer_CELCompiledOncePerVersion(t *testing.T) {
	ts := startServer(t, Config{})
	eventually(t, "ready", func() bool { code, _ := get(t, ts.url+"/readyz"); return code == 200 })
	crd := fmt.Sprintf(twoVersionCELCRD, fmt.Sprintf(celVersion, "v1", true), fmt.Sprintf(celVersion, "v2", false))
	quota := func(v, name, spec, rv string) string {
		md := `"name":"` + name + `"`
		if rv != "" {
			md += `,"resourceVersion":"` + rv + `"`
		}
		return `{"apiVersion":"limits.example.com/` + v + `","kind":"Quota","metadata":{` + md + `},"spec":` + spec + `}`
	}

	before := cel.Compilations()
	if code, st, _ := do(t, "POST", ts.url+"/apis/apiextensions.k8s.io/v1/customresourcedefinitions", crd); code != 201 {
		t.Fatalf("create CRD: %d %s", code, causeMessages(st))
	}
	validated := cel.Compilations() - before
	for _, v := range []string{"v1", "v2"} {
		eventually(t, v+"'s rules served", func() bool {
			code, _, _ := do(t, "POST", ts.url+"/apis/limits.example.com/"+v+"/quotas?dryRun=All", quota(v, "probe", `{"used":2,"limit":1,"owner":"team-a"}`, ""))
			return code == 422
		})
	}
	served := cel.Compilations() - before - validated
	// The two versions' schemas are equal, so the CRD's validation checks
	// them once (as upstream, whose internal CRD then has one
	// spec.validation); serving compiles each version's rules.
	if validated != 3 || served != 6 {
		t.Errorf("the CRD's validation compiled %d rules and serving it %d more, want 3 and 6", validated, served)
	}

	before = cel.Compilations()
	for i := 0; i < 10; i++ {
		for _, v := range []string{"v1", "v2"} {
			name := fmt.Sprintf("%s-%d", v, i)
			url := ts.url + "/apis/limits.example.com/" + v + "/quotas"
			code, obj, _ := do(t, "POST", url, quota(v, name, `{"used":1,"limit":2,"owner":"team-a"}`, ""))
			if code != 201 {
				t.Fatalf("create %s: %d %v", name, code, obj)
			}
			rv := obj["metadata"].(map[string]any)["resourceVersion"].(string)
			if code, st, _ := do(t, "POST", url, quota(v, name+"-bad", `{"used":3,"limit":2,"owner":"ops"}`, "")); code != 422 ||
				causeMessages(st) != "spec: Invalid value: used must not exceed limit\nspec: Invalid value: owner ops is not a team" {
				t.Fatalf("invalid create: %d %s", code, causeMessages(st))
			}
			if code, st, _ := do(t, "PUT", url+"/"+name, quota(v, name, `{"used":1,"limit":2,"owner":"team-b"}`, rv)); code != 422 ||
				causeMessages(st) != "spec: Invalid value: owner is immutable" {
				t.Fatalf("transition: %d %s", code, causeMessages(st))
			}
			if code, _, _ := do(t, "PUT", url+"/"+name, quota(v, name, `{"used":2,"limit":2,"owner":"team-a"}`, rv)); code != 200 {
				t.Fatalf("update: %d", code)
			}
			if code, _ := get(t, url+"/"+name); code != 200 {
				t.Fatalf("get: %d", code)
			}
		}
	}
	if n := cel.Compilations() - before; n != 0 {
		t.Errorf("100 custom resource requests compiled %d rules, want 0", n)
	}
}

// twoVersionsCRD stores v2; v1 is served too, with a field v2 does not
// have (legacy, with a pattern) and a required one.
const twoVersionsCRD = `{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition",
"metadata":{"name":"gadgets.example.com"},
"spec":{"group":"example.com","scope":"Cluster","names":{"plural":"gadgets","singular":"gadget","kind":"Gadget"},
"versions":[
 {"name":"v1","served":true,"storage":false,"schema":{"openAPIV3Schema":{"type":"object","properties":{"spec":{"type":"object","required":["size"],
   "properties":{"size":{"type":"integer"},"legacy":{"type":"string","pattern":"^x"}}}}}}},
 {"name":"v2","served":true,"storage":true,"schema":{"openAPIV3Schema":{"type":"object","properties":{"spec":{"type":"object",
   "properties":{"size":{"type":"integer"}}}}}}}]}}`

// TestServer_ValidatedInRequestVersion: an object written in a version
// other than the storage version is validated with all the fields of its
// own version, and only then pruned to the storage version's schema (as
// upstream converts it when it writes it to storage): a field only the
// request's version has is still checked, a required field of that version
// is still there.
func TestServer_ValidatedInRequestVersion(t *testing.T) {
	ts := startServer(t, Config{})
	eventually(t, "ready", func() bool { code, _ := get(t, ts.url+"/readyz"); return code == 200 })
	if code, st, _ := do(t, "POST", ts.url+"/apis/apiextensions.k8s.io/v1/customresourcedefinitions", twoVersionsCRD); code != 201 {
		t.Fatalf("create CRD: %d %s", code, causeMessages(st))
	}
	v1 := ts.url + "/apis/example.com/v1/gadgets"
	eventually(t, "gadgets served", func() bool { code, _ := get(t, v1); return code == 200 })
	gadget := func(name, spec string) string {
		return `{"apiVersion":"example.com/v1","kind":"Gadget","metadata":{"name":"` + name + `"},"spec":` + spec + `}`
	}
	code, st, _ := do(t, "POST", v1, gadget("bad", `{"size":1,"legacy":"y"}`))
	if want := `spec.legacy: Invalid value: "y": spec.legacy in body should match '^x'`; code != 422 || causeMessages(st) != want {
		t.Fatalf("a v1 field v2 does not have: got %d %s, want 422 %s", code, causeMessages(st), want)
	}
	code, obj, _ := do(t, "POST", v1, gadget("good", `{"size":1,"legacy":"xyz"}`))
	if code != 201 {
		t.Fatalf("a valid v1 object: got %d %s", code, causeMessages(obj))
	}
	_, stored, _ := do(t, "GET", ts.url+"/apis/example.com/v2/gadgets/good", "")
	if spec, _ := stored["spec"].(map[string]any); len(spec) != 1 || spec["size"] != float64(1) {
		t.Errorf("stored in v2: spec %v, want only size (legacy pruned by v2's schema)", stored["spec"])
	}
}
