package dynamic

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"time"

	metav1 "github.com/crdlab/crdlab/apis/meta/v1"
	"github.com/crdlab/crdlab/apis/meta/v1/unstructured"
	"github.com/crdlab/crdlab/client"
	"github.com/crdlab/crdlab/machinery/watch"
	"github.com/crdlab/crdlab/scheme"
)

// Interface is the entry point: pick a resource, then (for namespaced
// resources) a namespace.
//
// Mirrors k8s.io/client-go/dynamic.Interface.
type Interface interface {
	Resource(resource scheme.GroupVersionResource) NamespaceableResourceInterface
}

// ResourceInterface reads and writes the objects of one resource in one
// namespace ("" for cluster-scoped resources, or all namespaces in List and
// Watch). Objects travel as *unstructured.Unstructured; every error from the
// server is an *apierrors.StatusError. subresources name a subresource path
// after the object's name ("status", "scale").
//
// Mirrors k8s.io/client-go/dynamic.ResourceInterface.
type ResourceInterface interface {
	Create(ctx context.Context, obj *unstructured.Unstructured, opts metav1.CreateOptions, subresources ...string) (*unstructured.Unstructured, error)
	Update(ctx context.Context, obj *unstructured.Unstructured, opts metav1.UpdateOptions, subresources ...string) (*unstructured.Unstructured, error)
	UpdateStatus(ctx context.Context, obj *unstructured.Unstructured, opts metav1.UpdateOptions) (*unstructured.Unstructured, error)
	Delete(ctx context.Context, name string, opts metav1.DeleteOptions, subresources ...string) error
	DeleteCollection(ctx context.Context, opts metav1.DeleteOptions, listOpts metav1.ListOptions) error
	Get(ctx context.Context, name string, opts metav1.GetOptions, subresources ...string) (*unstructured.Unstructured, error)
	List(ctx context.Context, opts metav1.ListOptions) (*unstructured.UnstructuredList, error)
	// Watch streams changes; events carry *unstructured.Unstructured (ERROR
	// events a *metav1.Status).
	Watch(ctx context.Context, opts metav1.ListOptions) (watch.Interface, error)
	Patch(ctx context.Context, name string, pt client.PatchType, data []byte, opts metav1.PatchOptions, subresources ...string) (*unstructured.Unstructured, error)
	// Apply sends obj as a server-side apply (the fields its manager
	// wants), creating the object if it does not exist. obj must not
	// carry managedFields.
	Apply(ctx context.Context, name string, obj *unstructured.Unstructured, opts metav1.ApplyOptions, subresources ...string) (*unstructured.Unstructured, error)
	ApplyStatus(ctx context.Context, name string, obj *unstructured.Unstructured, opts metav1.ApplyOptions) (*unstructured.Unstructured, error)
}

// NamespaceableResourceInterface is a ResourceInterface over all namespaces
// (or a cluster-scoped resource) that can be narrowed to one namespace.
type NamespaceableResourceInterface interface {
	Namespace(string) ResourceInterface
	ResourceInterface
}

// DynamicClient talks to any resource, known at compile time or not, with
// unstructured objects: what crdlab's controllers and handlers use for
// custom resources, which have no Go type.
//
// Mirrors k8s.io/client-go/dynamic.DynamicClient.
type DynamicClient struct {
	client *client.RESTClient
}

var _ Interface = (*DynamicClient)(nil)

// NewForConfig returns a DynamicClient. config's GroupVersion and APIPath
// are ignored: each request names its whole path.
//
// Mirrors dynamic.NewForConfig.
func NewForConfig(config *client.Config) (*DynamicClient, error) {
	rc, err := client.UnversionedRESTClientFor(config)
	if err != nil {
		return nil, err
	}
	return New(rc), nil
}

// New returns a DynamicClient over rc, which should be unversioned.
func New(rc *client.RESTClient) *DynamicClient { return &DynamicClient{client: rc} }

