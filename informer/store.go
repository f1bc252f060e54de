package informer

import (
	"fmt"
	"strings"

	metav1 "github.com/crdlab/crdlab/apis/meta/v1"
)

// Store is a keyed set of objects, the client-side cache an informer fills.
// Every method is safe for concurrent use.
//
// An object's key comes from the store's KeyFunc, so Add, Update and
// Delete take the object, not the key; Add and Update of an existing key
// both replace the object. Objects handed out by Get, List and the index
// queries are the stored ones, shared with every other reader: treat them as
// read-only and DeepCopyObject them before changing anything.
//
// Mirrors k8s.io/client-go/tools/cache.Store (store.go).
type Store interface {
	// Add inserts obj, or replaces the object of the same key.
	Add(obj any) error
	// Update is Add: the store does not check that the key existed.
	Update(obj any) error
	// Delete removes the object with obj's key. A missing key is not an
	// error.
	Delete(obj any) error
	// List returns every object, in no particular order.
	List() []any
	// ListKeys returns every key, in no particular order.
	ListKeys() []string
	// Get returns the stored object with obj's key.
	Get(obj any) (item any, exists bool, err error)
	// GetByKey returns the object stored under key.
	GetByKey(key string) (item any, exists bool, err error)
	// Replace makes list the whole content of the store, atomically.
	// resourceVersion is the version list was read at; a plain store
	// ignores it.
	Replace(list []any, resourceVersion string) error
	// Resync is meaningless for a plain store and returns nil; a DeltaFIFO
	// queues a Sync for every known object.
	Resync() error
}

// KeyFunc returns the key an object is stored under.
//
// Mirrors k8s.io/client-go/tools/cache.KeyFunc.
type KeyFunc func(obj any) (string, error)

// ExplicitKey is a key given as an object: every KeyFunc of this package
// returns it unchanged. DeltaFIFO.Delete of an ExplicitKey deletes by key.
//
// Mirrors k8s.io/client-go/tools/cache.ExplicitKey.
type ExplicitKey string

// MetaNamespaceKeyFunc keys an object "namespace/name", or "name" when it is
// cluster-scoped (empty namespace). This is the key every workqueue in a
// controller carries; SplitMetaNamespaceKey takes it apart again.
//
// Mirrors k8s.io/client-go/tools/cache.MetaNamespaceKeyFunc.
func MetaNamespaceKeyFunc(obj any) (string, error) {
	if key, ok := obj.(ExplicitKey); ok {
		return string(key), nil
	}
	m, ok := metav1.Accessor(obj)
	if !ok {
		return "", fmt.Errorf("%w: %T", ErrNoMetadata, obj)
	}
	if ns := m.GetNamespace(); ns != "" {
		return ns + "/" + m.GetName(), nil
	}
	return m.GetName(), nil
}

// DeletionHandlingMetaNamespaceKeyFunc is MetaNamespaceKeyFunc that also
// keys a DeletedFinalStateUnknown tombstone by the key it carries. Stores fed
// by a DeltaFIFO must use it, since Deleted deltas may hold tombstones.
//
// Mirrors k8s.io/client-go/tools/cache.DeletionHandlingMetaNamespaceKeyFunc.
func DeletionHandlingMetaNamespaceKeyFunc(obj any) (string, error) {
	if d, ok := obj.(DeletedFinalStateUnknown); ok {
		return d.Key, nil
	}
	return MetaNamespaceKeyFunc(obj)
}

// SplitMetaNamespaceKey splits a MetaNamespaceKeyFunc key into its
// namespace ("" for a cluster-scoped object) and name.
//
// Mirrors k8s.io/client-go/tools/cache.SplitMetaNamespaceKey.
func SplitMetaNamespaceKey(key string) (namespace, name string, err error) {
	parts := strings.Split(key, "/")
	switch len(parts) {
	case 1:
		return "", parts[0], nil
	case 2:
		return parts[0], parts[1], nil
	}
	return "", "", fmt.Errorf("unexpected key format: %q", key)
}

// cache is a Store (and an Indexer) made of a KeyFunc and a ThreadSafeStore:
// it keys objects, the ThreadSafeStore keeps and indexes them.
//
// Mirrors k8s.io/client-go/tools/cache.cache (store.go).
type cache struct {
	// storage holds the objects; it does its own locking.
	storage ThreadSafeStore
	// keyFunc keys every object that comes in.
	keyFunc KeyFunc
}

var (
	_ Store   = (*cache)(nil)
	_ Indexer = (*cache)(nil)
)

// NewStore returns a Store without indices that keys objects with keyFunc.
//
// Mirrors k8s.io/client-go/tools/cache.NewStore.
func NewStore(keyFunc KeyFunc) Store {
	return &cache{storage: NewThreadSafeStore(Indexers{}), keyFunc: keyFunc}
}

// NewIndexer returns an Indexer that keys objects with keyFunc and keeps
// the given indices.
//
// Mirrors k8s.io/client-go/tools/cache.NewIndexer.
func NewIndexer(keyFunc KeyFunc, indexers Indexers) Indexer {
	return &cache{storage: NewThreadSafeStore(indexers), keyFunc: keyFunc}
}

func (c *cache) key(obj any) (string, error) {
	key, err := c.keyFunc(obj)
	if err != nil {
		return "", KeyError{Obj: obj, Err: err}
	}
	return key, nil
}

func (c *cache) Add(obj any) error {
	key, err := c.key(obj)
	if err != nil {
		return err
	}
	return c.storage.Add(key, obj)
}

func (c *cache) Update(obj any) error {
	key, err := c.key(obj)
	if err != nil {
		return err
	}
	return c.storage.Update(key, obj)
}

func (c *cache) Delete(obj any) error {
	key, err := c.key(obj)
	if err != nil {
		return err
	}
	return c.storage.Delete(key)
}

func (c *cache) List() []any        { return c.storage.List() }
func (c *cache) ListKeys() []string { return c.storage.ListKeys() }

func (c *cache) Get(obj any) (any, bool, error) {
	key, err := c.key(obj)
	if err != nil {
		return nil, false, err
	}
	return c.GetByKey(key)
}

func (c *cache) GetByKey(key string) (any, bool, error) {
	item, exists := c.storage.Get(key)
	return item, exists, nil
}

func (c *cache) Replace(list []any, resourceVersion string) error {
	items := make(map[string]any, len(list))
	for _, obj := range list {
		key, err := c.key(obj)
		if err != nil {
			return err
		}
		items[key] = obj
	}
	return c.storage.Replace(items, resourceVersion)
}

func (c *cache) Resync() error { return nil }

func (c *cache) Index(indexName string, obj any) ([]any, error) {
	return c.storage.Index(indexName, obj)
}

func (c *cache) IndexKeys(indexName, indexedValue string) ([]string, error) {
	return c.storage.IndexKeys(indexName, indexedValue)
}

func (c *cache) ListIndexFuncValues(indexName string) []string {
	return c.storage.ListIndexFuncValues(indexName)
}

func (c *cache) ByIndex(indexName, indexedValue string) ([]any, error) {
	return c.storage.ByIndex(indexName, indexedValue)
}

func (c *cache) GetIndexers() Indexers { return c.storage.GetIndexers() }

func (c *cache) AddIndexers(newIndexers Indexers) error {
	return c.storage.AddIndexers(newIndexers)
}
