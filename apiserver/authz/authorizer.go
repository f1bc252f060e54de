package authz

import (
	"context"
	"fmt"
	"strings"

	"github.com/crdlab/crdlab/apiserver/authn"
	"github.com/crdlab/crdlab/handler/request"
)

// Decision is an Authorizer's answer.
//
// Mirrors authorizer.Decision.
type Decision int

const (
	// NoOpinion: this authorizer neither allows nor denies; ask the next.
	NoOpinion Decision = iota
	// Allow: the request may go on.
	Allow
	// Deny: the request is forbidden, whatever the others say.
	Deny
)

func (d Decision) String() string {
	switch d {
	case Allow:
		return "Allow"
	case Deny:
		return "Deny"
	}
	return "NoOpinion"
}

// Attributes are what a request asks, for an Authorizer.
//
// Mirrors authorizer.AttributesRecord.
type Attributes struct {
	User *authn.User
	// Verb is a resource verb (get, list, watch, create, update, patch,
	// delete, deletecollection) or, for a non-resource request, the
	// lower-case HTTP method.
	Verb string
	// IsResourceRequest tells which of the fields below apply.
	IsResourceRequest bool
	// Path is the URL path of a non-resource request.
	Path string

	APIGroup, APIVersion, Namespace, Resource, Subresource, Name string
}

// AttributesFrom makes the Attributes of a request from its user and
// RequestInfo.
//
// Mirrors GetAuthorizerAttributes in endpoints/filters/authorization.go.
func AttributesFrom(u *authn.User, info *request.RequestInfo) Attributes {
	a := Attributes{User: u, Verb: info.Verb, IsResourceRequest: info.IsResourceRequest, Path: info.Path}
	if info.IsResourceRequest {
		a.APIGroup, a.APIVersion = info.APIGroup, info.APIVersion
		a.Namespace, a.Resource, a.Subresource, a.Name = info.Namespace, info.Resource, info.Subresource, info.Name
	}
	return a
}

func (a Attributes) userName() string {
	if a.User == nil {
		return ""
	}
	return a.User.Name
}

// Authorizer decides on Attributes. reason, if not empty, says why (it
// ends up in a Forbidden's message).
//
// Mirrors authorizer.Authorizer.
type Authorizer interface {
	Authorize(ctx context.Context, a Attributes) (d Decision, reason string, err error)
}

// union asks each authorizer in turn; the first Allow or Deny decides.
//
// Mirrors union.unionAuthzHandler.
type union []Authorizer

func (u union) Authorize(ctx context.Context, a Attributes) (Decision, string, error) {
	var reasons []string
	for _, z := range u {
		d, reason, err := z.Authorize(ctx, a)
		if err != nil {
			return Deny, reason, err
		}
		if d != NoOpinion {
			return d, reason, nil
		}
		if reason != "" {
			reasons = append(reasons, reason)
		}
	}
	return NoOpinion, strings.Join(reasons, "\n"), nil
}

// The modes of --authorization-mode.
const (
	ModeAlwaysAllow       = "AlwaysAllow"
	ModeReadOnlyAnonymous = "ReadOnlyAnonymous"
	ModeStatic            = "Static"
)

// Modes lists the modes, for help texts.
var Modes = []string{ModeAlwaysAllow, ModeReadOnlyAnonymous, ModeStatic}

// New returns the authorizer of mode: the privileged group and the public
// info rules first (AlwaysAllow needs no public info rules), then the
// mode's own. policy is required for Static and refused for the others.
//
// Mirrors authorizer.Config.New in
// k8s.io/kubernetes/pkg/kubeapiserver/authorizer/config.go.
func New(mode string, policy *Policy) (Authorizer, error) {
	chain := union{privilegedGroup{}, publicInfo{}}
	switch mode {
	case ModeAlwaysAllow, "":
		if policy != nil {
			return nil, fmt.Errorf("a policy file is only read in mode %s, not %s", ModeStatic, ModeAlwaysAllow)
		}
		// alwaysAllow allows what publicInfo does: as upstream's chain
		// (which has no public-info rules without RBAC), a
		// SelfSubjectRulesReview then lists only "*".
		chain = union{privilegedGroup{}, alwaysAllow{}}
	case ModeReadOnlyAnonymous:
		if policy != nil {
			return nil, fmt.Errorf("a policy file is only read in mode %s, not %s", ModeStatic, mode)
		}
		chain = append(chain, readOnlyAnonymous{})
	case ModeStatic:
		if policy == nil {
			return nil, fmt.Errorf("mode %s needs a policy file (--authorization-policy-file)", ModeStatic)
		}
		chain = append(chain, discovery{}, basicUser{}, policy)
	default:
		return nil, fmt.Errorf("unknown authorization mode %q: want one of %s", mode, strings.Join(Modes, ", "))
	}
	return chain, nil
}

