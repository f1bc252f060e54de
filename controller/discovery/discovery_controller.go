package discovery

import (
	"context"
	"fmt"
	"log/slog"
	"strings"
	"sync/atomic"
	"time"

	"github.com/crdlab/crdlab/apis/apiextensions/helpers"
	apiextensionsv1 "github.com/crdlab/crdlab/apis/apiextensions/v1"
	"github.com/crdlab/crdlab/controller"
	"github.com/crdlab/crdlab/informer"
	"github.com/crdlab/crdlab/informer/workqueue"
	"github.com/crdlab/crdlab/machinery/apiresource"
	"github.com/crdlab/crdlab/scheme"
	"github.com/crdlab/crdlab/trace"
)

// ResourceManager is the discovery state the controller writes. The
// server's discovery documents are built from it (apiserver hands in the
// handler's *discovery.Manager).
//
// Mirrors the part of discoveryendpoint.ResourceManager (and the version
// and group handlers) the controller calls.
type ResourceManager interface {
	// SetGroupVersion sets the resources of gv (an empty list removes it).
	SetGroupVersion(gv scheme.GroupVersion, resources []apiresource.Resource)
	// RemoveGroupVersion stops advertising gv; the group goes with its
	// last version.
	RemoveGroupVersion(gv scheme.GroupVersion)
}

// upstreamSync is the upstream function sync mirrors, named in traces.
const upstreamSync = "k8s.io/apiextensions-apiserver/pkg/apiserver.(*DiscoveryController).sync"

// builtInGroup is the group whose discovery belongs to the built-in
// customresourcedefinitions, never to CRDs.
const builtInGroup = apiextensionsv1.GroupName

// DiscoveryController keeps discovery in step with the Established CRDs.
//
// Mirrors DiscoveryController in
// k8s.io/apiextensions-apiserver/pkg/apiserver/customresource_discovery_controller.go.
type DiscoveryController struct {
	resourceManager ResourceManager

	crdLister *controller.CRDLister
	// crdIndexer is the informer's cache, with controller.GroupIndex.
	crdIndexer informer.Indexer
	crdsSynced informer.InformerSynced
	// synced is true once Run has synced every group version once.
	synced atomic.Bool

	// syncFn is sync; tests replace it.
	syncFn func(ctx context.Context, gv scheme.GroupVersion) error

	// queue holds group versions.
	queue workqueue.RateLimitingInterface[scheme.GroupVersion]
	log   *slog.Logger
	// opts are the defaulted Options; ProcessNextWorkItem and the traces
	// read them.
	opts controller.Options
}

// NewDiscoveryController returns a controller fed by crdInformer's events
// (it registers its handlers now: call it before the informer starts)
// that writes resourceManager.
//
// Mirrors NewDiscoveryController.
func NewDiscoveryController(crdInformer informer.SharedIndexInformer, resourceManager ResourceManager, opts controller.Options) (*DiscoveryController, error) {
	opts = opts.WithDefaults("discovery")
	if err := controller.AddGroupIndex(crdInformer); err != nil {
		return nil, fmt.Errorf("discovery controller: %w", err)
	}
	c := &DiscoveryController{
		resourceManager: resourceManager,
		crdLister:       controller.NewCRDLister(crdInformer),
		crdIndexer:      crdInformer.GetIndexer(),
		crdsSynced:      crdInformer.HasSynced,
		queue:           controller.NewQueue[scheme.GroupVersion]("DiscoveryController", opts),
		log:             opts.Logger,
		opts:            opts,
	}
	c.syncFn = c.sync
	if _, err := crdInformer.AddEventHandler(informer.ResourceEventHandlerFuncs{
		AddFunc: func(obj any, _ bool) { c.enqueue(obj) },
		// Both: a version dropped from the CRD must be synced too. The
		// queue folds what both have in common.
		UpdateFunc: func(oldObj, newObj any) { c.enqueue(newObj); c.enqueue(oldObj) },
		DeleteFunc: c.enqueue,
	}); err != nil {
		return nil, fmt.Errorf("discovery controller: %w", err)
	}
	return c, nil
}

// HasSynced is true once every group version known at start-up has been
// synced: discovery then lists every CRD that was Established.
func (c *DiscoveryController) HasSynced() bool { return c.synced.Load() }

// Run waits for the CRD informer, syncs every group version once (retrying
// every second until that works), then runs workers workers until ctx
// ends.
//
// Mirrors (*DiscoveryController).Run.
func (c *DiscoveryController) Run(ctx context.Context, workers int) {
	defer c.queue.ShutDown()
	c.log.Info("starting DiscoveryController")
	defer c.log.Info("shutting down DiscoveryController")

	if !informer.WaitForCacheSync(ctx, c.crdsSynced) {
		return
	}
	// Serve complete discovery from the start: sync every group version
	// before reporting synced.
	for !c.initialSync(ctx) {
		select {
		case <-ctx.Done():
			return
		case <-time.After(time.Second):
		}
	}
	c.synced.Store(true)

	controller.RunWorkers(ctx, c.queue, workers, c.processNextWorkItem)
}