// Resource returns the client of one resource.
func (c *DynamicClient) Resource(resource scheme.GroupVersionResource) NamespaceableResourceInterface {
	return &dynamicResourceClient{client: c.client, resource: resource}
}

// dynamicResourceClient implements NamespaceableResourceInterface.
//
// Mirrors dynamic.dynamicResourceClient.
type dynamicResourceClient struct {
	client    *client.RESTClient
	namespace string
	resource  scheme.GroupVersionResource
}

func (c *dynamicResourceClient) Namespace(ns string) ResourceInterface {
	out := *c
	out.namespace = ns
	return &out
}

// ErrNameRequired says the call needs a name and got none.
var ErrNameRequired = errors.New("name is required")

// request starts a request of verb on the path of name and subresources
// (client.ResourcePath).
//
// Mirrors (*dynamicResourceClient).makeURLSegments.
func (c *dynamicResourceClient) request(verb, name string, subresources ...string) (*client.Request, error) {
	segs, err := client.ResourcePath(c.resource, c.namespace, name, subresources...)
	if err != nil {
		return nil, err
	}
	return c.client.Verb(verb).AbsPath(segs...), nil
}

// decode turns a response body into an Unstructured.
func decode(body []byte) (*unstructured.Unstructured, error) {
	u := &unstructured.Unstructured{}
	if err := u.UnmarshalJSON(body); err != nil {
		return nil, err
	}
	return u, nil
}

func (c *dynamicResourceClient) Create(ctx context.Context, obj *unstructured.Unstructured, opts metav1.CreateOptions, subresources ...string) (*unstructured.Unstructured, error) {
	body, err := json.Marshal(obj)
	if err != nil {
		return nil, err
	}
	name := ""
	if len(subresources) > 0 {
		if name = obj.GetName(); name == "" {
			return nil, ErrNameRequired
		}
	}
	req, err := c.request(http.MethodPost, name, subresources...)
	if err != nil {
		return nil, err
	}
	result, err := req.SetHeader("Content-Type", client.ContentTypeJSON).VersionedParams(&opts).Body(body).DoRaw(ctx)
	if err != nil {
		return nil, err
	}
	return decode(result)
}

func (c *dynamicResourceClient) Update(ctx context.Context, obj *unstructured.Unstructured, opts metav1.UpdateOptions, subresources ...string) (*unstructured.Unstructured, error) {
	name := obj.GetName()
	if name == "" {
		return nil, ErrNameRequired
	}
	body, err := json.Marshal(obj)
	if err != nil {
		return nil, err
	}
	req, err := c.request(http.MethodPut, name, subresources...)
	if err != nil {
		return nil, err
	}
	result, err := req.SetHeader("Content-Type", client.ContentTypeJSON).VersionedParams(&opts).Body(body).DoRaw(ctx)
	if err != nil {
		return nil, err
	}
	return decode(result)
}

func (c *dynamicResourceClient) UpdateStatus(ctx context.Context, obj *unstructured.Unstructured, opts metav1.UpdateOptions) (*unstructured.Unstructured, error) {
	return c.Update(ctx, obj, opts, "status")
}

func (c *dynamicResourceClient) Delete(ctx context.Context, name string, opts metav1.DeleteOptions, subresources ...string) error {
	if name == "" {
		return ErrNameRequired
	}
	req, err := c.request(http.MethodDelete, name, subresources...)
	if err != nil {
		return err
	}
	return req.Body(deleteOptionsBody(opts)).Do(ctx).Error()
}

func (c *dynamicResourceClient) DeleteCollection(ctx context.Context, opts metav1.DeleteOptions, listOpts metav1.ListOptions) error {
	req, err := c.request(http.MethodDelete, "")
	if err != nil {
		return err
	}
	return withListTimeout(req.Body(deleteOptionsBody(opts)).VersionedParams(&listOpts), listOpts).Do(ctx).Error()
}

