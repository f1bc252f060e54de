package informer

import (
	"fmt"
	"maps"
	"slices"
	"sync"
)

// ThreadSafeStore is the storage under a Store or Indexer: objects by key,
// plus indices, behind one lock. It knows nothing of how keys are made;
// callers pass them in.
//
// Objects are stored as given and handed out as stored, never copied:
// callers must not change an object after handing it in, nor one they get
// out.
//
// Mirrors k8s.io/client-go/tools/cache.ThreadSafeStore (thread_safe_store.go).
type ThreadSafeStore interface {
	// Add stores obj under key, replacing what was there.
	Add(key string, obj any) error
	// Update is Add.
	Update(key string, obj any) error
	// Delete removes key; a missing key is not an error.
	Delete(key string) error
	Get(key string) (item any, exists bool)
	List() []any
	ListKeys() []string
	// Replace makes items the whole content, atomically.
	Replace(items map[string]any, resourceVersion string) error
	Index(indexName string, obj any) ([]any, error)
	IndexKeys(indexName, indexedValue string) ([]string, error)
	ListIndexFuncValues(name string) []string
	ByIndex(indexName, indexedValue string) ([]any, error)
	GetIndexers() Indexers
	AddIndexers(newIndexers Indexers) error
}

// NewThreadSafeStore returns an empty ThreadSafeStore with the given indices.
//
// Mirrors k8s.io/client-go/tools/cache.NewThreadSafeStore.
func NewThreadSafeStore(indexers Indexers) ThreadSafeStore {
	return &threadSafeMap{
		items: map[string]any{},
		index: storeIndex{indexers: maps.Clone(indexers), indices: Indices{}},
	}
}

// threadSafeMap implements ThreadSafeStore.
//
// Mirrors k8s.io/client-go/tools/cache.threadSafeMap.
type threadSafeMap struct {
	// mu guards items and index.
	mu sync.RWMutex
	// items holds the objects by key.
	items map[string]any
	// index holds, for each index, value → keys. A key is in
	// index.indices[name][v] if and only if items[key] exists and
	// index.indexers[name](items[key]) returned v.
	index storeIndex
}

// storeIndex keeps the indices of a threadSafeMap; its owner's lock guards it.
//
// Mirrors k8s.io/client-go/tools/cache.storeIndex.
type storeIndex struct {
	indexers Indexers
	indices  Indices
}

// indexValues is what every index function returned for one object.
type indexValues map[string][]string

// compute runs every index function on obj (nil obj: no values). It changes
// nothing, so an error leaves the store as it was.
func (i *storeIndex) compute(key string, obj any) (indexValues, error) {
	if obj == nil {
		return nil, nil
	}
	out := make(indexValues, len(i.indexers))
	for name, fn := range i.indexers {
		vals, err := fn(obj)
		if err != nil {
			return nil, fmt.Errorf("unable to calculate an index entry for key %q on index %q: %w", key, name, err)
		}
		out[name] = vals
	}
	return out, nil
}

// apply moves key from its old index values to its new ones.
//
// Mirrors (*storeIndex).updateIndices / updateSingleIndex.
func (i *storeIndex) apply(key string, oldVals, newVals indexValues) {
	for name := range i.indexers {
		oldV, newV := oldVals[name], newVals[name]
		// The common case: one value, unchanged.
		if len(oldV) == 1 && len(newV) == 1 && oldV[0] == newV[0] {
			continue
		}
		index := i.indices[name]
		if index == nil {
			index = Index{}
			i.indices[name] = index
		}
		for _, v := range oldV {
			if set := index[v]; set != nil {
				delete(set, key)
				// Drop empty sets, or ListIndexFuncValues would keep
				// values no object has any more.
				if len(set) == 0 {
					delete(index, v)
				}
			}
		}
		for _, v := range newV {
			set := index[v]
			if set == nil {
				set = map[string]struct{}{}
				index[v] = set
			}
			set[key] = struct{}{}
		}
	}
}

// put stores obj under key and updates the indices. t.mu must be held.
func (t *threadSafeMap) put(key string, obj any) error {
	old, existed := t.items[key]
	var oldVals indexValues
	if existed {
		var err error
		if oldVals, err = t.index.compute(key, old); err != nil {
			return err
		}
	}
	newVals, err := t.index.compute(key, obj)
	if err != nil {
		return err
	}
	t.items[key] = obj
	t.index.apply(key, oldVals, newVals)
	return nil
}

