package controllertest

import (
	"context"
	"strconv"
	"sync"

	apiextensionsv1 "github.com/crdlab/crdlab/apis/apiextensions/v1"
	apierrors "github.com/crdlab/crdlab/apis/errors"
	metav1 "github.com/crdlab/crdlab/apis/meta/v1"
	"github.com/crdlab/crdlab/controller"
	"github.com/crdlab/crdlab/informer"
	"github.com/crdlab/crdlab/internal/deepcopy"
)

// Informer is a SharedIndexInformer that never talks to a server: Add,
// Update and Delete change its cache and call its handlers at once, in
// the calling goroutine.
type Informer struct {
	indexer informer.Indexer

	mu       sync.Mutex // guards handlers
	handlers []informer.ResourceEventHandler
}

var _ informer.SharedIndexInformer = (*Informer)(nil)

// NewInformer returns an Informer whose cache holds crds. The cache has
// controller.GroupIndex from the start (the controllers that read it add
// it only if it is missing), so that tests may fill it before they build
// a controller.
func NewInformer(crds ...*apiextensionsv1.CustomResourceDefinition) *Informer {
	f := &Informer{indexer: informer.NewIndexer(informer.DeletionHandlingMetaNamespaceKeyFunc,
		informer.Indexers{controller.GroupIndex: controller.GroupIndexFunc})}
	for _, crd := range crds {
		_ = f.indexer.Add(crd)
	}
	return f
}

func (f *Informer) AddEventHandler(h informer.ResourceEventHandler) (informer.ResourceEventHandlerRegistration, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.handlers = append(f.handlers, h)
	return synced{}, nil
}

func (f *Informer) RemoveEventHandler(informer.ResourceEventHandlerRegistration) error { return nil }
func (f *Informer) GetStore() informer.Store                                           { return f.indexer }
func (f *Informer) GetIndexer() informer.Indexer                                       { return f.indexer }
func (f *Informer) AddIndexers(informer.Indexers) error                                { return nil }
func (f *Informer) Run(ctx context.Context)                                            { <-ctx.Done() }
func (f *Informer) HasSynced() bool                                                    { return true }
func (f *Informer) LastSyncResourceVersion() string                                    { return "" }
func (f *Informer) IsStopped() bool                                                    { return false }

func (f *Informer) each(fn func(informer.ResourceEventHandler)) {
	f.mu.Lock()
	hs := append([]informer.ResourceEventHandler(nil), f.handlers...)
	f.mu.Unlock()
	for _, h := range hs {
		fn(h)
	}
}

// Add caches crd and tells the handlers.
func (f *Informer) Add(crd *apiextensionsv1.CustomResourceDefinition) {
	_ = f.indexer.Add(crd)
	f.each(func(h informer.ResourceEventHandler) { h.OnAdd(crd, false) })
}

// Update replaces the cached copy of crd and tells the handlers.
func (f *Informer) Update(crd *apiextensionsv1.CustomResourceDefinition) {
	old, _, _ := f.indexer.Get(crd)
	_ = f.indexer.Update(crd)
	if old == nil {
		old = crd
	}
	f.each(func(h informer.ResourceEventHandler) { h.OnUpdate(old, crd) })
}

// Delete drops crd from the cache and tells the handlers.
func (f *Informer) Delete(crd *apiextensionsv1.CustomResourceDefinition) {
	_ = f.indexer.Delete(crd)
	f.each(func(h informer.ResourceEventHandler) { h.OnDelete(crd) })
}

type synced struct{}

func (synced) HasSynced() bool { return true }

// Client is a controller.CRDClient over an in-memory set of CRDs. Like the
// server it refuses a stale resourceVersion (409 Conflict) and a missing
// CRD (404), and gives every write a new resourceVersion.
type Client struct {
	// UpdateStatusHook, if set, runs before every UpdateStatus; a non-nil
	// error is returned instead of writing.
	UpdateStatusHook func(crd *apiextensionsv1.CustomResourceDefinition) error

	mu     sync.Mutex // guards the fields below
	rv     int
	byName map[string]*apiextensionsv1.CustomResourceDefinition
	// updates lists every successful UpdateStatus, oldest first.
	updates []*apiextensionsv1.CustomResourceDefinition
}

var _ controller.CRDClient = (*Client)(nil)

// NewClient returns a client holding crds. Each CRD's resourceVersion is
// kept if set, else given one.
func NewClient(crds ...*apiextensionsv1.CustomResourceDefinition) *Client {
	c := &Client{rv: 100, byName: map[string]*apiextensionsv1.CustomResourceDefinition{}}
	for _, crd := range crds {
		c.Put(crd)
	}
	return c
}

// Put stores crd as is (a copy), giving it a resourceVersion if it has
// none; it returns the stored copy.
func (c *Client) Put(crd *apiextensionsv1.CustomResourceDefinition) *apiextensionsv1.CustomResourceDefinition {
	c.mu.Lock()
	defer c.mu.Unlock()
	crd = crd.DeepCopy()
	if crd.ResourceVersion == "" {
		c.rv++
		crd.ResourceVersion = strconv.Itoa(c.rv)
	}
	c.byName[crd.Name] = crd
	return crd.DeepCopy()
}

// Get returns the stored CRD (a copy), or nil.
func (c *Client) Get(name string) *apiextensionsv1.CustomResourceDefinition {
	c.mu.Lock()
	defer c.mu.Unlock()
	if crd, ok := c.byName[name]; ok {
		return crd.DeepCopy()
	}
	return nil
}

// Updates returns copies of every successful UpdateStatus, oldest first.
func (c *Client) Updates() []*apiextensionsv1.CustomResourceDefinition {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := make([]*apiextensionsv1.CustomResourceDefinition, len(c.updates))
	for i, u := range c.updates {
		out[i] = u.DeepCopy()
	}
	return out
}

// UpdateStatus writes crd's status and finalizers, as the /status
// endpoint does; a CRD being deleted whose last finalizer goes is
// removed.
func (c *Client) UpdateStatus(_ context.Context, crd *apiextensionsv1.CustomResourceDefinition, _ metav1.UpdateOptions) (*apiextensionsv1.CustomResourceDefinition, error) {
	if c.UpdateStatusHook != nil {
		if err := c.UpdateStatusHook(crd); err != nil {
			return nil, err
		}
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	gr := apiextensionsv1.Resource("customresourcedefinitions")
	old, ok := c.byName[crd.Name]
	if !ok {
		return nil, apierrors.NewNotFound(gr, crd.Name)
	}
	if crd.ResourceVersion != old.ResourceVersion {
		return nil, apierrors.NewConflict(gr, crd.Name, errStale)
	}
	next := old.DeepCopy()
	next.Status = deepcopy.Copy(crd.Status)
	next.Finalizers = append([]string(nil), crd.Finalizers...)
	c.rv++
	next.ResourceVersion = strconv.Itoa(c.rv)
	c.updates = append(c.updates, next.DeepCopy())
	if next.DeletionTimestamp != nil && len(next.Finalizers) == 0 {
		delete(c.byName, next.Name)
	} else {
		c.byName[next.Name] = next
	}
	return next.DeepCopy(), nil
}

type staleError struct{}

func (staleError) Error() string {
	return "the object has been modified; please apply your changes to the latest version and try again"
}

var errStale = staleError{}
