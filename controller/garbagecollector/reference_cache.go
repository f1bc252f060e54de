package garbagecollector

import (
	"container/list"
	"sync"
)

// referenceCache remembers the owners the server said do not exist, so
// that the dependents of a deleted owner are not each sent to ask again.
// It keeps the most recently added or read maxSize references.
//
// Mirrors ReferenceCache in uid_cache.go (an LRU of 500).
type referenceCache struct {
	mu      sync.Mutex // guards order and entries
	maxSize int
	order   *list.List // of objectReference, most recent first
	entries map[objectReference]*list.Element
}

func newReferenceCache(maxSize int) *referenceCache {
	return &referenceCache{maxSize: maxSize, order: list.New(), entries: map[objectReference]*list.Element{}}
}

// Add records ref as absent.
func (c *referenceCache) Add(ref objectReference) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.entries[ref]; ok {
		c.order.MoveToFront(e)
		return
	}
	c.entries[ref] = c.order.PushFront(ref)
	if c.order.Len() > c.maxSize {
		last := c.order.Back()
		c.order.Remove(last)
		delete(c.entries, last.Value.(objectReference))
	}
}

// Has reports whether ref is recorded as absent.
func (c *referenceCache) Has(ref objectReference) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.entries[ref]
	if ok {
		c.order.MoveToFront(e)
	}
	return ok
}
