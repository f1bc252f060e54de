package validation_test

import (
	"strings"
	"testing"

	"github.com/crdlab/crdlab/apis/apiextensions"
	"github.com/crdlab/crdlab/apis/apiextensions/validation"
	metav1 "github.com/crdlab/crdlab/apis/meta/v1"
	"github.com/crdlab/crdlab/apis/validation/field"
)

func ptr[T any](v T) *T { return &v }

// validCRD is the hub form of a v1 CRD with one version and a structural schema.
func validCRD() *apiextensions.CustomResourceDefinition {
	return &apiextensions.CustomResourceDefinition{
		ObjectMeta: metav1.ObjectMeta{Name: "crontabs.stable.example.com"},
		Spec: apiextensions.CustomResourceDefinitionSpec{
			Group:   "stable.example.com",
			Version: "v1",
			Names:   apiextensions.CustomResourceDefinitionNames{Plural: "crontabs", Singular: "crontab", Kind: "CronTab", ListKind: "CronTabList"},
			Scope:   apiextensions.NamespaceScoped,
			Versions: []apiextensions.CustomResourceDefinitionVersion{
				{Name: "v1", Served: true, Storage: true},
			},
			Validation: &apiextensions.CustomResourceValidation{OpenAPIV3Schema: &apiextensions.JSONSchemaProps{
				Type: "object",
				Properties: map[string]apiextensions.JSONSchemaProps{
					"spec": {Type: "object", Properties: map[string]apiextensions.JSONSchemaProps{
						"cronSpec": {Type: "string"},
						"replicas": {Type: "integer"},
						"size":     {XIntOrString: true, AnyOf: []apiextensions.JSONSchemaProps{{Type: "integer"}, {Type: "string"}}},
					}},
				},
			}},
			Conversion:            &apiextensions.CustomResourceConversion{Strategy: apiextensions.NoneConverter},
			PreserveUnknownFields: ptr(false),
		},
		Status: apiextensions.CustomResourceDefinitionStatus{StoredVersions: []string{"v1"}},
	}
}

func fields(errs field.ErrorList) string {
	var out []string
	for _, e := range errs {
		out = append(out, e.Error())
	}
	return strings.Join(out, "\n")
}

