package etcd3

import (
	"context"
	"errors"
	"fmt"
	"sync"

	clientv3 "go.etcd.io/etcd/client/v3"

	"github.com/crdlab/crdlab/machinery/watch"
	"github.com/crdlab/crdlab/storage"
)

// watcher is one running watch: a goroutine that sends the initial state
// (if asked), then turns etcd watch responses into events.
//
// Mirrors k8s.io/apiserver/pkg/storage/etcd3/watcher.go (watchChan):
// an etcd watch WithRev(rv+1) and WithPrevKV, the previous value telling
// a predicate's transitions; progress notifications become bookmarks.
type watcher struct {
	s         *store
	rng       storage.KeyRange
	pred      storage.SelectionPredicate
	bookmarks bool

	ch       chan watch.Event
	stopCh   chan struct{}
	stopOnce sync.Once
}

var _ watch.Interface = (*watcher)(nil)

// ResultChan returns the events, in revision order.
func (w *watcher) ResultChan() <-chan watch.Event { return w.ch }

// Stop ends the watch; the channel closes soon after. Safe to call more
// than once, from any goroutine.
func (w *watcher) Stop() { w.stopOnce.Do(func() { close(w.stopCh) }) }

// Watch starts a watch on key (or the keys under it, with Recursive).
//
// opts.ResourceVersion "" or "0": the current state as ADDED events (read
// with paginated range requests at one revision S), then the changes
// after S; N: the changes after N, an etcd watch WithRev(N+1).
func (s *store) Watch(ctx context.Context, key string, opts storage.ListOptions) (watch.Interface, error) {
	rng, err := s.KeyRange(key, opts.Recursive)
	if err != nil {
		return nil, err
	}
	if err := s.b.usable(); err != nil {
		return nil, err
	}
	plan, err := storage.PlanWatch(opts)
	if err != nil {
		return nil, err
	}
	if plan.MinRev > 0 {
		cur, err := s.b.CurrentRevision(ctx)
		if err != nil {
			return nil, err
		}
		if plan.MinRev > cur {
			return nil, storage.NewTooLargeResourceVersionError(plan.MinRev, cur)
		}
	}
	if plan.From > 0 {
		// etcd accepts a watch from the compacted revision itself, while
		// the contract says Expired for N older than it: ask etcd for a
		// read at N, which fails exactly when N is compacted.
		start, end := s.etcdRange(rng, rng.Key)
		ops := []clientv3.OpOption{clientv3.WithRev(plan.From), clientv3.WithCountOnly()}
		if end != "" {
			ops = append(ops, clientv3.WithRange(end))
		}
		if _, err := s.b.client.Get(ctx, start, ops...); err != nil {
			err = toErr(ctx, key, err)
			switch {
			case errors.Is(err, storage.ErrTooLargeResourceVersion), errors.Is(err, storage.ErrTimeout):
				// A future revision: the watch waits for it, as etcd's
				// does. A done context: the watch ends at once.
			default:
				return nil, err
			}
		}
	}

	w := &watcher{
		s:         s,
		rng:       rng,
		pred:      opts.Predicate,
		bookmarks: opts.Predicate.AllowWatchBookmarks,
		ch:        make(chan watch.Event, s.b.cfg.WatchBufferSize),
		stopCh:    make(chan struct{}),
	}
	s.b.mu.Lock()
	select {
	case <-s.b.closing:
		s.b.mu.Unlock()
		return nil, &storage.Error{Kind: storage.ErrInternal, Key: key, Err: storage.ErrClosed}
	default:
	}
	s.b.wg.Add(1)
	s.b.mu.Unlock()
	go w.run(ctx, plan.From, plan.Initial, plan.InitialEventsEnd)
	return w, nil
}

