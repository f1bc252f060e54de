package authz_test

import (
	"context"
	"slices"
	"testing"

	"github.com/crdlab/crdlab/apis/authorization"
	"github.com/crdlab/crdlab/apiserver/authn"
	"github.com/crdlab/crdlab/apiserver/authz"
)

// Authenticated users may ask about themselves in Static mode (upstream's
// system:basic-user); the anonymous user may not.
func TestStatic_BasicUser(t *testing.T) {
	policy, err := authz.ParsePolicy([]byte(testPolicy))
	if err != nil {
		t.Fatal(err)
	}
	z, err := authz.New(authz.ModeStatic, policy)
	if err != nil {
		t.Fatal(err)
	}
	review := func(u *authn.User, group, res string) authz.Attributes {
		a := resource(u, "create", "", res, "", "")
		a.APIGroup = group
		return a
	}
	for _, tc := range []struct {
		a    authz.Attributes
		want authz.Decision
	}{
		{review(user("carol"), "authorization.k8s.io", "selfsubjectaccessreviews"), authz.Allow},
		{review(user("carol"), "authorization.k8s.io", "selfsubjectrulesreviews"), authz.Allow},
		{review(user("carol"), "authentication.k8s.io", "selfsubjectreviews"), authz.Allow},
		{review(user("carol"), "authorization.k8s.io", "subjectaccessreviews"), authz.NoOpinion},
		{review(authn.AnonymousUser(), "authorization.k8s.io", "selfsubjectaccessreviews"), authz.NoOpinion},
	} {
		if d, _, _ := z.Authorize(context.Background(), tc.a); d != tc.want {
			t.Errorf("%s %s: %v, want %v", tc.a.User.Name, tc.a.Resource, d, tc.want)
		}
	}
}

func TestRulesFor(t *testing.T) {
	policy, err := authz.ParsePolicy([]byte(testPolicy))
	if err != nil {
		t.Fatal(err)
	}
	rules := func(mode string, p *authz.Policy, u *authn.User, ns string) authorization.SubjectRulesReviewStatus {
		t.Helper()
		z, err := authz.New(mode, p)
		if err != nil {
			t.Fatal(err)
		}
		st, err := z.(authz.RuleResolver).RulesFor(context.Background(), u, ns)
		if err != nil {
			t.Fatal(err)
		}
		return st
	}
	hasResourceRule := func(st authorization.SubjectRulesReviewStatus, verb, group, res string) bool {
		for _, r := range st.ResourceRules {
			if (slices.Contains(r.Verbs, verb) || slices.Contains(r.Verbs, "*")) &&
				(slices.Contains(r.APIGroups, group) || slices.Contains(r.APIGroups, "*")) &&
				(slices.Contains(r.Resources, res) || slices.Contains(r.Resources, "*")) {
				return true
			}
		}
		return false
	}
	t.Run("AlwaysAllow", func(t *testing.T) {
		st := rules(authz.ModeAlwaysAllow, nil, user("carol"), "default")
		if !hasResourceRule(st, "delete", "", "secrets") || st.Incomplete {
			t.Errorf("%+v", st)
		}
	})
	t.Run("StaticInNamespace", func(t *testing.T) {
		st := rules(authz.ModeStatic, policy, user("bob"), "default")
		if !hasResourceRule(st, "list", "stable.example.com", "crontabs") || hasResourceRule(st, "delete", "stable.example.com", "crontabs") {
			t.Errorf("%+v", st)
		}
		if !hasResourceRule(st, "create", "authorization.k8s.io", "selfsubjectaccessreviews") {
			t.Errorf("basic-user rules missing: %+v", st)
		}
	})
	t.Run("StaticOtherNamespace", func(t *testing.T) {
		st := rules(authz.ModeStatic, policy, user("bob"), "other")
		if hasResourceRule(st, "list", "stable.example.com", "crontabs") {
			t.Errorf("bob's default-only rule listed in other: %+v", st)
		}
	})
	t.Run("ReadOnlyAnonymous", func(t *testing.T) {
		st := rules(authz.ModeReadOnlyAnonymous, nil, authn.AnonymousUser(), "default")
		if !hasResourceRule(st, "list", "", "secrets") || hasResourceRule(st, "create", "", "secrets") {
			t.Errorf("%+v", st)
		}
	})
}
