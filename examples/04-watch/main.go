// Command 04-watch walks through crdlab's watches in numbered steps: the
// initial state then live changes, a watch-list with its closing bookmark,
// replay from history, predicate transitions, fan-out of one decoded
// object to many watchers, a stalled watcher closed while the others keep
// going, bookmarks for idle watchers, and 410 Expired after compaction.
//
//	go run ./examples/04-watch
//
// Mirrors what kube-apiserver's cacher does for every informer
// (k8s.io/apiserver/pkg/storage/cacher), on top of etcd's watch from a
// revision (server/storage/mvcc/watchable_store.go).
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	metav1 "github.com/crdlab/crdlab/apis/meta/v1"
	"github.com/crdlab/crdlab/apis/meta/v1/unstructured"
	"github.com/crdlab/crdlab/machinery/watch"
	"github.com/crdlab/crdlab/storage"
	"github.com/crdlab/crdlab/storage/bolt"
)

func main() {
	dir, err := os.MkdirTemp("", "crdlab-04-watch")
	if err != nil {
		fmt.Fprintln(os.Stderr, "error:", err)
		os.Exit(1)
	}
	defer os.RemoveAll(dir)
	if err := run(os.Stdout, dir); err != nil {
		fmt.Fprintln(os.Stderr, "error:", err)
		os.Exit(1)
	}
}

// appSelector selects objects whose label app has one value (package
// labels parses real selectors; this is enough here).
type appSelector string

func (s appSelector) Matches(l map[string]string) bool { return l["app"] == string(s) }
func (s appSelector) Empty() bool                      { return false }
func (s appSelector) String() string                   { return "app=" + string(s) }

func crontab(name, app string) *unstructured.Unstructured {
	return &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "stable.example.com/v1",
		"kind":       "CronTab",
		"metadata": map[string]any{"name": name, "namespace": "default",
			"labels": map[string]any{"app": app}},
		"spec": map[string]any{"cronSpec": "* * * * */5"},
	}}
}

// show prints an event as TYPE name@resourceVersion.
func show(ev watch.Event) string {
	if st, ok := ev.Object.(*metav1.Status); ok {
		return fmt.Sprintf("%s %d %s", ev.Type, st.Code, st.Reason)
	}
	obj := ev.Object.(storage.Object)
	s := fmt.Sprintf("%s %s@%s", ev.Type, obj.GetName(), obj.GetResourceVersion())
	if ev.Type == watch.Bookmark {
		s = fmt.Sprintf("%s @%s", ev.Type, obj.GetResourceVersion())
		if obj.GetAnnotations()[metav1.InitialEventsAnnotationKey] == "true" {
			s += " (initial events end)"
		}
	}
	return s
}

// take reads n events from w.
func take(w watch.Interface, n int) ([]string, error) {
	var out []string
	for range n {
		select {
		case ev, ok := <-w.ResultChan():
			if !ok {
				return out, fmt.Errorf("the watch closed after %v", out)
			}
			out = append(out, show(ev))
		case <-time.After(10 * time.Second):
			return out, fmt.Errorf("no event after %v", out)
		}
	}
	return out, nil
}

