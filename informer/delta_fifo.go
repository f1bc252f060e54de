package informer

import (
	"fmt"
	"slices"
	"strings"
	"sync"

	metav1 "github.com/crdlab/crdlab/apis/meta/v1"
	"github.com/crdlab/crdlab/trace"
)

// DeltaType says what happened to an object.
//
// Mirrors k8s.io/client-go/tools/cache.DeltaType.
type DeltaType string

// The delta types.
const (
	// Added: a watch ADDED event.
	Added DeltaType = "Added"
	// Updated: a watch MODIFIED event.
	Updated DeltaType = "Updated"
	// Deleted: a watch DELETED event, or an object Replace found missing
	// from a new list (its Object is then a DeletedFinalStateUnknown).
	Deleted DeltaType = "Deleted"
	// Replaced: the object is in the list a Replace was given (a relist, or
	// the initial events of a watch-list).
	Replaced DeltaType = "Replaced"
	// Sync: a periodic resync re-delivers an object that did not change.
	Sync DeltaType = "Sync"
)

// Delta is one change to one object: what happened (Type) and the object's
// state after it (Object), or, for Deleted, its last known state.
//
// Mirrors k8s.io/client-go/tools/cache.Delta.
type Delta struct {
	Type   DeltaType
	Object any
}

// Deltas is the changes to one object, oldest first.
//
// Mirrors k8s.io/client-go/tools/cache.Deltas.
type Deltas []Delta

// Oldest returns the oldest delta, or nil if there is none.
func (d Deltas) Oldest() *Delta {
	if len(d) > 0 {
		return &d[0]
	}
	return nil
}

// Newest returns the newest delta, or nil if there is none.
func (d Deltas) Newest() *Delta {
	if n := len(d); n > 0 {
		return &d[n-1]
	}
	return nil
}

// DeletedFinalStateUnknown is the Object of a Deleted delta for an object
// whose delete was never seen: it was in the cache, and a relist no longer
// has it (the watch missed the DELETED event, e.g. while disconnected). Obj
// is the last state the cache knew, which may be stale.
//
// Event handlers get it in OnDelete and must expect it:
//
//	if d, ok := obj.(informer.DeletedFinalStateUnknown); ok { obj = d.Obj }
//
// Mirrors k8s.io/client-go/tools/cache.DeletedFinalStateUnknown.
type DeletedFinalStateUnknown struct {
	Key string
	Obj any
}

// KeyListerGetter is what a DeltaFIFO reads of the cache it feeds (the
// informer's Indexer) to find deletions on Replace and objects to Resync.
//
// Mirrors k8s.io/client-go/tools/cache.KeyListerGetter.
type KeyListerGetter interface {
	ListKeys() []string
	GetByKey(key string) (item any, exists bool, err error)
}

// PopProcessFunc handles what Pop took out of the queue: the Deltas of one
// key, and whether they belong to the initial list (popped before HasSynced
// turned true).
//
// Mirrors k8s.io/client-go/tools/cache.PopProcessFunc.
type PopProcessFunc func(obj any, isInInitialList bool) error

// TransformFunc changes an object before the informer caches it and hands
// it to the handlers, typically to drop or share parts of it that nobody
// reads, to save memory. It sees each object first and alone, so it may
// change it in place. It must be idempotent: a relist may hand it objects
// it has already seen.
//
// Mirrors k8s.io/client-go/tools/cache.TransformFunc.
type TransformFunc func(any) (any, error)

// DeltaFIFOOptions configure a DeltaFIFO.
//
// Mirrors k8s.io/client-go/tools/cache.DeltaFIFOOptions.
type DeltaFIFOOptions struct {
	// KeyFunction keys objects; nil means MetaNamespaceKeyFunc.
	KeyFunction KeyFunc
	// KnownObjects is the cache the popped deltas are applied to. With it,
	// Replace queues a Deleted tombstone for every known key missing from
	// the new list, and Resync has something to resync. May be nil.
	KnownObjects KeyListerGetter
	// Transformer, if not nil, is applied to every object entering the
	// FIFO (not to tombstones or resyncs, which hold objects that were
	// already transformed); see TransformFunc.
	Transformer TransformFunc
	// Name names the FIFO in traces: the informer's name. (Not upstream.)
	Name string
	// Tracer, if not nil, gets an "add" event (component trace.DeltaFIFO)
	// for every delta queued and a "pop" for every key popped. Nil is
	// tracing off. (Not upstream.)
	Tracer *trace.Tracer
}

