package authorization

import (
	"testing"

	metav1 "github.com/crdlab/crdlab/apis/meta/v1"
)

func TestValidateSelfSubjectAccessReview(t *testing.T) {
	for _, tc := range []struct {
		name string
		sar  SelfSubjectAccessReview
		want int
	}{
		{"OKResource", SelfSubjectAccessReview{Spec: SelfSubjectAccessReviewSpec{ResourceAttributes: &ResourceAttributes{Verb: "get"}}}, 0},
		{"OKNonResource", SelfSubjectAccessReview{Spec: SelfSubjectAccessReviewSpec{NonResourceAttributes: &NonResourceAttributes{Path: "/healthz", Verb: "get"}}}, 0},
		{"ErrNeither", SelfSubjectAccessReview{}, 1},
		{"ErrBoth", SelfSubjectAccessReview{Spec: SelfSubjectAccessReviewSpec{ResourceAttributes: &ResourceAttributes{}, NonResourceAttributes: &NonResourceAttributes{}}}, 1},
		{"ErrName", SelfSubjectAccessReview{ObjectMeta: metav1.ObjectMeta{Name: "x"}, Spec: SelfSubjectAccessReviewSpec{ResourceAttributes: &ResourceAttributes{}}}, 1},
		{"ErrEmptySelector", SelfSubjectAccessReview{Spec: SelfSubjectAccessReviewSpec{ResourceAttributes: &ResourceAttributes{LabelSelector: &LabelSelectorAttributes{}}}}, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if errs := ValidateSelfSubjectAccessReview(&tc.sar); len(errs) != tc.want {
				t.Errorf("got %v, want %d errors", errs, tc.want)
			}
		})
	}
}
