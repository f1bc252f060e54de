package informer

import (
	"context"
	"sync"

	"github.com/crdlab/crdlab/scheme"
)

// SharedInformerFactory hands out one SharedIndexInformer per resource,
// however many controllers ask for it, and starts and stops them together.
// Sharing is the point: one list+watch and one cache per resource, not one
// per controller.
//
// Informers are keyed by GroupVersionResource; the factory knows nothing of
// clients: the caller of InformerFor says how to build the informer (its
// ListerWatcher, resync, indices) in newFunc, which runs only for the first
// caller.
//
// Typical use:
//
//	f := informer.NewSharedInformerFactory()
//	crds := f.InformerFor(crdGVR, newCRDInformer) // in each controller's constructor
//	f.Start(ctx)                                  // after every InformerFor
//	f.WaitForCacheSync(ctx)
//	...
//	f.Shutdown()                                  // stops the informers and waits
//
// Mirrors k8s.io/client-go/informers.sharedInformerFactory (factory.go),
// keyed like k8s.io/client-go/dynamic/dynamicinformer's factory.
type SharedInformerFactory struct {
	// mu guards every field below.
	mu sync.Mutex
	// informers holds the informer of each resource asked for.
	informers map[scheme.GroupVersionResource]SharedIndexInformer
	// started holds exactly the resources whose informer Start has
	// started (and whose goroutine wg counts).
	started map[scheme.GroupVersionResource]bool
	// cancels stops the informers started by each Start.
	cancels []context.CancelFunc
	// shuttingDown is true if and only if Shutdown was called; Start then
	// does nothing.
	shuttingDown bool
	// wg counts the informers' Run goroutines.
	wg sync.WaitGroup
}

// NewSharedInformerFactory returns an empty factory.
//
// Mirrors k8s.io/client-go/informers.NewSharedInformerFactory.
func NewSharedInformerFactory() *SharedInformerFactory {
	return &SharedInformerFactory{
		informers: map[scheme.GroupVersionResource]SharedIndexInformer{},
		started:   map[scheme.GroupVersionResource]bool{},
	}
}

// InformerFor returns the informer of gvr, calling newFunc to build it if
// this is the first call for gvr. Later calls return the same informer and
// ignore their newFunc.
//
// Mirrors (*sharedInformerFactory).InformerFor.
func (f *SharedInformerFactory) InformerFor(gvr scheme.GroupVersionResource, newFunc func() SharedIndexInformer) SharedIndexInformer {
	f.mu.Lock()
	defer f.mu.Unlock()
	if inf, ok := f.informers[gvr]; ok {
		return inf
	}
	inf := newFunc()
	f.informers[gvr] = inf
	return inf
}

// Start runs every informer not started yet, each in its own goroutine,
// until ctx ends or Shutdown. Call it again after asking for new
// informers; it is safe to call many times.
//
// Mirrors (*sharedInformerFactory).Start.
func (f *SharedInformerFactory) Start(ctx context.Context) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.shuttingDown {
		return
	}
	ctx, cancel := context.WithCancel(ctx)
	f.cancels = append(f.cancels, cancel)
	for gvr, inf := range f.informers {
		if f.started[gvr] {
			continue
		}
		f.started[gvr] = true
		f.wg.Go(func() { inf.Run(ctx) })
	}
}

// WaitForCacheSync waits for every started informer to sync, or ctx to
// end, and reports each one's HasSynced.
//
// Mirrors (*sharedInformerFactory).WaitForCacheSync.
func (f *SharedInformerFactory) WaitForCacheSync(ctx context.Context) map[scheme.GroupVersionResource]bool {
	f.mu.Lock()
	started := map[scheme.GroupVersionResource]SharedIndexInformer{}
	for gvr, inf := range f.informers {
		if f.started[gvr] {
			started[gvr] = inf
		}
	}
	f.mu.Unlock()

	res := make(map[scheme.GroupVersionResource]bool, len(started))
	for gvr, inf := range started {
		res[gvr] = WaitForCacheSync(ctx, inf.HasSynced)
	}
	return res
}

// Shutdown stops every informer the factory started, and waits for their
// goroutines to end. Start does nothing afterwards.
//
// Mirrors (*sharedInformerFactory).Shutdown, which only waits: upstream's
// caller must close the stop channel first.
func (f *SharedInformerFactory) Shutdown() {
	f.mu.Lock()
	f.shuttingDown = true
	for _, cancel := range f.cancels {
		cancel()
	}
	f.mu.Unlock()
	f.wg.Wait()
}
