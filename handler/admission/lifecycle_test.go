package admission

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/crdlab/crdlab/apis/core"
	apierrors "github.com/crdlab/crdlab/apis/errors"
	metav1 "github.com/crdlab/crdlab/apis/meta/v1"
	"github.com/crdlab/crdlab/scheme"
)

// namespaces is a fake namespace store: phase by name; lookups counted.
type namespaces struct {
	mu    sync.Mutex
	phase map[string]core.NamespacePhase
	reads int
}

func (n *namespaces) get(_ context.Context, name string) (*core.Namespace, error) {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.reads++
	p, ok := n.phase[name]
	if !ok {
		return nil, apierrors.NewNotFound(core.Resource("namespaces"), name)
	}
	return &core.Namespace{ObjectMeta: metav1.ObjectMeta{Name: name}, Status: core.NamespaceStatus{Phase: p}}, nil
}

var (
	configmaps = scheme.GroupVersionResource{Version: "v1", Resource: "configmaps"}
	crontabs   = scheme.GroupVersionResource{Group: "stable.example.com", Version: "v1", Resource: "crontabs"}
	nsResource = scheme.GroupVersionResource{Version: "v1", Resource: "namespaces"}
)

func TestNamespaceLifecycle_Admit(t *testing.T) {
	live := &namespaces{phase: map[string]core.NamespacePhase{"default": core.NamespaceActive, "going": core.NamespaceTerminating}}
	l := &NamespaceLifecycle{Immortal: ImmortalNamespaces(), Live: live.get}
	ctx := context.Background()
	for _, tc := range []struct {
		name  string
		attrs Attributes
		check func(error) bool
	}{
		{"OKCreateInActive", Attributes{Operation: Create, Resource: configmaps, Namespace: "default", Name: "a"}, func(err error) bool { return err == nil }},
		{"ErrCreateInMissing", Attributes{Operation: Create, Resource: crontabs, Namespace: "x", Name: "a"}, func(err error) bool {
			return apierrors.IsNotFound(err) && err.Error() == `namespaces "x" not found`
		}},
		{"ErrCreateInTerminating", Attributes{Operation: Create, Resource: configmaps, Namespace: "going", Name: "a"}, func(err error) bool {
			var se *apierrors.StatusError
			return errors.As(err, &se) && se.ErrStatus.Code == 403 && len(se.ErrStatus.Details.Causes) == 1 &&
				se.ErrStatus.Details.Causes[0].Type == core.NamespaceTerminatingCause &&
				se.ErrStatus.Message == `configmaps "a" is forbidden: unable to create new content in namespace going because it is being terminated`
		}},
		{"OKUpdateInTerminating", Attributes{Operation: Update, Resource: configmaps, Namespace: "going", Name: "a"}, func(err error) bool { return err == nil }},
		{"OKUpdateInMissing", Attributes{Operation: Update, Resource: crontabs, Namespace: "x", Name: "a"}, func(err error) bool { return err == nil }},
		{"OKUpdateDefault", Attributes{Operation: Update, Resource: nsResource, Name: "default"}, func(err error) bool { return err == nil }},
		{"OKDeleteInMissing", Attributes{Operation: Delete, Resource: configmaps, Namespace: "x", Name: "a"}, func(err error) bool { return err == nil }},
		{"ErrDeleteDefault", Attributes{Operation: Delete, Resource: nsResource, Name: "default"}, func(err error) bool {
			return apierrors.IsForbidden(err) && err.Error() == `namespaces "default" is forbidden: this namespace may not be deleted`
		}},
		{"OKFinalizeDefault", Attributes{Operation: Delete, Resource: nsResource, Subresource: "finalize", Name: "default"}, func(err error) bool { return err == nil }},
		{"OKDeleteNodeLease", Attributes{Operation: Delete, Resource: nsResource, Name: "kube-node-lease"}, func(err error) bool { return err == nil }},
		{"OKClusterScoped", Attributes{Operation: Create, Resource: nsResource, Name: "new"}, func(err error) bool { return err == nil }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := l.Admit(ctx, tc.attrs)
			if !tc.check(err) {
				t.Errorf("err = %v", err)
			}
			if err != nil && !l.Handles(tc.attrs.Operation) {
				t.Errorf("refused a %s, which Handles says it does not handle", tc.attrs.Operation)
			}
		})
	}
}

