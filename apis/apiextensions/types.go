package apiextensions

import (
	metav1 "github.com/crdlab/crdlab/apis/meta/v1"
)

// ConversionStrategyType says how custom resources are converted between
// the versions of a CRD.
type ConversionStrategyType string

const (
	NoneConverter    ConversionStrategyType = "None"
	WebhookConverter ConversionStrategyType = "Webhook"
)

// CustomResourceDefinitionSpec is the hub shape of a CRD spec. It keeps the
// v1beta1 top-level fields (Version, Validation, Subresources,
// AdditionalPrinterColumns, SelectableFields) beside Versions: when every
// version agrees on one of them, it lives at the top level and the
// per-version field is nil. Validation forbids having both.
//
// Mirrors k8s.io/apiextensions-apiserver/pkg/apis/apiextensions.CustomResourceDefinitionSpec.
type CustomResourceDefinitionSpec struct {
	Group string
	// Version is the name of Versions[0] (kept for v1beta1).
	Version string
	Names   CustomResourceDefinitionNames
	Scope   ResourceScope
	// Validation is the schema shared by every version, or nil.
	Validation *CustomResourceValidation
	// Subresources are shared by every version, or nil.
	Subresources *CustomResourceSubresources
	Versions     []CustomResourceDefinitionVersion
	// AdditionalPrinterColumns are shared by every version, or nil.
	AdditionalPrinterColumns []CustomResourceColumnDefinition
	// SelectableFields are shared by every version, or nil.
	SelectableFields []SelectableField
	Conversion       *CustomResourceConversion
	// PreserveUnknownFields is a pointer so that v1beta1's default (true)
	// can be told apart from an explicit false.
	PreserveUnknownFields *bool
}

// CustomResourceConversion describes how to convert custom resources
// between versions (flat, as v1beta1).
type CustomResourceConversion struct {
	Strategy                 ConversionStrategyType
	WebhookClientConfig      *WebhookClientConfig
	ConversionReviewVersions []string
}

// WebhookClientConfig says how to reach a webhook.
type WebhookClientConfig struct {
	URL      *string
	Service  *ServiceReference
	CABundle []byte
}

// ServiceReference points at a Service in the cluster.
type ServiceReference struct {
	Namespace string
	Name      string
	Path      *string
	Port      int32
}

// CustomResourceDefinitionVersion describes one version of a CRD.
type CustomResourceDefinitionVersion struct {
	Name                     string
	Served                   bool
	Storage                  bool
	Deprecated               bool
	DeprecationWarning       *string
	Schema                   *CustomResourceValidation
	Subresources             *CustomResourceSubresources
	AdditionalPrinterColumns []CustomResourceColumnDefinition
	SelectableFields         []SelectableField
}

// SelectableField names a field usable in a field selector.
type SelectableField struct {
	JSONPath string
}

// CustomResourceColumnDefinition is one extra column of kubectl get.
type CustomResourceColumnDefinition struct {
	Name        string
	Type        string
	Format      string
	Description string
	Priority    int32
	JSONPath    string
}

// CustomResourceDefinitionNames are the names the custom resources are
// served under.
type CustomResourceDefinitionNames struct {
	Plural     string
	Singular   string
	ShortNames []string
	Kind       string
	ListKind   string
	Categories []string
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
	// Established means the API is served.
	Established CustomResourceDefinitionConditionType = "Established"
	// NamesAccepted means the names do not conflict with another CRD.
	NamesAccepted CustomResourceDefinitionConditionType = "NamesAccepted"
	// NonStructuralSchema means the schema is not structural.
	NonStructuralSchema CustomResourceDefinitionConditionType = "NonStructuralSchema"
	// Terminating means the CRD is being deleted with its instances.
	Terminating CustomResourceDefinitionConditionType = "Terminating"
	// KubernetesAPIApprovalPolicyConformant is about *.k8s.io groups.
	KubernetesAPIApprovalPolicyConformant CustomResourceDefinitionConditionType = "KubernetesAPIApprovalPolicyConformant"
)

// CustomResourceDefinitionCondition is one condition of a CRD.
type CustomResourceDefinitionCondition struct {
	Type               CustomResourceDefinitionConditionType
	Status             ConditionStatus
	LastTransitionTime metav1.Time
	Reason             string
	Message            string
	ObservedGeneration int64
}

// CustomResourceDefinitionStatus is what the controllers report about a CRD.
type CustomResourceDefinitionStatus struct {
	Conditions         []CustomResourceDefinitionCondition
	AcceptedNames      CustomResourceDefinitionNames
	StoredVersions     []string
	ObservedGeneration int64
}

// CustomResourceCleanupFinalizer is removed by the finalizing controller once
// every instance of a deleted CRD is gone.
const CustomResourceCleanupFinalizer = "customresourcecleanup.apiextensions.k8s.io"

// CustomResourceDefinition is the hub (internal) CRD: every external
// version converts to and from it, and validation runs on it.
//
// Mirrors k8s.io/apiextensions-apiserver/pkg/apis/apiextensions.CustomResourceDefinition.
type CustomResourceDefinition struct {
	metav1.TypeMeta
	metav1.ObjectMeta
	Spec   CustomResourceDefinitionSpec
	Status CustomResourceDefinitionStatus
}

// CustomResourceDefinitionList is a list of CRDs.
type CustomResourceDefinitionList struct {
	metav1.TypeMeta
	metav1.ListMeta
	Items []CustomResourceDefinition
}

// CustomResourceValidation holds a schema.
type CustomResourceValidation struct {
	OpenAPIV3Schema *JSONSchemaProps
}

// CustomResourceSubresources enables the status and scale subresources.
type CustomResourceSubresources struct {
	Status *CustomResourceSubresourceStatus
	Scale  *CustomResourceSubresourceScale
}

// CustomResourceSubresourceStatus enables /status.
type CustomResourceSubresourceStatus struct{}

// CustomResourceSubresourceScale enables /scale.
type CustomResourceSubresourceScale struct {
	SpecReplicasPath   string
	StatusReplicasPath string
	LabelSelectorPath  *string
}

var _ metav1.RuntimeObject = (*CustomResourceDefinition)(nil)
