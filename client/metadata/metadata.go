package metadata

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"time"

	metav1 "github.com/crdlab/crdlab/apis/meta/v1"
	"github.com/crdlab/crdlab/client"
	"github.com/crdlab/crdlab/machinery/watch"
	"github.com/crdlab/crdlab/scheme"
)

// The Accept headers of the metadata client: the conversion first, then
// the plain object for a server that cannot convert.
const (
	AcceptObject = "application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1,application/json"
	AcceptList   = "application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,application/json"
)

// Interface is the entry point: pick a resource, then (for namespaced
// resources) a namespace.
//
// Mirrors k8s.io/client-go/metadata.Interface.
type Interface interface {
	Resource(resource scheme.GroupVersionResource) Getter
}

// ResourceInterface reads, watches, patches and deletes the objects of one
// resource in one namespace ("" for cluster-scoped resources, or all
// namespaces in List and Watch), as metadata. Every error from the server
// is an *apierrors.StatusError.
//
// Mirrors k8s.io/client-go/metadata.ResourceInterface.
type ResourceInterface interface {
	Delete(ctx context.Context, name string, opts metav1.DeleteOptions, subresources ...string) error
	DeleteCollection(ctx context.Context, opts metav1.DeleteOptions, listOpts metav1.ListOptions) error
	Get(ctx context.Context, name string, opts metav1.GetOptions, subresources ...string) (*metav1.PartialObjectMetadata, error)
	List(ctx context.Context, opts metav1.ListOptions) (*metav1.PartialObjectMetadataList, error)
	// Watch streams changes; events carry *metav1.PartialObjectMetadata
	// (ERROR events a *metav1.Status).
	Watch(ctx context.Context, opts metav1.ListOptions) (watch.Interface, error)
	Patch(ctx context.Context, name string, pt client.PatchType, data []byte, opts metav1.PatchOptions, subresources ...string) (*metav1.PartialObjectMetadata, error)
}

// Getter is a ResourceInterface over all namespaces (or a cluster-scoped
// resource) that can be narrowed to one namespace.
//
// Mirrors k8s.io/client-go/metadata.Getter.
type Getter interface {
	Namespace(string) ResourceInterface
	ResourceInterface
}

// Client reaches any resource as metadata.
//
// Mirrors k8s.io/client-go/metadata.Client.
type Client struct {
	client *client.RESTClient
	// omit: what objects come without (OmitManagedFields,
	// OmitLabelsAndAnnotations).
	omit omitted
}

var _ Interface = (*Client)(nil)

// NewForConfig returns a Client. config's GroupVersion and APIPath are
// ignored: each request names its whole path.
//
// Mirrors metadata.NewForConfig.
func NewForConfig(config *client.Config) (*Client, error) {
	rc, err := client.UnversionedRESTClientFor(config)
	if err != nil {
		return nil, err
	}
	return New(rc), nil
}

// New returns a Client over rc, which should be unversioned.
func New(rc *client.RESTClient) *Client { return &Client{client: rc} }

// OmitManagedFields returns a copy of c whose objects (and watch events)
// come without metadata.managedFields: the server sends them, the client
// checks but does not keep them. It is for controllers that never read
// them, such as the garbage collector, whose informers would drop them
// anyway (upstream drops them after decoding, in the informers' transform).
func (c *Client) OmitManagedFields() *Client {
	out := *c
	out.omit.managedFields = true
	return &out
}

// OmitLabelsAndAnnotations returns a copy of c whose objects (and watch
// events) come without metadata.labels and metadata.annotations, checked
// and not kept, as OmitManagedFields does for managedFields. It is for
// the garbage collector, whose informers drop them (trimToGraph): a map
// and two strings per label of every event are not made to be dropped.
// crdlab's; upstream's informer transform drops what it does not keep.
func (c *Client) OmitLabelsAndAnnotations() *Client {
	out := *c
	out.omit.labels = true
	return &out
}

// Resource returns the client of one resource.
func (c *Client) Resource(resource scheme.GroupVersionResource) Getter {
	return &resourceClient{client: c.client, resource: resource, omit: c.omit}
}

// resourceClient implements Getter.
//
// Mirrors metadata.client.
type resourceClient struct {
	client    *client.RESTClient
	namespace string
	resource  scheme.GroupVersionResource
	omit      omitted
}

func (c *resourceClient) Namespace(ns string) ResourceInterface {
	out := *c
	out.namespace = ns
	return &out
}

// ErrNameRequired says the call needs a name and got none.
var ErrNameRequired = errors.New("name is required")

// request starts a request of verb on the path of name and subresources
// (client.ResourcePath).
//
// Mirrors (*client).makeURLSegments.
func (c *resourceClient) request(verb, name string, subresources ...string) (*client.Request, error) {
	segs, err := client.ResourcePath(c.resource, c.namespace, name, subresources...)
	if err != nil {
		return nil, err
	}
	return c.client.Verb(verb).AbsPath(segs...), nil
}

