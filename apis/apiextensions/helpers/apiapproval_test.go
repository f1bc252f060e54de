package helpers_test

import (
	"testing"

	"github.com/crdlab/crdlab/apis/apiextensions/helpers"
)

func TestIsProtectedCommunityGroup(t *testing.T) {
	for group, want := range map[string]bool{
		"k8s.io": true, "apps.k8s.io": true, "kubernetes.io": true, "x.kubernetes.io": true,
		"stable.example.com": false, "notk8s.io": false, "k8s.io.example.com": false,
	} {
		if got := helpers.IsProtectedCommunityGroup(group); got != want {
			t.Errorf("%s: %v", group, got)
		}
	}
}

func TestGetAPIApprovalState(t *testing.T) {
	for annotation, want := range map[string]helpers.APIApprovalState{
		"": helpers.APIApprovalMissing, "https://github.com/kubernetes/kubernetes/pull/78458": helpers.APIApproved,
		"unapproved, experimental": helpers.APIApprovalBypassed, "yes please": helpers.APIApprovalInvalid,
	} {
		if got, _ := helpers.GetAPIApprovalState(map[string]string{helpers.KubeAPIApprovedAnnotation: annotation}); got != want {
			t.Errorf("%q: %v, want %v", annotation, got, want)
		}
	}
}
