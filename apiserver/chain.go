package apiserver

import (
	"github.com/crdlab/crdlab/handler"
	"github.com/crdlab/crdlab/handler/admission"
	"github.com/crdlab/crdlab/internal/version"
	"github.com/crdlab/crdlab/scheme"
	"github.com/crdlab/crdlab/storage"
)

// The server chain of seed 002: each link serves what it has and hands
// the rest to the next.
//
//	kube-apiserver link            namespaces, secrets, configmaps, events (/api/v1),
//	  (Instance, controlplane.go)  events.k8s.io, coordination.k8s.io, the self-reviews
//	      │ delegate
//	apiextensions link             customresourcedefinitions, and every custom
//	  (CustomResourceDefinitions,  resource through the crdHandler
//	   extensions.go)
//	      │ delegate
//	404                            NotFoundHandler, which says what crdlab serves
//
// Upstream puts the aggregator in front (crdlab has no APIService); its
// merged discovery and OpenAPI are the handler's shared ones.

// serverChain is the chain's two links.
type serverChain struct {
	kube       *Instance
	extensions *CustomResourceDefinitions
	// namespaces is NamespaceLifecycle's cache; nil with the plugin off.
	namespaces *namespaceCache
}

// createServerChain builds the chain from the back: the end (404), the
// apiextensions link delegating to it, the kube-apiserver link delegating
// to that. The kube-apiserver link serves first.
//
// Mirrors CreateServerChain in k8s.io/kubernetes/cmd/kube-apiserver/app/server.go.
func (c *completedConfig) createServerChain(backend storage.Backend, acc *access) (*serverChain, error) {
	// NamespaceLifecycle reads the namespaces storage, which the
	// kube-apiserver link makes: its lookup is wired below.
	var lifecycle *admission.NamespaceLifecycle
	var admit admission.Interface
	var namespaces *namespaceCache
	if !c.DisableNamespaceLifecycle {
		namespaces = &namespaceCache{log: c.Logger.With("component", "admission"), tracer: c.Tracer}
		lifecycle = &admission.NamespaceLifecycle{Immortal: admission.ImmortalNamespaces(), Cached: namespaces.get}
		admit = lifecycle
	}
	genericConfig := c.genericConfig(backend, admit)
	notFoundHandler := handler.NewNotFoundHandler(genericConfig.Discovery())
	apiExtensionsServer, err := c.newCustomResourceDefinitions(genericConfig, backend, handler.NewEmptyDelegate(notFoundHandler))
	if err != nil {
		return nil, err
	}
	kubeAPIServer, err := c.newKubeAPIServer(genericConfig, backend, acc, apiExtensionsServer.GenericAPIServer)
	if err != nil {
		return nil, err
	}
	if lifecycle != nil {
		lifecycle.Live = kubeAPIServer.namespaceGetter
	}
	setGroupPriorities(genericConfig)
	return &serverChain{kube: kubeAPIServer, extensions: apiExtensionsServer, namespaces: namespaces}, nil
}

// genericConfig is the configuration every link shares.
//
// Mirrors BuildGenericConfig in pkg/controlplane/apiserver/config.go.
func (c *completedConfig) genericConfig(backend storage.Backend, admit admission.Interface) handler.CompletedConfig {
	return handler.Config{
		Scheme:         c.scheme,
		Codecs:         scheme.NewCodecFactory(c.scheme),
		Logger:         c.Logger,
		Tracer:         c.Tracer,
		RequestTimeout: c.RequestTimeout,
		// A client that stops reading a watch loses it.
		WatchWriteTimeout: c.WatchWriteTimeout,
		// The chain's admission: NamespaceLifecycle, unless turned off.
		Admission:      admit,
		OpenAPIVersion: version.Get().GitVersion,
		// Custom resources: their storage and their schemas.
		CustomResourceStorage: customResourceStorage(backend, c.garbageCollection()),
		SchemaFor:             schemaFor,
	}.Complete()
}

// setGroupPriorities orders /apis as upstream's aggregator does: the core
// group first, then events.k8s.io, authentication, authorization,
// apiextensions, coordination; CRD groups after every built-in one.
//
// Mirrors the apiVersionPriorities of pkg/controlplane/apiserver/aggregator.go.
func setGroupPriorities(c handler.CompletedConfig) {
	for group, priority := range map[string]int{
		"": 18000, "events.k8s.io": 17750, "authentication.k8s.io": 17700, "authorization.k8s.io": 17600,
		"apiextensions.k8s.io": 16700, "coordination.k8s.io": 16500,
	} {
		c.Discovery().SetGroupPriority(group, priority)
	}
}