func TestValidateCustomResourceDefinition(t *testing.T) {
	t.Run("OK", func(t *testing.T) {
		if errs := validation.ValidateCustomResourceDefinition(validCRD()); len(errs) != 0 {
			t.Fatal(fields(errs))
		}
	})
	for _, tc := range []struct {
		name   string
		mutate func(*apiextensions.CustomResourceDefinition)
		want   string // one line of the error list
	}{
		{"ErrNameMismatch", func(c *apiextensions.CustomResourceDefinition) { c.Name = "crontab.stable.example.com" },
			`metadata.name: Invalid value: "crontab.stable.example.com": must be spec.names.plural+"."+spec.group`},
		{"ErrGroupRequired", func(c *apiextensions.CustomResourceDefinition) { c.Spec.Group = "" }, "spec.group: Required value"},
		{"ErrGroupNoDot", func(c *apiextensions.CustomResourceDefinition) { c.Spec.Group = "example"; c.Name = "crontabs.example" },
			`spec.group: Invalid value: "example": should be a domain with at least one dot`},
		{"ErrScope", func(c *apiextensions.CustomResourceDefinition) { c.Spec.Scope = "Galaxy" },
			`spec.scope: Unsupported value: "Galaxy": supported values: "Cluster", "Namespaced"`},
		{"ErrScopeRequired", func(c *apiextensions.CustomResourceDefinition) { c.Spec.Scope = "" }, "spec.scope: Required value"},
		{"ErrPluralNotDNS", func(c *apiextensions.CustomResourceDefinition) {
			c.Spec.Names.Plural = "Crontabs"
			c.Name = "Crontabs.stable.example.com"
		},
			`spec.names.plural: Invalid value: "Crontabs": a DNS-1035 label must consist of lower case alphanumeric characters`},
		{"ErrKindEqualsListKind", func(c *apiextensions.CustomResourceDefinition) { c.Spec.Names.ListKind = "CronTab" },
			`spec.names.listKind: Invalid value: "CronTab": kind and listKind may not be the same`},
		{"ErrNoStorage", func(c *apiextensions.CustomResourceDefinition) { c.Spec.Versions[0].Storage = false },
			"spec.versions: Invalid value: ",
		},
		{"ErrTwoStorage", func(c *apiextensions.CustomResourceDefinition) {
			c.Spec.Versions = append(c.Spec.Versions, apiextensions.CustomResourceDefinitionVersion{Name: "v2", Served: true, Storage: true})
		}, "must have exactly one version marked as storage version"},
		{"ErrDuplicateVersion", func(c *apiextensions.CustomResourceDefinition) {
			c.Spec.Versions = append(c.Spec.Versions, apiextensions.CustomResourceDefinitionVersion{Name: "v1", Served: true})
		}, "must contain unique version names"},
		{"ErrVersionName", func(c *apiextensions.CustomResourceDefinition) { c.Spec.Versions[0].Name = "V1"; c.Spec.Version = "V1" },
			`spec.versions[0].name: Invalid value: "V1": a DNS-1035 label`},
		{"ErrStoredVersionGone", func(c *apiextensions.CustomResourceDefinition) { c.Status.StoredVersions = []string{"v1", "v0"} },
			`status.storedVersions[1]: Invalid value: "v0": missing from spec.versions; v0 was previously a storage version`},
		{"ErrNoStoredVersions", func(c *apiextensions.CustomResourceDefinition) { c.Status.StoredVersions = nil },
			"status.storedVersions: Invalid value: null: must have at least one stored version"},
		{"ErrSchemaRequired", func(c *apiextensions.CustomResourceDefinition) { c.Spec.Validation = nil },
			"spec.versions[0].schema.openAPIV3Schema: Required value"},
		{"ErrTopAndPerVersionSchema", func(c *apiextensions.CustomResourceDefinition) {
			c.Spec.Versions[0].Schema = &apiextensions.CustomResourceValidation{OpenAPIV3Schema: &apiextensions.JSONSchemaProps{Type: "object"}}
		}, "spec.validation: Forbidden: top-level and per-version schemas are mutually exclusive"},
		{"ErrNonStructuralField", func(c *apiextensions.CustomResourceDefinition) {
			c.Spec.Validation.OpenAPIV3Schema.Properties["spec"].Properties["cronSpec"] = apiextensions.JSONSchemaProps{Description: "no type"}
		}, "spec.validation.openAPIV3Schema.properties[spec].properties[cronSpec].type: Required value: must not be empty for specified object fields"},
		{"ErrRootNotObject", func(c *apiextensions.CustomResourceDefinition) {
			c.Spec.Validation.OpenAPIV3Schema = &apiextensions.JSONSchemaProps{Type: "string"}
		}, `spec.validation.openAPIV3Schema.type: Invalid value: "string": must be object at the root`},
		{"ErrTypeInAnyOf", func(c *apiextensions.CustomResourceDefinition) {
			s := c.Spec.Validation.OpenAPIV3Schema
			s.AnyOf = []apiextensions.JSONSchemaProps{{Type: "object"}}
		}, "spec.validation.openAPIV3Schema.anyOf[0].type: Forbidden: must be empty to be structural"},
		{"ErrRef", func(c *apiextensions.CustomResourceDefinition) { c.Spec.Validation.OpenAPIV3Schema.Ref = ptr("#/x") },
			"spec.validation.openAPIV3Schema.$ref: Forbidden: $ref is not supported"},
		{"ErrArrayWithoutItems", func(c *apiextensions.CustomResourceDefinition) {
			c.Spec.Validation.OpenAPIV3Schema.Properties["list"] = apiextensions.JSONSchemaProps{Type: "array"}
		}, "spec.validation.openAPIV3Schema.properties[list].items: Required value: must be specified"},
		{"ErrMetadataSchema", func(c *apiextensions.CustomResourceDefinition) {
			c.Spec.Validation.OpenAPIV3Schema.Properties["metadata"] = apiextensions.JSONSchemaProps{Type: "object", Properties: map[string]apiextensions.JSONSchemaProps{"labels": {Type: "object"}}}
		}, "spec.validation.openAPIV3Schema.properties[metadata]: Forbidden: must not specify anything other than name and generateName"},
		{"ErrBadPattern", func(c *apiextensions.CustomResourceDefinition) {
			c.Spec.Validation.OpenAPIV3Schema.Properties["p"] = apiextensions.JSONSchemaProps{Type: "string", Pattern: "("}
		}, "spec.validation.openAPIV3Schema.properties[p].pattern: Invalid value: \"(\": must be a valid regular expression"},
		{"ErrColumn", func(c *apiextensions.CustomResourceDefinition) {
			c.Spec.AdditionalPrinterColumns = []apiextensions.CustomResourceColumnDefinition{{Name: "A", Type: "text", JSONPath: "spec.a"}}
		}, `spec.additionalPrinterColumns[0].type: Invalid value: "text": must be one of boolean,date,integer,number,string`},
		{"ErrColumnPath", func(c *apiextensions.CustomResourceDefinition) {
			c.Spec.AdditionalPrinterColumns = []apiextensions.CustomResourceColumnDefinition{{Name: "A", Type: "string", JSONPath: "spec.a"}}
		}, `spec.additionalPrinterColumns[0].JSONPath: Invalid value: "spec.a": must be a simple json path starting with .`},
		{"ErrScalePath", func(c *apiextensions.CustomResourceDefinition) {
			c.Spec.Subresources = &apiextensions.CustomResourceSubresources{Scale: &apiextensions.CustomResourceSubresourceScale{SpecReplicasPath: ".status.r", StatusReplicasPath: ".status.r"}}
		}, `spec.subresources.scale.specReplicasPath: Invalid value: ".status.r": should be a json path under .spec`},
		{"ErrSelectableField", func(c *apiextensions.CustomResourceDefinition) {
			c.Spec.SelectableFields = []apiextensions.SelectableField{{JSONPath: ".spec"}}
		}, `spec.selectableFields[0].jsonPath: Invalid value: ".spec": must point to a field of type string, boolean or integer`},
		{"ErrWebhookWithoutConfig", func(c *apiextensions.CustomResourceDefinition) {
			c.Spec.Conversion = &apiextensions.CustomResourceConversion{Strategy: apiextensions.WebhookConverter, ConversionReviewVersions: []string{"v1"}}
		}, "spec.conversion.webhookClientConfig: Required value: required when strategy is set to Webhook"},
		{"ErrDeprecationWarning", func(c *apiextensions.CustomResourceDefinition) { c.Spec.Versions[0].DeprecationWarning = ptr("old") },
			`spec.versions[0].deprecationWarning: Invalid value: "old": can only be set for deprecated versions`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			crd := validCRD()
			tc.mutate(crd)
			got := fields(validation.ValidateCustomResourceDefinition(crd))
			if !strings.Contains(got, tc.want) {
				t.Errorf("errors lack %q; got:\n%s", tc.want, got)
			}
		})
	}
}

