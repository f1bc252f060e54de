package authorization

import metav1 "github.com/crdlab/crdlab/apis/meta/v1"

// SelfSubjectAccessReview asks whether the requesting user may perform
// one action.
//
// Mirrors k8s.io/kubernetes/pkg/apis/authorization.SelfSubjectAccessReview.
type SelfSubjectAccessReview struct {
	metav1.TypeMeta
	metav1.ObjectMeta
	Spec   SelfSubjectAccessReviewSpec
	Status SubjectAccessReviewStatus
}

// SelfSubjectAccessReviewSpec holds exactly one of ResourceAttributes and
// NonResourceAttributes.
type SelfSubjectAccessReviewSpec struct {
	ResourceAttributes    *ResourceAttributes
	NonResourceAttributes *NonResourceAttributes
}

// ResourceAttributes describe a request on a resource.
type ResourceAttributes struct {
	Namespace     string
	Verb          string
	Group         string
	Version       string
	Resource      string
	Subresource   string
	Name          string
	FieldSelector *FieldSelectorAttributes
	LabelSelector *LabelSelectorAttributes
}

// LabelSelectorAttributes narrow a list or watch by labels.
type LabelSelectorAttributes struct {
	RawSelector  string
	Requirements []metav1.LabelSelectorRequirement
}

// FieldSelectorAttributes narrow a list or watch by fields.
type FieldSelectorAttributes struct {
	RawSelector  string
	Requirements []metav1.FieldSelectorRequirement
}

// NonResourceAttributes describe a request on a path (/healthz, /api).
type NonResourceAttributes struct {
	Path string
	Verb string
}

// SubjectAccessReviewStatus is the answer.
type SubjectAccessReviewStatus struct {
	Allowed         bool
	Denied          bool
	Reason          string
	EvaluationError string
}

// SelfSubjectRulesReview asks for every action the requesting user may
// perform in a namespace.
//
// Mirrors k8s.io/kubernetes/pkg/apis/authorization.SelfSubjectRulesReview.
type SelfSubjectRulesReview struct {
	metav1.TypeMeta
	metav1.ObjectMeta
	Spec   SelfSubjectRulesReviewSpec
	Status SubjectRulesReviewStatus
}

// SelfSubjectRulesReviewSpec names the namespace.
type SelfSubjectRulesReviewSpec struct {
	Namespace string
}

// SubjectRulesReviewStatus lists the rules; Incomplete says the list may
// miss some (an authorizer that cannot enumerate its rules).
type SubjectRulesReviewStatus struct {
	ResourceRules    []ResourceRule
	NonResourceRules []NonResourceRule
	Incomplete       bool
	EvaluationError  string
}

// ResourceRule is a set of verbs on resources ("*" matches all).
type ResourceRule struct {
	Verbs         []string
	APIGroups     []string
	Resources     []string
	ResourceNames []string
}

// NonResourceRule is a set of verbs on paths.
type NonResourceRule struct {
	Verbs           []string
	NonResourceURLs []string
}