func (t *threadSafeMap) Add(key string, obj any) error { return t.Update(key, obj) }

func (t *threadSafeMap) Update(key string, obj any) error {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.put(key, obj)
}

func (t *threadSafeMap) Delete(key string) error {
	t.mu.Lock()
	defer t.mu.Unlock()
	old, exists := t.items[key]
	if !exists {
		return nil
	}
	oldVals, err := t.index.compute(key, old)
	if err != nil {
		return err
	}
	t.index.apply(key, oldVals, nil)
	delete(t.items, key)
	return nil
}

func (t *threadSafeMap) Get(key string) (any, bool) {
	t.mu.RLock()
	defer t.mu.RUnlock()
	item, exists := t.items[key]
	return item, exists
}

func (t *threadSafeMap) List() []any {
	t.mu.RLock()
	defer t.mu.RUnlock()
	return slices.Collect(maps.Values(t.items))
}

func (t *threadSafeMap) ListKeys() []string {
	t.mu.RLock()
	defer t.mu.RUnlock()
	return slices.Collect(maps.Keys(t.items))
}

// Replace builds the new indices aside and swaps them in only if every index
// function succeeded.
func (t *threadSafeMap) Replace(items map[string]any, _ string) error {
	t.mu.Lock()
	defer t.mu.Unlock()
	fresh := storeIndex{indexers: t.index.indexers, indices: Indices{}}
	for key, obj := range items {
		vals, err := fresh.compute(key, obj)
		if err != nil {
			return err
		}
		fresh.apply(key, nil, vals)
	}
	t.items = maps.Clone(items)
	if t.items == nil {
		t.items = map[string]any{}
	}
	t.index = fresh
	return nil
}

// indexFunc returns the named index function. t.mu must be held.
func (t *threadSafeMap) indexFunc(indexName string) (IndexFunc, error) {
	fn, ok := t.index.indexers[indexName]
	if !ok {
		return nil, fmt.Errorf("%w: %q", ErrIndexNotFound, indexName)
	}
	return fn, nil
}

func (t *threadSafeMap) Index(indexName string, obj any) ([]any, error) {
	t.mu.RLock()
	defer t.mu.RUnlock()
	fn, err := t.indexFunc(indexName)
	if err != nil {
		return nil, err
	}
	vals, err := fn(obj)
	if err != nil {
		return nil, err
	}
	index := t.index.indices[indexName]
	keys := map[string]struct{}{}
	for _, v := range vals {
		maps.Copy(keys, index[v])
	}
	out := make([]any, 0, len(keys))
	for key := range keys {
		out = append(out, t.items[key])
	}
	return out, nil
}

func (t *threadSafeMap) ByIndex(indexName, indexedValue string) ([]any, error) {
	t.mu.RLock()
	defer t.mu.RUnlock()
	if _, err := t.indexFunc(indexName); err != nil {
		return nil, err
	}
	set := t.index.indices[indexName][indexedValue]
	out := make([]any, 0, len(set))
	for key := range set {
		out = append(out, t.items[key])
	}
	return out, nil
}

func (t *threadSafeMap) IndexKeys(indexName, indexedValue string) ([]string, error) {
	t.mu.RLock()
	defer t.mu.RUnlock()
	if _, err := t.indexFunc(indexName); err != nil {
		return nil, err
	}
	return slices.Collect(maps.Keys(t.index.indices[indexName][indexedValue])), nil
}

func (t *threadSafeMap) ListIndexFuncValues(indexName string) []string {
	t.mu.RLock()
	defer t.mu.RUnlock()
	return slices.Collect(maps.Keys(t.index.indices[indexName]))
}

func (t *threadSafeMap) GetIndexers() Indexers {
	t.mu.RLock()
	defer t.mu.RUnlock()
	return maps.Clone(t.index.indexers)
}

func (t *threadSafeMap) AddIndexers(newIndexers Indexers) error {
	t.mu.Lock()
	defer t.mu.Unlock()
	if len(t.items) > 0 {
		return ErrIndexOnNonEmptyStore
	}
	for name := range newIndexers {
		if _, ok := t.index.indexers[name]; ok {
			return fmt.Errorf("%w: index %q already exists", ErrIndexConflict, name)
		}
	}
	if t.index.indexers == nil {
		t.index.indexers = Indexers{}
	}
	maps.Copy(t.index.indexers, newIndexers)
	return nil
}
