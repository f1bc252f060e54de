package handler

import (
	"fmt"
	"net/http"
	"sort"
	"strings"

	apierrors "github.com/crdlab/crdlab/apis/errors"
	metav1 "github.com/crdlab/crdlab/apis/meta/v1"
	"github.com/crdlab/crdlab/handler/discovery"
	"github.com/crdlab/crdlab/handler/request"
	"github.com/crdlab/crdlab/handler/responsewriters"
	"github.com/crdlab/crdlab/scheme"
)

// NotFoundHandler is the end of the delegation chain: a 404 Status, as
// upstream's NotFoundHandler answers.
//
// Mirrors k8s.io/apiserver/pkg/util/notfoundhandler.
func NotFoundHandler(w http.ResponseWriter, _ *http.Request) {
	responsewriters.WriteError(w, notFound("the server could not find the requested resource", ""))
}

func notFound(msg, group string) *apierrors.StatusError {
	e := apierrors.NewNotFound(scheme.GroupResource{}, "")
	e.ErrStatus.Message = msg
	e.ErrStatus.Details = &metav1.StatusDetails{Group: group}
	return e
}

// upstreamGroups are API groups kube-apiserver serves and crdlab does not
// (its aggregator priorities list, v1.37): a request for them ends here.
var upstreamGroups = map[string]bool{
	"apps": true, "batch": true, "autoscaling": true, "policy": true, "networking.k8s.io": true,
	"rbac.authorization.k8s.io": true, "storage.k8s.io": true, "admissionregistration.k8s.io": true,
	"apiregistration.k8s.io": true, "certificates.k8s.io": true, "discovery.k8s.io": true,
	"flowcontrol.apiserver.k8s.io": true, "node.k8s.io": true, "scheduling.k8s.io": true,
	"resource.k8s.io": true, "internal.apiserver.k8s.io": true, "storagemigration.k8s.io": true,
}

// NewNotFoundHandler ends a chain with NotFoundHandler's 404, which for a
// request in one of kube-apiserver's built-in groups that crdlab does not
// serve also says what crdlab's built-in link serves instead (the built-in
// groups disc advertises).
func NewNotFoundHandler(disc *discovery.Manager) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		info, ok := request.RequestInfoFrom(r.Context())
		if !ok {
			info = request.NewRequestInfoFactory().NewRequestInfo(r)
		}
		if !info.IsResourceRequest || !upstreamGroups[info.APIGroup] {
			NotFoundHandler(w, r)
			return
		}
		var served []string
		for _, gv := range disc.GroupVersions() {
			if gv.Group != "" && !strings.HasSuffix(gv.Group, ".k8s.io") {
				continue // a CRD group
			}
			rs, _ := disc.Resources(gv)
			var names []string
			for _, res := range rs {
				names = append(names, res.Name)
			}
			served = append(served, strings.TrimPrefix(gvPath(gv), "/")+": "+strings.Join(names, ", "))
		}
		sort.Strings(served)
		msg := fmt.Sprintf("the server could not find the requested resource: not supported: the %s API group (kube-apiserver serves it); crdlab's built-in API is %s (see docs/compatibility.md)",
			info.APIGroup, strings.Join(served, "; "))
		responsewriters.WriteError(w, notFound(msg, info.APIGroup))
	})
}
