package client

import (
	"context"

	corev1 "github.com/crdlab/crdlab/apis/core/v1"
	metav1 "github.com/crdlab/crdlab/apis/meta/v1"
	"github.com/crdlab/crdlab/machinery/watch"
	"github.com/crdlab/crdlab/scheme"
)

// coreV1 is the legacy core group's only version, served under /api/v1.
var coreV1 = scheme.GroupVersion{Group: "", Version: "v1"}

// CoreV1Interface gives the resources of the core group that crdlab's own
// controllers use; today, namespaces.
//
// Mirrors typed/core/v1.CoreV1Interface of k8s.io/client-go/kubernetes,
// narrowed to namespaces.
type CoreV1Interface interface {
	RESTClient() *RESTClient
	Namespaces() NamespaceInterface
}

// CoreV1Client talks to the core group, /api/v1.
//
// Mirrors typed/core/v1.CoreV1Client.
type CoreV1Client struct {
	restClient *RESTClient
}

var _ CoreV1Interface = (*CoreV1Client)(nil)

// NewCoreV1ForConfig returns a client of the core group's v1.
func NewCoreV1ForConfig(config *Config) (*CoreV1Client, error) {
	c := *config
	gv := coreV1
	c.GroupVersion = &gv
	c.APIPath = "/api"
	rc, err := RESTClientFor(&c)
	if err != nil {
		return nil, err
	}
	return &CoreV1Client{restClient: rc}, nil
}

// RESTClient returns the RESTClient under the typed client.
func (c *CoreV1Client) RESTClient() *RESTClient { return c.restClient }

// Namespaces returns the client of namespaces (cluster-scoped).
func (c *CoreV1Client) Namespaces() NamespaceInterface { return &namespaces{client: c.restClient} }

// NamespaceInterface reads and writes Namespaces. Every error from the
// server is an *apierrors.StatusError.
//
// Mirrors typed/core/v1.NamespaceInterface (and its NamespaceExpansion,
// which adds Finalize).
type NamespaceInterface interface {
	Create(ctx context.Context, ns *corev1.Namespace, opts metav1.CreateOptions) (*corev1.Namespace, error)
	Get(ctx context.Context, name string, opts metav1.GetOptions) (*corev1.Namespace, error)
	List(ctx context.Context, opts metav1.ListOptions) (*corev1.NamespaceList, error)
	// Watch streams changes; events carry *corev1.Namespace.
	Watch(ctx context.Context, opts metav1.ListOptions) (watch.Interface, error)
	Delete(ctx context.Context, name string, opts metav1.DeleteOptions) error
	// UpdateStatus replaces the status only (PUT …/status): the phase and
	// the namespace controller's conditions.
	UpdateStatus(ctx context.Context, ns *corev1.Namespace, opts metav1.UpdateOptions) (*corev1.Namespace, error)
	// Finalize replaces spec.finalizers only (PUT …/finalize): what the
	// namespace controller calls to remove "kubernetes" once the
	// namespace is empty.
	Finalize(ctx context.Context, ns *corev1.Namespace, opts metav1.UpdateOptions) (*corev1.Namespace, error)
}

// namespaces implements NamespaceInterface.
type namespaces struct {
	client *RESTClient
}

var _ NamespaceInterface = (*namespaces)(nil)

const namespaceResource = "namespaces"

// withNamespaceTypeMeta returns a shallow copy of ns that says it is a v1
// Namespace (see withTypeMeta).
func withNamespaceTypeMeta(ns *corev1.Namespace) *corev1.Namespace {
	if ns == nil {
		return nil
	}
	cp := *ns
	cp.TypeMeta = metav1.TypeMeta{APIVersion: "v1", Kind: "Namespace"}
	return &cp
}

func decodeNamespace(data []byte) (scheme.Object, error) {
	return JSONDecoder(func() scheme.Object { return &corev1.Namespace{} })(data)
}

func (c *namespaces) Create(ctx context.Context, ns *corev1.Namespace, opts metav1.CreateOptions) (*corev1.Namespace, error) {
	result := &corev1.Namespace{}
	err := c.client.Post().Resource(namespaceResource).VersionedParams(&opts).Body(withNamespaceTypeMeta(ns)).Do(ctx).Into(result)
	return result, err
}

func (c *namespaces) Get(ctx context.Context, name string, opts metav1.GetOptions) (*corev1.Namespace, error) {
	result := &corev1.Namespace{}
	err := c.client.Get().Resource(namespaceResource).Name(name).VersionedParams(&opts).Do(ctx).Into(result)
	return result, err
}

func (c *namespaces) List(ctx context.Context, opts metav1.ListOptions) (*corev1.NamespaceList, error) {
	result := &corev1.NamespaceList{}
	err := withListTimeout(c.client.Get().Resource(namespaceResource).VersionedParams(&opts), opts).Do(ctx).Into(result)
	return result, err
}

func (c *namespaces) Watch(ctx context.Context, opts metav1.ListOptions) (watch.Interface, error) {
	opts.Watch = true
	return c.client.Get().Resource(namespaceResource).VersionedParams(&opts).Decoder(decodeNamespace).Watch(ctx)
}

func (c *namespaces) Delete(ctx context.Context, name string, opts metav1.DeleteOptions) error {
	return c.client.Delete().Resource(namespaceResource).Name(name).Body(&opts).Do(ctx).Error()
}

func (c *namespaces) UpdateStatus(ctx context.Context, ns *corev1.Namespace, opts metav1.UpdateOptions) (*corev1.Namespace, error) {
	result := &corev1.Namespace{}
	err := c.client.Put().Resource(namespaceResource).Name(ns.Name).SubResource("status").VersionedParams(&opts).Body(withNamespaceTypeMeta(ns)).Do(ctx).Into(result)
	return result, err
}

func (c *namespaces) Finalize(ctx context.Context, ns *corev1.Namespace, opts metav1.UpdateOptions) (*corev1.Namespace, error) {
	result := &corev1.Namespace{}
	err := c.client.Put().Resource(namespaceResource).Name(ns.Name).SubResource("finalize").VersionedParams(&opts).Body(withNamespaceTypeMeta(ns)).Do(ctx).Into(result)
	return result, err
}