// DeltaFIFO is the queue between a Reflector and the informer that applies
// its changes: a FIFO of keys, where each key carries every change (Delta)
// seen for it since it was last popped.
//
// Producers (the Reflector) call Add, Update, Delete, Replace and Resync; one
// consumer calls Pop. Several changes to one key while it waits are kept,
// in order, under that one key: the consumer sees the whole story, not just
// the end, which matters for handlers that act on Deleted. Two Deleted in a
// row are collapsed into one (keeping the one that is not a tombstone).
//
// A Replace (the result of a list) queues Replaced for every listed object,
// and Deleted(DeletedFinalStateUnknown) for every key that is queued or
// known to KnownObjects but not in the list.
//
// HasSynced turns true once the deltas queued by the first Replace (or an
// earlier Add/Update/Delete) have all been popped and processed.
//
// Mirrors k8s.io/client-go/tools/cache.DeltaFIFO (delta_fifo.go).
type DeltaFIFO struct {
	// mu guards every field below; cond waits on it for items or Close.
	mu   sync.Mutex
	cond sync.Cond

	// items maps a key to the changes queued for it. Every Deltas in items
	// has at least one Delta.
	items map[string]Deltas
	// queue is the FIFO order of keys for Pop, without duplicates. A key is
	// in queue if and only if it is in items.
	queue []string

	// populated is true if and only if the first Replace, or an Add,
	// Update or Delete, has happened.
	populated bool
	// initialPopulationCount is the number of deltas queued by the first
	// Replace that have not been popped yet.
	initialPopulationCount int

	// keyFunc, knownObjects, transformer, name and tracer are set at
	// construction and never change.
	keyFunc      KeyFunc
	knownObjects KeyListerGetter
	transformer  TransformFunc
	name         string
	tracer       *trace.Tracer

	// closed is true if and only if Close was called.
	closed bool
}

// NewDeltaFIFO returns an empty DeltaFIFO.
//
// Mirrors k8s.io/client-go/tools/cache.NewDeltaFIFOWithOptions (with
// EmitDeltaTypeReplaced always true).
func NewDeltaFIFO(opts DeltaFIFOOptions) *DeltaFIFO {
	if opts.KeyFunction == nil {
		opts.KeyFunction = MetaNamespaceKeyFunc
	}
	f := &DeltaFIFO{
		items:        map[string]Deltas{},
		keyFunc:      opts.KeyFunction,
		knownObjects: opts.KnownObjects,
		transformer:  opts.Transformer,
		name:         opts.Name,
		tracer:       opts.Tracer,
	}
	f.cond.L = &f.mu
	return f
}

// KeyOf keys obj with the FIFO's KeyFunc, seeing through Deltas (keyed by
// their newest object) and DeletedFinalStateUnknown (keyed by its Key).
//
// Mirrors (*DeltaFIFO).KeyOf.
func (f *DeltaFIFO) KeyOf(obj any) (string, error) {
	if d, ok := obj.(Deltas); ok {
		if len(d) == 0 {
			return "", KeyError{Obj: obj, Err: fmt.Errorf("zero length Deltas object")}
		}
		obj = d.Newest().Object
	}
	if d, ok := obj.(DeletedFinalStateUnknown); ok {
		return d.Key, nil
	}
	key, err := f.keyFunc(obj)
	if err != nil {
		return "", KeyError{Obj: obj, Err: err}
	}
	return key, nil
}

// HasSynced reports whether the first Replace (or an earlier
// Add/Update/Delete) happened and all the deltas it queued were popped,
// and their processing returned.
func (f *DeltaFIFO) HasSynced() bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.hasSyncedLocked()
}

func (f *DeltaFIFO) hasSyncedLocked() bool {
	return f.populated && f.initialPopulationCount == 0
}

// Add queues an Added delta.
func (f *DeltaFIFO) Add(obj any) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.populated = true
	return f.queueActionLocked(Added, obj)
}

// Update queues an Updated delta.
func (f *DeltaFIFO) Update(obj any) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.populated = true
	return f.queueActionLocked(Updated, obj)
}

