package authn

import (
	"context"
	"slices"
)

// The well-known user and group names.
//
// Mirrors k8s.io/apiserver/pkg/authentication/user/user.go.
const (
	// Anonymous is the user of a request without credentials.
	Anonymous = "system:anonymous"
	// AllUnauthenticated is the group of the anonymous user.
	AllUnauthenticated = "system:unauthenticated"
	// AllAuthenticated is the group of every user a token named.
	AllAuthenticated = "system:authenticated"
	// SystemPrivilegedGroup is the group that may do anything and is
	// never throttled (upstream: system:masters).
	SystemPrivilegedGroup = "system:masters"
	// APIServerUser is the server's own loopback user.
	APIServerUser = "system:apiserver"
)

// User is who sent a request.
//
// Mirrors user.DefaultInfo.
type User struct {
	Name   string
	UID    string
	Groups []string
}

// InGroup reports whether u is in group.
func (u *User) InGroup(group string) bool {
	return u != nil && slices.Contains(u.Groups, group)
}

// IsAnonymous reports whether u is the anonymous user.
func (u *User) IsAnonymous() bool { return u != nil && u.Name == Anonymous }

// AnonymousUser returns the user of a request without credentials.
func AnonymousUser() *User {
	return &User{Name: Anonymous, Groups: []string{AllUnauthenticated}}
}

type userKey struct{}

// WithUser returns a copy of ctx carrying u.
//
// Mirrors request.WithUser in k8s.io/apiserver/pkg/endpoints/request.
func WithUser(ctx context.Context, u *User) context.Context {
	return context.WithValue(ctx, userKey{}, u)
}

// UserFrom returns the user WithAuthentication found, if any.
//
// Mirrors request.UserFrom.
func UserFrom(ctx context.Context) (*User, bool) {
	u, ok := ctx.Value(userKey{}).(*User)
	return u, ok
}
