package apiserver

// This file runs the two controllers of kube-controller-manager that the
// built-in API needs, inside the server, as crdlab runs the apiextensions
// controllers: the namespace controller (a deleted namespace is emptied,
// then finalized) and the garbage collector (ownerReferences). Upstream
// they are a separate process that talks to kube-apiserver through a
// kubeconfig; here a post-start hook builds them over the loopback client.
//
//	storage ──watch──▶ namespace informer ──▶ namespace controller ──discovery, deletecollection,
//	                                                                 /status, /finalize──▶ the server
//	storage ──watch──▶ one informer per deletable resource (PartialObjectMetadata, through the metadata client)
//	                       ──▶ GraphBuilder (the graph) ──▶ attemptToDelete / attemptToOrphan
//	                                                          ──▶ delete, merge patch ──▶ the server
//	discovery controller (a CRD served or not) ──▶ garbage collector Resync (new monitors)

import (
	"context"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/crdlab/crdlab/client"
	"github.com/crdlab/crdlab/client/discovery"
	"github.com/crdlab/crdlab/client/metadata"
	"github.com/crdlab/crdlab/controller"
	"github.com/crdlab/crdlab/controller/garbagecollector"
	"github.com/crdlab/crdlab/controller/namespace"
	"github.com/crdlab/crdlab/informer"
	"github.com/crdlab/crdlab/trace"
)

// The controllers Config.Controllers names, as kube-controller-manager's
// --controllers does.
const (
	NamespaceControllerName        = "namespace-controller"
	GarbageCollectorControllerName = "garbage-collector-controller"
)

// KnownControllers are the controllers crdlab can run besides the
// apiextensions ones (which always run).
var KnownControllers = []string{NamespaceControllerName, GarbageCollectorControllerName}

// Workers and periods, as kube-controller-manager's defaults.
const (
	// namespaceWorkers is --concurrent-namespace-syncs.
	namespaceWorkers = 10
	// namespaceResync is --namespace-sync-period.
	namespaceResync = 5 * time.Minute
	// gcWorkers is --concurrent-gc-syncs.
	gcWorkers = 20
	// gcInitialSyncTimeout bounds how long the collector waits for its
	// monitors before it starts its workers.
	gcInitialSyncTimeout = 30 * time.Second
	// gcSyncPeriod is how often the collector reads discovery anyway.
	// Upstream polls every 30 s (garbagecollector.DefaultSyncPeriod);
	// here the discovery controller tells it of every CRD change
	// (resyncGC), so the poll is only a safety net, and a rare one keeps
	// a lab's trace quiet.
	gcSyncPeriod = 5 * time.Minute
)

// controllerEnabled reports whether name runs under the --controllers
// list: "*" turns on every controller, "name" one, "-name" turns one off.
//
// Mirrors IsControllerEnabled in k8s.io/controller-manager/app.
func controllerEnabled(name string, controllers []string) bool {
	hasStar := false
	for _, c := range controllers {
		switch c {
		case name:
			return true
		case "-" + name:
			return false
		case "*":
			hasStar = true
		}
	}
	return hasStar
}

// validateControllers refuses names crdlab does not know.
func validateControllers(controllers []string) error {
	for _, c := range controllers {
		name := strings.TrimPrefix(c, "-")
		if c != "*" && !slices.Contains(KnownControllers, name) {
			return fmt.Errorf("--controllers: %q is not a known controller (known: *, %s; not supported: the other controllers of kube-controller-manager)",
				c, strings.Join(KnownControllers, ", "))
		}
	}
	return nil
}

// kubeControllers starts the namespace controller and the garbage
// collector.
//
// Mirrors StartControllers in
// k8s.io/kubernetes/cmd/kube-controller-manager/app/controllermanager.go,
// with startNamespaceController (core.go) and
// startGarbageCollectorController.
type kubeControllers struct {
	log        *slog.Logger
	tracer     *trace.Tracer
	queueStats *queueStats
	// namespace and gc say which controllers run.
	namespace, gc bool
	// collector is set once start has built it; resyncGC reads it.
	collector atomic.Pointer[garbagecollector.GarbageCollector]
	// wg counts the goroutines start started.
	wg sync.WaitGroup
}

// install registers the post-start hook that starts the controllers; the
// server is ready once their caches have synced (the namespace informer,
// and the garbage collector's first discovery and monitors), so that a
// lab's trace is quiet after /readyz.
func (k *kubeControllers) install(s *Server) error {
	if !k.namespace && !k.gc {
		return nil
	}
	return s.AddPostStartHook("start-kube-controllers", func(ctx context.Context) error {
		return k.start(ctx, s.LoopbackClientConfig())
	})
}

// resyncGC tells the garbage collector that discovery changed (a CRD's
// group version served or removed), so that it follows the new resources
// now rather than at its next sync. A burst of CRD writes coalesces into
// one discovery read a second (garbagecollector.DefaultResyncMinInterval),
// fewer when reads are slow (thousands of CRDs), so its reads do not flood
// /ui's newest rows.
func (k *kubeControllers) resyncGC() {
	if gc := k.collector.Load(); gc != nil {
		gc.Resync()
	}
}

// start builds the loopback clients and the controllers and starts them
// until ctx ends.
func (k *kubeControllers) start(ctx context.Context, loopback *client.Config) error {
	cs, _, err := loopbackClients(loopback, "crdlab-kube-controllers")
	if err != nil {
		return err
	}
	disc, err := discovery.NewDiscoveryClientForConfig(loopback)
	if err != nil {
		return fmt.Errorf("loopback discovery client: %w", err)
	}
	// The garbage collector and the namespace controller read every
	// resource as metadata only, as kube-controller-manager's do (their
	// metadata client), and never read managedFields: the client does
	// not keep them (the garbage collector decodes an event per write of
	// every object).
	mc, err := metadata.NewForConfig(loopback)
	if err != nil {
		return fmt.Errorf("loopback metadata client: %w", err)
	}
	meta := mc.OmitManagedFields()
	opts := controller.Options{Logger: k.log, Tracer: k.tracer, MetricsProvider: k.queueStats}
	var synced []informer.InformerSynced

	if k.namespace {
		namespaces := cs.CoreV1().Namespaces()
		nsInformer := informer.NewSharedIndexInformerWithOptions(listWatch(namespaces), informer.SharedIndexInformerOptions{
			Name:         "namespaces",
			ResyncPeriod: namespaceResync,
			Logger:       k.log.With("informer", "namespaces"),
			Tracer:       k.tracer,
		})
		nc, err := namespace.NewNamespaceController(nsInformer, namespaces, meta, disc.ServerPreferredNamespacedResources, opts)
		if err != nil {
			return err
		}
		k.wg.Go(func() { nsInformer.Run(ctx) })
		k.wg.Go(func() { nc.Run(ctx, namespaceWorkers) })
		synced = append(synced, nsInformer.HasSynced)
	}

	if k.gc {
		// The collector keeps no labels or annotations either (trimToGraph
		// drops them): its client does not decode them.
		gc := garbagecollector.NewGarbageCollector(meta.OmitLabelsAndAnnotations(), disc.ServerPreferredResources, nil, opts)
		k.collector.Store(gc)
		k.wg.Go(func() { gc.Run(ctx, gcWorkers, gcInitialSyncTimeout) })
		k.wg.Go(func() { gc.Sync(ctx, gcSyncPeriod) })
		synced = append(synced, gc.IsSynced)
	}
	informer.WaitForCacheSync(ctx, synced...)
	return nil
}

// wait returns once every goroutine start started has returned.
func (k *kubeControllers) wait() { k.wg.Wait() }
