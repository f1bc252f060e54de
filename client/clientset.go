package client

import (
	"github.com/crdlab/crdlab/scheme"
)

// apiextensionsV1 is the group and version of the CRD API.
var apiextensionsV1 = scheme.GroupVersion{Group: "apiextensions.k8s.io", Version: "v1"}

// Clientset holds one typed client per API group and version crdlab serves
// with Go types that its own controllers use: apiextensions.k8s.io/v1, and
// the core group's v1 (namespaces). Each is a RESTClient
// of its own, as in the articles' "Clientset" section: the server's
// controllers build one over the loopback address.
//
// Mirrors k8s.io/apiextensions-apiserver/pkg/client/clientset/clientset.Clientset.
type Clientset struct {
	apiextensionsV1 *ApiextensionsV1Client
	coreV1          *CoreV1Client
}

// NewForConfig returns a Clientset for config (whose GroupVersion and
// APIPath are ignored: each group sets its own). All groups share one rate
// limiter, so config's QPS bounds the whole Clientset.
//
// Mirrors clientset.NewForConfig.
func NewForConfig(config *Config) (*Clientset, error) {
	c := *config
	if c.RateLimiter == nil && c.QPS >= 0 {
		limiter, err := rateLimiterFor(&c)
		if err != nil {
			return nil, err
		}
		c.RateLimiter = limiter
	}
	v1, err := NewApiextensionsV1ForConfig(&c)
	if err != nil {
		return nil, err
	}
	core, err := NewCoreV1ForConfig(&c)
	if err != nil {
		return nil, err
	}
	return &Clientset{apiextensionsV1: v1, coreV1: core}, nil
}

// ApiextensionsV1 returns the client of apiextensions.k8s.io/v1.
func (c *Clientset) ApiextensionsV1() ApiextensionsV1Interface { return c.apiextensionsV1 }

// CoreV1 returns the client of the core group's v1 (/api/v1).
func (c *Clientset) CoreV1() CoreV1Interface { return c.coreV1 }

// ApiextensionsV1Interface gives the resources of apiextensions.k8s.io/v1.
//
// Mirrors typed/apiextensions/v1.ApiextensionsV1Interface.
type ApiextensionsV1Interface interface {
	RESTClient() *RESTClient
	CustomResourceDefinitions() CustomResourceDefinitionInterface
}

// ApiextensionsV1Client talks to apiextensions.k8s.io/v1.
//
// Mirrors typed/apiextensions/v1.ApiextensionsV1Client.
type ApiextensionsV1Client struct {
	restClient *RESTClient
}

var _ ApiextensionsV1Interface = (*ApiextensionsV1Client)(nil)

// NewApiextensionsV1ForConfig returns a client of apiextensions.k8s.io/v1.
func NewApiextensionsV1ForConfig(config *Config) (*ApiextensionsV1Client, error) {
	c := *config
	gv := apiextensionsV1
	c.GroupVersion = &gv
	c.APIPath = "/apis"
	rc, err := RESTClientFor(&c)
	if err != nil {
		return nil, err
	}
	return &ApiextensionsV1Client{restClient: rc}, nil
}

// RESTClient returns the RESTClient under the typed client.
func (c *ApiextensionsV1Client) RESTClient() *RESTClient { return c.restClient }

// CustomResourceDefinitions returns the client of CRDs (cluster-scoped).
func (c *ApiextensionsV1Client) CustomResourceDefinitions() CustomResourceDefinitionInterface {
	return &customResourceDefinitions{client: c.restClient}
}