// alwaysAllow allows everything.
//
// Mirrors alwaysAllowAuthorizer in authorizerfactory/builtin.go.
type alwaysAllow struct{}

func (alwaysAllow) Authorize(context.Context, Attributes) (Decision, string, error) {
	return Allow, "", nil
}

// readOnlyAnonymous allows authenticated users everything and the
// anonymous user reads only: resources, and of the paths only discovery
// and OpenAPI (what kubectl needs to read) besides publicInfo's — never
// /metrics, /debug/pprof or /debug/crdlab (issue 21, finding 4: an
// anonymous profile locked the admin's out, anonymous event streams took
// every request slot).
type readOnlyAnonymous struct{}

func (readOnlyAnonymous) Authorize(_ context.Context, a Attributes) (Decision, string, error) {
	if a.User != nil && !a.User.IsAnonymous() {
		return Allow, "", nil
	}
	if isReadOnly(a) {
		return Allow, "", nil
	}
	return NoOpinion, "", nil
}

func isReadOnly(a Attributes) bool {
	if a.IsResourceRequest {
		return a.Verb == "get" || a.Verb == "list" || a.Verb == "watch"
	}
	return (a.Verb == "get" || a.Verb == "head") && urlMatches(discoveryPaths, a.Path)
}

// privilegedGroup allows system:masters everything.
//
// Mirrors authorizerfactory.NewPrivilegedGroups(user.SystemPrivilegedGroup).
type privilegedGroup struct{}

func (privilegedGroup) Authorize(_ context.Context, a Attributes) (Decision, string, error) {
	if a.User.InGroup(authn.SystemPrivilegedGroup) {
		return Allow, "", nil
	}
	return NoOpinion, "", nil
}

// publicInfo lets everyone GET the health endpoints and /version.
//
// Mirrors the system:public-info-viewer ClusterRole, bound to
// system:authenticated and system:unauthenticated (crdlab also lets the
// per-check paths such as /readyz/ping through).
type publicInfo struct{}

// PublicPaths are the non-resource paths everyone may GET: upstream's
// system:public-info-viewer, with "/*" meaning the paths below.
var PublicPaths = []string{"/healthz", "/healthz/*", "/livez", "/livez/*", "/readyz", "/readyz/*", "/version", "/version/"}

func (publicInfo) Authorize(_ context.Context, a Attributes) (Decision, string, error) {
	if !a.IsResourceRequest && (a.Verb == "get" || a.Verb == "head") && urlMatches(PublicPaths, a.Path) {
		return Allow, "", nil
	}
	return NoOpinion, "", nil
}

// discovery lets authenticated users read discovery and OpenAPI.
//
// Mirrors the system:discovery ClusterRole, bound to system:authenticated.
type discovery struct{}

var discoveryPaths = []string{"/api", "/api/*", "/apis", "/apis/*", "/openapi", "/openapi/*", "/version", "/version/"}

func (discovery) Authorize(_ context.Context, a Attributes) (Decision, string, error) {
	if !a.IsResourceRequest && a.Verb == "get" && a.User.InGroup(authn.AllAuthenticated) && urlMatches(discoveryPaths, a.Path) {
		return Allow, "", nil
	}
	return NoOpinion, "", nil
}

// basicUser lets authenticated users ask about themselves: create
// selfsubjectaccessreviews and selfsubjectrulesreviews
// (authorization.k8s.io) and selfsubjectreviews (authentication.k8s.io) —
// kubectl auth can-i and auth whoami.
//
// Mirrors the system:basic-user ClusterRole, bound to system:authenticated.
type basicUser struct{}

// basicUserRules are the rules of system:basic-user.
var basicUserRules = []Rule{
	{Verbs: []string{"create"}, APIGroups: []string{"authorization.k8s.io"}, Resources: []string{"selfsubjectaccessreviews", "selfsubjectrulesreviews"}},
	{Verbs: []string{"create"}, APIGroups: []string{"authentication.k8s.io"}, Resources: []string{"selfsubjectreviews"}},
}

func (basicUser) Authorize(_ context.Context, a Attributes) (Decision, string, error) {
	if !a.IsResourceRequest || !a.User.InGroup(authn.AllAuthenticated) {
		return NoOpinion, "", nil
	}
	for _, r := range basicUserRules {
		if has(r.Verbs, a.Verb) && has(r.APIGroups, a.APIGroup) && resourceMatches(r.Resources, a.Resource, a.Subresource) {
			return Allow, "", nil
		}
	}
	return NoOpinion, "", nil
}

// urlMatches reports whether path is one of urls, "/*" entries matching
// every path below them.
func urlMatches(urls []string, path string) bool {
	for _, u := range urls {
		if u == path || strings.HasSuffix(u, "*") && strings.HasPrefix(path, strings.TrimSuffix(u, "*")) {
			return true
		}
	}
	return false
}
