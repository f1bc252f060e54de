package apiapproval

import (
	"github.com/crdlab/crdlab/apis/apiextensions/helpers"
	apiextensionsv1 "github.com/crdlab/crdlab/apis/apiextensions/v1"
	"github.com/crdlab/crdlab/controller"
	"github.com/crdlab/crdlab/informer"
)

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
			return crd.Annotations[helpers.KubeAPIApprovedAnnotation]
		},
		Upstream: upstreamSync,
	})
}

// calculateCondition returns the condition crd should have, or nil if its
// group is not protected.
//
// Mirrors calculateCondition in apiapproval_controller.go.
func calculateCondition(crd *apiextensionsv1.CustomResourceDefinition) *apiextensionsv1.CustomResourceDefinitionCondition {
	if !helpers.IsProtectedCommunityGroup(crd.Spec.Group) {
		return nil
	}
	state, message := helpers.GetAPIApprovalState(crd.Annotations)
	cond := &apiextensionsv1.CustomResourceDefinitionCondition{
		Type:    apiextensionsv1.KubernetesAPIApprovalPolicyConformant,
		Status:  apiextensionsv1.ConditionFalse,
		Message: message,
	}
	switch state {
	case helpers.APIApprovalInvalid:
		cond.Reason = "InvalidAnnotation"
	case helpers.APIApprovalMissing:
		cond.Reason = "MissingAnnotation"
	case helpers.APIApproved:
		cond.Status, cond.Reason = apiextensionsv1.ConditionTrue, "ApprovedAnnotation"
	case helpers.APIApprovalBypassed:
		cond.Reason = "UnapprovedAnnotation"
	default:
		cond.Status, cond.Reason = apiextensionsv1.ConditionUnknown, "UnknownAnnotation"
	}
	return cond
}
