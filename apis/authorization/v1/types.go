package v1

import metav1 "github.com/crdlab/crdlab/apis/meta/v1"

// SelfSubjectAccessReview checks whether the current user can perform an
// action.
//
// Mirrors k8s.io/api/authorization/v1.SelfSubjectAccessReview.
type SelfSubjectAccessReview struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              SelfSubjectAccessReviewSpec `json:"spec"`
	Status            SubjectAccessReviewStatus   `json:"status,omitempty"`
}

// SelfSubjectAccessReviewSpec is a description of the access request.
type SelfSubjectAccessReviewSpec struct {
	ResourceAttributes    *ResourceAttributes    `json:"resourceAttributes,omitempty"`
	NonResourceAttributes *NonResourceAttributes `json:"nonResourceAttributes,omitempty"`
}

// ResourceAttributes includes the authorization attributes available for
// resource requests.
type ResourceAttributes struct {
	Namespace     string                   `json:"namespace,omitempty"`
	Verb          string                   `json:"verb,omitempty"`
	Group         string                   `json:"group,omitempty"`
	Version       string                   `json:"version,omitempty"`
	Resource      string                   `json:"resource,omitempty"`
	Subresource   string                   `json:"subresource,omitempty"`
	Name          string                   `json:"name,omitempty"`
	FieldSelector *FieldSelectorAttributes `json:"fieldSelector,omitempty"`
	LabelSelector *LabelSelectorAttributes `json:"labelSelector,omitempty"`
}

// LabelSelectorAttributes indicate a label limited access.
type LabelSelectorAttributes struct {
	RawSelector  string                            `json:"rawSelector,omitempty"`
	Requirements []metav1.LabelSelectorRequirement `json:"requirements,omitempty"`
}

// FieldSelectorAttributes indicate a field limited access.
type FieldSelectorAttributes struct {
	RawSelector  string                            `json:"rawSelector,omitempty"`
	Requirements []metav1.FieldSelectorRequirement `json:"requirements,omitempty"`
}

// NonResourceAttributes includes the authorization attributes available
// for non-resource requests.
type NonResourceAttributes struct {
	Path string `json:"path,omitempty"`
	Verb string `json:"verb,omitempty"`
}

// SubjectAccessReviewStatus is the answer.
type SubjectAccessReviewStatus struct {
	Allowed         bool   `json:"allowed"`
	Denied          bool   `json:"denied,omitempty"`
	Reason          string `json:"reason,omitempty"`
	EvaluationError string `json:"evaluationError,omitempty"`
}

// SelfSubjectRulesReview enumerates the set of actions the current user
// can perform within a namespace.
//
// Mirrors k8s.io/api/authorization/v1.SelfSubjectRulesReview.
type SelfSubjectRulesReview struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              SelfSubjectRulesReviewSpec `json:"spec"`
	Status            SubjectRulesReviewStatus   `json:"status,omitempty"`
}

// SelfSubjectRulesReviewSpec defines the specification for
// SelfSubjectRulesReview.
type SelfSubjectRulesReviewSpec struct {
	Namespace string `json:"namespace,omitempty"`
}

// SubjectRulesReviewStatus contains the result of a rules check.
type SubjectRulesReviewStatus struct {
	ResourceRules    []ResourceRule    `json:"resourceRules"`
	NonResourceRules []NonResourceRule `json:"nonResourceRules"`
	Incomplete       bool              `json:"incomplete"`
	EvaluationError  string            `json:"evaluationError,omitempty"`
}

// ResourceRule is the list of actions the subject is allowed to perform
// on resources.
type ResourceRule struct {
	Verbs         []string `json:"verbs"`
	APIGroups     []string `json:"apiGroups,omitempty"`
	Resources     []string `json:"resources,omitempty"`
	ResourceNames []string `json:"resourceNames,omitempty"`
}

// NonResourceRule holds information that describes a rule for the
// non-resource.
type NonResourceRule struct {
	Verbs           []string `json:"verbs"`
	NonResourceURLs []string `json:"nonResourceURLs,omitempty"`
}