// run is the watcher's goroutine; it closes the channel when it ends.
func (w *watcher) run(ctx context.Context, from int64, initial, endBookmark bool) {
	defer w.s.b.wg.Done()
	defer close(w.ch)
	wctx, cancel := context.WithCancel(clientv3.WithRequireLeader(context.Background()))
	defer cancel()
	go func() {
		select {
		case <-ctx.Done():
		case <-w.stopCh:
		case <-w.s.b.closing:
		case <-wctx.Done():
		}
		cancel()
	}()
	fail := func(err error) {
		if wctx.Err() == nil {
			w.send(wctx, storage.ErrorEvent(err))
		}
	}

	if from == 0 {
		var err error
		if initial {
			from, err = w.sendInitial(wctx)
		} else {
			from, err = w.s.b.CurrentRevision(wctx)
		}
		if err != nil {
			fail(err)
			return
		}
		if endBookmark && !w.send(wctx, watch.Event{Type: watch.Bookmark, Object: w.s.Bookmark(from, true)}) {
			return
		}
	}

	start, end := w.s.etcdRange(w.rng, w.rng.Key)
	ops := []clientv3.OpOption{clientv3.WithRev(from + 1), clientv3.WithPrevKV()}
	if end != "" {
		ops = append(ops, clientv3.WithRange(end))
	}
	if w.bookmarks {
		ops = append(ops, clientv3.WithProgressNotify())
	}
	wch := w.s.b.client.Watch(wctx, start, ops...)
	for {
		var resp clientv3.WatchResponse
		var ok bool
		select {
		case resp, ok = <-wch:
		case <-wctx.Done():
			return
		}
		if !ok {
			if wctx.Err() == nil {
				fail(&storage.Error{Kind: storage.ErrInternal, Key: w.rng.Key, Err: fmt.Errorf("the etcd watch ended")})
			}
			return
		}
		if resp.CompactRevision != 0 {
			fail(&storage.Error{Kind: storage.ErrExpired, Key: w.rng.Key, ResourceVersion: from,
				Msg: fmt.Sprintf("too old resource version: %d (%d)", from, resp.CompactRevision)})
			return
		}
		if err := resp.Err(); err != nil {
			fail(toErr(wctx, w.rng.Key, err))
			return
		}
		if resp.IsProgressNotify() {
			if w.bookmarks && !w.send(wctx, watch.Event{Type: watch.Bookmark, Object: w.s.Bookmark(resp.Header.Revision, false)}) {
				return
			}
			continue
		}
		for _, e := range resp.Events {
			ev, ok, err := w.convert(e)
			if err != nil {
				fail(err)
				return
			}
			if ok && !w.send(wctx, ev) {
				return
			}
			from = e.Kv.ModRevision
		}
	}
}

// sendInitial sends the state of the range at the latest revision as
// ADDED events, and returns that revision.
func (w *watcher) sendInitial(ctx context.Context) (int64, error) {
	s := w.s
	start, end := s.etcdRange(w.rng, w.rng.Key)
	var rev int64
	for {
		ops := []clientv3.OpOption{clientv3.WithRev(rev)}
		if end != "" {
			ops = append(ops, clientv3.WithRange(end), clientv3.WithLimit(s.b.cfg.PagingChunk))
		}
		resp, err := s.b.client.Get(ctx, start, ops...)
		if err != nil {
			return 0, toErr(ctx, w.rng.Key, err)
		}
		if rev == 0 {
			rev = resp.Header.Revision
		}
		for _, kv := range resp.Kvs {
			k := s.fromEtcd(kv.Key)
			obj, err := s.DecodeNew(k, kv.Value, kv.ModRevision)
			if err != nil {
				return 0, err
			}
			ok, err := s.Matches(w.pred, k, obj)
			if err != nil {
				return 0, err
			}
			if ok && !w.send(ctx, watch.Event{Type: watch.Added, Object: obj}) {
				return 0, &storage.Error{Kind: storage.ErrTimeout, Key: w.rng.Key, Msg: "the watch was stopped"}
			}
		}
		if !resp.More || len(resp.Kvs) == 0 {
			return rev, nil
		}
		start = string(resp.Kvs[len(resp.Kvs)-1].Key) + "\x00"
	}
}

// convert returns the event the watcher's predicate makes of an etcd
// event, if any (storage.Transition): an object that stops matching is
// DELETED, with its previous state at the new revision.
//
// Mirrors watchChan.transform in etcd3/watcher.go.
func (w *watcher) convert(e *clientv3.Event) (watch.Event, bool, error) {
	s := w.s
	key := s.fromEtcd(e.Kv.Key)
	rev := e.Kv.ModRevision
	typ, data := watch.Modified, e.Kv.Value
	switch {
	case e.Type == clientv3.EventTypeDelete:
		if e.PrevKv == nil {
			return watch.Event{}, false, &storage.Error{Kind: storage.ErrInternal, Key: key, Err: fmt.Errorf("etcd event for delete at revision %d has no previous value", rev)}
		}
		typ, data = watch.Deleted, e.PrevKv.Value // the deleted state
	case e.IsCreate():
		typ = watch.Added
	}
	obj, err := s.DecodeNew(key, data, rev)
	if err != nil {
		return watch.Event{}, false, err
	}
	matches, err := s.Matches(w.pred, key, obj)
	if err != nil {
		return watch.Event{}, false, err
	}
	var prev storage.Object
	typ, ok, err := storage.Transition(w.pred, typ, matches, func() (bool, error) {
		if e.PrevKv == nil { // no previous value (compacted): judge by the new one
			return matches, nil
		}
		if prev, err = s.DecodeNew(key, e.PrevKv.Value, rev); err != nil {
			return false, err
		}
		return s.Matches(w.pred, key, prev)
	})
	if err != nil || !ok {
		return watch.Event{}, false, err
	}
	if typ == watch.Deleted && prev != nil {
		return watch.Event{Type: typ, Object: prev}, true, nil
	}
	return watch.Event{Type: typ, Object: obj}, true, nil
}

// send delivers ev, waiting for the reader; false if the watch ended
// first.
func (w *watcher) send(ctx context.Context, ev watch.Event) bool {
	select {
	case w.ch <- ev:
		return true
	case <-ctx.Done():
		return false
	}
}
