package bolt

import (
	"fmt"
	"strconv"

	"github.com/crdlab/crdlab/machinery/watch"
	"github.com/crdlab/crdlab/storage"
)

// change is one write as one store's watchers see it, with the objects
// decoded from it at most once.
type change struct {
	st   *store
	rec  *record
	prev *record // the state before an update; may be nil if not needed

	obj, prevObj storage.Object
	deletedPrev  storage.Object // prevObj at rec's revision, for watchers it stops matching
	attrs        [2]attrsMemo
	// meta is rec's metadata for metadata-only watchers, cut from the
	// stored bytes once metaDone; nil if the codec cannot cut it.
	meta     *storage.MetadataJSON
	metaDone bool
}

type attrsMemo struct {
	done          bool
	labels, field map[string]string
	err           error
}

func newChange(st *store, rec, prev *record) *change {
	return &change{st: st, rec: rec, prev: prev}
}

func (c *change) object() (storage.Object, error) {
	if c.obj == nil {
		obj, err := c.decode(c.rec)
		if err != nil {
			return nil, err
		}
		c.obj = obj
	}
	return c.obj, nil
}

func (c *change) previous() (storage.Object, error) {
	if c.prevObj == nil {
		if c.prev == nil {
			return nil, &storage.Error{Kind: storage.ErrInternal, Key: c.rec.key, Err: fmt.Errorf("no previous state for revision %d", c.rec.rev)}
		}
		obj, err := c.decode(c.prev)
		if err != nil {
			return nil, err
		}
		c.prevObj = obj
	}
	return c.prevObj, nil
}

// decode returns the object of r for the change's watchers: the one a
// read already remembered on r (decodeMemo), or a new one that is not
// remembered. Only gets and lists fill the memo: a watch event is gone
// once its watchers have written it, and remembering its object would
// keep a decoded copy of every written object for good whenever anything
// watches — the garbage collector's metadata-only watch of every
// resource, which needs only the metadata line, made it 26 MB after
// 5,000 creates (docs/perf.md, "The kube controllers in the server").
// Upstream's watch cache keeps every object decoded; crdlab's index keeps
// the bytes and decodes on demand.
// The value of a record whose value stays on disk is read from the file
// (DB.value).
func (c *change) decode(r *record) (storage.Object, error) {
	if obj := r.memo.get(c.st); obj != nil {
		return obj, nil
	}
	value, err := c.st.db.value(r)
	if err != nil {
		return nil, err
	}
	return c.st.DecodeNew(r.key, value, r.rev)
}

// matches evaluates p on the object (which=0) or the previous one
// (which=1), computing their labels and fields once for all watchers.
func (c *change) matches(p storage.SelectionPredicate, obj storage.Object, which int) (bool, error) {
	if p.Empty() {
		return true, nil
	}
	ok, err := p.Matches(obj, func(o storage.Object) (map[string]string, map[string]string, error) {
		a := &c.attrs[which]
		if !a.done {
			a.labels, a.field, a.err = c.st.Attrs(o)
			a.done = true
		}
		return a.labels, a.field, a.err
	})
	if err != nil {
		return false, &storage.Error{Kind: storage.ErrInternal, Key: c.rec.key, Err: err}
	}
	return ok, nil
}

// metadata returns rec's metadata for the metadata-only watchers, cut
// from its stored bytes once for all of them (storage.MetadataJSON); nil
// if the store's codec cannot cut it. The value of a record whose value
// stays on disk is read from the file (DB.value).
func (c *change) metadata() (*storage.MetadataJSON, error) {
	if !c.metaDone {
		value, err := c.st.db.value(c.rec)
		if err != nil {
			return nil, err
		}
		c.meta, c.metaDone = storage.NewMetadataJSON(c.st.Codec, value, c.rec.rev), true
	}
	return c.meta, nil
}

// eventFor returns the event watcher w sees of c, if any
// (storage.Transition on w's predicate): an object that stops matching is
// DELETED, with its previous content at the new revision. A
// metadata-only watcher, whose predicate selects everything, gets every
// change with its metadata alone, and the object is not decoded for it.
func (c *change) eventFor(w *watcher) (watch.Event, bool, error) {
	typ := watch.Modified
	switch {
	case c.rec.deleted: // the record holds the deleted state, at the delete's revision
		typ = watch.Deleted
	case c.rec.prevRev == 0:
		typ = watch.Added
	}
	if w.metadata {
		m, err := c.metadata()
		if err != nil {
			return watch.Event{}, false, err
		}
		if m != nil {
			return watch.Event{Type: typ, Object: m}, true, nil
		}
	}
	p := w.pred
	obj, err := c.object()
	if err != nil {
		return watch.Event{}, false, err
	}
	matches, err := c.matches(p, obj, 0)
	if err != nil {
		return watch.Event{}, false, err
	}
	typ, ok, err := storage.Transition(p, typ, matches, func() (bool, error) {
		prev, err := c.previous()
		if err != nil {
			return false, err
		}
		return c.matches(p, prev, 1)
	})
	if err != nil || !ok {
		return watch.Event{}, false, err
	}
	if typ == watch.Deleted && !c.rec.deleted {
		if c.deletedPrev == nil {
			d := c.prevObj.DeepCopyObject().(storage.Object)
			d.SetResourceVersion(strconv.FormatInt(c.rec.rev, 10))
			c.deletedPrev = d
		}
		return watch.Event{Type: typ, Object: c.deletedPrev}, true, nil
	}
	return watch.Event{Type: typ, Object: obj}, true, nil
}