func TestValidateCustomResourceDefinition_PreserveUnknownFields(t *testing.T) {
	crd := validCRD()
	crd.Spec.PreserveUnknownFields = ptr(true)
	want := "spec.preserveUnknownFields: Invalid value: true: cannot set to true, set x-kubernetes-preserve-unknown-fields to true in spec.versions[*].schema instead"
	if got := fields(validation.ValidateCustomResourceDefinition(crd)); got != want {
		t.Errorf("create:\n got %s\nwant %s", got, want)
	}
	// A CRD stored with it (from v1beta1 days) may keep it, without a
	// schema, on update.
	old := crd.DeepCopy()
	old.ResourceVersion = "1"
	old.Spec.Validation = nil
	n := old.DeepCopy()
	n.Spec.Names.ShortNames = []string{"ct"}
	if errs := validation.ValidateCustomResourceDefinitionUpdate(n, old); len(errs) != 0 {
		t.Errorf("update: %s", fields(errs))
	}
}

func TestValidateCustomResourceDefinitionUpdate(t *testing.T) {
	old := validCRD()
	old.ResourceVersion = "1"
	t.Run("OK", func(t *testing.T) {
		n := old.DeepCopy()
		n.Spec.Versions = append(n.Spec.Versions, apiextensions.CustomResourceDefinitionVersion{Name: "v2", Served: true})
		if errs := validation.ValidateCustomResourceDefinitionUpdate(n, old); len(errs) != 0 {
			t.Error(fields(errs))
		}
	})
	t.Run("ErrGroupImmutable", func(t *testing.T) {
		n := old.DeepCopy()
		n.Spec.Group = "other.example.com"
		if got := fields(validation.ValidateCustomResourceDefinitionUpdate(n, old)); !strings.Contains(got, `spec.group: Invalid value: "other.example.com": field is immutable`) {
			t.Error(got)
		}
	})
	t.Run("ScopeMutableUntilEstablished", func(t *testing.T) {
		n := old.DeepCopy()
		n.Spec.Scope = apiextensions.ClusterScoped
		if errs := validation.ValidateCustomResourceDefinitionUpdate(n, old); len(errs) != 0 {
			t.Error(fields(errs))
		}
		established := old.DeepCopy()
		established.Status.Conditions = []apiextensions.CustomResourceDefinitionCondition{{Type: apiextensions.Established, Status: apiextensions.ConditionTrue}}
		if got := fields(validation.ValidateCustomResourceDefinitionUpdate(n, established)); !strings.Contains(got, "spec.scope: Invalid value: \"Cluster\": field is immutable") {
			t.Error(got)
		}
	})
	t.Run("ErrStoredVersionRemoved", func(t *testing.T) {
		o := old.DeepCopy()
		o.Spec.Versions = append(o.Spec.Versions, apiextensions.CustomResourceDefinitionVersion{Name: "v2", Served: true})
		o.Status.StoredVersions = []string{"v2", "v1"}
		n := old.DeepCopy()
		n.Status.StoredVersions = []string{"v2", "v1"}
		if got := fields(validation.ValidateCustomResourceDefinitionUpdate(n, o)); !strings.Contains(got, `status.storedVersions[0]: Invalid value: "v2": missing from spec.versions`) {
			t.Error(got)
		}
	})
}

