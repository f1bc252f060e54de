package client

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"path"
	"reflect"
	"strings"
	"time"

	apierrors "github.com/crdlab/crdlab/apis/errors"
	metav1 "github.com/crdlab/crdlab/apis/meta/v1"
	"github.com/crdlab/crdlab/client/flowcontrol"
	"github.com/crdlab/crdlab/machinery/watch"
	"github.com/crdlab/crdlab/scheme"
)

// Request is one API call being built: each setter returns the request, so
// calls chain, and the first mistake is kept in the request and returned by
// Do, DoRaw, Stream or Watch — one error check at the end.
//
// The path is <prefix>[/namespaces/<namespace>][/<resource>[/<name>[/<subresource>]]][/<suffix>],
// where the prefix is the client's "/apis/<group>/<version>" unless AbsPath
// replaced it.
//
// A Request is used by one goroutine and sent once.
//
// Mirrors k8s.io/client-go/rest.Request.
type Request struct {
	c *RESTClient

	verb       string
	pathPrefix string
	subpath    string
	params     url.Values
	headers    http.Header

	// The Kubernetes parts of the path. namespaceSet is true once Namespace
	// was called, even with "" (which then adds nothing to the path).
	namespace    string
	namespaceSet bool
	resource     string
	resourceName string
	subresource  string

	// timeout bounds the request (not a watch) when > 0.
	timeout     time.Duration
	rateLimiter flowcontrol.RateLimiter
	// decoder turns a watch event's object, or Result.Get's body, into an object.
	decoder ObjectDecoder

	// At most one of body and bodyReader is set.
	body       []byte
	bodyReader io.Reader

	// err is the first error met while building; it is returned when sent.
	err error
}

// Verb sets the HTTP method.
func (r *Request) Verb(verb string) *Request {
	r.verb = verb
	return r
}

// Prefix appends segments to the path prefix, before namespace and resource.
func (r *Request) Prefix(segments ...string) *Request {
	if r.err != nil {
		return r
	}
	r.pathPrefix = path.Join(r.pathPrefix, path.Join(segments...))
	return r
}

// Suffix appends segments at the very end of the path.
func (r *Request) Suffix(segments ...string) *Request {
	if r.err != nil {
		return r
	}
	r.subpath = path.Join(r.subpath, path.Join(segments...))
	return r
}

// ResourcePath returns the path segments of resource's collection, or of
// the object name (with its subresources), in namespace if not "":
// /apis/<group>/<version>[/namespaces/<ns>]/<resource>[/<name>[/<sub>…]],
// /api/<version>/… for the core group. A namespace, name or subresource
// that cannot be one path segment is an error, as the typed client's
// Name and Namespace make it. The dynamic and metadata clients build
// their requests on it (AbsPath).
//
// Mirrors makeURLSegments in k8s.io/client-go/dynamic/simple.go and
// metadata/metadata.go.
func ResourcePath(resource scheme.GroupVersionResource, namespace, name string, subresources ...string) ([]string, error) {
	for _, s := range append([]string{namespace, name}, subresources...) {
		if s == "." || s == ".." || strings.ContainsAny(s, "/%") {
			return nil, fmt.Errorf("invalid path segment %q", s)
		}
	}
	segs := []string{"apis", resource.Group}
	if resource.Group == "" {
		segs = []string{"api"}
	}
	segs = append(segs, resource.Version)
	if namespace != "" {
		segs = append(segs, "namespaces", namespace)
	}
	segs = append(segs, resource.Resource)
	if name != "" {
		segs = append(segs, name)
		segs = append(segs, subresources...)
	}
	return segs, nil
}

// AbsPath replaces the path prefix (the client's /apis/<group>/<version>)
// with segments; the host's own path, if any, stays in front. A single
// segment keeps its trailing slash.
func (r *Request) AbsPath(segments ...string) *Request {
	if r.err != nil {
		return r
	}
	r.pathPrefix = joinPath(r.c.base.Path, path.Join(segments...))
	if len(segments) == 1 && len(segments[0]) > 1 && strings.HasSuffix(segments[0], "/") {
		r.pathPrefix += "/"
	}
	return r
}

