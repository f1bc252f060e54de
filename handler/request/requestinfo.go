package request

import (
	"context"
	"net/http"
	"strings"
)

// RequestInfo is what a request asks of the API, resolved from its method,
// path and query.
//
// Mirrors k8s.io/apiserver/pkg/endpoints/request.RequestInfo.
type RequestInfo struct {
	// IsResourceRequest is true for /apis/<group>/<version>/<resource>...
	// and /api/<version>/<resource>...; false for /apis, /apis/<group>,
	// /healthz, /openapi/v3 …
	IsResourceRequest bool
	// Path is the URL path.
	Path string
	// Verb is the Kubernetes verb of a resource request (get, list, watch,
	// create, update, patch, delete, deletecollection) or the lower-case
	// HTTP method of any other request.
	Verb string

	APIPrefix  string // "apis" or "api"
	APIGroup   string // "" for the core group
	APIVersion string
	Namespace  string
	// Resource is the plural name, e.g. "crontabs".
	Resource string
	// Subresource is "status", "scale" …, or "".
	Subresource string
	// Name is the object's name for requests on one object; for a list or
	// watch with fieldSelector=metadata.name=<x> it is <x>, as upstream sets
	// it (for authorization).
	Name string
	// Parts are the path segments from the resource on: [resource, name,
	// subresource].
	Parts []string
}

// RequestInfoFactory resolves RequestInfos.
//
// Mirrors k8s.io/apiserver/pkg/endpoints/request.RequestInfoFactory.
type RequestInfoFactory struct {
	// APIPrefixes are the first path segments of resource paths.
	APIPrefixes map[string]bool
	// GrouplessAPIPrefixes are the prefixes without a group segment ("api").
	GrouplessAPIPrefixes map[string]bool
}

// NewRequestInfoFactory returns the factory kube-apiserver uses: prefixes
// "apis" and (group-less) "api".
func NewRequestInfoFactory() *RequestInfoFactory {
	return &RequestInfoFactory{
		APIPrefixes:          map[string]bool{"api": true, "apis": true},
		GrouplessAPIPrefixes: map[string]bool{"api": true},
	}
}

// specialVerbs are path segments that set the verb themselves (only
// "watch" is served by crdlab; "proxy" is recognised so it is not taken
// for a resource).
var specialVerbs = map[string]bool{"proxy": true, "watch": true}

