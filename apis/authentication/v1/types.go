package v1

import (
	"github.com/crdlab/crdlab/apis/authentication"
	metav1 "github.com/crdlab/crdlab/apis/meta/v1"
	"github.com/crdlab/crdlab/internal/deepcopy"
	"github.com/crdlab/crdlab/scheme"
)

// SchemeGroupVersion is authentication.k8s.io/v1.
var SchemeGroupVersion = scheme.GroupVersion{Group: authentication.GroupName, Version: "v1"}

// AddToScheme registers the v1 type and its conversions.
func AddToScheme(s *scheme.Scheme) error {
	s.AddKnownTypes(SchemeGroupVersion, &SelfSubjectReview{})
	scheme.AddConversion(s, Convert_v1_SelfSubjectReview_To_authentication_SelfSubjectReview)
	scheme.AddConversion(s, Convert_authentication_SelfSubjectReview_To_v1_SelfSubjectReview)
	return nil
}

// SelfSubjectReview contains the user information that the
// kube-apiserver has about the user making this request.
//
// Mirrors k8s.io/api/authentication/v1.SelfSubjectReview.
type SelfSubjectReview struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Status            SelfSubjectReviewStatus `json:"status,omitempty"`
}

// SelfSubjectReviewStatus is filled by the kube-apiserver and sent back
// to a user.
type SelfSubjectReviewStatus struct {
	UserInfo UserInfo `json:"userInfo,omitempty"`
}

// ExtraValue masks the value so protobuf can generate (upstream).
type ExtraValue []string

// UserInfo holds the information about the user needed to implement the
// user.Info interface.
type UserInfo struct {
	Username string                `json:"username,omitempty"`
	UID      string                `json:"uid,omitempty"`
	Groups   []string              `json:"groups,omitempty"`
	Extra    map[string]ExtraValue `json:"extra,omitempty"`
}

func Convert_v1_SelfSubjectReview_To_authentication_SelfSubjectReview(in *SelfSubjectReview, out *authentication.SelfSubjectReview) error {
	out.ObjectMeta = deepcopy.Copy(in.ObjectMeta)
	u := deepcopy.Copy(in.Status.UserInfo)
	out.Status.UserInfo = authentication.UserInfo{Username: u.Username, UID: u.UID, Groups: u.Groups}
	for k, v := range u.Extra {
		if out.Status.UserInfo.Extra == nil {
			out.Status.UserInfo.Extra = map[string][]string{}
		}
		out.Status.UserInfo.Extra[k] = v
	}
	return nil
}

func Convert_authentication_SelfSubjectReview_To_v1_SelfSubjectReview(in *authentication.SelfSubjectReview, out *SelfSubjectReview) error {
	out.ObjectMeta = deepcopy.Copy(in.ObjectMeta)
	u := deepcopy.Copy(in.Status.UserInfo)
	out.Status.UserInfo = UserInfo{Username: u.Username, UID: u.UID, Groups: u.Groups}
	for k, v := range u.Extra {
		if out.Status.UserInfo.Extra == nil {
			out.Status.UserInfo.Extra = map[string]ExtraValue{}
		}
		out.Status.UserInfo.Extra[k] = v
	}
	return nil
}

func (in *SelfSubjectReview) DeepCopyObject() scheme.Object { return deepcopy.Copy(in) }