// Resource sets the resource (the plural name, e.g. "crontabs").
func (r *Request) Resource(resource string) *Request {
	if r.err != nil {
		return r
	}
	if r.resource != "" {
		r.err = fmt.Errorf("resource already set to %q, cannot change to %q", r.resource, resource)
		return r
	}
	if err := validPathSegment(resource); err != nil {
		r.err = fmt.Errorf("invalid resource %q: %w", resource, err)
		return r
	}
	r.resource = resource
	return r
}

// Name sets the name of the object; it may not be empty.
func (r *Request) Name(name string) *Request {
	if r.err != nil {
		return r
	}
	if name == "" {
		r.err = errors.New("resource name may not be empty")
		return r
	}
	if r.resourceName != "" {
		r.err = fmt.Errorf("resource name already set to %q, cannot change to %q", r.resourceName, name)
		return r
	}
	if err := validPathSegment(name); err != nil {
		r.err = fmt.Errorf("invalid resource name %q: %w", name, err)
		return r
	}
	r.resourceName = name
	return r
}

// Namespace scopes the request to a namespace; "" means all namespaces (or
// a cluster-scoped resource).
func (r *Request) Namespace(namespace string) *Request {
	if r.err != nil {
		return r
	}
	if r.namespaceSet {
		r.err = fmt.Errorf("namespace already set to %q, cannot change to %q", r.namespace, namespace)
		return r
	}
	if err := validPathSegment(namespace); namespace != "" && err != nil {
		r.err = fmt.Errorf("invalid namespace %q: %w", namespace, err)
		return r
	}
	r.namespaceSet = true
	r.namespace = namespace
	return r
}

// NamespaceIfScoped calls Namespace only if scoped.
func (r *Request) NamespaceIfScoped(namespace string, scoped bool) *Request {
	if scoped {
		return r.Namespace(namespace)
	}
	return r
}

// SubResource sets the subresource ("status", "scale"), after the name.
func (r *Request) SubResource(subresources ...string) *Request {
	if r.err != nil {
		return r
	}
	sub := path.Join(subresources...)
	if r.subresource != "" {
		r.err = fmt.Errorf("subresource already set to %q, cannot change to %q", r.subresource, sub)
		return r
	}
	for _, s := range subresources {
		if err := validPathSegment(s); err != nil {
			r.err = fmt.Errorf("invalid subresource %q: %w", s, err)
			return r
		}
	}
	r.subresource = sub
	return r
}

// Param adds a query parameter.
func (r *Request) Param(name, value string) *Request {
	if r.err != nil {
		return r
	}
	if r.params == nil {
		r.params = url.Values{}
	}
	r.params.Add(name, value)
	return r
}

// VersionedParams adds the fields of an options struct (a *metav1.ListOptions,
// GetOptions, CreateOptions …) as query parameters, by their json names;
// zero values are left out. Parameters add up with Param's.
//
// Mirrors (*rest.Request).VersionedParams with the scheme's parameter codec.
func (r *Request) VersionedParams(opts any) *Request {
	if r.err != nil {
		return r
	}
	for k, vs := range scheme.EncodeParameters(opts) {
		for _, v := range vs {
			r.Param(k, v)
		}
	}
	return r
}

// SetHeader sets a request header, replacing earlier values.
func (r *Request) SetHeader(key string, values ...string) *Request {
	if r.headers == nil {
		r.headers = http.Header{}
	}
	r.headers.Del(key)
	for _, v := range values {
		r.headers.Add(key, v)
	}
	return r
}

// Timeout bounds the request (0: none) and tells the server with the
// timeout parameter. It does not apply to Watch.
func (r *Request) Timeout(d time.Duration) *Request {
	if r.err != nil {
		return r
	}
	r.timeout = d
	return r
}