// Delete queues a Deleted delta, unless the key is neither queued nor known
// to KnownObjects: then the delete was already reported (by a Replace) and
// is dropped.
func (f *DeltaFIFO) Delete(obj any) error {
	id, err := f.KeyOf(obj)
	if err != nil {
		return err
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	f.populated = true
	_, queued := f.items[id]
	if f.knownObjects == nil {
		if !queued {
			return nil
		}
	} else {
		_, known, err := f.knownObjects.GetByKey(id)
		if err == nil && !known && !queued {
			return nil
		}
	}
	return f.queueActionLocked(Deleted, obj)
}

// queueActionLocked appends a delta to obj's key, queueing the key if it
// was not queued. f.mu must be held.
//
// Mirrors (*DeltaFIFO).queueActionLocked.
func (f *DeltaFIFO) queueActionLocked(actionType DeltaType, obj any) error {
	id, err := f.KeyOf(obj)
	if err != nil {
		return err
	}
	// Every object from the server passes here once: transform it now. A
	// tombstone or a Sync carries an object that already went through.
	if _, isTombstone := obj.(DeletedFinalStateUnknown); f.transformer != nil && !isTombstone && actionType != Sync {
		if obj, err = f.transformer(obj); err != nil {
			return err
		}
	}
	oldDeltas := f.items[id]
	newDeltas := dedupDeltas(append(oldDeltas, Delta{Type: actionType, Object: obj}))
	if oldDeltas == nil {
		f.queue = append(f.queue, id)
	}
	f.items[id] = newDeltas
	f.cond.Broadcast()
	if f.tracer.Enabled() {
		f.emit("add", id, resourceVersionOf(obj), string(actionType), "k8s.io/client-go/tools/cache.(*DeltaFIFO).queueActionLocked")
	}
	return nil
}

// emit records one event of the FIFO. Call it only when
// f.tracer.Enabled(), so that the event is not built for nothing.
func (f *DeltaFIFO) emit(step, key, rv, msg, upstream string) {
	f.tracer.Emit(trace.Event{
		Component: trace.DeltaFIFO, Step: step, Actor: f.name,
		Key: key, ResourceVersion: rv, Message: msg, Upstream: upstream,
	})
}

// resourceVersionOf returns the resourceVersion of obj, or of the last
// known state a tombstone carries; "" if it has none.
func resourceVersionOf(obj any) string {
	if d, ok := obj.(DeletedFinalStateUnknown); ok {
		obj = d.Obj
	}
	if m, ok := metav1.Accessor(obj); ok {
		return m.GetResourceVersion()
	}
	return ""
}

// dedupDeltas collapses the last two deltas if both are Deleted. It never
// returns an empty list for a non-empty one.
//
// Mirrors dedupDeltas and isDeletionDup in delta_fifo.go.
func dedupDeltas(deltas Deltas) Deltas {
	n := len(deltas)
	if n < 2 {
		return deltas
	}
	a, b := deltas[n-1], deltas[n-2]
	if a.Type != Deleted || b.Type != Deleted {
		return deltas
	}
	// Keep the one with the most information: the older one, unless it is
	// a tombstone and so knows less than the newer.
	if _, bIsTombstone := b.Object.(DeletedFinalStateUnknown); bIsTombstone {
		deltas[n-2] = a
	}
	return deltas[:n-1]
}

// List returns the newest object of every queued key.
func (f *DeltaFIFO) List() []any {
	f.mu.Lock()
	defer f.mu.Unlock()
	out := make([]any, 0, len(f.items))
	for _, d := range f.items {
		out = append(out, d.Newest().Object)
	}
	return out
}

// ListKeys returns the queued keys, in queue order.
func (f *DeltaFIFO) ListKeys() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return slices.Clone(f.queue)
}

// Get returns a copy of the Deltas queued for obj's key.
func (f *DeltaFIFO) Get(obj any) (item any, exists bool, err error) {
	key, err := f.KeyOf(obj)
	if err != nil {
		return nil, false, err
	}
	return f.GetByKey(key)
}

// GetByKey returns a copy of the Deltas queued for key.
func (f *DeltaFIFO) GetByKey(key string) (item any, exists bool, err error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	d, exists := f.items[key]
	if !exists {
		return nil, false, nil
	}
	// Copy so that a later dedupDeltas cannot change what the caller holds.
	return slices.Clone(d), true, nil
}

// Close makes Pop return ErrFIFOClosed once the queue is empty, and wakes
// a Pop that waits.
func (f *DeltaFIFO) Close() {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.closed = true
	f.cond.Broadcast()
}

// IsClosed reports whether Close was called.
func (f *DeltaFIFO) IsClosed() bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.closed
}

// Pop waits until a key is queued, takes it and its Deltas out of the
// FIFO, and calls process with them. It returns the Deltas and process's
// error, or ErrFIFOClosed once the FIFO is closed and empty.
//
// The processing contract: process runs with the FIFO's lock held. While
// it runs, no Add, Replace or Resync can happen, so whatever process
// applies the deltas to (the informer's Indexer, which is KnownObjects) is
// never seen half-updated by Replace's deletion detection, and HasSynced
// cannot turn true before the last initial item is processed. Hence process
// must be quick (the informer only writes the Indexer and appends to its
// listeners' buffers) and must not call back into the FIFO. The Deltas are
// gone from the FIFO when process is called; if process fails they are not
// put back.
//
// Mirrors (*DeltaFIFO).Pop.
func (f *DeltaFIFO) Pop(process PopProcessFunc) (any, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for len(f.queue) == 0 {
		if f.closed {
			return nil, ErrFIFOClosed
		}
		f.cond.Wait()
	}
	isInInitialList := !f.hasSyncedLocked()
	id := f.queue[0]
	f.queue[0] = "" // drop the reference for the GC
	f.queue = f.queue[1:]
	if f.initialPopulationCount > 0 {
		f.initialPopulationCount--
	}
	item := f.items[id]
	delete(f.items, id)
	if f.tracer.Enabled() {
		f.emit("pop", id, resourceVersionOf(item.Newest().Object), describeDeltas(item, isInInitialList), "k8s.io/client-go/tools/cache.(*DeltaFIFO).Pop")
	}
	return item, process(item, isInInitialList)
}

