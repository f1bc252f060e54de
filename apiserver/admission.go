package apiserver

import (
	"context"
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"

	"github.com/crdlab/crdlab/apis/core"
	corev1 "github.com/crdlab/crdlab/apis/core/v1"
	apierrors "github.com/crdlab/crdlab/apis/errors"
	"github.com/crdlab/crdlab/informer"
	"github.com/crdlab/crdlab/trace"
)

// namespaceCache is NamespaceLifecycle's cache of namespaces: an informer
// over the loopback client, which the post-start hook
// start-kube-apiserver-admission-initializer starts. Until its first list
// has synced it has nothing, and the plugin reads the storage.
//
// Without it every create of a namespaced object read its namespace from
// storage, a copy of the whole object each time (a tenth of the server's
// work on a lone client's create, session 17).
//
// Mirrors the namespace lister the Lifecycle plugin gets from
// kube-apiserver's shared informer factory (SetExternalKubeInformerFactory
// in k8s.io/apiserver/pkg/admission/plugin/namespace/lifecycle). Upstream
// starts that factory in the hook generic-apiserver-start-informers and
// runs the admission plugins' own start-up in
// start-kube-apiserver-admission-initializer; crdlab has one informer for
// admission and starts it in the latter.
type namespaceCache struct {
	log    *slog.Logger
	tracer *trace.Tracer
	store  atomic.Pointer[informer.Store] // set once the informer has synced
	wg     sync.WaitGroup                 // the informer's goroutine
}

// get is the plugin's Cached lookup: the informer's namespace, shared
// (the plugin only reads it), or NotFound.
func (c *namespaceCache) get(_ context.Context, name string) (*core.Namespace, error) {
	if st := c.store.Load(); st != nil {
		obj, ok, err := (*st).GetByKey(name)
		if err != nil {
			return nil, err
		}
		if ns, isNS := obj.(*core.Namespace); ok && isNS {
			return ns, nil
		}
	}
	return nil, apierrors.NewNotFound(core.Resource("namespaces"), name)
}

// toInternalNamespace converts the client's core/v1 Namespace to the
// plugin's internal one, once per event rather than per lookup.
func toInternalNamespace(obj any) (any, error) {
	v1ns, ok := obj.(*corev1.Namespace)
	if !ok {
		return obj, nil // a DeletedFinalStateUnknown, say: the store keeps it as it is
	}
	ns := &core.Namespace{}
	if err := corev1.Convert_v1_Namespace_To_core_Namespace(v1ns, ns); err != nil {
		return nil, err
	}
	return ns, nil
}

// install registers the hook that starts the informer; the server is
// ready once it has synced.
func (c *namespaceCache) install(s *Server) error {
	return s.AddPostStartHook("start-kube-apiserver-admission-initializer", func(ctx context.Context) error {
		cs, _, err := loopbackClients(s.LoopbackClientConfig(), "crdlab-admission")
		if err != nil {
			return err
		}
		inf := informer.NewSharedIndexInformerWithOptions(listWatch(cs.CoreV1().Namespaces()), informer.SharedIndexInformerOptions{
			Name:      "admission-namespaces",
			Logger:    c.log.With("informer", "admission-namespaces"),
			Tracer:    c.tracer,
			Transform: toInternalNamespace,
		})
		c.wg.Go(func() { inf.Run(ctx) })
		if !informer.WaitForCacheSync(ctx, inf.HasSynced) {
			return fmt.Errorf("namespace informer of admission: %w", context.Cause(ctx))
		}
		st := inf.GetStore()
		c.store.Store(&st)
		return nil
	})
}

// wait returns once the informer has stopped.
func (c *namespaceCache) wait() { c.wg.Wait() }