// initialSync syncs every group version of every CRD; false means try
// again.
func (c *DiscoveryController) initialSync(ctx context.Context) bool {
	crds, err := c.crdLister.List(nil)
	if err != nil {
		c.log.Error("cannot list CRDs for the initial discovery sync", "err", err)
		return false
	}
	for _, crd := range crds {
		for _, v := range crd.Spec.Versions {
			gv := scheme.GroupVersion{Group: crd.Spec.Group, Version: v.Name}
			if err := c.sync(ctx, gv); err != nil {
				c.log.Error("initial discovery sync failed", "groupVersion", gv, "err", err)
				return false
			}
		}
	}
	return true
}

// processNextWorkItem handles one group version off the queue. It returns
// false when the queue is shut down.
//
// Mirrors (*DiscoveryController).processNextWorkItem.
func (c *DiscoveryController) processNextWorkItem(ctx context.Context) bool {
	return controller.ProcessNextWorkItem(ctx, c.queue, c.syncFn, c.opts, upstreamSync)
}

// sync rebuilds the discovery of one group version from the Established
// CRDs of its group (read from the group index: upstream lists every CRD
// and skips the other groups', which made each sync cost as much as the
// number of CRDs).
//
// Mirrors (*DiscoveryController).sync.
func (c *DiscoveryController) sync(_ context.Context, version scheme.GroupVersion) error {
	if version.Group == builtInGroup {
		return nil
	}
	crds, err := controller.CRDsOfGroup(c.crdIndexer, version.Group)
	if err != nil {
		return err
	}
	resources, err := resourcesFor(crds, version)
	if err != nil {
		return err
	}
	if len(resources) == 0 {
		c.resourceManager.RemoveGroupVersion(version)
		if c.opts.Tracer.Enabled() {
			c.opts.Trace(trace.Event{Step: "publish", Key: version.String(), Message: "removed /apis/" + version.String(), Upstream: upstreamSync})
		}
		return nil
	}
	c.resourceManager.SetGroupVersion(version, resources)
	if c.opts.Tracer.Enabled() {
		names := make([]string, len(resources))
		for i, r := range resources {
			names[i] = r.Name
		}
		c.opts.Trace(trace.Event{Step: "publish", Key: version.String(),
			Message: "published /apis/" + version.String() + ": " + strings.Join(names, ", "), Upstream: upstreamSync})
	}
	return nil
}

// resourcesFor returns the resources of version: one per Established CRD
// of the group that serves the version, sorted by the Manager.
//
// Mirrors the loop of (*DiscoveryController).sync.
func resourcesFor(crds []*apiextensionsv1.CustomResourceDefinition, version scheme.GroupVersion) ([]apiresource.Resource, error) {
	var out []apiresource.Resource
	for _, crd := range crds {
		if crd.Spec.Group != version.Group || !helpers.IsCRDConditionTrue(crd, apiextensionsv1.Established) {
			continue
		}
		served, storageVersionHash := false, ""
		for _, v := range crd.Spec.Versions {
			if !v.Served {
				continue // an unserved storage version is not advertised: no hash
			}
			if v.Name == version.Version {
				served = true
			}
			if v.Storage {
				storageVersionHash = apiresource.StorageVersionHash(crd.Spec.Group, v.Name, crd.Spec.Names.Kind)
			}
		}
		if !served {
			continue // other CRDs of the group may serve the version
		}

		verbs := []string{"delete", "deletecollection", "get", "list", "patch", "create", "update", "watch"}
		// A terminating CRD refuses creates; patch and update would only
		// race its cleanup.
		if helpers.IsCRDConditionTrue(crd, apiextensionsv1.Terminating) {
			verbs = []string{"delete", "deletecollection", "get", "list", "watch"}
		}
		names := crd.Status.AcceptedNames
		res := apiresource.Resource{
			Name:               names.Plural,
			SingularName:       names.Singular,
			Namespaced:         crd.Spec.Scope == apiextensionsv1.NamespaceScoped,
			Kind:               names.Kind,
			Verbs:              verbs,
			ShortNames:         names.ShortNames,
			Categories:         names.Categories,
			StorageVersionHash: storageVersionHash,
		}
		subresources, err := helpers.GetSubresourcesForVersion(crd, version.Version)
		if err != nil {
			return nil, err
		}
		if subresources != nil && subresources.Status != nil {
			res.Subresources = append(res.Subresources, apiresource.Subresource{
				Name: "status", Kind: version.WithKind(names.Kind), Verbs: []string{"get", "patch", "update"},
			})
		}
		if subresources != nil && subresources.Scale != nil {
			res.Subresources = append(res.Subresources, apiresource.Subresource{
				Name:  "scale",
				Kind:  scheme.GroupVersionKind{Group: "autoscaling", Version: "v1", Kind: "Scale"},
				Verbs: []string{"get", "patch", "update"},
			})
		}
		out = append(out, res)
	}
	return out, nil
}

// enqueue queues every version a CRD lists.
//
// Mirrors (*DiscoveryController).enqueue.
func (c *DiscoveryController) enqueue(obj any) {
	crd, ok := controller.CRDFromObject(obj)
	if !ok {
		c.log.Error("unexpected object in CRD event", "type", fmt.Sprintf("%T", obj))
		return
	}
	for _, v := range crd.Spec.Versions {
		c.queue.Add(scheme.GroupVersion{Group: crd.Spec.Group, Version: v.Name})
	}
}
