package helpers

import (
	"fmt"
	"net/url"
	"strings"
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
// and the message that explains it. The CRD validation refuses a missing
// or invalid one in a protected group; the apiapproval controller reports
// it as a condition.
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