func TestValidateCustomResourceDefinitionStatus(t *testing.T) {
	status := &apiextensions.CustomResourceDefinitionStatus{AcceptedNames: apiextensions.CustomResourceDefinitionNames{Plural: "Bad_Plural"}}
	errs := validation.ValidateCustomResourceDefinitionStatus(status, field.NewPath("status"))
	if len(errs) != 1 || errs[0].Field != "status.acceptedNames.plural" {
		t.Errorf("got %v", fields(errs))
	}
}

// TestValidateCustomResourceDefinition_APIApproval: a CRD of a Kubernetes
// group needs the api-approved.kubernetes.io annotation, as upstream; an
// update that keeps the state (even a missing one) passes.
func TestValidateCustomResourceDefinition_APIApproval(t *testing.T) {
	k8sCRD := func(annotation string) *apiextensions.CustomResourceDefinition {
		crd := validCRD()
		crd.Spec.Group, crd.Name = "widgets.k8s.io", "crontabs.widgets.k8s.io"
		if annotation != "" {
			crd.Annotations = map[string]string{"api-approved.kubernetes.io": annotation}
		}
		return crd
	}
	const missing = `metadata.annotations[api-approved.kubernetes.io]: Required value: protected groups must have approval annotation "api-approved.kubernetes.io", see https://github.com/kubernetes/enhancements/pull/1111`
	for annotation, want := range map[string]string{
		"":                              missing,
		"yes":                           `metadata.annotations[api-approved.kubernetes.io]: Invalid value: "yes": protected groups must have approval annotation "api-approved.kubernetes.io" with either a URL or a reason starting with "unapproved", see https://github.com/kubernetes/enhancements/pull/1111`,
		"https://github.com/x/y/pull/1": "",
		"unapproved, experimental-only": "",
	} {
		if got := fields(validation.ValidateCustomResourceDefinition(k8sCRD(annotation))); got != want {
			t.Errorf("%q:\n got %s\nwant %s", annotation, got, want)
		}
	}
	old := k8sCRD("")
	old.ResourceVersion = "1"
	n := k8sCRD("")
	n.ResourceVersion = "1"
	if errs := validation.ValidateCustomResourceDefinitionUpdate(n, old); len(errs) != 0 {
		t.Errorf("unchanged missing approval: %s", fields(errs))
	}
}
