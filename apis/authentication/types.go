package authentication

import (
	metav1 "github.com/crdlab/crdlab/apis/meta/v1"
	"github.com/crdlab/crdlab/internal/deepcopy"
	"github.com/crdlab/crdlab/scheme"
)

// GroupName is the authentication.k8s.io API group.
const GroupName = "authentication.k8s.io"

// SchemeGroupVersion is the group's internal version.
var SchemeGroupVersion = scheme.GroupVersion{Group: GroupName, Version: scheme.APIVersionInternal}

// AddToScheme registers the internal types.
func AddToScheme(s *scheme.Scheme) error {
	s.AddKnownTypes(SchemeGroupVersion, &SelfSubjectReview{})
	return nil
}

// SelfSubjectReview tells a client who the server thinks it is.
//
// Mirrors k8s.io/kubernetes/pkg/apis/authentication.SelfSubjectReview.
type SelfSubjectReview struct {
	metav1.TypeMeta
	metav1.ObjectMeta
	Status SelfSubjectReviewStatus
}

// SelfSubjectReviewStatus holds the user.
type SelfSubjectReviewStatus struct {
	UserInfo UserInfo
}

// UserInfo is a user as an authenticator saw it.
type UserInfo struct {
	Username string
	UID      string
	Groups   []string
	Extra    map[string][]string
}

func (in *SelfSubjectReview) DeepCopyObject() scheme.Object { return deepcopy.Copy(in) }