// describeDeltas says, for a trace, which deltas Pop hands out:
// "Added, Updated (initial list)".
func describeDeltas(d Deltas, isInInitialList bool) string {
	types := make([]string, len(d))
	for i, delta := range d {
		types[i] = string(delta.Type)
	}
	msg := strings.Join(types, ", ")
	if isInInitialList {
		msg += " (initial list)"
	}
	return msg
}

// Replace queues a Replaced delta for every object in list, then a Deleted
// tombstone (DeletedFinalStateUnknown) for every key that is queued, or
// known to KnownObjects, but not in list: objects whose deletion the
// watch missed. resourceVersion is the version of list; the FIFO does not
// use it.
//
// Mirrors (*DeltaFIFO).Replace.
func (f *DeltaFIFO) Replace(list []any, resourceVersion string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	keys := make(map[string]struct{}, len(list))
	for _, item := range list {
		key, err := f.KeyOf(item)
		if err != nil {
			return err
		}
		keys[key] = struct{}{}
		if err := f.queueActionLocked(Replaced, item); err != nil {
			return fmt.Errorf("couldn't enqueue object: %w", err)
		}
	}

	// Deletions among the queued keys: the tombstone carries the newest
	// state queued for the key.
	queuedDeletions := 0
	for k, oldItem := range f.items {
		if _, ok := keys[k]; ok {
			continue
		}
		deletedObj := oldItem.Newest().Object
		if d, ok := deletedObj.(DeletedFinalStateUnknown); ok {
			deletedObj = d.Obj
		}
		queuedDeletions++
		if err := f.queueActionLocked(Deleted, DeletedFinalStateUnknown{Key: k, Obj: deletedObj}); err != nil {
			return err
		}
	}

	// Deletions among the known (already processed) keys that are not
	// queued: the tombstone carries the cached state.
	if f.knownObjects != nil {
		for _, k := range f.knownObjects.ListKeys() {
			if _, ok := keys[k]; ok {
				continue
			}
			if len(f.items[k]) > 0 {
				continue
			}
			deletedObj, exists, err := f.knownObjects.GetByKey(k)
			if err != nil || !exists {
				deletedObj = nil
			}
			queuedDeletions++
			if err := f.queueActionLocked(Deleted, DeletedFinalStateUnknown{Key: k, Obj: deletedObj}); err != nil {
				return err
			}
		}
	}

	if !f.populated {
		f.populated = true
		f.initialPopulationCount = len(keys) + queuedDeletions
	}
	return nil
}

// Resync queues a Sync delta for every object KnownObjects holds, except
// keys that already have deltas queued: those will be delivered anyway, and
// a Sync carrying the cached (older) state after them would go back in
// time.
//
// Mirrors (*DeltaFIFO).Resync and syncKeyLocked.
func (f *DeltaFIFO) Resync() error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.knownObjects == nil {
		return nil
	}
	for _, k := range f.knownObjects.ListKeys() {
		obj, exists, err := f.knownObjects.GetByKey(k)
		if err != nil || !exists {
			continue
		}
		id, err := f.KeyOf(obj)
		if err != nil {
			return err
		}
		if len(f.items[id]) > 0 {
			continue
		}
		if err := f.queueActionLocked(Sync, obj); err != nil {
			return err
		}
	}
	return nil
}

// checkInvariants returns an error if the FIFO's invariants do not hold:
// queue and items hold the same keys, queue has no duplicates, no Deltas is
// empty, and no Deltas ends in two Deleted. Tests call it.
func (f *DeltaFIFO) checkInvariants() error {
	f.mu.Lock()
	defer f.mu.Unlock()
	seen := make(map[string]bool, len(f.queue))
	for _, k := range f.queue {
		if seen[k] {
			return fmt.Errorf("key %q is in queue twice", k)
		}
		seen[k] = true
		if _, ok := f.items[k]; !ok {
			return fmt.Errorf("key %q is in queue but not in items", k)
		}
	}
	for k, d := range f.items {
		if !seen[k] {
			return fmt.Errorf("key %q is in items but not in queue", k)
		}
		if len(d) == 0 {
			return fmt.Errorf("key %q has no deltas", k)
		}
		for i := 1; i < len(d); i++ {
			if d[i].Type == Deleted && d[i-1].Type == Deleted {
				return fmt.Errorf("key %q has two Deleted in a row", k)
			}
		}
	}
	return nil
}