// Updates are never refused, so a server asks the plugin only about
// creates and deletes (Handler).
func TestNamespaceLifecycle_Handles(t *testing.T) {
	l := &NamespaceLifecycle{}
	for op, want := range map[Operation]bool{Create: true, Update: false, Delete: true} {
		if got := l.Handles(op); got != want {
			t.Errorf("Handles(%s) = %v, want %v", op, got, want)
		}
		if got := Handles(l, op); got != want {
			t.Errorf("admission.Handles(l, %s) = %v, want %v", op, got, want)
		}
	}
	if !Handles(plain{}, Update) {
		t.Error("an Interface that is not a Handler must be asked about every operation")
	}
}

// plain is an Interface without Handles.
type plain struct{}

func (plain) Admit(context.Context, Attributes) error { return nil }

// The cache answers Active namespaces without asking storage, except for
// a namespace deleted through this server in the last 30 s.
func TestNamespaceLifecycle_CacheAndRecentDeletes(t *testing.T) {
	cache := &namespaces{phase: map[string]core.NamespacePhase{"team": core.NamespaceActive}}
	live := &namespaces{phase: map[string]core.NamespacePhase{"team": core.NamespaceActive, "new": core.NamespaceActive}}
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	l := &NamespaceLifecycle{Immortal: ImmortalNamespaces(), Cached: cache.get, Live: live.get, Clock: func() time.Time { return now }}
	ctx := context.Background()
	create := func(ns string) error {
		return l.Admit(ctx, Attributes{Operation: Create, Resource: configmaps, Namespace: ns, Name: "a"})
	}
	if err := create("team"); err != nil || live.reads != 0 {
		t.Fatalf("cached Active: err=%v, live reads=%d", err, live.reads)
	}
	if err := create("new"); err != nil || live.reads != 1 {
		t.Fatalf("not in cache yet: err=%v, live reads=%d", err, live.reads)
	}
	// team is deleted; the cache still says Active, storage Terminating.
	if err := l.Admit(ctx, Attributes{Operation: Delete, Resource: nsResource, Name: "team"}); err != nil {
		t.Fatal(err)
	}
	live.phase["team"] = core.NamespaceTerminating
	if err := create("team"); !apierrors.IsForbidden(err) {
		t.Errorf("just deleted: err = %v, want Forbidden from the live lookup", err)
	}
	now = now.Add(31 * time.Second)
	if err := create("team"); err != nil {
		t.Errorf("after 30 s the cache is trusted again: err = %v", err)
	}
}

// A Terminating namespace in the cache is read again from storage: the
// cache may lag behind its deletion and a new namespace of the same name.
func TestNamespaceLifecycle_CachedTerminatingAsksStorage(t *testing.T) {
	cache := &namespaces{phase: map[string]core.NamespacePhase{"team": core.NamespaceTerminating, "going": core.NamespaceTerminating}}
	live := &namespaces{phase: map[string]core.NamespacePhase{"team": core.NamespaceActive, "going": core.NamespaceTerminating}}
	l := &NamespaceLifecycle{Immortal: ImmortalNamespaces(), Cached: cache.get, Live: live.get}
	ctx := context.Background()
	if err := l.Admit(ctx, Attributes{Operation: Create, Resource: configmaps, Namespace: "team", Name: "a"}); err != nil || live.reads != 1 {
		t.Errorf("recreated namespace, cache still Terminating: err=%v, live reads=%d", err, live.reads)
	}
	if err := l.Admit(ctx, Attributes{Operation: Create, Resource: configmaps, Namespace: "going", Name: "a"}); !apierrors.IsForbidden(err) || live.reads != 2 {
		t.Errorf("Terminating in both: err=%v, live reads=%d", err, live.reads)
	}
}
