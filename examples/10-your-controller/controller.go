package main

// This file is the controller, in the shape of kubernetes/sample-controller:
// an informer's event handlers put keys on a workqueue, workers take them
// off and sync, and sync reads the informer's cache and writes the server.
// main.go runs it against crdlab and narrates.
//
// What it does: every CronTab gets a status saying whether it is
// scheduled or suspended (spec.suspend), and which generation of its spec
// that status is about (status.observedGeneration) — the first thing most
// real controllers write.

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	apierrors "github.com/crdlab/crdlab/apis/errors"
	metav1 "github.com/crdlab/crdlab/apis/meta/v1"
	"github.com/crdlab/crdlab/apis/meta/v1/unstructured"
	"github.com/crdlab/crdlab/client/dynamic"
	"github.com/crdlab/crdlab/informer"
	"github.com/crdlab/crdlab/informer/workqueue"
	"github.com/crdlab/crdlab/machinery/watch"
	"github.com/crdlab/crdlab/scheme"
)

var crontabsGVR = scheme.GroupVersionResource{Group: "stable.example.com", Version: "v1", Resource: "crontabs"}

// Controller keeps every CronTab's status up to date.
type Controller struct {
	client   dynamic.Interface
	informer informer.SharedIndexInformer
	lister   *informer.Lister[*unstructured.Unstructured]
	// queue holds "namespace/name" keys, never objects: the object is read
	// from the cache when the key is synced, so it is always the newest.
	queue workqueue.RateLimitingInterface[string]
	log   *slog.Logger

	// syncHandler is sync; the example wraps it to show a retry.
	syncHandler func(ctx context.Context, key string) error

	mu sync.Mutex // guards synced
	// synced counts successful syncs by key, for the narration.
	synced map[string]int
}

// NewController builds the informer (one list+watch of crontabs in every
// namespace), the queue and the event handlers.
func NewController(client dynamic.Interface, log *slog.Logger) (*Controller, error) {
	crontabs := client.Resource(crontabsGVR)
	inf := informer.NewSharedIndexInformer(&informer.ListWatch{
		ListFunc: func(ctx context.Context, o metav1.ListOptions) (scheme.Object, error) {
			list, err := crontabs.List(ctx, o)
			if err != nil {
				return nil, err
			}
			return list, nil
		},
		WatchFunc: func(ctx context.Context, o metav1.ListOptions) (watch.Interface, error) {
			return crontabs.Watch(ctx, o)
		},
	}, 0, informer.Indexers{informer.NamespaceIndex: informer.MetaNamespaceIndexFunc})

	c := &Controller{
		client:   client,
		informer: inf,
		lister:   informer.NewLister[*unstructured.Unstructured](inf.GetIndexer(), crontabsGVR.GroupResource()),
		queue: workqueue.NewRateLimiting(workqueue.DefaultControllerRateLimiter[string](),
			workqueue.Config{Name: "crontab-status"}),
		log:    log,
		synced: map[string]int{},
	}
	c.syncHandler = c.sync
	// The handlers only queue keys: they run on the informer's goroutine
	// and must be quick. A delete queues too, so sync can clean up.
	if _, err := inf.AddEventHandler(informer.ResourceEventHandlerFuncs{
		AddFunc:    func(obj any, _ bool) { c.enqueue(obj) },
		UpdateFunc: func(_, newObj any) { c.enqueue(newObj) },
		DeleteFunc: c.enqueue,
	}); err != nil {
		return nil, err
	}
	return c, nil
}

func (c *Controller) enqueue(obj any) {
	key, err := informer.DeletionHandlingMetaNamespaceKeyFunc(obj)
	if err != nil {
		c.log.Error("cannot key object", "err", err)
		return
	}
	c.queue.Add(key)
}

