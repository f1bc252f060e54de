package client

import (
	"context"

	apiextensionsv1 "github.com/crdlab/crdlab/apis/apiextensions/v1"
	metav1 "github.com/crdlab/crdlab/apis/meta/v1"
	"github.com/crdlab/crdlab/machinery/watch"
	"github.com/crdlab/crdlab/scheme"
)

// CustomResourceDefinitionInterface reads and writes CRDs. Every error from
// the server is an *apierrors.StatusError: test it with apierrors.IsNotFound,
// IsAlreadyExists, IsConflict, IsInvalid ….
//
// Create, Update and UpdateStatus send apiextensions.k8s.io/v1
// CustomResourceDefinition as the body's apiVersion and kind whatever the
// CRD's TypeMeta says (an empty one included), and leave the CRD passed in
// unchanged, as client-go does.
//
// Mirrors typed/apiextensions/v1.CustomResourceDefinitionInterface.
type CustomResourceDefinitionInterface interface {
	Create(ctx context.Context, crd *apiextensionsv1.CustomResourceDefinition, opts metav1.CreateOptions) (*apiextensionsv1.CustomResourceDefinition, error)
	// Update replaces the CRD; the server ignores a changed status.
	Update(ctx context.Context, crd *apiextensionsv1.CustomResourceDefinition, opts metav1.UpdateOptions) (*apiextensionsv1.CustomResourceDefinition, error)
	// UpdateStatus replaces the status only (PUT …/status): what the
	// controllers call to set NamesAccepted, Established, Terminating.
	UpdateStatus(ctx context.Context, crd *apiextensionsv1.CustomResourceDefinition, opts metav1.UpdateOptions) (*apiextensionsv1.CustomResourceDefinition, error)
	Delete(ctx context.Context, name string, opts metav1.DeleteOptions) error
	DeleteCollection(ctx context.Context, opts metav1.DeleteOptions, listOpts metav1.ListOptions) error
	Get(ctx context.Context, name string, opts metav1.GetOptions) (*apiextensionsv1.CustomResourceDefinition, error)
	List(ctx context.Context, opts metav1.ListOptions) (*apiextensionsv1.CustomResourceDefinitionList, error)
	// Watch streams changes; events carry *apiextensionsv1.CustomResourceDefinition
	// (ERROR events a *metav1.Status).
	Watch(ctx context.Context, opts metav1.ListOptions) (watch.Interface, error)
	Patch(ctx context.Context, name string, pt PatchType, data []byte, opts metav1.PatchOptions, subresources ...string) (*apiextensionsv1.CustomResourceDefinition, error)
}

// customResourceDefinitions implements CustomResourceDefinitionInterface.
//
// Mirrors typed/apiextensions/v1.customResourceDefinitions (generated
// upstream by client-gen).
type customResourceDefinitions struct {
	client *RESTClient
	// specs, if not nil, shares the decoded specs (CRDsSharingSpecs).
	specs *SharedSpecs
}

// CRDsSharingSpecs returns a client of CRDs over rc (an apiextensions.k8s.io/v1
// RESTClient) whose answers and watch events share their decoded specs
// through specs: a spec decoded before is not decoded again, and every
// CRD it returns has a read-only spec (SharedSpecs says why). The server's
// own controllers use it; List decodes each item on its own (a remembered
// spec is shared, any other prepared and not remembered).
func CRDsSharingSpecs(rc *RESTClient, specs *SharedSpecs) CustomResourceDefinitionInterface {
	return &customResourceDefinitions{client: rc, specs: specs}
}

var _ CustomResourceDefinitionInterface = (*customResourceDefinitions)(nil)

const crdResource = "customresourcedefinitions"

func decodeCRD(data []byte) (scheme.Object, error) {
	return JSONDecoder(func() scheme.Object { return &apiextensionsv1.CustomResourceDefinition{} })(data)
}

// crdTypeMeta is what every CRD request body says it is.
var crdTypeMeta = metav1.TypeMeta{
	APIVersion: apiextensionsv1.SchemeGroupVersion.String(),
	Kind:       "CustomResourceDefinition",
}

// withTypeMeta returns a shallow copy of crd whose apiVersion and kind are
// apiextensions.k8s.io/v1 CustomResourceDefinition, so that a CRD built in
// Go without TypeMeta is still a valid body (the server answers "Object
// 'Kind' is missing" otherwise). crd itself is left as it is.
//
// Mirrors what client-go's versioning encoder does to a typed object when
// it encodes a request body: it sets the GroupVersionKind from the scheme
// for the encoding and restores the caller's afterwards.
func withTypeMeta(crd *apiextensionsv1.CustomResourceDefinition) *apiextensionsv1.CustomResourceDefinition {
	if crd == nil {
		return nil
	}
	cp := *crd
	cp.TypeMeta = crdTypeMeta
	return &cp
}

// body is crd, with apiVersion and kind set, as a request body.
func (c *customResourceDefinitions) body(crd *apiextensionsv1.CustomResourceDefinition) any {
	return c.encode(crd, false)
}

