package bolt

import (
	"strconv"
	"strings"
	"time"

	"github.com/crdlab/crdlab/machinery/watch"
	"github.com/crdlab/crdlab/storage"
	"github.com/crdlab/crdlab/trace"
)

// This file is what storage tells a tracer (Options.Tracer): each write
// committed at its revision ("commit", emitted by the committer before
// the write is handed to the fan-out, so it always comes first), and each
// committed event handed to watchers ("fanout"). With no tracer, each
// costs one nil check.

// traceObject splits a key, /registry/<group>/<resource>/[<ns>/]<name>,
// into the group resource and the namespace/name a trace event names:
// "crontabs.stable.example.com" and "default/my-cron".
func traceObject(key string) (resource, object string) {
	parts := strings.SplitN(strings.TrimPrefix(key, storage.KeyRoot+"/"), "/", 3)
	if len(parts) < 3 {
		return "", key
	}
	return parts[1] + "." + parts[0], parts[2]
}

// traceCommit records that op was committed as r, in a batch of batch
// writes that shared one fsync. Its duration runs from the write's
// request to the end of the commit: the wait for the batch, and the fsync.
func (db *DB) traceCommit(op *writeOp, r *record, batch int) {
	verb, upstream := "update", "k8s.io/apiserver/pkg/storage/etcd3.(*store).GuaranteedUpdate"
	switch {
	case op.expired:
		verb, upstream = "expiry delete", "go.etcd.io/etcd/server/v3/lease.(*lessor).revokeExpiredLeases"
	case op.deleted:
		verb, upstream = "delete", "k8s.io/apiserver/pkg/storage/etcd3.(*store).Delete"
	case op.expect == 0:
		verb, upstream = "create", "k8s.io/apiserver/pkg/storage/etcd3.(*store).Create"
	}
	rev := strconv.FormatInt(r.rev, 10)
	msg := verb + " committed at revision " + rev
	if batch > 1 {
		msg += " in a batch of " + strconv.Itoa(batch) + " writes"
	}
	if !db.opts.NoSync {
		msg += ", fsynced"
	}
	resource, object := traceObject(r.key)
	db.opts.Tracer.Emit(trace.Event{
		Component:       trace.Storage,
		Step:            "commit",
		Resource:        resource,
		Key:             object,
		ResourceVersion: rev,
		Duration:        time.Since(op.start),
		Message:         msg,
		Upstream:        upstream,
	})
}

// traceFanout records that the event of e goes to n watchers. It is
// called before the sends (see dispatch).
func (f *fanout) traceFanout(e event, n int) {
	typ := "MODIFIED"
	switch {
	case e.rec.deleted:
		typ = "DELETED"
	case e.prev == nil || e.prev.deleted:
		typ = "ADDED"
	}
	resource, object := traceObject(e.rec.key)
	f.db.opts.Tracer.Emit(trace.Event{
		Component:       trace.Watch,
		Step:            "fanout",
		Resource:        resource,
		Key:             object,
		ResourceVersion: strconv.FormatInt(e.rec.rev, 10),
		Message:         typ + " sent to " + strconv.Itoa(n) + " watcher(s)",
		Upstream:        "k8s.io/apiserver/pkg/storage/cacher.(*Cacher).dispatchEvent",
	})
}

// traceCatchUp records that a watcher catching up from history (after
// revision from) is sent the event of c: the fan-out's row for the
// watchers that started before the write. Called before the send.
func (db *DB) traceCatchUp(c *change, ev watch.Event, from int64) {
	resource, object := traceObject(c.rec.key)
	db.opts.Tracer.Emit(trace.Event{
		Component:       trace.Watch,
		Step:            "history",
		Resource:        resource,
		Key:             object,
		ResourceVersion: strconv.FormatInt(c.rec.rev, 10),
		Message:         string(ev.Type) + " sent from history to a watcher catching up from revision " + strconv.FormatInt(from, 10),
		Upstream:        "k8s.io/apiserver/pkg/storage/cacher.(*cacheWatcher).processInterval",
	})
}
