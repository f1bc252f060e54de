package admission

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/crdlab/crdlab/apis/core"
	apierrors "github.com/crdlab/crdlab/apis/errors"
	metav1 "github.com/crdlab/crdlab/apis/meta/v1"
)

// PluginNamespaceLifecycle is the name of the plugin in logs and docs.
const PluginNamespaceLifecycle = "NamespaceLifecycle"

// NamespaceGetter reads one namespace. The cache is an informer's store
// (fast, may lag); Live reads the storage (consistent). Either returns a
// NotFound API error for a missing namespace.
type NamespaceGetter func(ctx context.Context, name string) (*core.Namespace, error)

// NamespaceLifecycle refuses writes that the namespaces' lifecycle
// forbids:
//   - deleting an immortal namespace (default, kube-system, kube-public):
//     403 "this namespace may not be deleted";
//   - creating an object in a namespace that does not exist: 404
//     `namespaces "x" not found`;
//   - creating an object in a Terminating namespace: 403 with a
//     NamespaceTerminating cause.
//
// Updates and deletes of objects in missing or Terminating namespaces go
// through (the namespace controller must be able to delete them).
//
// Mirrors Lifecycle in
// k8s.io/apiserver/pkg/admission/plugin/namespace/lifecycle/admission.go.
type NamespaceLifecycle struct {
	// Immortal namespaces may never be deleted.
	Immortal map[string]bool
	// Cached looks in a cache first; nil skips it. Live is asked when
	// the cache does not have the namespace Active (it may not have seen
	// it yet, or not seen it change; see lookup). Live is required.
	Cached, Live NamespaceGetter
	// Clock is the clock of the recent-deletes memory; nil: time.Now.
	Clock func() time.Time

	mu sync.Mutex // guards deleted
	// deleted holds the namespaces deleted through this server in the
	// last forceLiveLookupTTL, and when.
	deleted map[string]time.Time
}

// ImmortalNamespaces are upstream's: default, kube-system, kube-public.
// (kube-node-lease may be deleted; the server recreates it.)
func ImmortalNamespaces() map[string]bool {
	return map[string]bool{metav1.NamespaceDefault: true, metav1.NamespaceSystem: true, metav1.NamespacePublic: true}
}

var _ Handler = (*NamespaceLifecycle)(nil)

// Handles is true for creates and deletes: updates always go through.
// (Upstream's registers for updates too, NewHandler(Create, Update,
// Delete), but its Validate lets every update through: "always allow
// updates to other resources", and a Namespace's own writes are all
// allowed. Saying so here spares each update the plugin's copies.)
func (l *NamespaceLifecycle) Handles(op Operation) bool { return op == Create || op == Delete }

// Admit applies the rules above.
func (l *NamespaceLifecycle) Admit(ctx context.Context, a Attributes) error {
	isNamespace := a.Resource.Group == core.GroupName && a.Resource.Resource == "namespaces"
	if isNamespace {
		if a.Operation == Delete && a.Subresource == "" {
			if l.Immortal[a.Name] {
				return NewForbidden(a, fmt.Errorf("this namespace may not be deleted"))
			}
			l.rememberDelete(a.Name)
		}
		return nil
	}
	// Cluster-scoped objects, and anything but creates, are not its
	// business.
	if a.Namespace == "" || a.Operation != Create {
		return nil
	}
	ns, err := l.lookup(ctx, a.Namespace)
	if err != nil {
		return err
	}
	if ns.Status.Phase != core.NamespaceTerminating {
		return nil
	}
	e := NewForbidden(a, fmt.Errorf("unable to create new content in namespace %s because it is being terminated", a.Namespace))
	if e.ErrStatus.Details == nil {
		e.ErrStatus.Details = &metav1.StatusDetails{}
	}
	e.ErrStatus.Details.Causes = append(e.ErrStatus.Details.Causes, metav1.StatusCause{
		Type:    core.NamespaceTerminatingCause,
		Message: fmt.Sprintf("namespace %s is being terminated", a.Namespace),
		Field:   "metadata.namespace",
	})
	return e
}

// lookup finds the namespace in the cache, else in storage. The cache is
// trusted for an Active namespace, except one deleted in the last 30 s
// through this server (the cache may not have seen its Terminating phase
// yet): then, when the cache lacks the namespace, and when the cache has
// it Terminating, storage decides. (Upstream trusts a Terminating
// namespace in its cache; but the cache may not have seen the namespace
// go and a new one of the name come, and a create refused by mistake is
// worse than the rare read of a Terminating namespace.)
//
// Mirrors the lister, forceLiveLookupCache and client lookup of
// (*Lifecycle).Admit.
func (l *NamespaceLifecycle) lookup(ctx context.Context, name string) (*core.Namespace, error) {
	if l.Cached != nil {
		ns, err := l.Cached(ctx, name)
		switch {
		case err == nil && ns.Status.Phase == core.NamespaceActive && !l.recentlyDeleted(name):
			return ns, nil
		case err != nil && !apierrors.IsNotFound(err):
			return nil, apierrors.NewInternalError(err)
		}
	}
	ns, err := l.Live(ctx, name)
	switch {
	case err == nil:
		return ns, nil
	case apierrors.IsNotFound(err):
		return nil, err
	default:
		return nil, apierrors.NewInternalError(err)
	}
}

// forceLiveLookupTTL is how long after a namespace delete its lookups go
// to storage; maxForceLiveLookup bounds how many are remembered.
const (
	forceLiveLookupTTL = 30 * time.Second
	maxForceLiveLookup = 100
)

// rememberDelete notes that name was deleted now.
func (l *NamespaceLifecycle) rememberDelete(name string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	now := l.now()
	if l.deleted == nil {
		l.deleted = map[string]time.Time{}
	}
	for n, t := range l.deleted {
		if now.Sub(t) > forceLiveLookupTTL {
			delete(l.deleted, n)
		}
	}
	if len(l.deleted) >= maxForceLiveLookup {
		var oldest string
		for n, t := range l.deleted {
			if oldest == "" || t.Before(l.deleted[oldest]) {
				oldest = n
			}
		}
		delete(l.deleted, oldest)
	}
	l.deleted[name] = now
}

// recentlyDeleted reports whether name was deleted in the last 30 s.
func (l *NamespaceLifecycle) recentlyDeleted(name string) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	t, ok := l.deleted[name]
	return ok && l.now().Sub(t) <= forceLiveLookupTTL
}

func (l *NamespaceLifecycle) now() time.Time {
	if l.Clock != nil {
		return l.Clock()
	}
	return time.Now()
}