// withListTimeout makes a list's timeoutSeconds the request's timeout, as
// the generated clients do. Unlike them, a list without timeoutSeconds keeps
// the client's timeout instead of having none.
func withListTimeout(r *Request, opts metav1.ListOptions) *Request {
	if opts.TimeoutSeconds == nil {
		return r
	}
	return r.Timeout(time.Duration(*opts.TimeoutSeconds) * time.Second)
}

// Throttle replaces the rate limiter of this request (nil: none).
func (r *Request) Throttle(limiter flowcontrol.RateLimiter) *Request {
	r.rateLimiter = limiter
	return r
}

// Decoder sets how Watch decodes the object of each event and how
// Result.Get decodes the body. The default is UnstructuredDecoder.
func (r *Request) Decoder(d ObjectDecoder) *Request {
	r.decoder = d
	return r
}

// Body sets the request body: a []byte or io.Reader is sent as is; any other
// value (an API object, an options struct) is sent as JSON. A nil pointer
// sends nothing. Without a Content-Type header, the body is application/json.
func (r *Request) Body(obj any) *Request {
	if r.err != nil {
		return r
	}
	switch t := obj.(type) {
	case nil:
		return r
	case []byte:
		r.body, r.bodyReader = t, nil
	case io.Reader:
		r.body, r.bodyReader = nil, t
	default:
		if v := reflect.ValueOf(obj); v.Kind() == reflect.Pointer && v.IsNil() {
			return r
		}
		data, err := scheme.MarshalJSON(obj)
		if err != nil {
			r.err = fmt.Errorf("encoding the request body: %w", err)
			return r
		}
		r.body, r.bodyReader = data, nil
	}
	if r.headers.Get("Content-Type") == "" {
		r.SetHeader("Content-Type", ContentTypeJSON)
	}
	return r
}

// Error returns the first error met while building the request.
func (r *Request) Error() error { return r.err }

// URL returns the URL the request will be sent to.
func (r *Request) URL() *url.URL {
	p := r.pathPrefix
	if r.namespaceSet && r.namespace != "" {
		p = path.Join(p, "namespaces", r.namespace)
	}
	if r.resource != "" {
		p = path.Join(p, strings.ToLower(r.resource))
	}
	// path.Join drops a trailing slash: only join when there is more.
	if r.resourceName != "" || r.subpath != "" || r.subresource != "" {
		p = path.Join(p, r.resourceName, r.subresource, r.subpath)
	}
	u := *r.c.base
	u.Path = p
	query := url.Values{}
	for k, vs := range r.params {
		query[k] = append([]string(nil), vs...)
	}
	if r.timeout > 0 {
		query.Set("timeout", r.timeout.String())
	}
	u.RawQuery = query.Encode()
	return &u
}

// Do sends the request and reads the whole answer into a Result. Errors are
// those of building the request, of the rate limiter and transport, or an
// *apierrors.StatusError for an answer that is not 2xx (see Result.Error).
func (r *Request) Do(ctx context.Context) Result {
	if err := r.preflight(ctx); err != nil {
		return Result{err: err}
	}
	// The timeout starts after throttling, as upstream: a throttled client
	// should not time out before it sent anything.
	if r.timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, r.timeout)
		defer cancel()
	}
	resp, err := r.send(ctx)
	if err != nil {
		return Result{err: err}
	}
	defer resp.Body.Close()
	return r.transformResponse(resp)
}

// DoRaw sends the request and returns the body. A non-2xx answer is an
// error, as in Do.
func (r *Request) DoRaw(ctx context.Context) ([]byte, error) {
	result := r.Do(ctx)
	return result.body, result.err
}

