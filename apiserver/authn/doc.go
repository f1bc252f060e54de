// Package authn finds out who sent a request: a bearer token from a static
// token file names a user, a request without credentials may go on as the
// anonymous user, and anything else is answered 401 Unauthorized.
//
// Vocabulary: a User is a name, a UID and groups (Kubernetes has no user
// objects: a user is whatever an authenticator says). A token file is a
// CSV of token,user,uid[,"group1,group2"] lines, as kube-apiserver's
// --token-file. Tokens holds them (and the loopback token the server gives
// its own controllers). An Authenticator turns a request into a User;
// WithAuthentication is the filter that runs it and puts the User in the
// request's context (UserFrom reads it), or answers 401. Every
// authenticated user is also in the group system:authenticated; the
// anonymous user is system:anonymous in group system:unauthenticated.
//
// Anonymous requests: a request without an Authorization header is
// anonymous. Whether it may go on is AnonymousConfig: Enabled lets every one
// through (authorization then decides, as upstream's --anonymous-auth);
// Paths lets only those through (upstream's AnonymousAuthConfig
// conditions), which is how the health endpoints stay reachable when
// anonymous access is otherwise off. A request with a bearer token that
// is not in the file is never anonymous: it is a 401, as upstream (a bad
// token is an error, not the absence of credentials).
//
// Upstream:
//   - k8s.io/apiserver/pkg/authentication/token/tokenfile/tokenfile.go
//     (NewCSV, AuthenticateToken)
//   - k8s.io/apiserver/pkg/authentication/request/bearertoken/bearertoken.go
//     (AuthenticateRequest: "Bearer <token>", the header removed once
//     authenticated)
//   - k8s.io/apiserver/pkg/authentication/request/anonymous/anonymous.go,
//     group/authenticated_group_adder.go, union.NewFailOnError
//   - k8s.io/apiserver/pkg/authentication/user/user.go (DefaultInfo, the
//     system: names)
//   - k8s.io/apiserver/pkg/endpoints/filters/authentication.go
//     (WithAuthentication, Unauthorized)
//   - k8s.io/apiserver/pkg/server/config.go (the loopback token:
//     a random token for system:apiserver in group system:masters)
//
// Differences from upstream:
//   - Bearer tokens from one static file only: no client certificates, no
//     OIDC, no webhook, no service account tokens, no bootstrap tokens. The
//     file is read once at start (upstream too); change it and restart.
//   - The token file is stricter: an empty token, a duplicate token, a
//     token with spaces or an empty user name is an error at start
//     (upstream logs a warning and skips or overwrites the line); lines
//     starting with '#' are comments.
//   - Tokens are looked up by their SHA-256, so the lookup's timing says
//     nothing about how much of a guess was right (upstream looks the
//     token itself up in a map).
//   - Impersonation (Impersonate-User and friends) is not supported: such
//     a request is answered 403 saying so, rather than served as its
//     sender.
//   - No audit, no authentication metrics, no token cache.
package authn
