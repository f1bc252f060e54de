package v1beta1

import (
	metav1 "github.com/crdlab/crdlab/apis/meta/v1"
)

// ConversionStrategyType says how custom resources are converted between
// the versions of a CRD.
type ConversionStrategyType string

const (
	// NoneConverter only changes apiVersion.
	NoneConverter ConversionStrategyType = "None"
	// WebhookConverter calls a webhook.
	WebhookConverter ConversionStrategyType = "Webhook"
)

// CustomResourceDefinitionSpec is the v1beta1 (historical) shape of a CRD
// spec: a top-level version, validation, subresources and printer columns
// that apply to every version, and an optional list of versions that may
// override them.
//
// Mirrors k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1beta1.CustomResourceDefinitionSpec.
type CustomResourceDefinitionSpec struct {
	Group string `json:"group"`
	// Version is the first (deprecated single) version; defaulted from
	// Versions[0] and the other way round.
	Version string                        `json:"version,omitempty"`
	Names   CustomResourceDefinitionNames `json:"names"`
	// Scope defaults to Namespaced in v1beta1.
	Scope ResourceScope `json:"scope"`
	// Validation applies to every version (exclusive with per-version schemas).
	Validation *CustomResourceValidation `json:"validation,omitempty"`
	// Subresources apply to every version (exclusive with per-version ones).
	Subresources *CustomResourceSubresources       `json:"subresources,omitempty"`
	Versions     []CustomResourceDefinitionVersion `json:"versions,omitempty"`
	// AdditionalPrinterColumns apply to every version (exclusive with per-version ones).
	AdditionalPrinterColumns []CustomResourceColumnDefinition `json:"additionalPrinterColumns,omitempty"`
	SelectableFields         []SelectableField                `json:"selectableFields,omitempty"`
	Conversion               *CustomResourceConversion        `json:"conversion,omitempty"`
	// PreserveUnknownFields defaults to true in v1beta1.
	PreserveUnknownFields *bool `json:"preserveUnknownFields,omitempty"`
}

// CustomResourceConversion describes how to convert custom resources
// between versions (v1beta1 keeps the webhook fields flat).
type CustomResourceConversion struct {
	Strategy                 ConversionStrategyType `json:"strategy"`
	WebhookClientConfig      *WebhookClientConfig   `json:"webhookClientConfig,omitempty"`
	ConversionReviewVersions []string               `json:"conversionReviewVersions,omitempty"`
}

// WebhookClientConfig says how to reach a webhook.
type WebhookClientConfig struct {
	URL      *string           `json:"url,omitempty"`
	Service  *ServiceReference `json:"service,omitempty"`
	CABundle []byte            `json:"caBundle,omitempty"`
}

// ServiceReference points at a Service in the cluster.
type ServiceReference struct {
	Namespace string  `json:"namespace"`
	Name      string  `json:"name"`
	Path      *string `json:"path,omitempty"`
	Port      *int32  `json:"port,omitempty"`
}

// CustomResourceDefinitionVersion describes one version of a CRD.
type CustomResourceDefinitionVersion struct {
	Name                     string                           `json:"name"`
	Served                   bool                             `json:"served"`
	Storage                  bool                             `json:"storage"`
	Deprecated               bool                             `json:"deprecated,omitempty"`
	DeprecationWarning       *string                          `json:"deprecationWarning,omitempty"`
	Schema                   *CustomResourceValidation        `json:"schema,omitempty"`
	Subresources             *CustomResourceSubresources      `json:"subresources,omitempty"`
	AdditionalPrinterColumns []CustomResourceColumnDefinition `json:"additionalPrinterColumns,omitempty"`
	SelectableFields         []SelectableField                `json:"selectableFields,omitempty"`
}

// SelectableField names a field usable in a field selector.
type SelectableField struct {
	JSONPath string `json:"jsonPath"`
}

// CustomResourceColumnDefinition is one extra column of kubectl get. Note
// the historical spelling of the JSON field: "JSONPath".
type CustomResourceColumnDefinition struct {
	Name        string `json:"name"`
	Type        string `json:"type"`
	Format      string `json:"format,omitempty"`
	Description string `json:"description,omitempty"`
	Priority    int32  `json:"priority,omitempty"`
	JSONPath    string `json:"JSONPath"`
}

