package storagetest

import (
	"context"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	metav1 "github.com/crdlab/crdlab/apis/meta/v1"
	"github.com/crdlab/crdlab/apis/meta/v1/unstructured"
	"github.com/crdlab/crdlab/machinery/watch"
	"github.com/crdlab/crdlab/storage"
)

// Prefix is the key prefix of the CronTab store the suite uses.
const Prefix = "/registry/stable.example.com/crontabs"

// Key returns the key of a CronTab.
func Key(ns, name string) string { return Prefix + "/" + ns + "/" + name }

// ResourceConfig is the config of the CronTab store.
func ResourceConfig() storage.ResourceConfig {
	return storage.ResourceConfig{
		Prefix:  Prefix,
		NewFunc: func() storage.Object { return &unstructured.Unstructured{} },
		Codec:   storage.JSONCodec{},
	}
}

// wait is how long the suite waits for something that should happen.
const wait = 10 * time.Second

// env is one test's backend and CronTab store.
type env struct {
	backend storage.Backend
	store   storage.Interface
	ctx     context.Context
}

func newEnv(t *testing.T, newBackend func(t *testing.T) storage.Backend) *env {
	t.Helper()
	b := newBackend(t)
	return &env{backend: b, store: b.ForResource(ResourceConfig()), ctx: context.Background()}
}

var uidSeq atomic.Int64

// CronTab returns a new CronTab object with a fresh UID.
func CronTab(ns, name string, labels map[string]string, spec string) *unstructured.Unstructured {
	u := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "stable.example.com/v1",
		"kind":       "CronTab",
		"metadata":   map[string]any{"name": name, "namespace": ns},
		"spec":       map[string]any{"cronSpec": spec},
	}}
	u.SetUID(metav1.UID(fmt.Sprintf("uid-%s-%s-%d", ns, name, uidSeq.Add(1))))
	if labels != nil {
		u.SetLabels(labels)
	}
	return u
}

func (e *env) create(t *testing.T, ns, name string, labels map[string]string, spec string) *unstructured.Unstructured {
	t.Helper()
	out := &unstructured.Unstructured{}
	require.NoError(t, e.store.Create(e.ctx, Key(ns, name), CronTab(ns, name, labels, spec), out))
	return out
}

func (e *env) update(t *testing.T, ns, name string, change func(u *unstructured.Unstructured)) *unstructured.Unstructured {
	t.Helper()
	out := &unstructured.Unstructured{}
	require.NoError(t, e.store.GuaranteedUpdate(e.ctx, Key(ns, name), out, false, nil,
		func(cur storage.Object) (storage.Object, error) {
			u := cur.(*unstructured.Unstructured)
			change(u)
			return u, nil
		}))
	return out
}

func (e *env) setSpec(t *testing.T, ns, name, spec string) *unstructured.Unstructured {
	t.Helper()
	return e.update(t, ns, name, func(u *unstructured.Unstructured) {
		require.NoError(t, unstructured.SetNestedField(u.Object, spec, "spec", "cronSpec"))
	})
}

func (e *env) setLabels(t *testing.T, ns, name string, labels map[string]string) *unstructured.Unstructured {
	t.Helper()
	return e.update(t, ns, name, func(u *unstructured.Unstructured) { u.SetLabels(labels) })
}

func (e *env) delete(t *testing.T, ns, name string) *unstructured.Unstructured {
	t.Helper()
	out := &unstructured.Unstructured{}
	require.NoError(t, e.store.Delete(e.ctx, Key(ns, name), out, nil, nil))
	return out
}

func (e *env) current(t *testing.T) int64 {
	t.Helper()
	rev, err := e.backend.CurrentRevision(e.ctx)
	require.NoError(t, err)
	return rev
}

// RV returns the resourceVersion of obj as a number.
func RV(t testing.TB, obj storage.Object) int64 {
	t.Helper()
	n, err := strconv.ParseInt(obj.GetResourceVersion(), 10, 64)
	require.NoError(t, err, "resourceVersion %q", obj.GetResourceVersion())
	return n
}

func spec(obj storage.Object) string {
	s, _, _ := unstructured.NestedString(obj.(*unstructured.Unstructured).Object, "spec", "cronSpec")
	return s
}

func rvString(n int64) string { return strconv.FormatInt(n, 10) }

// names returns "ns/name" of each object, in order.
func names(objs []storage.Object) []string {
	out := make([]string, len(objs))
	for i, o := range objs {
		out[i] = o.GetNamespace() + "/" + o.GetName()
	}
	return out
}