// Stream sends the request and returns the body to read as it arrives; the
// caller must Close it. A non-2xx answer is an error, as in Do. The
// request's timeout, if any, covers reading the body.
func (r *Request) Stream(ctx context.Context) (io.ReadCloser, error) {
	if err := r.preflight(ctx); err != nil {
		return nil, err
	}
	cancel := context.CancelFunc(func() {})
	if r.timeout > 0 {
		ctx, cancel = context.WithTimeout(ctx, r.timeout)
	}
	resp, err := r.send(ctx)
	if err != nil {
		cancel()
		return nil, err
	}
	if !isSuccess(resp.StatusCode) {
		defer cancel()
		defer resp.Body.Close()
		return nil, r.transformResponse(resp).err
	}
	return &cancelOnClose{ReadCloser: resp.Body, cancel: cancel}, nil
}

// Watch sends the request, which should carry watch=true, and decodes the
// stream of events with the request's Decoder. Watches are neither rate
// limited nor cut by the timeout: they end when ctx ends, on Stop, or when
// the server ends the stream.
//
// Mirrors (*rest.Request).Watch.
func (r *Request) Watch(ctx context.Context) (watch.Interface, error) {
	if r.err != nil {
		return nil, r.err
	}
	if err := r.checkNamespace(); err != nil {
		return nil, err
	}
	r.timeout = 0
	resp, err := r.send(ctx)
	if err != nil {
		return nil, err
	}
	if resp.StatusCode != http.StatusOK {
		defer resp.Body.Close()
		result := r.transformResponse(resp)
		if result.err != nil {
			return nil, result.err
		}
		return nil, fmt.Errorf("for request %s, got status: %v", r.URL(), resp.StatusCode)
	}
	return NewStreamWatcher(ctx, resp.Body, r.decoder), nil
}

// preflight returns the building error, checks the namespace and waits for
// the rate limiter.
func (r *Request) preflight(ctx context.Context) error {
	if r.err != nil {
		return r.err
	}
	if err := r.checkNamespace(); err != nil {
		return err
	}
	if r.rateLimiter == nil {
		return nil
	}
	if err := r.rateLimiter.Wait(ctx); err != nil {
		if ctx.Err() == nil {
			return fmt.Errorf("client rate limiter Wait returned an error: %w", err)
		}
		return err
	}
	return nil
}

// checkNamespace catches a namespace set to "" where one is needed.
//
// Mirrors (*rest.Request).requestPreflightCheck.
func (r *Request) checkNamespace() error {
	if !r.namespaceSet || r.namespace != "" {
		return nil
	}
	switch r.verb {
	case http.MethodPost:
		return errors.New("an empty namespace may not be set during creation")
	case http.MethodGet, http.MethodPut, http.MethodDelete:
		if r.resourceName != "" {
			return errors.New("an empty namespace may not be set when a resource name is provided")
		}
	}
	return nil
}

// send builds the http.Request with the client's headers and sends it.
func (r *Request) send(ctx context.Context) (*http.Response, error) {
	var body io.Reader
	if r.body != nil {
		body = bytes.NewReader(r.body)
	} else if r.bodyReader != nil {
		body = r.bodyReader
	}
	verb := r.verb
	if verb == "" {
		verb = http.MethodGet
	}
	req, err := http.NewRequestWithContext(ctx, verb, r.URL().String(), body)
	if err != nil {
		return nil, err
	}
	for k, vs := range r.headers {
		req.Header[k] = append([]string(nil), vs...)
	}
	if req.Header.Get("Accept") == "" {
		req.Header.Set("Accept", ContentTypeJSON+", */*")
	}
	if req.Header.Get("User-Agent") == "" && r.c.userAgent != "" {
		req.Header.Set("User-Agent", r.c.userAgent)
	}
	if req.Header.Get("Authorization") == "" && r.c.bearerToken != "" {
		req.Header.Set("Authorization", "Bearer "+r.c.bearerToken)
	}
	return r.c.client.Do(req)
}

// transformResponse reads the body and, for an answer that is not 2xx,
// turns it into an error.
func (r *Request) transformResponse(resp *http.Response) Result {
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		return Result{err: fmt.Errorf("unexpected error when reading response body. Please retry. Original error: %w", err)}
	}
	result := Result{
		body:        body,
		contentType: resp.Header.Get("Content-Type"),
		statusCode:  resp.StatusCode,
		decoder:     r.decoder,
	}
	if !isSuccess(resp.StatusCode) {
		result.err = r.errorFromResponse(resp, body)
	}
	return result
}