// CustomResourceDefinitionNames are the names the custom resources are
// served under.
type CustomResourceDefinitionNames struct {
	Plural     string   `json:"plural"`
	Singular   string   `json:"singular,omitempty"`
	ShortNames []string `json:"shortNames,omitempty"`
	Kind       string   `json:"kind"`
	ListKind   string   `json:"listKind,omitempty"`
	Categories []string `json:"categories,omitempty"`
}

// ResourceScope is Cluster or Namespaced.
type ResourceScope string

const (
	ClusterScoped   ResourceScope = "Cluster"
	NamespaceScoped ResourceScope = "Namespaced"
)

// ConditionStatus is True, False or Unknown.
type ConditionStatus string

const (
	ConditionTrue    ConditionStatus = "True"
	ConditionFalse   ConditionStatus = "False"
	ConditionUnknown ConditionStatus = "Unknown"
)

// CustomResourceDefinitionConditionType names a condition of a CRD.
type CustomResourceDefinitionConditionType string

const (
	Established                           CustomResourceDefinitionConditionType = "Established"
	NamesAccepted                         CustomResourceDefinitionConditionType = "NamesAccepted"
	NonStructuralSchema                   CustomResourceDefinitionConditionType = "NonStructuralSchema"
	Terminating                           CustomResourceDefinitionConditionType = "Terminating"
	KubernetesAPIApprovalPolicyConformant CustomResourceDefinitionConditionType = "KubernetesAPIApprovalPolicyConformant"
)

// CustomResourceDefinitionCondition is one condition of a CRD.
type CustomResourceDefinitionCondition struct {
	Type               CustomResourceDefinitionConditionType `json:"type"`
	Status             ConditionStatus                       `json:"status"`
	LastTransitionTime metav1.Time                           `json:"lastTransitionTime,omitempty"`
	Reason             string                                `json:"reason,omitempty"`
	Message            string                                `json:"message,omitempty"`
	ObservedGeneration int64                                 `json:"observedGeneration,omitempty"`
}

// CustomResourceDefinitionStatus is what the controllers report about a CRD.
type CustomResourceDefinitionStatus struct {
	Conditions         []CustomResourceDefinitionCondition `json:"conditions"`
	AcceptedNames      CustomResourceDefinitionNames       `json:"acceptedNames"`
	StoredVersions     []string                            `json:"storedVersions"`
	ObservedGeneration int64                               `json:"observedGeneration,omitempty"`
}

// CustomResourceDefinition registers a new resource with the server
// (apiextensions.k8s.io/v1beta1: removed from serving in Kubernetes 1.22,
// still understood by crdlab convert).
//
// Mirrors k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1beta1.CustomResourceDefinition.
type CustomResourceDefinition struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              CustomResourceDefinitionSpec   `json:"spec"`
	Status            CustomResourceDefinitionStatus `json:"status,omitempty"`
}

// CustomResourceDefinitionList is a list of CRDs.
type CustomResourceDefinitionList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []CustomResourceDefinition `json:"items"`
}

// CustomResourceValidation holds a schema.
type CustomResourceValidation struct {
	OpenAPIV3Schema *JSONSchemaProps `json:"openAPIV3Schema,omitempty"`
}

// CustomResourceSubresources enables the status and scale subresources.
type CustomResourceSubresources struct {
	Status *CustomResourceSubresourceStatus `json:"status,omitempty"`
	Scale  *CustomResourceSubresourceScale  `json:"scale,omitempty"`
}

// CustomResourceSubresourceStatus enables /status.
type CustomResourceSubresourceStatus struct{}

// CustomResourceSubresourceScale enables /scale.
type CustomResourceSubresourceScale struct {
	SpecReplicasPath   string  `json:"specReplicasPath"`
	StatusReplicasPath string  `json:"statusReplicasPath"`
	LabelSelectorPath  *string `json:"labelSelectorPath,omitempty"`
}

var (
	_ metav1.RuntimeObject = (*CustomResourceDefinition)(nil)
	_ metav1.ListInterface = (*CustomResourceDefinitionList)(nil)
)
