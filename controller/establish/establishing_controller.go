package establish

import (
	"context"
	"log/slog"
	"time"

	"github.com/crdlab/crdlab/apis/apiextensions/helpers"
	apiextensionsv1 "github.com/crdlab/crdlab/apis/apiextensions/v1"
	apierrors "github.com/crdlab/crdlab/apis/errors"
	metav1 "github.com/crdlab/crdlab/apis/meta/v1"
	"github.com/crdlab/crdlab/controller"
	"github.com/crdlab/crdlab/informer"
	"github.com/crdlab/crdlab/informer/workqueue"
	"github.com/crdlab/crdlab/machinery/clock"
)

// upstreamSync is the upstream function sync mirrors, named in traces.
const upstreamSync = "k8s.io/apiextensions-apiserver/pkg/controller/establish.(*EstablishingController).sync"

// HAEstablishDelay is the delay upstream uses when several apiservers
// share storage (MasterCount > 1).
const HAEstablishDelay = 5 * time.Second

// EstablishingController sets Established=True on CRDs whose names have
// been accepted. It registers no informer handler of its own: the
// crdHandler's handler feeds it through QueueCRD.
//
// Mirrors EstablishingController in
// k8s.io/apiextensions-apiserver/pkg/controller/establish/establishing_controller.go.
type EstablishingController struct {
	// EstablishDelay is how long a queued CRD waits before it is
	// established: 0 for one server (see doc.go), HAEstablishDelay when
	// several servers share storage. Set it before the informer starts.
	EstablishDelay time.Duration

	crdClient controller.CRDClient
	crdLister *controller.CRDLister
	crdSynced informer.InformerSynced

	// syncFn is sync; tests replace it.
	syncFn func(ctx context.Context, key string) error

	// queue holds CRD names.
	queue workqueue.RateLimitingInterface[string]
	log   *slog.Logger
	clock clock.Clock
	// opts are the defaulted Options; ProcessNextWorkItem and the traces
	// read them.
	opts controller.Options
}

// NewEstablishingController returns a controller that reads CRDs from
// crdInformer's cache and writes through crdClient.
//
// Mirrors NewEstablishingController.
func NewEstablishingController(crdInformer informer.SharedIndexInformer, crdClient controller.CRDClient, opts controller.Options) *EstablishingController {
	opts = opts.WithDefaults("establishing")
	c := &EstablishingController{
		crdClient: crdClient,
		crdLister: controller.NewCRDLister(crdInformer),
		crdSynced: crdInformer.HasSynced,
		queue:     controller.NewQueue[string]("crdEstablishing", opts),
		log:       opts.Logger,
		clock:     opts.Clock,
		opts:      opts,
	}
	c.syncFn = c.sync
	return c
}

// QueueCRD hands the CRD named key to the controller, to be established
// after EstablishDelay. The crdHandler calls it for every CRD it sees with
// NamesAccepted True and Established not True.
//
// Mirrors (*EstablishingController).QueueCRD.
func (c *EstablishingController) QueueCRD(key string) {
	c.queue.AddAfter(key, c.EstablishDelay)
}

// Run waits for the CRD informer to sync, then runs workers workers until
// ctx ends.
//
// Mirrors (*EstablishingController).Run.
func (c *EstablishingController) Run(ctx context.Context, workers int) {
	defer c.queue.ShutDown()
	c.log.Info("starting EstablishingController")
	defer c.log.Info("shutting down EstablishingController")

	if !informer.WaitForCacheSync(ctx, c.crdSynced) {
		return
	}
	controller.RunWorkers(ctx, c.queue, workers, c.processNextWorkItem)
}

// processNextWorkItem handles one key off the queue. It returns false
// when the queue is shut down.
//
// Mirrors (*EstablishingController).processNextWorkItem.
func (c *EstablishingController) processNextWorkItem(ctx context.Context) bool {
	return controller.ProcessNextWorkItem(ctx, c.queue, c.syncFn, c.opts, upstreamSync)
}

// sync turns a CRD whose names are accepted into an Established one.
//
// Mirrors (*EstablishingController).sync.
func (c *EstablishingController) sync(ctx context.Context, key string) error {
	cachedCRD, err := c.crdLister.Get(key)
	if apierrors.IsNotFound(err) {
		return nil
	}
	if err != nil {
		return err
	}

	if !helpers.IsCRDConditionTrue(cachedCRD, apiextensionsv1.NamesAccepted) ||
		helpers.IsCRDConditionTrue(cachedCRD, apiextensionsv1.Established) {
		return nil
	}

	crd := cachedCRD.DeepCopy()
	helpers.SetCRDConditionAt(crd, apiextensionsv1.CustomResourceDefinitionCondition{
		Type:    apiextensionsv1.Established,
		Status:  apiextensionsv1.ConditionTrue,
		Reason:  "InitialNamesAccepted",
		Message: "the initial names have been accepted",
	}, c.clock.Now())

	updated, err := c.crdClient.UpdateStatus(ctx, crd, metav1.UpdateOptions{})
	if apierrors.IsNotFound(err) || apierrors.IsConflict(err) {
		// Deleted or changed meanwhile: the crdHandler sees the newer CRD
		// and queues it again if it still needs establishing.
		return nil
	}
	if err != nil {
		return err
	}
	c.opts.TraceStatus(updated, upstreamSync, "", apiextensionsv1.Established)
	return nil
}
