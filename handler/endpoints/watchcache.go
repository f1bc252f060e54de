package endpoints

import (
	"sync"
	"unsafe"
	"weak"

	"github.com/crdlab/crdlab/apis/meta/v1/unstructured"
	"github.com/crdlab/crdlab/handler/negotiation"
	"github.com/crdlab/crdlab/machinery/watch"
)

// WatchLines remembers the encoded line of recent watch events, so that an
// event sent to a thousand watchers of the same resource is encoded once,
// not a thousand times.
//
// It works because storage's fan-out decodes each committed write once per
// store and hands the same object to every watcher of that store: the
// object's identity, the event type and the request scope (which fixes the
// version it is written in) determine the line, with its representation:
// the object, or its PartialObjectMetadata (the metadata client's
// watches). Only JSON events of custom resources are remembered; Tables
// depend on the request, and initial events (decoded per watcher) simply
// miss.
//
// The cache does not keep the objects alive: an entry is found by the
// object's address and holds only a weak pointer to it, which tells a
// reused address from the object itself. Storage drops a decoded object
// once its watchers are done with it (the garbage collector watches every
// resource), and the last 4,096 events' objects must not stay in memory
// because their lines do.
//
// Mirrors the role of upstream's cachingObject (k8s.io/apiserver/pkg/
// storage/cacher/caching_object.go), which caches an object's serialization
// per encoder for the same reason.
//
// The zero value is ready to use.
type WatchLines struct {
	mu      sync.Mutex               // guards entries, ring, next and inserts
	entries map[lineKey]*encodedLine // at most watchLinesSize entries
	ring    [watchLinesSize]lineKey  // the keys in entries, oldest at next
	next    int
	inserts int // since the last sweep
}

// watchLinesSize bounds the events remembered: enough for every watcher
// to find the last few thousand events, small enough (≈ 1 KiB each) to
// ignore.
const watchLinesSize = 4096

// sweepEvery is how many new entries go by between two sweeps, which drop
// the entries whose object is gone: once storage and every watcher are
// done with an event, nobody can ask for its line again, and the line
// need not wait for the ring to come round (a thousand watchers × a
// thousand updates kept ≈ 6 MB of such lines).
const sweepEvery = 256

type lineKey struct {
	// addr is the object's address; the entry's weak pointer says whether
	// it is still the same object.
	addr  uintptr
	typ   watch.EventType
	scope *RequestScope
	// metadata says the line is the object's PartialObjectMetadata.
	metadata bool
}

// encodedLine is one event's line, encoded by the first watcher to ask.
type encodedLine struct {
	obj  weak.Pointer[unstructured.Unstructured]
	once sync.Once
	line []byte // read-only once once is done
	err  error
}

// cacheable reports whether an event's line can be shared, and its key:
// the object as is, or as PartialObjectMetadata; not Tables.
func cacheable(ev watch.Event, s *RequestScope, convert *negotiation.Target) (lineKey, *unstructured.Unstructured, bool) {
	metadata := convert != nil && *convert == negotiation.PartialObjectMetadataV1
	if (convert != nil && !metadata) || ev.Type == watch.Error || ev.Type == watch.Bookmark {
		return lineKey{}, nil, false
	}
	u, ok := ev.Object.(*unstructured.Unstructured)
	if !ok {
		return lineKey{}, nil, false
	}
	return lineKey{addr: uintptr(unsafe.Pointer(u)), typ: ev.Type, scope: s, metadata: metadata}, u, true
}

// get returns the line of key, calling encode for the first caller only;
// the others wait for it and share its result.
// obj is the object at key's address; an entry of an object that is gone
// (and whose address obj now has) is replaced.
func (c *WatchLines) get(key lineKey, obj *unstructured.Unstructured, encode func() ([]byte, error)) ([]byte, error) {
	c.mu.Lock()
	e, ok := c.entries[key]
	if ok && e.obj.Value() != obj {
		e = &encodedLine{obj: weak.Make(obj)}
		c.entries[key] = e // its ring slot stays: it may go a little early
		c.inserted()
	} else if !ok {
		if c.entries == nil {
			c.entries = make(map[lineKey]*encodedLine, watchLinesSize)
		}
		if old := c.ring[c.next]; old.addr != 0 {
			delete(c.entries, old)
		}
		e = &encodedLine{obj: weak.Make(obj)}
		c.entries[key] = e
		c.ring[c.next] = key
		c.next = (c.next + 1) % watchLinesSize
		c.inserted()
	}
	c.mu.Unlock()
	e.once.Do(func() { e.line, e.err = encode() })
	return e.line, e.err
}

// inserted counts a new entry, sweeping every sweepEvery. Caller holds c.mu.
func (c *WatchLines) inserted() {
	if c.inserts++; c.inserts == sweepEvery {
		c.sweep()
	}
}

// sweep drops the entries whose object is gone. The ring keeps its order:
// the entries left move, in place, to its newest end (just before next),
// and the free slots are next's. Caller holds c.mu.
func (c *WatchLines) sweep() {
	c.inserts = 0
	w, n := c.next, 0
	for i := 1; i <= watchLinesSize; i++ { // newest to oldest
		k := c.ring[(c.next-i+watchLinesSize)%watchLinesSize]
		if k.addr == 0 {
			continue
		}
		if e, ok := c.entries[k]; ok && e.obj.Value() == nil {
			delete(c.entries, k)
			continue
		}
		w = (w - 1 + watchLinesSize) % watchLinesSize // never ahead of the slot read
		c.ring[w] = k
		n++
	}
	for j := 0; j < watchLinesSize-n; j++ {
		c.ring[(c.next+j)%watchLinesSize] = lineKey{}
	}
}
