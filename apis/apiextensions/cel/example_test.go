package cel_test

import (
	"context"
	"fmt"

	"github.com/crdlab/crdlab/apis/apiextensions/cel"
	"github.com/crdlab/crdlab/apis/apiextensions/cel/library"
	"github.com/crdlab/crdlab/apis/apiextensions/structural"
	"github.com/crdlab/crdlab/apis/validation/field"
)

// A CRD's schema with two rules: one on every write, one (a transition
// rule, it reads oldSelf) only on update.
func ExampleValidator_Validate() {
	s, _ := structural.FromJSON([]byte(`{"type":"object","properties":{"spec":{"type":"object",
	  "properties":{"replicas":{"type":"integer"},"maxReplicas":{"type":"integer"},"class":{"type":"string"}},
	  "x-kubernetes-validations":[
	    {"rule":"self.replicas <= self.maxReplicas","message":"replicas must not exceed maxReplicas"},
	    {"rule":"self.class == oldSelf.class","message":"class is immutable"}]}}}`))

	// The CRD is checked once, when it is written...
	fmt.Println("CRD errors:", len(cel.ValidateSchemaRules(s, field.NewPath("openAPIV3Schema"), cel.CRDOptions{Compile: true})))
	// ...and its rules compiled once per version.
	v := cel.NewValidator(s, true, library.PerCallLimit)

	old := map[string]any{"spec": map[string]any{"replicas": int64(1), "maxReplicas": int64(3), "class": "gold"}}
	obj := map[string]any{"spec": map[string]any{"replicas": int64(5), "maxReplicas": int64(3), "class": "silver"}}

	errs, _ := v.Validate(context.Background(), nil, obj, nil, library.RuntimeCELCostBudget, cel.Options{})
	fmt.Println("create:", errs.ToAggregate())
	errs, _ = v.Validate(context.Background(), nil, obj, old, library.RuntimeCELCostBudget, cel.Options{Correlation: cel.NewCorrelatedObject(obj, old, s)})
	fmt.Println("update:", errs.ToAggregate())
	// Output:
	// CRD errors: 0
	// create: spec: Invalid value: replicas must not exceed maxReplicas
	// update: [spec: Invalid value: replicas must not exceed maxReplicas, spec: Invalid value: class is immutable]
}