func run(w io.Writer, dir string) error {
	step := 0
	say := func(format string, args ...any) {
		step++
		fmt.Fprintf(w, "%d. "+format+"\n", append([]any{step}, args...)...)
	}
	ctx := context.Background()

	// A small buffer makes a stalled watcher visible quickly; bookmarks
	// every 50ms make idle watchers move on quickly.
	db, err := bolt.Open(filepath.Join(dir, "crdlab.db"), bolt.Options{
		WatchBufferSize: 16, BookmarkInterval: 50 * time.Millisecond})
	if err != nil {
		return err
	}
	defer db.Close()
	prefix := storage.ResourcePrefix("stable.example.com", "crontabs")
	crontabs := db.ForResource(storage.ResourceConfig{
		Prefix:  prefix,
		NewFunc: func() storage.Object { return &unstructured.Unstructured{} },
		Codec:   storage.JSONCodec{},
	})
	key := func(name string) string { return storage.ObjectKey(prefix, "default", name) }
	all := func(rv string) storage.ListOptions { return storage.ListOptions{Recursive: true, ResourceVersion: rv} }
	out := &unstructured.Unstructured{}
	update := func(name string, change func(u *unstructured.Unstructured)) error {
		return crontabs.GuaranteedUpdate(ctx, key(name), out, false, nil, func(cur storage.Object) (storage.Object, error) {
			u := cur.(*unstructured.Unstructured)
			change(u)
			return u, nil
		})
	}
	setLabel := func(name, app string) error {
		return update(name, func(u *unstructured.Unstructured) { u.SetLabels(map[string]string{"app": app}) })
	}
	touch := func(name string, i int) error {
		return update(name, func(u *unstructured.Unstructured) {
			_ = unstructured.SetNestedField(u.Object, fmt.Sprintf("*/%d * * * *", i+1), "spec", "cronSpec")
		})
	}

	for _, c := range []*unstructured.Unstructured{crontab("a", "web"), crontab("b", "db")} {
		if err := crontabs.Create(ctx, key(c.GetName()), c, out); err != nil {
			return err
		}
	}
	say("created a (app=web) and b (app=db): resourceVersions 1 and 2")

	// From "": the state now as ADDED events, then every change, in order.
	w1, err := crontabs.Watch(ctx, prefix, all(""))
	if err != nil {
		return err
	}
	if err := touch("a", 1); err != nil {
		return err
	}
	if err := crontabs.Delete(ctx, key("b"), out, nil, nil); err != nil {
		return err
	}
	evs, err := take(w1, 4)
	if err != nil {
		return err
	}
	say("watch from \"\", then update a and delete b: %s", strings.Join(evs, ", "))
	w1.Stop() // a watcher left unread would fill its buffer and be closed

	// A watch-list: the same initial state, closed by a bookmark that
	// tells the client it has the whole list (sendInitialEvents=true).
	yes := true
	w2, err := crontabs.Watch(ctx, prefix, storage.ListOptions{Recursive: true, SendInitialEvents: &yes})
	if err != nil {
		return err
	}
	if evs, err = take(w2, 2); err != nil {
		return err
	}
	w2.Stop()
	say("watch-list: %s", strings.Join(evs, ", "))

	// From a revision: every change after it, replayed from history.
	w3, err := crontabs.Watch(ctx, prefix, all("1"))
	if err != nil {
		return err
	}
	if evs, err = take(w3, 3); err != nil {
		return err
	}
	w3.Stop()
	say("watch from resourceVersion 1 replays history: %s", strings.Join(evs, ", "))

	// With a label selector: starting to match is ADDED, stopping is
	// DELETED (with the last state that matched).
	w4, err := crontabs.Watch(ctx, prefix, storage.ListOptions{Recursive: true,
		Predicate: storage.SelectionPredicate{Label: appSelector("web")}})
	if err != nil {
		return err
	}
	if err := crontabs.Create(ctx, key("c"), crontab("c", "db"), out); err != nil {
		return err
	}
	if err := setLabel("c", "web"); err != nil {
		return err
	}
	if err := setLabel("a", "cache"); err != nil {
		return err
	}
	if evs, err = take(w4, 3); err != nil {
		return err
	}
	w4.Stop()
	say("watch app=web; create c (app=db), relabel c web, relabel a cache: %s", strings.Join(evs, ", "))

	// Fan-out: one write, 100 watchers, one decoded object shared by all.
	cur, _ := db.CurrentRevision(ctx)
	var many []watch.Interface
	for range 100 {
		mw, err := crontabs.Watch(ctx, prefix, all(fmt.Sprint(cur)))
		if err != nil {
			return err
		}
		many = append(many, mw)
	}
	if err := touch("c", 2); err != nil {
		return err
	}
	objects := map[storage.Object]bool{}
	kinds := map[string]int{}
	for _, mw := range many {
		select {
		case ev := <-mw.ResultChan():
			objects[ev.Object.(storage.Object)] = true
			kinds[show(ev)]++
		case <-time.After(10 * time.Second):
			return fmt.Errorf("a watcher got nothing")
		}
		mw.Stop()
	}
	var got []string
	for k, n := range kinds {
		got = append(got, fmt.Sprintf("%d × %s", n, k))
	}
	say("100 watchers, one write: %s, %d decoded object shared by all", strings.Join(got, ", "), len(objects))

	// A watcher nobody reads fills its buffer (16 here) and is closed
	// without an error, as upstream's cacher closes one; the writer and the
	// watcher that reads never wait. Its client watches again from the
	// last resourceVersion it got, and history replays the rest.
	cur, _ = db.CurrentRevision(ctx)
	stalled, err := crontabs.Watch(ctx, prefix, all(fmt.Sprint(cur)))
	if err != nil {
		return err
	}
	defer stalled.Stop()
	reader, err := crontabs.Watch(ctx, prefix, all(fmt.Sprint(cur)))
	if err != nil {
		return err
	}
	defer reader.Stop()
	const writes = 40
	for i := range writes {
		if err := touch("c", i+3); err != nil {
			return err
		}
		if _, err := take(reader, 1); err != nil {
			return err
		}
	}
	n, lastRV := 0, ""
	for ev := range stalled.ResultChan() {
		if ev.Type == watch.Error {
			return fmt.Errorf("the stalled watcher ended with an ERROR: %s", ev.Object.(*metav1.Status).Message)
		}
		n++
		lastRV = ev.Object.(storage.Object).GetResourceVersion()
	}
	again, err := crontabs.Watch(ctx, prefix, all(lastRV))
	if err != nil {
		return err
	}
	if evs, err = take(again, writes-n); err != nil {
		return err
	}
	again.Stop()
	say("%d writes: the reading watcher got all %d; the stalled one got %d, then the end of its watch; "+
		"watching again from %s replays %d: %s … %s", writes, writes, n, lastRV, len(evs), evs[0], evs[len(evs)-1])

	// Bookmarks: a watcher of an empty namespace still learns the
	// revision moved on.
	quiet, err := crontabs.Watch(ctx, prefix+"/quiet", storage.ListOptions{Recursive: true,
		Predicate: storage.SelectionPredicate{AllowWatchBookmarks: true}})
	if err != nil {
		return err
	}
	defer quiet.Stop()
	if err := touch("c", 99); err != nil {
		return err
	}
	cur, _ = db.CurrentRevision(ctx)
	for bookmark := ""; bookmark == ""; {
		select {
		case ev := <-quiet.ResultChan():
			if ev.Object.(storage.Object).GetResourceVersion() == fmt.Sprint(cur) {
				bookmark = show(ev)
			}
		case <-time.After(10 * time.Second):
			return fmt.Errorf("no bookmark at %d", cur)
		}
		if bookmark != "" {
			say("an idle watcher of namespace quiet, after a write elsewhere: %s", bookmark)
		}
	}

	// Compaction forgets history: a watch from before it answers 410.
	if err := db.Compact(ctx, cur); err != nil {
		return err
	}
	_, err = crontabs.Watch(ctx, prefix, all("1"))
	say("compacted at %d; a watch from resourceVersion 1: Expired=%v (%v)", cur, errors.Is(err, storage.ErrExpired), err)

	// Stop ends a watch: its channel closes.
	w5, err := crontabs.Watch(ctx, prefix, all(fmt.Sprint(cur)))
	if err != nil {
		return err
	}
	w5.Stop()
	_, open := <-w5.ResultChan()
	say("Stop closes a watch's channel: open=%v", open)
	return nil
}
