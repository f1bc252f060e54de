package openapi

import (
	"context"
	"fmt"
	"log/slog"
	"sort"
	"strings"

	"github.com/crdlab/crdlab/apis/apiextensions/helpers"
	apiextensionsv1 "github.com/crdlab/crdlab/apis/apiextensions/v1"
	"github.com/crdlab/crdlab/controller"
	"github.com/crdlab/crdlab/informer"
	"github.com/crdlab/crdlab/informer/workqueue"
	"github.com/crdlab/crdlab/scheme"
	"github.com/crdlab/crdlab/trace"
)

// upstreamSync is the upstream function sync mirrors, named in traces.
const upstreamSync = "k8s.io/apiextensions-apiserver/pkg/controller/openapiv3.(*Controller).sync"

// Service renders the /openapi/v3 documents.
//
// Mirrors the part of kube-openapi's handler3.OpenAPIService the
// controller calls (UpdateGroupVersion, DeleteGroupVersion), taking CRDs
// instead of finished specs.
type Service interface {
	// UpdateGroupVersion makes the document of gv describe crds (the
	// Established CRDs serving gv, sorted by name; shared, read-only). An
	// empty crds removes the document.
	UpdateGroupVersion(gv scheme.GroupVersion, crds []*apiextensionsv1.CustomResourceDefinition)
}

// Controller keeps the OpenAPI documents of CRD group versions in step
// with the Established CRDs.
//
// Mirrors Controller in
// k8s.io/apiextensions-apiserver/pkg/controller/openapiv3/controller.go.
type Controller struct {
	service Service

	// crdIndexer is the informer's cache, with controller.GroupIndex.
	crdIndexer informer.Indexer
	crdsSynced informer.InformerSynced

	// syncFn is sync; tests replace it.
	syncFn func(ctx context.Context, gv scheme.GroupVersion) error

	// queue holds group versions.
	queue workqueue.RateLimitingInterface[scheme.GroupVersion]
	log   *slog.Logger
	// opts are the defaulted Options; ProcessNextWorkItem and the traces
	// read them.
	opts controller.Options
}

// NewController returns a controller fed by crdInformer's events (it
// registers its handlers now: call it before the informer starts) that
// updates service.
//
// Mirrors NewController in controller/openapiv3.
func NewController(crdInformer informer.SharedIndexInformer, service Service, opts controller.Options) (*Controller, error) {
	opts = opts.WithDefaults("openapi")
	if err := controller.AddGroupIndex(crdInformer); err != nil {
		return nil, fmt.Errorf("openapi controller: %w", err)
	}
	c := &Controller{
		service:    service,
		crdIndexer: crdInformer.GetIndexer(),
		crdsSynced: crdInformer.HasSynced,
		queue:      controller.NewQueue[scheme.GroupVersion]("crd_openapi_v3_controller", opts),
		log:        opts.Logger,
		opts:       opts,
	}
	c.syncFn = c.sync
	if _, err := crdInformer.AddEventHandler(informer.ResourceEventHandlerFuncs{
		AddFunc: func(obj any, _ bool) { c.enqueue(obj) },
		// Old and new: a version the update dropped must be synced too.
		UpdateFunc: func(oldObj, newObj any) { c.enqueue(newObj); c.enqueue(oldObj) },
		DeleteFunc: c.enqueue,
	}); err != nil {
		return nil, fmt.Errorf("openapi controller: %w", err)
	}
	return c, nil
}

// Run waits for the CRD informer to sync, then runs workers workers until
// ctx ends. The informer's initial list queues every group version, so
// the documents are complete once the queue drains.
//
// Mirrors (*Controller).Run.
func (c *Controller) Run(ctx context.Context, workers int) {
	defer c.queue.ShutDown()
	c.log.Info("starting OpenAPI controller")
	defer c.log.Info("shutting down OpenAPI controller")

	if !informer.WaitForCacheSync(ctx, c.crdsSynced) {
		return
	}
	controller.RunWorkers(ctx, c.queue, workers, c.processNextWorkItem)
}

// processNextWorkItem handles one group version off the queue. It returns
// false when the queue is shut down.
func (c *Controller) processNextWorkItem(ctx context.Context) bool {
	return controller.ProcessNextWorkItem(ctx, c.queue, c.syncFn, c.opts, upstreamSync)
}

// sync hands the service the Established CRDs that serve gv, read from
// the group index (upstream lists every CRD and skips the other groups').
//
// Mirrors (*Controller).sync and updateGroupVersion.
func (c *Controller) sync(_ context.Context, gv scheme.GroupVersion) error {
	if gv.Group == apiextensionsv1.GroupName {
		return nil // the built-in CRD API documents itself
	}
	group, err := controller.CRDsOfGroup(c.crdIndexer, gv.Group)
	if err != nil {
		return err
	}
	var crds []*apiextensionsv1.CustomResourceDefinition
	for _, crd := range group {
		if helpers.IsCRDConditionTrue(crd, apiextensionsv1.Established) &&
			helpers.HasServedCRDVersion(crd, gv.Version) {
			crds = append(crds, crd)
		}
	}
	sort.Slice(crds, func(i, j int) bool { return crds[i].Name < crds[j].Name })
	c.service.UpdateGroupVersion(gv, crds)
	if c.opts.Tracer.Enabled() {
		msg := "removed /openapi/v3/apis/" + gv.String()
		if len(crds) > 0 {
			names := make([]string, len(crds))
			for i, crd := range crds {
				names[i] = crd.Name
			}
			msg = "published /openapi/v3/apis/" + gv.String() + ": " + strings.Join(names, ", ")
		}
		c.opts.Trace(trace.Event{Step: "publish", Key: gv.String(), Message: msg, Upstream: upstreamSync})
	}
	return nil
}

// enqueue queues every version a CRD lists.
func (c *Controller) enqueue(obj any) {
	crd, ok := controller.CRDFromObject(obj)
	if !ok {
		return
	}
	for _, v := range crd.Spec.Versions {
		c.queue.Add(scheme.GroupVersion{Group: crd.Spec.Group, Version: v.Name})
	}
}