// Run starts the informer, waits for its cache, runs workers until ctx
// ends, then shuts the queue down and waits for the workers.
func (c *Controller) Run(ctx context.Context, workers int) error {
	defer c.queue.ShutDown()

	var wg sync.WaitGroup
	defer wg.Wait()
	wg.Go(func() { c.informer.Run(ctx) })

	// Never sync from a cache that has not seen the first list: a missing
	// object would look deleted.
	if !informer.WaitForCacheSync(ctx, c.informer.HasSynced) {
		return errors.New("cache did not sync")
	}
	for range workers {
		wg.Go(func() {
			for c.processNextWorkItem(ctx) {
			}
		})
	}
	<-ctx.Done()
	// Shut the queue down before waiting for the workers: it wakes those
	// blocked in Get, and the deferred wg.Wait returns.
	c.queue.ShutDown()
	return nil
}

// processNextWorkItem takes one key, syncs it, and tells the queue how it
// went. It returns false once the queue is shut down.
func (c *Controller) processNextWorkItem(ctx context.Context) bool {
	key, shutdown := c.queue.Get()
	if shutdown {
		return false
	}
	// Done, always: until then the queue holds back new Adds of key, so
	// no two workers ever sync one CronTab at once.
	defer c.queue.Done(key)

	if err := c.syncHandler(ctx, key); err != nil {
		// Retry later, backing off (5ms, 10ms, … per key).
		c.queue.AddRateLimited(key)
		c.log.Info("sync failed, retrying", "key", key, "err", err)
		return true
	}
	// Success: forget the key's failures, so its next failure starts
	// again from the shortest wait.
	c.queue.Forget(key)
	return true
}

// sync makes one CronTab's status match its spec. It is level-based: it
// looks at the object as it is now, not at the event that queued it.
func (c *Controller) sync(ctx context.Context, key string) error {
	namespace, name, err := informer.SplitMetaNamespaceKey(key)
	if err != nil {
		return nil // a bad key will not get better: drop it
	}
	cached, err := c.lister.ByNamespace(namespace).Get(name)
	if apierrors.IsNotFound(err) {
		c.count(key)
		return nil // deleted: nothing we own to clean up
	}
	if err != nil {
		return err
	}

	phase := "Scheduled"
	if suspend, _, _ := unstructured.NestedBool(cached.Object, "spec", "suspend"); suspend {
		phase = "Suspended"
	}
	observed, _, _ := unstructured.NestedInt64(cached.Object, "status", "observedGeneration")
	current, _, _ := unstructured.NestedString(cached.Object, "status", "phase")
	if observed == cached.GetGeneration() && current == phase {
		c.count(key)
		return nil // up to date: no write
	}

	// Never change the cache's object: it is shared with every reader.
	crontab := cached.DeepCopy()
	_ = unstructured.SetNestedField(crontab.Object, phase, "status", "phase")
	_ = unstructured.SetNestedField(crontab.Object, crontab.GetGeneration(), "status", "observedGeneration")
	_, err = c.client.Resource(crontabsGVR).Namespace(namespace).UpdateStatus(ctx, crontab, metav1.UpdateOptions{})
	if apierrors.IsConflict(err) {
		// Someone wrote the CronTab since our cache saw it; the newer
		// object is on its way through the watch and will queue the key.
		c.count(key)
		return nil
	}
	if err != nil {
		return err
	}
	c.count(key)
	return nil
}

func (c *Controller) count(key string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.synced[key]++
}

// waitForStatus waits until the server's copy of the CronTab says phase
// for its current generation.
func waitForStatus(ctx context.Context, client dynamic.Interface, namespace, name, phase string) (*unstructured.Unstructured, error) {
	deadline := time.Now().Add(10 * time.Second)
	for {
		got, err := client.Resource(crontabsGVR).Namespace(namespace).Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return nil, err
		}
		p, _, _ := unstructured.NestedString(got.Object, "status", "phase")
		g, _, _ := unstructured.NestedInt64(got.Object, "status", "observedGeneration")
		if p == phase && g == got.GetGeneration() {
			return got, nil
		}
		if time.Now().After(deadline) {
			return nil, fmt.Errorf("%s/%s: status %q@%d, want %q@%d", namespace, name, p, g, phase, got.GetGeneration())
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func waitABit() { time.Sleep(5 * time.Millisecond) }