// NewRequestInfo resolves r. Valid inputs:
//
//	Resource paths
//	/apis/{api-group}/{version}/namespaces
//	/api/{version}/namespaces
//	/api/{version}/namespaces/{namespace}
//	/api/{version}/namespaces/{namespace}/{resource}
//	/api/{version}/namespaces/{namespace}/{resource}/{resourceName}
//	/api/{version}/{resource}
//	/api/{version}/{resource}/{resourceName}
//
//	Special verbs without subresources:
//	/api/{version}/proxy/{resource}/{resourceName}
//	/api/{version}/watch/{resource}
//	/api/{version}/watch/namespaces/{namespace}/{resource}
//
//	NonResource paths
//	/apis/{api-group}/{version}
//	/apis/{api-group}
//	/apis
//	/api/{version}
//	/api
//	/healthz
//	/
//
// It never fails: a path it cannot read is a non-resource request.
//
// Mirrors (*RequestInfoFactory).NewRequestInfo in requestinfo.go.
func (f *RequestInfoFactory) NewRequestInfo(r *http.Request) *RequestInfo {
	info := &RequestInfo{
		Path: r.URL.Path,
		Verb: strings.ToLower(r.Method),
	}
	parts := splitPath(r.URL.Path)
	if len(parts) < 3 || !f.APIPrefixes[parts[0]] {
		// Must be at least /apis/{group}/{version} (or /api/{version}/x).
		return info
	}
	info.APIPrefix = parts[0]
	parts = parts[1:]

	if !f.GrouplessAPIPrefixes[info.APIPrefix] {
		// A group, a version and a resource must follow.
		if len(parts) < 3 {
			return info
		}
		info.APIGroup = parts[0]
		parts = parts[1:]
	}
	info.IsResourceRequest = true
	info.APIVersion = parts[0]
	parts = parts[1:]

	// Special verbs come first in the remaining path.
	if len(parts) > 0 && specialVerbs[parts[0]] {
		if len(parts) < 2 {
			// /apis/g/v/watch alone is not a resource.
			info.IsResourceRequest = false
			return info
		}
		info.Verb = parts[0]
		parts = parts[1:]
	} else {
		switch r.Method {
		case http.MethodPost:
			info.Verb = "create"
		case http.MethodGet, http.MethodHead:
			info.Verb = "get"
		case http.MethodPut:
			info.Verb = "update"
		case http.MethodPatch:
			info.Verb = "patch"
		case http.MethodDelete:
			info.Verb = "delete"
		default:
			info.Verb = ""
		}
	}

	// Namespace: /namespaces/{ns}/... ; /namespaces and /namespaces/{name}
	// alone are the namespaces resource itself.
	if len(parts) > 0 && parts[0] == "namespaces" {
		if len(parts) > 1 {
			info.Namespace = parts[1]
			// /namespaces/{ns}/{resource}...: drop the prefix. With only
			// /namespaces/{name} (or /namespaces/{name}/status) the
			// resource is "namespaces" itself.
			if len(parts) > 2 && !namespaceSubresources[parts[2]] {
				parts = parts[2:]
			}
		}
	} else {
		info.Namespace = ""
	}

	info.Parts = parts
	switch {
	case len(parts) >= 3:
		info.Subresource = parts[2]
		fallthrough
	case len(parts) == 2:
		info.Name = parts[1]
		fallthrough
	case len(parts) == 1:
		info.Resource = parts[0]
	}

	// A GET without a name is a list, or a watch if asked.
	if info.Name == "" && info.Verb == "get" {
		q := r.URL.Query()
		if isTrue(q.Get("watch")) {
			info.Verb = "watch"
		} else {
			info.Verb = "list"
		}
		if name, ok := nameFromFieldSelector(q.Get("fieldSelector")); ok {
			info.Name = name
		}
	}
	// A watch of one name (/watch/{resource}/{name}) keeps the name; a
	// list-watch with a metadata.name selector sets it as above.
	if info.Verb == "watch" && info.Name == "" {
		if name, ok := nameFromFieldSelector(r.URL.Query().Get("fieldSelector")); ok {
			info.Name = name
		}
	}
	// A DELETE without a name deletes the collection.
	if info.Name == "" && info.Verb == "delete" {
		info.Verb = "deletecollection"
	}
	return info
}

// namespaceSubresources are subresources of a namespace object itself
// (/api/v1/namespaces/{name}/status), not resources inside it.
var namespaceSubresources = map[string]bool{"status": true, "finalize": true}

func isTrue(s string) bool { return s == "1" || s == "true" || s == "True" }

// nameFromFieldSelector returns x for a selector "metadata.name=x" (or
// "metadata.name==x") alone.
func nameFromFieldSelector(sel string) (string, bool) {
	if sel == "" || strings.Contains(sel, ",") {
		return "", false
	}
	for _, op := range []string{"==", "="} {
		if k, v, ok := strings.Cut(sel, op); ok && strings.TrimSpace(k) == "metadata.name" {
			if strings.HasPrefix(v, "=") || strings.HasSuffix(k, "!") {
				return "", false
			}
			return strings.TrimSpace(v), true
		}
	}
	return "", false
}

// splitPath returns the non-empty segments of path.
func splitPath(path string) []string {
	path = strings.Trim(path, "/")
	if path == "" {
		return nil
	}
	return strings.Split(path, "/")
}

type requestInfoKey struct{}

// WithRequestInfo returns a copy of ctx carrying info.
//
// Mirrors k8s.io/apiserver/pkg/endpoints/request.WithRequestInfo.
func WithRequestInfo(ctx context.Context, info *RequestInfo) context.Context {
	return context.WithValue(ctx, requestInfoKey{}, info)
}

// RequestInfoFrom returns the RequestInfo stored in ctx, if any.
//
// Mirrors k8s.io/apiserver/pkg/endpoints/request.RequestInfoFrom.
func RequestInfoFrom(ctx context.Context) (*RequestInfo, bool) {
	info, ok := ctx.Value(requestInfoKey{}).(*RequestInfo)
	return info, ok
}

// LongRunning reports whether a request may outlive the request timeout:
// watches (and the proxy verb), as upstream's
// BasicLongRunningRequestCheck(sets.NewString("watch", "proxy"), ...) says.
func (info *RequestInfo) LongRunning() bool {
	return info != nil && info.IsResourceRequest && (info.Verb == "watch" || info.Verb == "proxy")
}
