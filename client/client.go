package client

import (
	"net/http"
	"net/url"
	"path"
	"time"

	"github.com/crdlab/crdlab/client/flowcontrol"
	"github.com/crdlab/crdlab/scheme"
)

// PatchType is the media type of a PATCH body; the server picks the patch
// algorithm by it.
//
// Mirrors k8s.io/apimachinery/pkg/types.PatchType.
type PatchType string

// The patch types. crdlab's server applies JSON patch, merge patch and
// server-side apply (dynamic's Apply and ApplyStatus send it); it answers
// strategic merge with 415 UnsupportedMediaType, as upstream does for
// custom resources.
const (
	JSONPatchType           PatchType = "application/json-patch+json"
	MergePatchType          PatchType = "application/merge-patch+json"
	StrategicMergePatchType PatchType = "application/strategic-merge-patch+json"
	ApplyPatchType          PatchType = "application/apply-patch+yaml"
)

// ContentTypeJSON is the only content type the client sends and asks for.
const ContentTypeJSON = "application/json"

// RESTClient makes requests to one API group and version of a server (or,
// unversioned, to any path). It is safe for concurrent use; every Request it
// makes shares its rate limiter.
//
// Mirrors k8s.io/client-go/rest.RESTClient.
type RESTClient struct {
	// base is the server URL; its path, if any, prefixes every request.
	base *url.URL
	// versionedAPIPath is "/apis/<group>/<version>", or "" when unversioned.
	versionedAPIPath string
	// groupVersion is the group and version requests are about; it names
	// the group in errors built from non-Status answers.
	groupVersion scheme.GroupVersion
	client       *http.Client
	// rateLimiter is nil when QPS < 0: requests are never throttled.
	rateLimiter flowcontrol.RateLimiter
	bearerToken string
	userAgent   string
	// timeout is the default timeout of each request but watches.
	timeout time.Duration
}

// NewRequest starts a request with this client's prefix, limiter and
// timeout. Verb, Get, Post, Put, Patch and Delete are shorthands.
//
// Mirrors k8s.io/client-go/rest.NewRequest.
func (c *RESTClient) NewRequest() *Request {
	return &Request{
		c:           c,
		pathPrefix:  joinPath(c.base.Path, c.versionedAPIPath),
		rateLimiter: c.rateLimiter,
		timeout:     c.timeout,
		decoder:     UnstructuredDecoder,
	}
}

// Verb starts a request with the given HTTP method.
func (c *RESTClient) Verb(verb string) *Request { return c.NewRequest().Verb(verb) }

// Get starts a GET request.
func (c *RESTClient) Get() *Request { return c.Verb(http.MethodGet) }

// Post starts a POST request.
func (c *RESTClient) Post() *Request { return c.Verb(http.MethodPost) }

// Put starts a PUT request.
func (c *RESTClient) Put() *Request { return c.Verb(http.MethodPut) }

// Patch starts a PATCH request whose body is of type pt.
func (c *RESTClient) Patch(pt PatchType) *Request {
	return c.Verb(http.MethodPatch).SetHeader("Content-Type", string(pt))
}

// Delete starts a DELETE request.
func (c *RESTClient) Delete() *Request { return c.Verb(http.MethodDelete) }

// APIVersion returns the group and version the client talks to (empty when
// unversioned).
func (c *RESTClient) APIVersion() scheme.GroupVersion { return c.groupVersion }

// GetRateLimiter returns the limiter every request waits on, nil if none.
func (c *RESTClient) GetRateLimiter() flowcontrol.RateLimiter { return c.rateLimiter }

// joinPath joins elems into an absolute, clean path.
func joinPath(elems ...string) string {
	return path.Join(append([]string{"/"}, elems...)...)
}

// HTTPClient returns the http.Client requests are sent with.
func (c *RESTClient) HTTPClient() *http.Client { return c.client }