// statusBody is body for a status write, whose spec the client remembers
// if it does not already (SharedSpecs.encode).
func (c *customResourceDefinitions) statusBody(crd *apiextensionsv1.CustomResourceDefinition) any {
	return c.encode(crd, true)
}

func (c *customResourceDefinitions) encode(crd *apiextensionsv1.CustomResourceDefinition, remember bool) any {
	crd = withTypeMeta(crd)
	if c.specs == nil || crd == nil {
		return crd
	}
	b, err := c.specs.encode(crd, remember)
	if err != nil {
		return crd // the Request reports the error
	}
	return b
}

// into decodes res's object into result.
func (c *customResourceDefinitions) into(res Result, result *apiextensionsv1.CustomResourceDefinition) error {
	if c.specs == nil {
		return res.Into(result)
	}
	return res.into(result, func(data []byte, _ scheme.Object) error { return c.specs.decode(data, result) })
}

// decode is the watch's decoder.
func (c *customResourceDefinitions) decode(data []byte) (scheme.Object, error) {
	if c.specs == nil {
		return decodeCRD(data)
	}
	crd := &apiextensionsv1.CustomResourceDefinition{}
	if err := c.specs.decode(data, crd); err != nil {
		return nil, err
	}
	return crd, nil
}

func (c *customResourceDefinitions) Create(ctx context.Context, crd *apiextensionsv1.CustomResourceDefinition, opts metav1.CreateOptions) (*apiextensionsv1.CustomResourceDefinition, error) {
	result := &apiextensionsv1.CustomResourceDefinition{}
	err := c.into(c.client.Post().Resource(crdResource).VersionedParams(&opts).Body(c.body(crd)).Do(ctx), result)
	return result, err
}

func (c *customResourceDefinitions) Update(ctx context.Context, crd *apiextensionsv1.CustomResourceDefinition, opts metav1.UpdateOptions) (*apiextensionsv1.CustomResourceDefinition, error) {
	result := &apiextensionsv1.CustomResourceDefinition{}
	err := c.into(c.client.Put().Resource(crdResource).Name(crd.Name).VersionedParams(&opts).Body(c.body(crd)).Do(ctx), result)
	return result, err
}

func (c *customResourceDefinitions) UpdateStatus(ctx context.Context, crd *apiextensionsv1.CustomResourceDefinition, opts metav1.UpdateOptions) (*apiextensionsv1.CustomResourceDefinition, error) {
	result := &apiextensionsv1.CustomResourceDefinition{}
	err := c.into(c.client.Put().Resource(crdResource).Name(crd.Name).SubResource("status").VersionedParams(&opts).Body(c.statusBody(crd)).Do(ctx), result)
	return result, err
}

func (c *customResourceDefinitions) Delete(ctx context.Context, name string, opts metav1.DeleteOptions) error {
	return c.client.Delete().Resource(crdResource).Name(name).Body(&opts).Do(ctx).Error()
}

func (c *customResourceDefinitions) DeleteCollection(ctx context.Context, opts metav1.DeleteOptions, listOpts metav1.ListOptions) error {
	r := c.client.Delete().Resource(crdResource).VersionedParams(&listOpts).Body(&opts)
	return withListTimeout(r, listOpts).Do(ctx).Error()
}

func (c *customResourceDefinitions) Get(ctx context.Context, name string, opts metav1.GetOptions) (*apiextensionsv1.CustomResourceDefinition, error) {
	result := &apiextensionsv1.CustomResourceDefinition{}
	err := c.into(c.client.Get().Resource(crdResource).Name(name).VersionedParams(&opts).Do(ctx), result)
	return result, err
}

func (c *customResourceDefinitions) List(ctx context.Context, opts metav1.ListOptions) (*apiextensionsv1.CustomResourceDefinitionList, error) {
	result := &apiextensionsv1.CustomResourceDefinitionList{}
	res := withListTimeout(c.client.Get().Resource(crdResource).VersionedParams(&opts), opts).Do(ctx)
	if c.specs == nil {
		return result, res.Into(result)
	}
	err := res.into(result, func(data []byte, _ scheme.Object) error { return c.specs.decodeList(data, result) })
	return result, err
}

func (c *customResourceDefinitions) Watch(ctx context.Context, opts metav1.ListOptions) (watch.Interface, error) {
	opts.Watch = true
	return c.client.Get().Resource(crdResource).VersionedParams(&opts).Decoder(c.decode).Watch(ctx)
}

func (c *customResourceDefinitions) Patch(ctx context.Context, name string, pt PatchType, data []byte, opts metav1.PatchOptions, subresources ...string) (*apiextensionsv1.CustomResourceDefinition, error) {
	result := &apiextensionsv1.CustomResourceDefinition{}
	err := c.into(c.client.Patch(pt).Resource(crdResource).Name(name).SubResource(subresources...).VersionedParams(&opts).Body(data).Do(ctx), result)
	return result, err
}
