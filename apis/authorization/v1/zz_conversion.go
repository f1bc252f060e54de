// Code written by hand in the shape of upstream's generated
// zz_generated.conversion.go and zz_generated.deepcopy.go: field-for-field
// copies. Nothing to learn here; skip it.

package v1

import (
	"github.com/crdlab/crdlab/apis/authorization"
	"github.com/crdlab/crdlab/internal/deepcopy"
	"github.com/crdlab/crdlab/scheme"
)

func Convert_v1_SelfSubjectAccessReview_To_authorization_SelfSubjectAccessReview(in *SelfSubjectAccessReview, out *authorization.SelfSubjectAccessReview) error {
	out.ObjectMeta = deepcopy.Copy(in.ObjectMeta)
	out.Spec = authorization.SelfSubjectAccessReviewSpec{}
	if ra := in.Spec.ResourceAttributes; ra != nil {
		out.Spec.ResourceAttributes = &authorization.ResourceAttributes{
			Namespace: ra.Namespace, Verb: ra.Verb, Group: ra.Group, Version: ra.Version,
			Resource: ra.Resource, Subresource: ra.Subresource, Name: ra.Name,
		}
		if s := ra.FieldSelector; s != nil {
			out.Spec.ResourceAttributes.FieldSelector = &authorization.FieldSelectorAttributes{RawSelector: s.RawSelector, Requirements: deepcopy.Copy(s.Requirements)}
		}
		if s := ra.LabelSelector; s != nil {
			out.Spec.ResourceAttributes.LabelSelector = &authorization.LabelSelectorAttributes{RawSelector: s.RawSelector, Requirements: deepcopy.Copy(s.Requirements)}
		}
	}
	if nra := in.Spec.NonResourceAttributes; nra != nil {
		out.Spec.NonResourceAttributes = &authorization.NonResourceAttributes{Path: nra.Path, Verb: nra.Verb}
	}
	out.Status = authorization.SubjectAccessReviewStatus(in.Status)
	return nil
}

func Convert_authorization_SelfSubjectAccessReview_To_v1_SelfSubjectAccessReview(in *authorization.SelfSubjectAccessReview, out *SelfSubjectAccessReview) error {
	out.ObjectMeta = deepcopy.Copy(in.ObjectMeta)
	out.Spec = SelfSubjectAccessReviewSpec{}
	if ra := in.Spec.ResourceAttributes; ra != nil {
		out.Spec.ResourceAttributes = &ResourceAttributes{
			Namespace: ra.Namespace, Verb: ra.Verb, Group: ra.Group, Version: ra.Version,
			Resource: ra.Resource, Subresource: ra.Subresource, Name: ra.Name,
		}
		if s := ra.FieldSelector; s != nil {
			out.Spec.ResourceAttributes.FieldSelector = &FieldSelectorAttributes{RawSelector: s.RawSelector, Requirements: deepcopy.Copy(s.Requirements)}
		}
		if s := ra.LabelSelector; s != nil {
			out.Spec.ResourceAttributes.LabelSelector = &LabelSelectorAttributes{RawSelector: s.RawSelector, Requirements: deepcopy.Copy(s.Requirements)}
		}
	}
	if nra := in.Spec.NonResourceAttributes; nra != nil {
		out.Spec.NonResourceAttributes = &NonResourceAttributes{Path: nra.Path, Verb: nra.Verb}
	}
	out.Status = SubjectAccessReviewStatus(in.Status)
	return nil
}

func Convert_v1_SelfSubjectRulesReview_To_authorization_SelfSubjectRulesReview(in *SelfSubjectRulesReview, out *authorization.SelfSubjectRulesReview) error {
	out.ObjectMeta = deepcopy.Copy(in.ObjectMeta)
	out.Spec = authorization.SelfSubjectRulesReviewSpec(in.Spec)
	st := deepcopy.Copy(in.Status)
	out.Status = authorization.SubjectRulesReviewStatus{Incomplete: st.Incomplete, EvaluationError: st.EvaluationError}
	for _, r := range st.ResourceRules {
		out.Status.ResourceRules = append(out.Status.ResourceRules, authorization.ResourceRule(r))
	}
	for _, r := range st.NonResourceRules {
		out.Status.NonResourceRules = append(out.Status.NonResourceRules, authorization.NonResourceRule(r))
	}
	return nil
}

func Convert_authorization_SelfSubjectRulesReview_To_v1_SelfSubjectRulesReview(in *authorization.SelfSubjectRulesReview, out *SelfSubjectRulesReview) error {
	out.ObjectMeta = deepcopy.Copy(in.ObjectMeta)
	out.Spec = SelfSubjectRulesReviewSpec(in.Spec)
	st := deepcopy.Copy(in.Status)
	out.Status = SubjectRulesReviewStatus{Incomplete: st.Incomplete, EvaluationError: st.EvaluationError,
		ResourceRules: []ResourceRule{}, NonResourceRules: []NonResourceRule{}}
	for _, r := range st.ResourceRules {
		out.Status.ResourceRules = append(out.Status.ResourceRules, ResourceRule(r))
	}
	for _, r := range st.NonResourceRules {
		out.Status.NonResourceRules = append(out.Status.NonResourceRules, NonResourceRule(r))
	}
	return nil
}

// RegisterConversions adds every conversion of this package to s.
func RegisterConversions(s *scheme.Scheme) {
	scheme.AddConversion(s, Convert_v1_SelfSubjectAccessReview_To_authorization_SelfSubjectAccessReview)
	scheme.AddConversion(s, Convert_authorization_SelfSubjectAccessReview_To_v1_SelfSubjectAccessReview)
	scheme.AddConversion(s, Convert_v1_SelfSubjectRulesReview_To_authorization_SelfSubjectRulesReview)
	scheme.AddConversion(s, Convert_authorization_SelfSubjectRulesReview_To_v1_SelfSubjectRulesReview)
}

func (in *SelfSubjectAccessReview) DeepCopyObject() scheme.Object { return deepcopy.Copy(in) }
func (in *SelfSubjectRulesReview) DeepCopyObject() scheme.Object  { return deepcopy.Copy(in) }
