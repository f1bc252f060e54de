package establish

import (
	"context"
	"log/slog"
	"sync"
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
	// opts are the defaulted Options; the traces read them.
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

// The rest of this file is the whole life of a key, in the order the
// article's "EstablishingController" section walks it: Run starts the
// workers, each worker loops on processNextWorkItem, which takes a key
// off the queue (Get), syncs it, and tells the queue how it went
// (Forget or AddRateLimited, then Done). The other controllers share this
// loop (controller.RunWorkers, controller.ProcessNextWorkItem); here it
// is written out, as in kubernetes/sample-controller.

// Run waits for the CRD informer's cache, then runs workers workers until
// ctx ends, and returns once they have all stopped.
//
// Mirrors (*EstablishingController).Run.
func (c *EstablishingController) Run(ctx context.Context, workers int) {
	defer c.queue.ShutDown()
	c.log.Info("starting EstablishingController")
	defer c.log.Info("shutting down EstablishingController")

	// sync reads the lister: wait until it holds every CRD, or sync
	// would take a CRD it has not seen yet for a deleted one.
	if !informer.WaitForCacheSync(ctx, c.crdSynced) {
		return
	}

	// When ctx ends, shut the queue down: that wakes the workers blocked
	// in Get, and is how they stop.
	stop := context.AfterFunc(ctx, c.queue.ShutDown)
	defer stop()
	var wg sync.WaitGroup
	for range max(workers, 1) {
		wg.Go(func() { c.runWorker(ctx) })
	}
	wg.Wait()
}

// runWorker handles keys until the queue is shut down.
//
// Mirrors (*EstablishingController).runWorker. Upstream's RunWithContext
// restarts it every second (wait.UntilWithContext); it returns only at
// shutdown, so it is not restarted here.
func (c *EstablishingController) runWorker(ctx context.Context) {
	for c.processNextWorkItem(ctx) {
	}
}

// processNextWorkItem handles one key off the queue. It returns false
// when the queue is shut down.
//
// Mirrors (*EstablishingController).processNextWorkItem.
func (c *EstablishingController) processNextWorkItem(ctx context.Context) bool {
	// Get blocks until a key is ready (its EstablishDelay has passed) or
	// the queue is shut down.
	key, quit := c.queue.Get()
	if quit {
		return false
	}
	// Done, always, whatever the sync did. Until Done, the queue holds
	// back new Adds of key (they wait in its dirty set): no two workers
	// ever sync one CRD at once, and a CRD queued again while it was
	// being synced is synced once more afterwards.
	defer c.queue.Done(key)

	start := time.Now() // real time, even with a fake Clock: for the trace only
	err := c.syncFn(ctx, key)
	c.opts.TraceSync(key, start, err, upstreamSync)
	if err == nil {
		// Forget the key's failures, so that its next failure waits the
		// shortest backoff again rather than continuing where this run
		// of failures left off.
		c.queue.Forget(key)
		return true
	}
	// Try again later, backing off per key (5ms, 10ms, 20ms, … up to
	// 1000s), so a CRD that keeps failing does not spin a worker.
	c.queue.AddRateLimited(key)
	c.log.Warn("sync failed; requeued with backoff", "key", key, "err", err, "requeues", c.queue.NumRequeues(key))
	return true
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

	crd := controller.CopyForStatus(cachedCRD)
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
