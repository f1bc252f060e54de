package apiserver

import (
	"context"
	"encoding/json"
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