func isSuccess(code int) bool {
	return code >= http.StatusOK && code <= http.StatusPartialContent
}

// cancelOnClose ends a Stream's timeout context when the body is closed.
type cancelOnClose struct {
	io.ReadCloser
	cancel context.CancelFunc
}

func (c *cancelOnClose) Close() error {
	defer c.cancel()
	return c.ReadCloser.Close()
}

// validPathSegment rejects what cannot be one segment of a URL path.
//
// Mirrors k8s.io/client-go/rest.IsValidPathSegmentName.
func validPathSegment(s string) error {
	if s == "." || s == ".." {
		return fmt.Errorf("may not be %q", s)
	}
	for _, bad := range []string{"/", "%"} {
		if strings.Contains(s, bad) {
			return fmt.Errorf("may not contain %q", bad)
		}
	}
	return nil
}

// Result is the answer to Do: the body, the status code and the error.
//
// Mirrors k8s.io/client-go/rest.Result.
type Result struct {
	body        []byte
	contentType string
	statusCode  int
	err         error
	decoder     ObjectDecoder
}

// Raw returns the body and the error.
func (r Result) Raw() ([]byte, error) { return r.body, r.err }

// Error returns the error of the request: nil for a 2xx answer, the Status
// the server sent as an *apierrors.StatusError, or one made from the HTTP
// code when the body is not a Status.
func (r Result) Error() error { return r.err }

// StatusCode stores the HTTP status code in *code.
func (r Result) StatusCode(code *int) Result {
	*code = r.statusCode
	return r
}

// WasCreated stores in *created whether the server answered 201 Created.
func (r Result) WasCreated(created *bool) Result {
	*created = r.statusCode == http.StatusCreated
	return r
}

// Into decodes the body into obj (typed or unstructured). The fields of obj
// are cleared first. A 2xx body that is a Status is no object: a Failure
// Status is returned as an error; a Success one (e.g. the answer of a
// delete) leaves obj as decoded and returns nil.
func (r Result) Into(obj scheme.Object) error {
	return r.into(obj, decodeJSONInto)
}

// into is Into with decode in place of decodeJSONInto.
func (r Result) into(obj scheme.Object, decode func([]byte, scheme.Object) error) error {
	if r.err != nil {
		return r.err
	}
	if len(r.body) == 0 {
		return fmt.Errorf("0-length response with status code: %d and content type: %s", r.statusCode, r.contentType)
	}
	if err := decode(r.body, obj); err != nil {
		return err
	}
	if _, isStatus := obj.(*metav1.Status); !isStatus && obj.GetObjectKind().GroupVersionKind().Kind == "Status" {
		return statusError(r.body)
	}
	return nil
}

// Get decodes the body with the request's Decoder. A Failure Status is
// returned as an error; a Success one as a *metav1.Status.
func (r Result) Get() (scheme.Object, error) {
	if r.err != nil {
		return nil, r.err
	}
	decode := r.decoder
	if decode == nil {
		decode = UnstructuredDecoder
	}
	obj, err := decode(r.body)
	if err != nil {
		return nil, err
	}
	if obj.GetObjectKind().GroupVersionKind().Kind == "Status" {
		var status metav1.Status
		if err := json.Unmarshal(r.body, &status); err != nil {
			return nil, err
		}
		if status.Status != metav1.StatusSuccess {
			return nil, apierrors.FromObject(&status)
		}
		return &status, nil
	}
	return obj, nil
}

// statusError returns the error a 2xx Status body stands for, nil for Success.
func statusError(body []byte) error {
	var status metav1.Status
	if err := json.Unmarshal(body, &status); err != nil {
		return err
	}
	if status.Status == metav1.StatusSuccess {
		return nil
	}
	return apierrors.FromObject(&status)
}