// decodeObject reads an object's metadata from a body that is either a
// PartialObjectMetadata or the whole object (a server that could not
// convert). apiVersion and kind are cleared, as upstream's decoder does;
// so is what c omits.
func (c *resourceClient) decodeObject(body []byte) (*metav1.PartialObjectMetadata, error) {
	partial := &metav1.PartialObjectMetadata{}
	if err := decodePartial(body, partial, c.omit); err != nil {
		return nil, fmt.Errorf("unable to decode returned object as PartialObjectMetadata: %w", err)
	}
	if partial.Kind != "PartialObjectMetadata" && !isLikelyObjectMetadata(partial) {
		return nil, fmt.Errorf("object does not appear to match the ObjectMeta schema: %s", truncate(body))
	}
	partial.TypeMeta = metav1.TypeMeta{}
	return partial, nil
}

// isLikelyObjectMetadata reports whether meta looks like an object's.
//
// Mirrors isLikelyObjectMetadata.
func isLikelyObjectMetadata(meta *metav1.PartialObjectMetadata) bool {
	return meta.UID != "" || !meta.CreationTimestamp.IsZero() || meta.Name != "" || meta.GenerateName != ""
}

func truncate(b []byte) string {
	if len(b) > 200 {
		return string(b[:200]) + "…"
	}
	return string(b)
}

// decodeEvent is the watch's ObjectDecoder.
func (c *resourceClient) decodeEvent(data []byte) (scheme.Object, error) { return c.decodeObject(data) }

func (c *resourceClient) Get(ctx context.Context, name string, opts metav1.GetOptions, subresources ...string) (*metav1.PartialObjectMetadata, error) {
	if name == "" {
		return nil, ErrNameRequired
	}
	req, err := c.request(http.MethodGet, name, subresources...)
	if err != nil {
		return nil, err
	}
	body, err := req.SetHeader("Accept", AcceptObject).VersionedParams(&opts).DoRaw(ctx)
	if err != nil {
		return nil, err
	}
	return c.decodeObject(body)
}

func (c *resourceClient) List(ctx context.Context, opts metav1.ListOptions) (*metav1.PartialObjectMetadataList, error) {
	req, err := c.request(http.MethodGet, "")
	if err != nil {
		return nil, err
	}
	body, err := withListTimeout(req.SetHeader("Accept", AcceptList).VersionedParams(&opts), opts).DoRaw(ctx)
	if err != nil {
		return nil, err
	}
	list := &metav1.PartialObjectMetadataList{}
	if err := json.Unmarshal(body, list); err != nil {
		return nil, fmt.Errorf("unable to decode returned object as PartialObjectMetadataList: %w", err)
	}
	list.TypeMeta = metav1.TypeMeta{}
	for i := range list.Items {
		list.Items[i].TypeMeta = metav1.TypeMeta{}
		c.omit.clear(&list.Items[i].ObjectMeta)
	}
	return list, nil
}

func (c *resourceClient) Watch(ctx context.Context, opts metav1.ListOptions) (watch.Interface, error) {
	opts.Watch = true
	req, err := c.request(http.MethodGet, "")
	if err != nil {
		return nil, err
	}
	return req.SetHeader("Accept", AcceptObject).VersionedParams(&opts).Decoder(c.decodeEvent).Watch(ctx)
}

func (c *resourceClient) Patch(ctx context.Context, name string, pt client.PatchType, data []byte, opts metav1.PatchOptions, subresources ...string) (*metav1.PartialObjectMetadata, error) {
	if name == "" {
		return nil, ErrNameRequired
	}
	req, err := c.request(http.MethodPatch, name, subresources...)
	if err != nil {
		return nil, err
	}
	body, err := req.SetHeader("Content-Type", string(pt)).SetHeader("Accept", AcceptObject).
		VersionedParams(&opts).Body(data).DoRaw(ctx)
	if err != nil {
		return nil, err
	}
	return c.decodeObject(body)
}

func (c *resourceClient) Delete(ctx context.Context, name string, opts metav1.DeleteOptions, subresources ...string) error {
	if name == "" {
		return ErrNameRequired
	}
	req, err := c.request(http.MethodDelete, name, subresources...)
	if err != nil {
		return err
	}
	return req.SetHeader("Content-Type", client.ContentTypeJSON).Body(deleteOptionsBody(opts)).Do(ctx).Error()
}

func (c *resourceClient) DeleteCollection(ctx context.Context, opts metav1.DeleteOptions, listOpts metav1.ListOptions) error {
	req, err := c.request(http.MethodDelete, "")
	if err != nil {
		return err
	}
	return withListTimeout(req.SetHeader("Content-Type", client.ContentTypeJSON).Body(deleteOptionsBody(opts)).VersionedParams(&listOpts), listOpts).Do(ctx).Error()
}

// deleteOptionsBody gives DeleteOptions their TypeMeta (kind
// DeleteOptions, apiVersion v1), as the dynamic client does.
func deleteOptionsBody(opts metav1.DeleteOptions) *metav1.DeleteOptions {
	if opts.Kind == "" {
		opts.Kind, opts.APIVersion = "DeleteOptions", "v1"
	}
	return &opts
}

// withListTimeout makes a list's timeoutSeconds the request's timeout.
func withListTimeout(r *client.Request, opts metav1.ListOptions) *client.Request {
	if opts.TimeoutSeconds == nil {
		return r
	}
	return r.Timeout(time.Duration(*opts.TimeoutSeconds) * time.Second)
}
