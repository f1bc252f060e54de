package selfreview_test

import (
	"context"
	"testing"

	"github.com/crdlab/crdlab/apis/authentication"
	"github.com/crdlab/crdlab/apis/authorization"
	apierrors "github.com/crdlab/crdlab/apis/errors"
	metav1 "github.com/crdlab/crdlab/apis/meta/v1"
	"github.com/crdlab/crdlab/registry/selfreview"
)

func TestAccessReviewREST_Create(t *testing.T) {
	var asked *authorization.SelfSubjectAccessReviewSpec
	r := &selfreview.AccessReviewREST{Review: func(_ context.Context, spec *authorization.SelfSubjectAccessReviewSpec) (authorization.SubjectAccessReviewStatus, error) {
		asked = spec
		return authorization.SubjectAccessReviewStatus{Allowed: spec.ResourceAttributes.Verb == "get", Reason: "policy"}, nil
	}}
	ctx := context.Background()
	t.Run("OK", func(t *testing.T) {
		out, err := r.Create(ctx, &authorization.SelfSubjectAccessReview{Spec: authorization.SelfSubjectAccessReviewSpec{
			ResourceAttributes: &authorization.ResourceAttributes{Verb: "get", Resource: "secrets", Namespace: "default"}}}, nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		if st := out.(*authorization.SelfSubjectAccessReview).Status; !st.Allowed || st.Reason != "policy" || asked.ResourceAttributes.Resource != "secrets" {
			t.Errorf("status = %+v", st)
		}
	})
	t.Run("ErrNoAttributes", func(t *testing.T) {
		asked = nil
		_, err := r.Create(ctx, &authorization.SelfSubjectAccessReview{}, nil, nil)
		if !apierrors.IsInvalid(err) || asked != nil {
			t.Errorf("err = %v (authorizer asked: %v), want Invalid before asking", err, asked != nil)
		}
	})
}

func TestRulesReviewREST_Create(t *testing.T) {
	r := &selfreview.RulesReviewREST{Rules: func(_ context.Context, ns string) (authorization.SubjectRulesReviewStatus, error) {
		return authorization.SubjectRulesReviewStatus{ResourceRules: []authorization.ResourceRule{{Verbs: []string{"get"}, Resources: []string{ns}}}}, nil
	}}
	out, err := r.Create(context.Background(), &authorization.SelfSubjectRulesReview{Spec: authorization.SelfSubjectRulesReviewSpec{Namespace: "team"}}, nil, nil)
	if err != nil || out.(*authorization.SelfSubjectRulesReview).Status.ResourceRules[0].Resources[0] != "team" {
		t.Fatalf("out = %v, err = %v", out, err)
	}
	if _, err := r.Create(context.Background(), &authorization.SelfSubjectRulesReview{}, nil, nil); !apierrors.IsBadRequest(err) {
		t.Errorf("no namespace: err = %v, want BadRequest", err)
	}
}

func TestSubjectReviewREST_Create(t *testing.T) {
	r := &selfreview.SubjectReviewREST{WhoAmI: func(context.Context) (authentication.UserInfo, error) {
		return authentication.UserInfo{Username: "alice", Groups: []string{"dev"}}, nil
	}}
	out, err := r.Create(context.Background(), &authentication.SelfSubjectReview{ObjectMeta: metav1.ObjectMeta{Name: "ignored"}}, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	ssr := out.(*authentication.SelfSubjectReview)
	if ssr.Status.UserInfo.Username != "alice" || ssr.CreationTimestamp.IsZero() || ssr.Name != "" {
		t.Errorf("review = %+v", ssr)
	}
}
