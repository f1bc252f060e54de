package apiserver

// This file wires the CRD controllers into the server, as
// apiextensions-apiserver's completedConfig.New does: once the server
// listens, a post-start hook builds a client over the server's own
// address (the loopback client of seed 000's "Clientset" section), a
// SharedInformerFactory with the CRD SharedIndexInformer, registers the
// crdHandler's event handlers and every controller on that informer, and
// starts them all. /readyz waits for the informer's first sync
// (poststarthook/crd-informer-synced) and for discovery to list the CRDs
// that were already there (poststarthook/start-apiextensions-controllers).
//
// What flows where:
//
//	storage ──watch over HTTP──▶ CRD informer ──▶ crdHandler hooks (serve / stop serving)
//	                                  │            └─ NamesAccepted && !Established ─▶ establishing queue (QueueCRD)
//	                                  ├──▶ naming controller      (acceptedNames, NamesAccepted)
//	                                  ├──▶ finalizer              (Terminating, instances, finalizer)
//	                                  ├──▶ discovery controller   (/apis/<g>[/<v>]; its only writer)
//	                                  ├──▶ nonstructural schema, API approval conditions
//	                                  └──▶ openapi controller     (/openapi/v3/apis/<g>/<v>, through
//	                                                               (*handler.GenericAPIServer).UpdateGroupVersion)
//	controllers ──UpdateStatus over HTTP──▶ storage ──▶ … the informer again

import (
	"context"
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	apiextensionsv1 "github.com/crdlab/crdlab/apis/apiextensions/v1"
	"github.com/crdlab/crdlab/client"
	"github.com/crdlab/crdlab/controller"
	"github.com/crdlab/crdlab/controller/apiapproval"
	"github.com/crdlab/crdlab/controller/discovery"
	"github.com/crdlab/crdlab/controller/establish"
	"github.com/crdlab/crdlab/controller/finalizer"
	"github.com/crdlab/crdlab/controller/nonstructuralschema"
	"github.com/crdlab/crdlab/controller/openapi"
	"github.com/crdlab/crdlab/controller/status"
	"github.com/crdlab/crdlab/handler"
	handlerdiscovery "github.com/crdlab/crdlab/handler/discovery"
	"github.com/crdlab/crdlab/informer"
	"github.com/crdlab/crdlab/machinery/apiresource"
	"github.com/crdlab/crdlab/scheme"
	"github.com/crdlab/crdlab/trace"
)

// The handler renders the OpenAPI documents the OpenAPI controller asks
// for, the crdHandler hands CRDs to the establishing controller, and the
// handler serves the discovery the discovery controller writes.
var (
	_ openapi.Service           = (*handler.GenericAPIServer)(nil)
	_ handler.Establisher       = (*establish.EstablishingController)(nil)
	_ discovery.ResourceManager = (*handlerdiscovery.Manager)(nil)
)

// crdInformerResync is the CRD informer's resync period, as upstream's
// apiextensions informer factory (5 minutes): every handler sees every CRD
// again, which heals anything an event handler let slip.
const crdInformerResync = 5 * time.Minute

// statusWorkers is how many workers the naming and establishing
// controllers run (upstream: one each). Each CRD's way to Established is
// two status writes, one by each; with one worker each, the writes of a
// burst of real-size CRDs go one at a time, and at 2,000 CRDs the last
// CRD waited about 50 s behind its create (docs/crd-memory.md, "Session
// 24"). The naming controller's workers decide one at a time (its
// decideMu); only the writes overlap.
const statusWorkers = 4

