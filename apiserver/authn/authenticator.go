package authn

import (
	"errors"
	"log/slog"
	"net/http"
	"strings"

	apierrors "github.com/crdlab/crdlab/apis/errors"
	"github.com/crdlab/crdlab/handler/responsewriters"
	"github.com/crdlab/crdlab/scheme"
)

// Errors of AuthenticateRequest: each is answered 401.
var (
	// ErrInvalidToken: a bearer token that is not in the token file.
	ErrInvalidToken = errors.New("invalid bearer token")
	// ErrAnonymousNotAllowed: no credentials, and anonymous requests
	// are not allowed here.
	ErrAnonymousNotAllowed = errors.New("anonymous requests are not allowed")
)

// AnonymousConfig says which requests without credentials may go on as
// system:anonymous.
//
// Mirrors AnonymousAuthConfig in k8s.io/apiserver/pkg/apis/apiserver.
type AnonymousConfig struct {
	// Enabled lets every request without credentials through.
	Enabled bool
	// Paths, when Enabled is false, lets those through: exact paths
	// ("/readyz"), or a prefix ending in "/*" ("/readyz/*").
	Paths []string
}

func (a AnonymousConfig) allows(path string) bool {
	if a.Enabled {
		return true
	}
	for _, p := range a.Paths {
		if p == path || strings.HasSuffix(p, "/*") && strings.HasPrefix(path, strings.TrimSuffix(p, "*")) {
			return true
		}
	}
	return false
}

// Authenticator turns a request into a User.
type Authenticator struct {
	// Tokens are the bearer tokens it knows.
	Tokens *Tokens
	// Required is true when authentication is configured (a token
	// file): an unknown token is then a 401. When false, tokens it does
	// not know are ignored and the request is anonymous (there are no
	// users to tell apart, only the server's own loopback token).
	Required bool
	// Anonymous says which requests without credentials go on as
	// system:anonymous when Required; when not Required, all do.
	Anonymous AnonymousConfig
}

// AuthenticateRequest returns the request's user. A known bearer token
// names its user, with system:authenticated added; a request without
// credentials is anonymous if allowed.
//
// Mirrors the chain upstream builds in authenticatorfactory:
// union.NewFailOnError(group.NewAuthenticatedGroupAdder(bearertoken),
// anonymous), and bearertoken.Authenticator.AuthenticateRequest.
func (a *Authenticator) AuthenticateRequest(r *http.Request) (*User, error) {
	if token, ok := bearerToken(r); ok {
		if u, ok := a.Tokens.AuthenticateToken(token); ok {
			return withAuthenticatedGroup(u), nil
		}
		if a.Required {
			return nil, ErrInvalidToken
		}
	}
	if !a.Required || a.Anonymous.allows(r.URL.Path) {
		return AnonymousUser(), nil
	}
	return nil, ErrAnonymousNotAllowed
}

// bearerToken returns the token of an "Authorization: Bearer <token>"
// header. Any other Authorization header is not a bearer token (upstream
// leaves it to other authenticators; crdlab has none, so the request is
// then treated as having no credentials).
func bearerToken(r *http.Request) (string, bool) {
	auth := strings.TrimSpace(r.Header.Get("Authorization"))
	parts := strings.Fields(auth)
	if len(parts) < 2 || !strings.EqualFold(parts[0], "bearer") {
		return "", false
	}
	return parts[1], true
}

// withAuthenticatedGroup returns u with system:authenticated among its
// groups.
//
// Mirrors group.AuthenticatedGroupAdder.
func withAuthenticatedGroup(u *User) *User {
	if u.InGroup(AllAuthenticated) || u.IsAnonymous() {
		return u
	}
	groups := append(append([]string(nil), u.Groups...), AllAuthenticated)
	return &User{Name: u.Name, UID: u.UID, Groups: groups}
}

// WithAuthentication authenticates every request: the user goes into the
// request's context (UserFrom) and the Authorization header is removed,
// so nothing behind the filter ever sees a token; a request that fails is
// answered 401 Unauthorized (a Status with message "Unauthorized"), and
// logged. Requests that try to impersonate are answered 403.
//
// Mirrors WithAuthentication and Unauthorized in
// k8s.io/apiserver/pkg/endpoints/filters/authentication.go.
func WithAuthentication(h http.Handler, a *Authenticator, log *slog.Logger) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		u, err := a.AuthenticateRequest(r)
		if err != nil {
			log.Info("Unable to authenticate the request", "err", err, "path", r.URL.Path, "remote", r.RemoteAddr)
			responsewriters.WriteError(w, apierrors.NewUnauthorized("Unauthorized"))
			return
		}
		r.Header.Del("Authorization")
		for k := range r.Header {
			if strings.HasPrefix(k, "Impersonate-") {
				responsewriters.WriteError(w, apierrors.NewForbidden(scheme.GroupResource{Resource: "users"}, r.Header.Get("Impersonate-User"),
					errors.New("impersonation is not supported by crdlab")))
				return
			}
		}
		h.ServeHTTP(w, r.WithContext(WithUser(r.Context(), u)))
	})
}