// versions maps "ns/name" to resourceVersion.
func versions(objs []storage.Object) map[string]string {
	out := map[string]string{}
	for _, o := range objs {
		out[o.GetNamespace()+"/"+o.GetName()] = o.GetResourceVersion()
	}
	return out
}

// LabelSelector is a minimal equality-based label selector ("a=b,c=d").
type LabelSelector map[string]string

func (s LabelSelector) Matches(l map[string]string) bool {
	for k, v := range s {
		if got, ok := l[k]; !ok || got != v {
			return false
		}
	}
	return true
}
func (s LabelSelector) Empty() bool    { return len(s) == 0 }
func (s LabelSelector) String() string { return selectorString(s) }

// FieldSelector is a minimal equality-based field selector.
type FieldSelector map[string]string

func (s FieldSelector) Matches(f map[string]string) bool { return LabelSelector(s).Matches(f) }
func (s FieldSelector) Empty() bool                      { return len(s) == 0 }
func (s FieldSelector) String() string                   { return selectorString(s) }
func (s FieldSelector) RequiresExactMatch(field string) (string, bool) {
	v, ok := s[field]
	return v, ok
}

func selectorString(m map[string]string) string {
	var parts []string
	for k, v := range m {
		parts = append(parts, k+"="+v)
	}
	sort.Strings(parts)
	return strings.Join(parts, ",")
}

// next returns the next event of w, failing if none comes or w closes.
func next(t *testing.T, w watch.Interface) watch.Event {
	t.Helper()
	select {
	case ev, ok := <-w.ResultChan():
		require.True(t, ok, "the watch closed")
		return ev
	case <-time.After(wait):
		require.FailNow(t, "no event within "+wait.String())
		return watch.Event{}
	}
}

// nextEvent returns the next event of w that is not a BOOKMARK.
func nextEvent(t *testing.T, w watch.Interface) watch.Event {
	t.Helper()
	for {
		if ev := next(t, w); ev.Type != watch.Bookmark {
			return ev
		}
	}
}

// expectEvent checks the next non-bookmark event's type, name and spec.
func expectEvent(t *testing.T, w watch.Interface, typ watch.EventType, name, wantSpec string) storage.Object {
	t.Helper()
	ev := nextEvent(t, w)
	require.Equal(t, typ, ev.Type, "event %+v", ev)
	obj := ev.Object.(storage.Object)
	require.Equal(t, name, obj.GetName())
	if wantSpec != "" {
		require.Equal(t, wantSpec, spec(obj))
	}
	return obj
}

// expectQuiet checks that w delivers no event but bookmarks for a short
// while. Only used to check that something does not happen.
func expectQuiet(t *testing.T, w watch.Interface) {
	t.Helper()
	timeout := time.After(200 * time.Millisecond)
	for {
		select {
		case ev, ok := <-w.ResultChan():
			require.True(t, ok, "the watch closed")
			require.Equal(t, watch.Bookmark, ev.Type, "unexpected event %+v", ev)
		case <-timeout:
			return
		}
	}
}

// expectClosed waits for w's channel to close, ignoring bookmarks.
func expectClosed(t *testing.T, w watch.Interface) {
	t.Helper()
	timeout := time.After(wait)
	for {
		select {
		case ev, ok := <-w.ResultChan():
			if !ok {
				return
			}
			require.Equal(t, watch.Bookmark, ev.Type, "unexpected event %+v", ev)
		case <-timeout:
			require.FailNow(t, "the watch did not close")
		}
	}
}

// expectExpired checks that a watch answered 410 Expired: as an error from
// Watch, or as an ERROR event with a 410 Status followed by the end.
func expectExpired(t *testing.T, w watch.Interface, err error) {
	t.Helper()
	if err != nil {
		require.ErrorIs(t, err, storage.ErrExpired)
		return
	}
	defer w.Stop()
	ev := nextEvent(t, w)
	require.Equal(t, watch.Error, ev.Type)
	st, ok := ev.Object.(*metav1.Status)
	require.True(t, ok, "ERROR event object is %T", ev.Object)
	require.EqualValues(t, 410, st.Code)
	require.Equal(t, metav1.StatusReasonExpired, st.Reason)
	expectClosed(t, w)
}

// eventually waits for cond, polling every millisecond.
func eventually(t *testing.T, cond func() bool) {
	t.Helper()
	require.Eventually(t, cond, wait, time.Millisecond)
}
