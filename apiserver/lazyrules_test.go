package apiserver

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	apiextensionsv1 "github.com/crdlab/crdlab/apis/apiextensions/v1"
)

// TestSchemaFor_RulesCompiledOnFirstWrite: the serving schema's CEL rules
// are compiled when the first object is validated, not when the schema
// (and with it the CRD's serving info) is built, and then they hold.
func TestSchemaFor_RulesCompiledOnFirstWrite(t *testing.T) {
	var crd apiextensionsv1.CustomResourceDefinition
	if err := json.Unmarshal([]byte(`{"metadata":{"name":"widgets.example.com"},
	 "spec":{"group":"example.com","names":{"plural":"widgets","kind":"Widget"},"scope":"Namespaced",
	  "versions":[{"name":"v1","served":true,"storage":true,"schema":{"openAPIV3Schema":{"type":"object","properties":{
	   "spec":{"type":"object","x-kubernetes-validations":[{"rule":"self.min <= self.max","message":"min above max"}],
	    "properties":{"min":{"type":"integer"},"max":{"type":"integer"}}}}}}}]}}`), &crd); err != nil {
		t.Fatal(err)
	}
	sch, err := schemaFor(&crd, "v1")
	if err != nil {
		t.Fatal(err)
	}
	x := sch.(structuralSchema)
	if x.cel.compiled.Load() {
		t.Fatal("the CEL rules were compiled with the schema, before any write")
	}
	obj := func(min, max int64) map[string]any {
		return map[string]any{"apiVersion": "example.com/v1", "kind": "Widget", "metadata": map[string]any{"name": "a"},
			"spec": map[string]any{"min": min, "max": max}}
	}
	if causes := x.Validate(context.Background(), obj(1, 2), nil); len(causes) != 0 {
		t.Errorf("a valid object: %v", causes)
	}
	if !x.cel.compiled.Load() {
		t.Error("the first validation did not compile the rules")
	}
	causes := x.Validate(context.Background(), obj(3, 2), nil)
	if len(causes) != 1 || !strings.Contains(causes[0].Message, "min above max") {
		t.Errorf("min above max: causes %v, want the rule's message", causes)
	}
}

// TestCRDStatus_ManagedFields: a /status write's bookkeeping leaves the
// CRD's spec out (the handler's resetTopFields), with the entries the
// merge engine makes on whole objects: the status writer owns what it
// wrote of status and nothing of spec, even a spec field it sent changed;
// the creator keeps the spec.
func TestCRDStatus_ManagedFields(t *testing.T) {
	l := loadCRDs(t, 1, 20, 2)
	path := "/apis/apiextensions.k8s.io/v1/customresourcedefinitions/" + l.names[0]
	req, _ := http.NewRequest("PATCH", l.url+path+"/status?fieldManager=statuser", strings.NewReader(
		`[{"op":"add","path":"/spec/names/shortNames","value":["x"]},`+
			`{"op":"add","path":"/status/conditions/-","value":{"type":"Bogus","status":"True","reason":"R","message":"m","lastTransitionTime":"2026-01-01T00:00:00Z"}}]`))
	req.Header.Set("Content-Type", "application/json-patch+json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	var crd struct {
		Metadata struct {
			ManagedFields []struct {
				Manager, Subresource string
				FieldsV1             json.RawMessage
			}
		}
		Spec struct{ Names struct{ ShortNames []string } }
	}
	err = json.NewDecoder(resp.Body).Decode(&crd)
	resp.Body.Close()
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("status patch: HTTP %d, %v", resp.StatusCode, err)
	}
	if len(crd.Spec.Names.ShortNames) != 0 {
		t.Errorf("the status write changed spec: shortNames %v", crd.Spec.Names.ShortNames)
	}
	entries := map[string]string{}
	for _, e := range crd.Metadata.ManagedFields {
		entries[e.Manager+"/"+e.Subresource] = string(e.FieldsV1)
	}
	statuser, creator := entries["statuser/status"], entries["Go-http-client/"]
	if !strings.Contains(statuser, `"k:{\"type\":\"Bogus\"}"`) || strings.Contains(statuser, `"f:spec"`) {
		t.Errorf("the status writer's entry: %s; want its condition and no spec", statuser)
	}
	if !strings.Contains(creator, `"f:versions":{}`) || !strings.Contains(creator, `"f:group":{}`) || strings.Contains(creator, `"f:status"`) {
		t.Errorf("the creator's entry: %s; want the spec it wrote, no status", creator)
	}
}