// deleteOptionsBody gives DeleteOptions the TypeMeta upstream's dynamic
// client sends: kind DeleteOptions, apiVersion v1.
func deleteOptionsBody(opts metav1.DeleteOptions) *metav1.DeleteOptions {
	if opts.Kind == "" {
		opts.Kind, opts.APIVersion = "DeleteOptions", "v1"
	}
	return &opts
}

func (c *dynamicResourceClient) Get(ctx context.Context, name string, opts metav1.GetOptions, subresources ...string) (*unstructured.Unstructured, error) {
	if name == "" {
		return nil, ErrNameRequired
	}
	req, err := c.request(http.MethodGet, name, subresources...)
	if err != nil {
		return nil, err
	}
	result, err := req.VersionedParams(&opts).DoRaw(ctx)
	if err != nil {
		return nil, err
	}
	return decode(result)
}

func (c *dynamicResourceClient) List(ctx context.Context, opts metav1.ListOptions) (*unstructured.UnstructuredList, error) {
	req, err := c.request(http.MethodGet, "")
	if err != nil {
		return nil, err
	}
	result, err := withListTimeout(req.VersionedParams(&opts), opts).DoRaw(ctx)
	if err != nil {
		return nil, err
	}
	list := &unstructured.UnstructuredList{}
	if err := list.UnmarshalJSON(result); err != nil {
		return nil, err
	}
	return list, nil
}

func (c *dynamicResourceClient) Watch(ctx context.Context, opts metav1.ListOptions) (watch.Interface, error) {
	opts.Watch = true
	req, err := c.request(http.MethodGet, "")
	if err != nil {
		return nil, err
	}
	return req.VersionedParams(&opts).Decoder(client.UnstructuredDecoder).Watch(ctx)
}

func (c *dynamicResourceClient) Patch(ctx context.Context, name string, pt client.PatchType, data []byte, opts metav1.PatchOptions, subresources ...string) (*unstructured.Unstructured, error) {
	if name == "" {
		return nil, ErrNameRequired
	}
	req, err := c.request(http.MethodPatch, name, subresources...)
	if err != nil {
		return nil, err
	}
	result, err := req.SetHeader("Content-Type", string(pt)).VersionedParams(&opts).Body(data).DoRaw(ctx)
	if err != nil {
		return nil, err
	}
	return decode(result)
}

// ErrManagedFieldsSet refuses an apply of an object that carries
// managedFields: the server would answer 400.
var ErrManagedFieldsSet = errors.New("dynamic: cannot apply an object with managed fields already set")

// Apply mirrors (*dynamicResourceClient).Apply in client-go's dynamic/simple.go.
func (c *dynamicResourceClient) Apply(ctx context.Context, name string, obj *unstructured.Unstructured, opts metav1.ApplyOptions, subresources ...string) (*unstructured.Unstructured, error) {
	if name == "" {
		return nil, ErrNameRequired
	}
	if len(obj.GetManagedFields()) > 0 {
		return nil, ErrManagedFieldsSet
	}
	body, err := json.Marshal(obj)
	if err != nil {
		return nil, err
	}
	return c.Patch(ctx, name, client.ApplyPatchType, body, opts.ToPatchOptions(), subresources...)
}

// ApplyStatus applies to /status.
func (c *dynamicResourceClient) ApplyStatus(ctx context.Context, name string, obj *unstructured.Unstructured, opts metav1.ApplyOptions) (*unstructured.Unstructured, error) {
	return c.Apply(ctx, name, obj, opts, "status")
}

// withListTimeout makes a list's timeoutSeconds the request's timeout.
func withListTimeout(r *client.Request, opts metav1.ListOptions) *client.Request {
	if opts.TimeoutSeconds == nil {
		return r
	}
	return r.Timeout(time.Duration(*opts.TimeoutSeconds) * time.Second)
}