// crdControllers is the loopback client, the CRD informer and the
// controllers fed by it.
//
// Mirrors the informers and controllers completedConfig.New creates in
// k8s.io/apiextensions-apiserver/pkg/apiserver/apiserver.go and its
// "start-apiextensions-informers", "start-apiextensions-controllers" and
// "crd-informer-synced" post-start hooks.
type crdControllers struct {
	handler *handler.GenericAPIServer
	log     *slog.Logger

	// informerSynced is closed once the CRD informer has synced.
	informerSynced chan struct{}
	// establishDelay is the EstablishingController's EstablishDelay.
	establishDelay time.Duration
	// tracer and queueStats go to the informer and the controllers'
	// queues; crdInformer is set once start has built it (debug.go reads
	// it).
	tracer      *trace.Tracer
	queueStats  *queueStats
	crdInformer atomic.Pointer[informer.SharedIndexInformer]
	// wg counts the goroutines start started; Run waits for them.
	wg sync.WaitGroup
	// onDiscoveryChange, if set, is called after the discovery controller
	// changes a CRD group version's discovery (the garbage collector's
	// Resync). Set before start.
	onDiscoveryChange func()
}

// notifyingResourceManager is the handler's discovery as the discovery
// controller writes it, calling changed after each write.
type notifyingResourceManager struct {
	discovery.ResourceManager
	changed func()
}

func (m notifyingResourceManager) SetGroupVersion(gv scheme.GroupVersion, resources []apiresource.Resource) {
	m.ResourceManager.SetGroupVersion(gv, resources)
	m.changed()
}

func (m notifyingResourceManager) RemoveGroupVersion(gv scheme.GroupVersion) {
	m.ResourceManager.RemoveGroupVersion(gv)
	m.changed()
}

func newCRDControllers(h *handler.GenericAPIServer, log *slog.Logger) *crdControllers {
	return &crdControllers{handler: h, log: log, informerSynced: make(chan struct{})}
}

// install registers the post-start hooks that start the controllers and
// wait for the CRD informer.
func (c *crdControllers) install(s *Server) error {
	if err := s.AddPostStartHook("start-apiextensions-controllers", func(ctx context.Context) error {
		return c.start(ctx, s.LoopbackClientConfig())
	}); err != nil {
		return err
	}
	// We don't report ready until every CRD already stored can be served:
	// the crdHandler has seen the informer's first list.
	return s.AddPostStartHook("crd-informer-synced", func(ctx context.Context) error {
		select {
		case <-c.informerSynced:
		case <-ctx.Done():
		}
		return nil
	})
}

