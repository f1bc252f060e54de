package apiapproval

import (
	"fmt"
	"net/url"
	"strings"

	apiextensionsv1 "github.com/crdlab/crdlab/apis/apiextensions/v1"
	"github.com/crdlab/crdlab/controller"
	"github.com/crdlab/crdlab/informer"
)

// KubeAPIApprovedAnnotation is the annotation a CRD of a protected group
// must carry.
const KubeAPIApprovedAnnotation = "api-approved.kubernetes.io"

// IsProtectedCommunityGroup reports whether group belongs to the
// Kubernetes project: k8s.io, kubernetes.io or a subdomain of either.
//
// Mirrors apihelpers.IsProtectedCommunityGroup.
func IsProtectedCommunityGroup(group string) bool {
	switch {
	case group == "k8s.io" || strings.HasSuffix(group, ".k8s.io"):
		return true
	case group == "kubernetes.io" || strings.HasSuffix(group, ".kubernetes.io"):
		return true
	}
	return false
}

// APIApprovalState is what the approval annotation says.
//
// Mirrors apihelpers.APIApprovalState.
type APIApprovalState int

const (
	// APIApprovalInvalid: the annotation is neither a URL nor "unapproved…".
	APIApprovalInvalid APIApprovalState = iota
	// APIApproved: the annotation is a URL (the approving pull request).
	APIApproved
	// APIApprovalBypassed: the annotation starts with "unapproved".
	APIApprovalBypassed
	// APIApprovalMissing: there is no annotation.
	APIApprovalMissing
)

// GetAPIApprovalState returns the approval state of a CRD's annotations
// and the message that explains it.
//
// Mirrors apihelpers.GetAPIApprovalState.
func GetAPIApprovalState(annotations map[string]string) (APIApprovalState, string) {
	annotation := annotations[KubeAPIApprovedAnnotation]
	u, parseErr := url.ParseRequestURI(annotation)
	switch {
	case len(annotation) == 0:
		return APIApprovalMissing, fmt.Sprintf("protected groups must have approval annotation %q, see https://github.com/kubernetes/enhancements/pull/1111", KubeAPIApprovedAnnotation)
	case strings.HasPrefix(annotation, "unapproved"):
		return APIApprovalBypassed, fmt.Sprintf("not approved: %q", annotation)
	case parseErr == nil && u != nil && len(u.Host) > 0 && len(u.Scheme) > 0:
		return APIApproved, fmt.Sprintf("approved in %v", annotation)
	default:
		return APIApprovalInvalid, fmt.Sprintf("protected groups must have approval annotation %q with either a URL or a reason starting with \"unapproved\", see https://github.com/kubernetes/enhancements/pull/1111", KubeAPIApprovedAnnotation)
	}
}

// upstreamSync is the upstream function sync mirrors, named in traces.
const upstreamSync = "k8s.io/apiextensions-apiserver/pkg/controller/apiapproval.(*KubernetesAPIApprovalPolicyConformantConditionController).sync"

// NewKubernetesAPIApprovalPolicyConformantConditionController returns the
// controller that keeps the KubernetesAPIApprovalPolicyConformant
// condition of CRDs in protected groups in step with their approval
// annotation, fed by crdInformer's events (it registers its handlers now:
// call it before the informer starts).
//
// Mirrors NewKubernetesAPIApprovalPolicyConformantConditionController in
// k8s.io/apiextensions-apiserver/pkg/controller/apiapproval/apiapproval_controller.go;
// its loop (sync, Run) is controller.ConditionController, shared with
// the nonstructuralschema controller.
func NewKubernetesAPIApprovalPolicyConformantConditionController(crdInformer informer.SharedIndexInformer, crdClient controller.CRDClient, opts controller.Options) (*controller.ConditionController, error) {
	return controller.NewConditionController(crdInformer, crdClient, opts, controller.Condition{
		Name:      "apiapproval",
		Queue:     "kubernetes_api_approval_conformant_condition_controller",
		Type:      apiextensionsv1.KubernetesAPIApprovalPolicyConformant,
		Calculate: calculateCondition,
		// No RemoveWhenNone: the group is immutable, so a CRD that needs no
		// condition never had one to remove.
		//
		// The annotation is what may change: each value is looked at once
		// (and, with several servers, not fought over).
		Input: func(crd *apiextensionsv1.CustomResourceDefinition) string {
			return crd.Annotations[KubeAPIApprovedAnnotation]
		},
		Upstream: upstreamSync,
	})
}

// calculateCondition returns the condition crd should have, or nil if its
// group is not protected.
//
// Mirrors calculateCondition in apiapproval_controller.go.
func calculateCondition(crd *apiextensionsv1.CustomResourceDefinition) *apiextensionsv1.CustomResourceDefinitionCondition {
	if !IsProtectedCommunityGroup(crd.Spec.Group) {
		return nil
	}
	state, message := GetAPIApprovalState(crd.Annotations)
	cond := &apiextensionsv1.CustomResourceDefinitionCondition{
		Type:    apiextensionsv1.KubernetesAPIApprovalPolicyConformant,
		Status:  apiextensionsv1.ConditionFalse,
		Message: message,
	}
	switch state {
	case APIApprovalInvalid:
		cond.Reason = "InvalidAnnotation"
	case APIApprovalMissing:
		cond.Reason = "MissingAnnotation"
	case APIApproved:
		cond.Status, cond.Reason = apiextensionsv1.ConditionTrue, "ApprovedAnnotation"
	case APIApprovalBypassed:
		cond.Reason = "UnapprovedAnnotation"
	default:
		cond.Status, cond.Reason = apiextensionsv1.ConditionUnknown, "UnknownAnnotation"
	}
	return cond
}
