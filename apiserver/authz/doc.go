// Package authz decides whether a user may do what a request asks, in one
// of three modes small enough to read in a sitting, and answers 403
// Forbidden when not.
//
// Vocabulary: Attributes are what is asked — the user, the verb, and
// either a resource (API group, namespace, resource, subresource, name) or
// a non-resource path (/healthz, /apis, /metrics). An Authorizer answers
// Allow, Deny or NoOpinion for Attributes; a union asks several in turn
// and the first that does not say NoOpinion decides (none: forbidden).
// WithAuthorization is the filter that asks, and answers a Forbidden
// Status with upstream's message ("User \"bob\" cannot create resource
// \"crontabs\" in API group \"stable.example.com\" in the namespace
// \"default\"").
//
// The modes (--authorization-mode):
//
//   - AlwaysAllow: everyone may do everything (upstream's mode of the same
//     name). With --token-file, requests without a token are then allowed
//     only on the health endpoints: upstream turns anonymous access off in
//     this mode for the same reason.
//   - ReadOnlyAnonymous: authenticated users may do everything; the
//     anonymous user may only read (get, list, watch, and GET of
//     discovery and OpenAPI paths — not /metrics nor /debug/*). A
//     teaching mode with no upstream twin: a demo server anyone can look
//     at, and only token holders change.
//   - Static: a policy file of rules (below), a simplified RBAC.
//
// In every mode, members of system:masters (the server's own loopback
// client) may do everything, and everyone may GET /healthz, /livez,
// /readyz (and their per-check paths) and /version: upstream's
// system:public-info-viewer. In Static mode, authenticated users may also
// read discovery and OpenAPI (/api, /apis, /openapi/v3 and below), as
// upstream's system:discovery role lets them — without it kubectl can do
// nothing — and ask about themselves (create selfsubjectaccessreviews,
// selfsubjectrulesreviews and selfsubjectreviews: kubectl auth can-i and
// auth whoami), as upstream's system:basic-user role lets them. Every mode
// can list a user's rules (RuleResolver, rules.go) for
// SelfSubjectRulesReview.
//
// Static mode reads a policy file: a list of rules, each granting verbs
// on resources (or on non-resource paths) to users and groups, optionally
// in some namespaces only; RBAC's PolicyRule with a binding's subjects
// folded in. Anything no rule grants is forbidden. The format, an example
// and the matching rules are in docs/access.md ("The policy file").
//
// Upstream:
//   - k8s.io/apiserver/pkg/authorization/authorizer/interfaces.go
//     (Attributes, Decision), union/union.go
//   - k8s.io/apiserver/pkg/authorization/authorizerfactory/builtin.go
//     (alwaysAllowAuthorizer), privileged group (NewPrivilegedGroups)
//   - k8s.io/apiserver/pkg/endpoints/filters/authorization.go
//     (WithAuthorization, GetAuthorizerAttributes)
//   - k8s.io/apiserver/pkg/endpoints/handlers/responsewriters/errors.go
//     (Forbidden, forbiddenMessage)
//   - k8s.io/kubernetes/pkg/apis/rbac/v1/evaluation_helpers.go (VerbMatches,
//     APIGroupMatches, ResourceMatches, ResourceNameMatches,
//     NonResourceURLMatches) and plugin/pkg/auth/authorizer/rbac/rbac.go
//   - k8s.io/kubernetes/plugin/pkg/auth/authorizer/rbac/bootstrappolicy
//     (system:public-info-viewer, system:discovery)
//
// Differences from upstream:
//   - No Role, ClusterRole or binding objects, and no RBAC API: the policy
//     is one file read at start. No aggregation, no escalation checks.
//   - No Node, ABAC or Webhook modes; no SubjectAccessReview (only the
//     self reviews above).
//   - ReadOnlyAnonymous is crdlab's own.
//   - The Forbidden Status has no reason suffix (upstream's RBAC adds
//     one when bindings point at missing roles; crdlab has none).
package authz