// start builds the loopback clients, the informer and the controllers,
// starts them (until ctx ends), and returns once the informer has synced
// and discovery lists the CRDs that were there at start-up.
func (c *crdControllers) start(ctx context.Context, loopback *client.Config) error {
	cs, meta, err := loopbackClients(loopback, "crdlab-apiextensions-controllers")
	if err != nil {
		return err
	}
	// The controllers' CRDs share their decoded specs: a spec seen before
	// (in the watch event of the create, then of each status write, and in
	// each status write's answer) is not decoded again, and is prepared —
	// its versions' equal schema parts shared, so that most multi-version
	// CRDs are cached nearly once — once, before it is shared.
	crdClient := client.CRDsSharingSpecs(cs.ApiextensionsV1().RESTClient(),
		client.NewSharedSpecs(controller.ShareSpecSchemas))

	factory := informer.NewSharedInformerFactory()
	crdInformer := factory.InformerFor(apiextensionsv1.SchemeGroupVersion.WithResource("customresourcedefinitions"),
		func() informer.SharedIndexInformer {
			return informer.NewSharedIndexInformerWithOptions(listWatch(crdClient), informer.SharedIndexInformerOptions{
				Name:         "customresourcedefinitions",
				ResyncPeriod: crdInformerResync,
				// No Transform: crdClient prepares each spec it decodes
				// (controller.ShareSpecSchemas) before sharing it.
				Logger: c.log.With("informer", "customresourcedefinitions"),
				Tracer: c.tracer,
			})
		})
	c.crdInformer.Store(&crdInformer)

	opts := controller.Options{Logger: c.log, Tracer: c.tracer, MetricsProvider: c.queueStats}
	establishing := establish.NewEstablishingController(crdInformer, crdClient, opts)
	establishing.EstablishDelay = c.establishDelay
	if err := c.addCRDHandler(crdInformer, establishing); err != nil {
		return err
	}
	naming, err := status.NewNamingConditionController(crdInformer, crdClient, opts)
	if err != nil {
		return err
	}
	rest, err := client.UnversionedRESTClientFor(loopback)
	if err != nil {
		return fmt.Errorf("loopback client: %w", err)
	}
	finalizing, err := finalizer.NewCRDFinalizer(crdInformer, crdClient, finalizer.MetadataCRClientGetter{Client: meta, REST: rest}, opts)
	if err != nil {
		return err
	}
	nonStructural, err := nonstructuralschema.NewConditionController(crdInformer, crdClient, opts)
	if err != nil {
		return err
	}
	apiApproval, err := apiapproval.NewKubernetesAPIApprovalPolicyConformantConditionController(crdInformer, crdClient, opts)
	if err != nil {
		return err
	}
	// The discovery controller is the only writer of CRD groups'
	// discovery (the crdHandler's hooks decide serving only).
	var resources discovery.ResourceManager = c.handler.Discovery()
	if c.onDiscoveryChange != nil {
		resources = notifyingResourceManager{ResourceManager: resources, changed: c.onDiscoveryChange}
	}
	discoveryController, err := discovery.NewDiscoveryController(crdInformer, resources, opts)
	if err != nil {
		return err
	}
	runners := []func(context.Context){
		// Workers as upstream (one for discovery and OpenAPI, five for
		// the others), but for naming and establishing, which upstream
		// runs on one worker each: statusWorkers each here.
		func(ctx context.Context) { naming.Run(ctx, statusWorkers) },
		func(ctx context.Context) { establishing.Run(ctx, statusWorkers) },
		func(ctx context.Context) { nonStructural.Run(ctx, 5) },
		func(ctx context.Context) { apiApproval.Run(ctx, 5) },
		func(ctx context.Context) { finalizing.Run(ctx, 5) },
		func(ctx context.Context) { discoveryController.Run(ctx, 1) },
	}
	openAPIController, err := openapi.NewController(crdInformer, c.handler, opts)
	if err != nil {
		return err
	}
	runners = append(runners, func(ctx context.Context) { openAPIController.Run(ctx, 1) })

	// Informers first (upstream's start-apiextensions-informers), then
	// the controllers, which wait for the informer to sync.
	factory.Start(ctx)
	c.wg.Go(func() {
		<-ctx.Done()
		factory.Shutdown()
	})
	for _, run := range runners {
		c.wg.Go(func() { run(ctx) })
	}

	if !informer.WaitForCacheSync(ctx, crdInformer.HasSynced) {
		return nil // shutting down
	}
	close(c.informerSynced)
	// Ready only once discovery advertises the CRDs already stored.
	informer.WaitForCacheSync(ctx, discoveryController.HasSynced)
	return nil
}

// addCRDHandler registers the crdHandler's hooks on the informer: a CRD
// added or changed is (re)recorded for serving, a deleted one dropped. The
// crdHandler hands CRDs whose names are accepted to the establishing
// controller itself (handler/crdhandler.go:CRDHandler.OnUpdate).
//
// Mirrors the event handlers NewCustomResourceDefinitionHandler registers
// (createCustomResourceDefinition, updateCustomResourceDefinition,
// removeDeadStorage) in customresource_handler.go.
func (c *crdControllers) addCRDHandler(crdInformer informer.SharedIndexInformer, establishing *establish.EstablishingController) error {
	crds := c.handler.CRDs()
	crds.SetEstablisher(establishing)
	_, err := crdInformer.AddEventHandler(informer.ResourceEventHandlerFuncs{
		AddFunc: func(obj any, _ bool) {
			if crd, ok := controller.CRDFromObject(obj); ok {
				crds.OnAdd(crd)
			}
		},
		UpdateFunc: func(_, newObj any) {
			if crd, ok := controller.CRDFromObject(newObj); ok {
				crds.OnUpdate(crd)
			}
		},
		DeleteFunc: func(obj any) {
			if crd, ok := controller.CRDFromObject(obj); ok {
				crds.OnDelete(crd)
			}
		},
	})
	if err != nil {
		return fmt.Errorf("crdHandler: %w", err)
	}
	return nil
}

// wait returns once every goroutine start started has returned (their
// context is the post-start hooks' context, which Run cancels).
func (c *crdControllers) wait() { c.wg.Wait() }
