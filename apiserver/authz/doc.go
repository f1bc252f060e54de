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
// In every mode, system:masters (the server's own loopback client) may do
// everything, and everyone may GET the health endpoints and /version
// (upstream's system:public-info-viewer). In Static mode, authenticated
// users may also read discovery and OpenAPI (system:discovery) and ask
// about themselves (the self reviews: system:basic-user). Every mode can
// list a user's rules (RuleResolver, rules.go) for SelfSubjectRulesReview.
//
// Static mode reads a policy file of rules, RBAC's PolicyRule with a
// binding's subjects folded in; anything no rule grants is forbidden
// (docs/access.md, "The policy file").
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
//   - k8s.io/kubernetes/pkg/apis/rbac/v1/evaluation_helpers.go (VerbMatches
//     …) and plugin/pkg/auth/authorizer/rbac/rbac.go
//   - k8s.io/kubernetes/plugin/pkg/auth/authorizer/rbac/bootstrappolicy
//     (system:public-info-viewer, system:discovery)
//
// Differences from upstream:
//   - No Role, ClusterRole or binding objects, and no RBAC API: the policy
//     is one file read at start. No aggregation, no escalation checks.
//   - No Node, ABAC or Webhook modes; no SubjectAccessReview (only the
//     self reviews above).
//   - The Forbidden Status has no reason suffix (upstream's RBAC adds
//     one when bindings point at missing roles; crdlab has none).
package authz
