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

func (c *customResourceDefinitions) Create(ctx context.Context, crd *apiextensionsv1.CustomResourceDefinition, opts metav1.CreateOptions) (*apiextensionsv1.CustomResourceDefinition, error) {
	result := &apiextensionsv1.CustomResourceDefinition{}
	err := c.client.Post().Resource(crdResource).VersionedParams(&opts).Body(withTypeMeta(crd)).Do(ctx).Into(result)
	return result, err
}

func (c *customResourceDefinitions) Update(ctx context.Context, crd *apiextensionsv1.CustomResourceDefinition, opts metav1.UpdateOptions) (*apiextensionsv1.CustomResourceDefinition, error) {
	result := &apiextensionsv1.CustomResourceDefinition{}
	err := c.client.Put().Resource(crdResource).Name(crd.Name).VersionedParams(&opts).Body(withTypeMeta(crd)).Do(ctx).Into(result)
	return result, err
}

func (c *customResourceDefinitions) UpdateStatus(ctx context.Context, crd *apiextensionsv1.CustomResourceDefinition, opts metav1.UpdateOptions) (*apiextensionsv1.CustomResourceDefinition, error) {
	result := &apiextensionsv1.CustomResourceDefinition{}
	err := c.client.Put().Resource(crdResource).Name(crd.Name).SubResource("status").VersionedParams(&opts).Body(withTypeMeta(crd)).Do(ctx).Into(result)
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
	err := c.client.Get().Resource(crdResource).Name(name).VersionedParams(&opts).Do(ctx).Into(result)
	return result, err
}

func (c *customResourceDefinitions) List(ctx context.Context, opts metav1.ListOptions) (*apiextensionsv1.CustomResourceDefinitionList, error) {
	result := &apiextensionsv1.CustomResourceDefinitionList{}
	err := withListTimeout(c.client.Get().Resource(crdResource).VersionedParams(&opts), opts).Do(ctx).Into(result)
	return result, err
}

func (c *customResourceDefinitions) Watch(ctx context.Context, opts metav1.ListOptions) (watch.Interface, error) {
	opts.Watch = true
	return c.client.Get().Resource(crdResource).VersionedParams(&opts).Decoder(decodeCRD).Watch(ctx)
}

func (c *customResourceDefinitions) Patch(ctx context.Context, name string, pt PatchType, data []byte, opts metav1.PatchOptions, subresources ...string) (*apiextensionsv1.CustomResourceDefinition, error) {
	result := &apiextensionsv1.CustomResourceDefinition{}
	err := c.client.Patch(pt).Resource(crdResource).Name(name).SubResource(subresources...).VersionedParams(&opts).Body(data).Do(ctx).Into(result)
	return result, err
}
