package authz

import (
	"errors"
	"fmt"
	"log/slog"
	"net/http"

	apierrors "github.com/crdlab/crdlab/apis/errors"
	"github.com/crdlab/crdlab/apiserver/authn"
	"github.com/crdlab/crdlab/handler/request"
	"github.com/crdlab/crdlab/handler/responsewriters"
	"github.com/crdlab/crdlab/scheme"
)

// WithAuthorization asks z about every request (its user from authn, its
// RequestInfo from the request filter) and answers 403 Forbidden unless
// allowed. A request without a user or RequestInfo is a programming error
// in the chain: it is answered 500 rather than let through.
//
// Mirrors WithAuthorization in k8s.io/apiserver/pkg/endpoints/filters/authorization.go.
func WithAuthorization(h http.Handler, z Authorizer, log *slog.Logger) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		u, ok := authn.UserFrom(r.Context())
		info, ok2 := request.RequestInfoFrom(r.Context())
		if !ok || !ok2 {
			responsewriters.WriteError(w, apierrors.NewInternalError(errors.New("no user or request info found for the request")))
			return
		}
		a := AttributesFrom(u, info)
		d, reason, err := z.Authorize(r.Context(), a)
		if d == Allow {
			h.ServeHTTP(w, r)
			return
		}
		log.Info("Forbidden", "user", u.Name, "groups", u.Groups, "verb", a.Verb, "path", r.URL.Path, "reason", reason, "err", err)
		responsewriters.WriteError(w, Forbidden(a, reason))
	})
}

// Forbidden is the error of a request a is not allowed, with upstream's
// message: `crontabs.stable.example.com "x" is forbidden: User "bob"
// cannot get resource "crontabs" in API group "stable.example.com" in the
// namespace "default"`.
//
// Mirrors responsewriters.Forbidden and forbiddenMessage.
func Forbidden(a Attributes, reason string) *apierrors.StatusError {
	msg := forbiddenMessage(a)
	if reason != "" {
		msg += ": " + reason
	}
	gr := scheme.GroupResource{Group: a.APIGroup, Resource: a.Resource}
	return apierrors.NewForbidden(gr, a.Name, errors.New(msg))
}

func forbiddenMessage(a Attributes) string {
	if !a.IsResourceRequest {
		return fmt.Sprintf("User %q cannot %s path %q", a.userName(), a.Verb, a.Path)
	}
	resource := a.Resource
	if a.Subresource != "" {
		resource += "/" + a.Subresource
	}
	if a.Namespace != "" {
		return fmt.Sprintf("User %q cannot %s resource %q in API group %q in the namespace %q", a.userName(), a.Verb, resource, a.APIGroup, a.Namespace)
	}
	return fmt.Sprintf("User %q cannot %s resource %q in API group %q at the cluster scope", a.userName(), a.Verb, resource, a.APIGroup)
}
