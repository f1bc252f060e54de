package authz

import (
	"context"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"

	"sigs.k8s.io/yaml"
)

// ErrPolicyFile says a policy file cannot be used; the error names the
// rule and the field.
var ErrPolicyFile = errors.New("invalid authorization policy file")

// Policy is a Static mode policy: rules that grant, and nothing else.
// Safe for concurrent use; never changed after ParsePolicy.
type Policy struct {
	Rules []Rule `json:"rules"`
}

// Rule grants Verbs to Users and Groups on resources or on non-resource
// paths, in Namespaces (if any). See the package documentation.
//
// Mirrors rbacv1.PolicyRule, with the subjects and the namespace of a
// binding folded in.
type Rule struct {
	Users  []string `json:"users,omitempty"`
	Groups []string `json:"groups,omitempty"`

	Verbs           []string `json:"verbs"`
	APIGroups       []string `json:"apiGroups,omitempty"`
	Resources       []string `json:"resources,omitempty"`
	ResourceNames   []string `json:"resourceNames,omitempty"`
	Namespaces      []string `json:"namespaces,omitempty"`
	NonResourceURLs []string `json:"nonResourceURLs,omitempty"`
}

var (
	resourceVerbs    = []string{"get", "list", "watch", "create", "update", "patch", "delete", "deletecollection", "*"}
	nonResourceVerbs = []string{"get", "head", "post", "put", "patch", "delete", "options", "*"}
)

// ParsePolicy reads a policy (YAML or JSON) and checks every rule: at
// least one subject and one verb, either resources (with apiGroups) or
// nonResourceURLs, known verbs, no unknown fields.
func ParsePolicy(data []byte) (*Policy, error) {
	p := &Policy{}
	if err := yaml.UnmarshalStrict(data, p); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrPolicyFile, err)
	}
	if len(p.Rules) == 0 {
		return nil, fmt.Errorf("%w: no rules: everything but the health endpoints would be forbidden", ErrPolicyFile)
	}
	for i, r := range p.Rules {
		if err := r.validate(); err != nil {
			return nil, fmt.Errorf("%w: rules[%d]: %v", ErrPolicyFile, i, err)
		}
	}
	return p, nil
}

// ReadPolicyFile reads the policy file at path (ParsePolicy).
func ReadPolicyFile(path string) (*Policy, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	p, err := ParsePolicy(b)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return p, nil
}

func (r Rule) validate() error {
	if len(r.Users) == 0 && len(r.Groups) == 0 {
		return errors.New("no users and no groups: the rule grants nothing to anyone")
	}
	if len(r.Verbs) == 0 {
		return errors.New("verbs: required")
	}
	for _, s := range append(append([]string(nil), r.Users...), r.Groups...) {
		if s == "" {
			return errors.New("users and groups: an empty name")
		}
	}
	hasResources := len(r.Resources) > 0 || len(r.APIGroups) > 0 || len(r.ResourceNames) > 0 || len(r.Namespaces) > 0
	switch {
	case hasResources && len(r.NonResourceURLs) > 0:
		return errors.New("a rule is either for resources (apiGroups, resources, resourceNames, namespaces) or for nonResourceURLs, not both")
	case len(r.NonResourceURLs) > 0:
		for _, v := range r.Verbs {
			if !slices.Contains(nonResourceVerbs, v) {
				return fmt.Errorf("verbs: %q is not a verb of non-resource paths: want one of %s", v, strings.Join(nonResourceVerbs, ", "))
			}
		}
		for _, u := range r.NonResourceURLs {
			if u != "*" && !strings.HasPrefix(u, "/") {
				return fmt.Errorf("nonResourceURLs: %q must start with / (or be *)", u)
			}
			if i := strings.Index(u, "*"); i >= 0 && i != len(u)-1 {
				return fmt.Errorf("nonResourceURLs: %q: * may only end a path", u)
			}
		}
	default:
		if len(r.Resources) == 0 {
			return errors.New("resources or nonResourceURLs: one is required")
		}
		if len(r.APIGroups) == 0 {
			return errors.New(`apiGroups: required with resources ("" is the core group, "*" every group)`)
		}
		for _, v := range r.Verbs {
			if !slices.Contains(resourceVerbs, v) {
				return fmt.Errorf("verbs: %q is not a verb of resources: want one of %s", v, strings.Join(resourceVerbs, ", "))
			}
		}
		for _, res := range r.Resources {
			if res == "" || strings.Count(res, "/") > 1 {
				return fmt.Errorf("resources: %q: want a plural name, resource/subresource, * or */subresource", res)
			}
		}
		for _, ns := range r.Namespaces {
			if ns == "" || ns == "*" {
				return errors.New(`namespaces: leave it out to mean every namespace; "" and "*" are not namespaces`)
			}
		}
	}
	return nil
}

// Authorize allows a if some rule does; it has no opinion otherwise (and
// the union then forbids).
//
// Mirrors (*RBACAuthorizer).Authorize: RulesAllow over every rule bound to
// the user.
func (p *Policy) Authorize(_ context.Context, a Attributes) (Decision, string, error) {
	for i := range p.Rules {
		if p.Rules[i].allows(a) {
			return Allow, "", nil
		}
	}
	return NoOpinion, "", nil
}

func (r *Rule) allows(a Attributes) bool {
	if !r.appliesTo(a) || !has(r.Verbs, a.Verb) {
		return false
	}
	if !a.IsResourceRequest {
		return len(r.NonResourceURLs) > 0 && nonResourceURLMatches(r.NonResourceURLs, a.Path)
	}
	if len(r.Resources) == 0 || !has(r.APIGroups, a.APIGroup) || !resourceMatches(r.Resources, a.Resource, a.Subresource) {
		return false
	}
	if len(r.ResourceNames) > 0 && !slices.Contains(r.ResourceNames, a.Name) {
		return false
	}
	return len(r.Namespaces) == 0 || a.Namespace != "" && slices.Contains(r.Namespaces, a.Namespace)
}

// appliesTo reports whether the rule names a's user or one of its groups.
//
// Mirrors appliesTo in rbac/subject_locator.go.
func (r *Rule) appliesTo(a Attributes) bool {
	if a.User == nil {
		return false
	}
	if slices.Contains(r.Users, a.User.Name) {
		return true
	}
	for _, g := range r.Groups {
		if a.User.InGroup(g) {
			return true
		}
	}
	return false
}

// has reports whether list holds want or "*".
//
// Mirrors VerbMatches and APIGroupMatches.
func has(list []string, want string) bool {
	return slices.Contains(list, "*") || slices.Contains(list, want)
}

// resourceMatches mirrors ResourceMatches: "*", an exact "resource" or
// "resource/subresource", or "*/subresource".
func resourceMatches(rules []string, resource, subresource string) bool {
	combined := resource
	if subresource != "" {
		combined += "/" + subresource
	}
	for _, r := range rules {
		if r == "*" || r == combined || subresource != "" && r == "*/"+subresource {
			return true
		}
	}
	return false
}

// nonResourceURLMatches mirrors NonResourceURLMatches: "*", an exact
// path, or a prefix ending in "*".
func nonResourceURLMatches(rules []string, path string) bool {
	for _, r := range rules {
		if r == "*" || r == path || strings.HasSuffix(r, "*") && strings.HasPrefix(path, strings.TrimSuffix(r, "*")) {
			return true
		}
	}
	return false
}
