package storage

import (
	"errors"

	metav1 "github.com/crdlab/crdlab/apis/meta/v1"
	"github.com/crdlab/crdlab/machinery/watch"
)

// WatchPlan is where a watch starts, as the contract's resourceVersion
// rules fix it.
type WatchPlan struct {
	// From: send every change after this revision; 0 means after the
	// latest revision S when the watch starts.
	From int64
	// Initial: first send the state at S as ADDED events.
	Initial bool
	// InitialEventsEnd: after the initial events, send a BOOKMARK
	// annotated metav1.InitialEventsAnnotationKey (a watch-list).
	InitialEventsEnd bool
	// MinRev: S must be at least this (a watch-list from N), else
	// TooLargeResourceVersion.
	MinRev int64
}

// PlanWatch applies upstream's resourceVersion semantics to a watch:
//
//   - "" or "0": the state at the latest revision S as ADDED events, then
//     every change after S (unless SendInitialEvents is false: only the
//     changes);
//   - N: every change after N (the engine answers Expired if N is
//     compacted, and waits for N if it is not reached yet, as etcd does);
//   - SendInitialEvents true (a watch-list): the state at S, at least N,
//     then the initial-events-end bookmark, then the changes after S.
//
// Mirrors the resourceVersion handling of (*store).Watch in etcd3/store.go
// and (*Cacher).Watch.
func PlanWatch(opts ListOptions) (WatchPlan, error) {
	watchList := opts.SendInitialEvents != nil && *opts.SendInitialEvents
	p := WatchPlan{InitialEventsEnd: watchList}
	switch rv := opts.ResourceVersion; rv {
	case "", "0":
		p.Initial = opts.SendInitialEvents == nil || watchList
	default:
		n, err := ParseResourceVersion(rv)
		if err != nil {
			return p, err
		}
		if watchList {
			p.Initial, p.MinRev = true, n
		} else {
			p.From = n
		}
	}
	return p, nil
}

// ErrorEvent is the ERROR event that ends a watch because of err: a 410
// Expired Status for ErrExpired (the client lists again), 500 otherwise.
//
// Mirrors transformErrorToEvent in k8s.io/apiserver/pkg/storage/etcd3/watcher.go.
func ErrorEvent(err error) watch.Event {
	st := &metav1.Status{
		TypeMeta: metav1.TypeMeta{Kind: "Status", APIVersion: "v1"},
		Status:   metav1.StatusFailure,
		Message:  err.Error(),
		Code:     500,
		Reason:   metav1.StatusReasonInternalError,
	}
	if errors.Is(err, ErrExpired) {
		st.Code, st.Reason = 410, metav1.StatusReasonExpired
	}
	return watch.Event{Type: watch.Error, Object: st}
}

// Transition is the rule that turns one write into the event a watcher
// with predicate p sees, if any. typ is the write's own type: Added (a
// create), Modified (an update) or Deleted (a delete, whose object is the
// deleted state); matches says whether p selects the written object.
// Creates and deletes are seen as they are, when they match. An update is
// seen as MODIFIED if the object matches before and after, as ADDED if it
// starts matching and as DELETED if it stops (the engine then sends the
// previous state, at the write's revision); matchedBefore is called only
// for an update under a non-empty predicate.
//
// Mirrors cacheWatcher.convertToWatchEvent in
// k8s.io/apiserver/pkg/storage/cacher/cache_watcher.go.
func Transition(p SelectionPredicate, typ watch.EventType, matches bool, matchedBefore func() (bool, error)) (watch.EventType, bool, error) {
	if typ != watch.Modified || p.Empty() {
		return typ, matches, nil
	}
	before, err := matchedBefore()
	if err != nil {
		return "", false, err
	}
	switch {
	case matches && before:
		return watch.Modified, true, nil
	case matches:
		return watch.Added, true, nil
	case before:
		return watch.Deleted, true, nil
	}
	return "", false, nil
}
