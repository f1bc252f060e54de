package authz_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/crdlab/crdlab/apiserver/authn"
	"github.com/crdlab/crdlab/apiserver/authz"
)

const testPolicy = `
rules:
- users: [alice]
  verbs: ["*"]
  apiGroups: ["*"]
  resources: ["*"]
- users: [bob]
  namespaces: [default]
  verbs: [get, list, watch]
  apiGroups: [stable.example.com]
  resources: [crontabs, crontabs/status]
- groups: [editors]
  verbs: [update, patch]
  apiGroups: [stable.example.com]
  resources: ["*/status"]
  resourceNames: [cron-1]
- users: [prometheus]
  verbs: [get]
  nonResourceURLs: [/metrics, /debug/*]
`

func user(name string, groups ...string) *authn.User {
	return &authn.User{Name: name, Groups: append(groups, authn.AllAuthenticated)}
}

func resource(u *authn.User, verb, ns, res, sub, name string) authz.Attributes {
	return authz.Attributes{User: u, Verb: verb, IsResourceRequest: true, APIGroup: "stable.example.com", APIVersion: "v1",
		Namespace: ns, Resource: res, Subresource: sub, Name: name}
}

func path(u *authn.User, verb, p string) authz.Attributes {
	return authz.Attributes{User: u, Verb: verb, Path: p}
}

func TestPolicy_Authorize(t *testing.T) {
	p, err := authz.ParsePolicy([]byte(testPolicy))
	if err != nil {
		t.Fatal(err)
	}
	alice, bob, eve, prom := user("alice"), user("bob"), user("eve", "editors"), user("prometheus")
	tests := []struct {
		name string
		a    authz.Attributes
		want authz.Decision
	}{
		{"AliceAnything", resource(alice, "deletecollection", "", "crontabs", "", ""), authz.Allow},
		{"AliceNoPaths", path(alice, "get", "/metrics"), authz.NoOpinion},
		{"BobListDefault", resource(bob, "list", "default", "crontabs", "", ""), authz.Allow},
		{"BobGetStatus", resource(bob, "get", "default", "crontabs", "status", "x"), authz.Allow},
		{"BobGetScale", resource(bob, "get", "default", "crontabs", "scale", "x"), authz.NoOpinion},
		{"BobOtherNamespace", resource(bob, "get", "kube-system", "crontabs", "", "x"), authz.NoOpinion},
		{"BobAllNamespaces", resource(bob, "list", "", "crontabs", "", ""), authz.NoOpinion},
		{"BobCreate", resource(bob, "create", "default", "crontabs", "", ""), authz.NoOpinion},
		{"BobOtherGroup", authz.Attributes{User: bob, Verb: "get", IsResourceRequest: true, APIGroup: "other.example.com", Namespace: "default", Resource: "crontabs"}, authz.NoOpinion},
		{"EditorsStatusOfName", resource(eve, "patch", "ns", "crontabs", "status", "cron-1"), authz.Allow},
		{"EditorsStatusOtherName", resource(eve, "patch", "ns", "crontabs", "status", "cron-2"), authz.NoOpinion},
		{"EditorsMainResource", resource(eve, "patch", "ns", "crontabs", "", "cron-1"), authz.NoOpinion},
		{"PrometheusMetrics", path(prom, "get", "/metrics"), authz.Allow},
		{"PrometheusPrefix", path(prom, "get", "/debug/pprof/heap"), authz.Allow},
		{"PrometheusPost", path(prom, "post", "/metrics"), authz.NoOpinion},
		{"PrometheusNoResources", resource(prom, "get", "default", "crontabs", "", "x"), authz.NoOpinion},
		{"Nobody", authz.Attributes{Verb: "get", Path: "/metrics"}, authz.NoOpinion},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if d, _, err := p.Authorize(context.Background(), tt.a); d != tt.want || err != nil {
				t.Errorf("Authorize = %v, %v; want %v", d, err, tt.want)
			}
		})
	}
}

func TestParsePolicy_Errors(t *testing.T) {
	tests := []struct{ name, policy, want string }{
		{"ErrYAML", "rules: [", "yaml"},
		{"ErrUnknownField", "rules:\n- users: [a]\n  verb: [get]\n", `unknown field "verb"`},
		{"ErrNoRules", "rules: []\n", "no rules"},
		{"ErrNoSubjects", "rules:\n- verbs: [get]\n  apiGroups: ['*']\n  resources: ['*']\n", "rules[0]: no users and no groups"},
		{"ErrNoVerbs", "rules:\n- users: [a]\n  apiGroups: ['*']\n  resources: ['*']\n", "rules[0]: verbs: required"},
		{"ErrUnknownVerb", "rules:\n- users: [a]\n  verbs: [lists]\n  apiGroups: ['*']\n  resources: ['*']\n", `"lists" is not a verb of resources`},
		{"ErrNoAPIGroups", "rules:\n- users: [a]\n  verbs: [get]\n  resources: ['*']\n", "apiGroups: required"},
		{"ErrNothing", "rules:\n- users: [a]\n  verbs: [get]\n", "resources or nonResourceURLs: one is required"},
		{"ErrBoth", "rules:\n- users: [a]\n  verbs: [get]\n  resources: ['*']\n  nonResourceURLs: [/x]\n", "not both"},
		{"ErrPathVerb", "rules:\n- users: [a]\n  verbs: [list]\n  nonResourceURLs: [/x]\n", `"list" is not a verb of non-resource paths`},
		{"ErrPathSlash", "rules:\n- users: [a]\n  verbs: [get]\n  nonResourceURLs: [metrics]\n", "must start with /"},
		{"ErrPathStar", "rules:\n- users: [a]\n  verbs: [get]\n  nonResourceURLs: ['/a/*/b']\n", "* may only end a path"},
		{"ErrNamespaceStar", "rules:\n- users: [a]\n  verbs: [get]\n  apiGroups: ['']\n  resources: [x]\n  namespaces: ['*']\n", "leave it out"},
		{"ErrResource", "rules:\n- users: [a]\n  verbs: [get]\n  apiGroups: ['']\n  resources: [a/b/c]\n", `"a/b/c"`},
		{"ErrEmptyUser", "rules:\n- users: ['']\n  verbs: [get]\n  apiGroups: ['']\n  resources: [x]\n", "an empty name"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := authz.ParsePolicy([]byte(tt.policy))
			if !errors.Is(err, authz.ErrPolicyFile) || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("err = %v, want ErrPolicyFile with %q", err, tt.want)
			}
		})
	}
}

// FuzzParsePolicy checks that parsing never panics, and that a policy it
// accepts decides any request without panicking.
func FuzzParsePolicy(f *testing.F) {
	f.Add([]byte(testPolicy), "bob", "get", "default", "crontabs", "/metrics")
	f.Add([]byte(`{"rules":[{"groups":["g"],"verbs":["*"],"nonResourceURLs":["*"]}]}`), "", "", "", "", "")
	f.Fuzz(func(t *testing.T, policy []byte, name, verb, ns, res, p string) {
		pol, err := authz.ParsePolicy(policy)
		if err != nil {
			return
		}
		u := &authn.User{Name: name, Groups: []string{"g", authn.AllAuthenticated}}
		_, _, _ = pol.Authorize(context.Background(), resource(u, verb, ns, res, "", name))
		_, _, _ = pol.Authorize(context.Background(), path(u, verb, p))
	})
}
