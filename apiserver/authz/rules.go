package authz

import (
	"context"
	"slices"

	"github.com/crdlab/crdlab/apis/authorization"
	"github.com/crdlab/crdlab/apiserver/authn"
)

// RuleResolver lists what a user may do in a namespace, as rules, for
// SelfSubjectRulesReview (kubectl auth can-i --list).
//
// Mirrors authorizer.RuleResolver.
type RuleResolver interface {
	RulesFor(ctx context.Context, u *authn.User, namespace string) (authorization.SubjectRulesReviewStatus, error)
}

var (
	allResources    = authorization.ResourceRule{Verbs: []string{"*"}, APIGroups: []string{"*"}, Resources: []string{"*"}}
	allNonResources = authorization.NonResourceRule{Verbs: []string{"*"}, NonResourceURLs: []string{"*"}}
)

// RulesFor asks every authorizer of the chain that can list its rules,
// and returns them all (the answer of each, in chain order).
//
// Mirrors unionAuthzRulesHandler.RulesFor.
func (u union) RulesFor(ctx context.Context, user *authn.User, namespace string) (authorization.SubjectRulesReviewStatus, error) {
	out := authorization.SubjectRulesReviewStatus{}
	for _, z := range u {
		r, ok := z.(RuleResolver)
		if !ok {
			out.Incomplete = true
			continue
		}
		st, err := r.RulesFor(ctx, user, namespace)
		if err != nil {
			return out, err
		}
		out.ResourceRules = append(out.ResourceRules, st.ResourceRules...)
		out.NonResourceRules = append(out.NonResourceRules, st.NonResourceRules...)
		out.Incomplete = out.Incomplete || st.Incomplete
	}
	return out, nil
}

// RulesFor of system:masters is everything (upstream: the cluster-admin
// role bound to the group).
func (privilegedGroup) RulesFor(_ context.Context, u *authn.User, _ string) (authorization.SubjectRulesReviewStatus, error) {
	if !u.InGroup(authn.SystemPrivilegedGroup) {
		return authorization.SubjectRulesReviewStatus{}, nil
	}
	return authorization.SubjectRulesReviewStatus{ResourceRules: []authorization.ResourceRule{allResources},
		NonResourceRules: []authorization.NonResourceRule{allNonResources}}, nil
}

func (publicInfo) RulesFor(context.Context, *authn.User, string) (authorization.SubjectRulesReviewStatus, error) {
	return authorization.SubjectRulesReviewStatus{NonResourceRules: []authorization.NonResourceRule{
		{Verbs: []string{"get"}, NonResourceURLs: slices.Clone(PublicPaths)}}}, nil
}

func (discovery) RulesFor(_ context.Context, u *authn.User, _ string) (authorization.SubjectRulesReviewStatus, error) {
	if !u.InGroup(authn.AllAuthenticated) {
		return authorization.SubjectRulesReviewStatus{}, nil
	}
	return authorization.SubjectRulesReviewStatus{NonResourceRules: []authorization.NonResourceRule{
		{Verbs: []string{"get"}, NonResourceURLs: slices.Clone(discoveryPaths)}}}, nil
}

func (basicUser) RulesFor(_ context.Context, u *authn.User, _ string) (authorization.SubjectRulesReviewStatus, error) {
	if !u.InGroup(authn.AllAuthenticated) {
		return authorization.SubjectRulesReviewStatus{}, nil
	}
	out := authorization.SubjectRulesReviewStatus{}
	for _, r := range basicUserRules {
		out.ResourceRules = append(out.ResourceRules, authorization.ResourceRule{Verbs: r.Verbs, APIGroups: r.APIGroups, Resources: r.Resources})
	}
	return out, nil
}

// RulesFor of AlwaysAllow is everything.
//
// Mirrors (alwaysAllowAuthorizer).RulesFor.
func (alwaysAllow) RulesFor(context.Context, *authn.User, string) (authorization.SubjectRulesReviewStatus, error) {
	return authorization.SubjectRulesReviewStatus{ResourceRules: []authorization.ResourceRule{allResources},
		NonResourceRules: []authorization.NonResourceRule{allNonResources}}, nil
}

// RulesFor of ReadOnlyAnonymous: everything for a user with a token;
// reading only for the anonymous user.
func (readOnlyAnonymous) RulesFor(_ context.Context, u *authn.User, _ string) (authorization.SubjectRulesReviewStatus, error) {
	if u != nil && !u.IsAnonymous() {
		return alwaysAllow{}.RulesFor(context.Background(), u, "")
	}
	return authorization.SubjectRulesReviewStatus{
		ResourceRules:    []authorization.ResourceRule{{Verbs: []string{"get", "list", "watch"}, APIGroups: []string{"*"}, Resources: []string{"*"}}},
		NonResourceRules: []authorization.NonResourceRule{{Verbs: []string{"get", "head"}, NonResourceURLs: append([]string(nil), discoveryPaths...)}},
	}, nil
}

// RulesFor of a Static policy: the rules naming the user or one of its
// groups that apply in namespace (a rule without namespaces applies in
// every one).
//
// Mirrors (*RBACAuthorizer).RulesFor: the rules of the roles bound to the
// user, cluster-wide and in the namespace.
func (p *Policy) RulesFor(_ context.Context, u *authn.User, namespace string) (authorization.SubjectRulesReviewStatus, error) {
	out := authorization.SubjectRulesReviewStatus{}
	for i := range p.Rules {
		r := &p.Rules[i]
		if !r.appliesTo(Attributes{User: u}) {
			continue
		}
		if len(r.NonResourceURLs) > 0 {
			out.NonResourceRules = append(out.NonResourceRules, authorization.NonResourceRule{Verbs: r.Verbs, NonResourceURLs: r.NonResourceURLs})
			continue
		}
		if len(r.Namespaces) > 0 && !slices.Contains(r.Namespaces, namespace) {
			continue
		}
		out.ResourceRules = append(out.ResourceRules, authorization.ResourceRule{
			Verbs: r.Verbs, APIGroups: r.APIGroups, Resources: r.Resources, ResourceNames: r.ResourceNames})
	}
	return out, nil
}
