package v1

import (
	metav1 "github.com/crdlab/crdlab/apis/meta/v1"
	"github.com/crdlab/crdlab/scheme"
)

// ConversionStrategyType says how custom resources are converted between
// the versions of a CRD.
type ConversionStrategyType string

const (
	// NoneConverter only changes apiVersion; every other field stays as is.
	NoneConverter ConversionStrategyType = "None"
	// WebhookConverter calls a webhook (not implemented by crdlab's server).
	WebhookConverter ConversionStrategyType = "Webhook"
)

// CustomResourceDefinitionSpec describes how a user wants their resource to
// appear.
//
// Mirrors k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1.CustomResourceDefinitionSpec.
type CustomResourceDefinitionSpec struct {
	// Group is the API group of the custom resources: /apis/<group>/...
	Group string `json:"group"`
	// Names are the resource and kind names of the custom resources.
	Names CustomResourceDefinitionNames `json:"names"`
	// Scope is Cluster or Namespaced.
	Scope ResourceScope `json:"scope"`
	// Versions lists every version of the custom resources; exactly one
	// has Storage set.
	Versions []CustomResourceDefinitionVersion `json:"versions"`
	// Conversion says how to convert between versions (defaults to None).
	Conversion *CustomResourceConversion `json:"conversion,omitempty"`
	// PreserveUnknownFields keeps fields the schema does not name. Only
	// allowed (true) for CRDs that came from v1beta1.
	PreserveUnknownFields bool `json:"preserveUnknownFields,omitempty"`
}

// CustomResourceConversion describes how to convert custom resources
// between versions.
type CustomResourceConversion struct {
	// Strategy is None or Webhook.
	Strategy ConversionStrategyType `json:"strategy"`
	// Webhook is required when Strategy is Webhook.
	Webhook *WebhookConversion `json:"webhook,omitempty"`
}

// WebhookConversion describes how to call a conversion webhook.
type WebhookConversion struct {
	ClientConfig *WebhookClientConfig `json:"clientConfig,omitempty"`
	// ConversionReviewVersions lists the ConversionReview versions the
	// webhook understands, preferred first.
	ConversionReviewVersions []string `json:"conversionReviewVersions"`
}

// WebhookClientConfig says how to reach a webhook: a URL or a service.
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
	// Port defaults to 443.
	Port *int32 `json:"port,omitempty"`
}

// CustomResourceDefinitionVersion describes one version of a CRD.
type CustomResourceDefinitionVersion struct {
	// Name is the version name, e.g. "v1", "v2beta1".
	Name string `json:"name"`
	// Served says whether this version is served over REST.
	Served bool `json:"served"`
	// Storage says whether objects are persisted in this version. Exactly
	// one version has it.
	Storage bool `json:"storage"`
	// Deprecated makes the server send a warning header with responses.
	Deprecated bool `json:"deprecated,omitempty"`
	// DeprecationWarning overrides the default warning.
	DeprecationWarning *string `json:"deprecationWarning,omitempty"`
	// Schema validates, prunes and defaults custom resources of this version.
	Schema *CustomResourceValidation `json:"schema,omitempty"`
	// Subresources enables /status and /scale.
	Subresources *CustomResourceSubresources `json:"subresources,omitempty"`
	// AdditionalPrinterColumns are the extra columns of kubectl get.
	AdditionalPrinterColumns []CustomResourceColumnDefinition `json:"additionalPrinterColumns,omitempty"`
	// SelectableFields are the extra fields a field selector may name.
	SelectableFields []SelectableField `json:"selectableFields,omitempty"`
}

// SelectableField names a field usable in a field selector.
type SelectableField struct {
	// JSONPath is a simple path like .spec.color.
	JSONPath string `json:"jsonPath"`
}

// CustomResourceColumnDefinition is one extra column printed by kubectl get.
type CustomResourceColumnDefinition struct {
	Name        string `json:"name"`
	Type        string `json:"type"`
	Format      string `json:"format,omitempty"`
	Description string `json:"description,omitempty"`
	Priority    int32  `json:"priority,omitempty"`
	// JSONPath is evaluated against each object to fill the column.
	JSONPath string `json:"jsonPath"`
}

// CustomResourceDefinitionNames are the names the custom resources are
// served under.
type CustomResourceDefinitionNames struct {
	// Plural is the resource name in URLs: /apis/<group>/<version>/<plural>.
	Plural string `json:"plural"`
	// Singular defaults to the lower-cased Kind.
	Singular   string   `json:"singular,omitempty"`
	ShortNames []string `json:"shortNames,omitempty"`
	// Kind is the CamelCase kind of one object.
	Kind string `json:"kind"`
	// ListKind defaults to Kind + "List".
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
	// Established means the API is served.
	Established CustomResourceDefinitionConditionType = "Established"
	// NamesAccepted means the names do not conflict with another CRD.
	NamesAccepted CustomResourceDefinitionConditionType = "NamesAccepted"
	// NonStructuralSchema means the schema is not structural (v1beta1 only).
	NonStructuralSchema CustomResourceDefinitionConditionType = "NonStructuralSchema"
	// Terminating means the CRD is being deleted with its instances.
	Terminating CustomResourceDefinitionConditionType = "Terminating"
	// KubernetesAPIApprovalPolicyConformant is about *.k8s.io groups.
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
	Conditions []CustomResourceDefinitionCondition `json:"conditions,omitempty"`
	// AcceptedNames are the names actually served; they may lag Spec.Names.
	AcceptedNames CustomResourceDefinitionNames `json:"acceptedNames"`
	// StoredVersions lists every version objects may be persisted in.
	StoredVersions     []string `json:"storedVersions"`
	ObservedGeneration int64    `json:"observedGeneration,omitempty"`
}

// CustomResourceCleanupFinalizer is the finalizer the finalizing controller
// removes once every instance of a deleted CRD is gone.
const CustomResourceCleanupFinalizer = "customresourcecleanup.apiextensions.k8s.io"

// CustomResourceDefinition registers a new resource with the server.
//
// Mirrors k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1.CustomResourceDefinition.
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

// CustomResourceValidation holds the schema of a version.
type CustomResourceValidation struct {
	OpenAPIV3Schema *JSONSchemaProps `json:"openAPIV3Schema,omitempty"`
}

// CustomResourceSubresources enables the status and scale subresources.
type CustomResourceSubresources struct {
	Status *CustomResourceSubresourceStatus `json:"status,omitempty"`
	Scale  *CustomResourceSubresourceScale  `json:"scale,omitempty"`
}

// CustomResourceSubresourceStatus enables /status: the main resource then
// ignores .status, /status ignores everything but .status.
type CustomResourceSubresourceStatus struct{}

// CustomResourceSubresourceScale enables /scale, backed by the given paths.
type CustomResourceSubresourceScale struct {
	SpecReplicasPath   string  `json:"specReplicasPath"`
	StatusReplicasPath string  `json:"statusReplicasPath"`
	LabelSelectorPath  *string `json:"labelSelectorPath,omitempty"`
}

var (
	_ scheme.Object        = (*CustomResourceDefinition)(nil)
	_ metav1.RuntimeObject = (*CustomResourceDefinition)(nil)
	_ scheme.Object        = (*CustomResourceDefinitionList)(nil)
	_ metav1.ListInterface = (*CustomResourceDefinitionList)(nil)
)
