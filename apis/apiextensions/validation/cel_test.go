package validation_test

import (
	"strings"
	"testing"

	"github.com/crdlab/crdlab/apis/apiextensions"
	"github.com/crdlab/crdlab/apis/apiextensions/validation"
)

// updatable gives the CRD the resourceVersion an update carries.
func updatable(crd *apiextensions.CustomResourceDefinition) *apiextensions.CustomResourceDefinition {
	crd.ResourceVersion = "1"
	return crd
}

// withRules puts x-kubernetes-validations on spec (and maxItems on a list
// the rules can loop over).
func withRules(crd *apiextensions.CustomResourceDefinition, maxItems int64, rules ...apiextensions.ValidationRule) {
	spec := crd.Spec.Validation.OpenAPIV3Schema.Properties["spec"]
	spec.Properties["tags"] = apiextensions.JSONSchemaProps{Type: "array", MaxItems: &maxItems, Items: &apiextensions.JSONSchemaPropsOrArray{Schema: &apiextensions.JSONSchemaProps{Type: "string", MaxLength: ptr(int64(64))}}}
	spec.XValidations = rules
	crd.Spec.Validation.OpenAPIV3Schema.Properties["spec"] = spec
}

const rulePath = "spec.validation.openAPIV3Schema.properties[spec].x-kubernetes-validations[0]"

func TestValidateCustomResourceDefinition_cel(t *testing.T) {
	quadratic := "self.tags.all(x, self.tags.all(y, x == y || x != y))"
	for _, tc := range []struct {
		name  string
		rules []apiextensions.ValidationRule
		want  string
	}{
		{"OK", []apiextensions.ValidationRule{{Rule: "self.replicas >= 0"}}, ""},
		{"ErrCompile", []apiextensions.ValidationRule{{Rule: "self.replicas == 'x'"}},
			rulePath + `.rule: Invalid value: {"Rule":"self.replicas == 'x'","Message":"","MessageExpression":"","Reason":null,"FieldPath":"","OptionalOldSelf":null}: compilation failed: ERROR: <input>:1:15: found no matching overload for '_==_' applied to '(int, string)'`},
		{"ErrRuleField", []apiextensions.ValidationRule{{Rule: " "}}, rulePath + ".rule: Required value: rule is not specified"},
		{"ErrCost", []apiextensions.ValidationRule{{Rule: quadratic}}, rulePath + ".rule: Forbidden: estimated rule cost exceeds budget by factor of 5.9x"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			crd := validCRD()
			withRules(crd, 1000, tc.rules...)
			got := fields(validation.ValidateCustomResourceDefinition(crd))
			if tc.want == "" && got != "" || !strings.Contains(got, tc.want) {
				t.Fatalf("got:\n%s\nwant:\n%s", got, tc.want)
			}
		})
	}
}

// An update that keeps a version's schema does not hold its rules to the
// per-rule cost limit again (a limit may have moved since it was written);
// one that changes the schema does.
func TestValidateCustomResourceDefinitionUpdate_cel(t *testing.T) {
	quadratic := apiextensions.ValidationRule{Rule: "self.tags.all(x, self.tags.all(y, x == y || x != y))"}
	old := updatable(validCRD())
	withRules(old, 1000, quadratic)
	unchanged := updatable(validCRD())
	withRules(unchanged, 1000, quadratic)
	unchanged.Spec.Names.ShortNames = []string{"ct"}
	if errs := validation.ValidateCustomResourceDefinitionUpdate(unchanged, old); len(errs) != 0 {
		t.Errorf("unchanged schema: %s", fields(errs))
	}
	changed := updatable(validCRD())
	withRules(changed, 999, quadratic)
	if got := fields(validation.ValidateCustomResourceDefinitionUpdate(changed, old)); !strings.Contains(got, "estimated rule cost exceeds budget") {
		t.Errorf("changed schema: got %q", got)
	}
}

// includes() is only for stored expressions at v1.37: a new rule may not
// use it, a rule kept by an update may.
func TestValidateCustomResourceDefinitionUpdate_storedExpressions(t *testing.T) {
	includes := apiextensions.ValidationRule{Rule: "self.tags.includes('a')"}
	crd := updatable(validCRD())
	withRules(crd, 10, includes)
	if got := fields(validation.ValidateCustomResourceDefinition(crd)); !strings.Contains(got, "undeclared reference to 'includes'") {
		t.Fatalf("create: got %q", got)
	}
	old := crd.DeepCopy()
	updated := crd.DeepCopy()
	updated.Spec.Names.ShortNames = []string{"ct"}
	if errs := validation.ValidateCustomResourceDefinitionUpdate(updated, old); len(errs) != 0 {
		t.Errorf("update keeping the rule: %s", fields(errs))
	}
}
