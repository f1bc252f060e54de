package informer

import (
	"errors"
	"fmt"

	apierrors "github.com/crdlab/crdlab/apis/errors"
	metav1 "github.com/crdlab/crdlab/apis/meta/v1"
	"github.com/crdlab/crdlab/scheme"
)

// Lister reads objects of one resource, typed as T, from an informer's
// Indexer: what controllers read instead of asking the server. What it
// returns is the cache's own objects: treat them as read-only.
//
// A selector is a label matcher: nil matches everything, and a
// labels.Selector's Matches method fits (lister.List(sel.Matches)).
//
// Mirrors k8s.io/client-go/listers.ResourceIndexer (generic_helpers.go)
// and the generated listers built on it.
type Lister[T metav1.Object] struct {
	indexer  Indexer
	resource scheme.GroupResource
}

// NewLister returns a Lister over indexer; resource names the resource in
// NotFound errors.
//
// Mirrors k8s.io/client-go/listers.New.
func NewLister[T metav1.Object](indexer Indexer, resource scheme.GroupResource) *Lister[T] {
	return &Lister[T]{indexer: indexer, resource: resource}
}

// List returns every cached object whose labels match selector.
func (l *Lister[T]) List(selector func(labels map[string]string) bool) ([]T, error) {
	return filterAs[T](l.indexer.List(), selector)
}

// Get returns the cluster-scoped object named name, or a NotFound error.
func (l *Lister[T]) Get(name string) (T, error) {
	return getAs[T](l.indexer, l.resource, name, name)
}

// ByNamespace returns a lister of the objects in namespace.
func (l *Lister[T]) ByNamespace(namespace string) *NamespaceLister[T] {
	return &NamespaceLister[T]{indexer: l.indexer, resource: l.resource, namespace: namespace}
}

// NamespaceLister reads the objects of one namespace.
//
// Mirrors k8s.io/client-go/listers.ResourceIndexer with a namespace.
type NamespaceLister[T metav1.Object] struct {
	indexer   Indexer
	resource  scheme.GroupResource
	namespace string
}

// List returns the namespace's objects whose labels match selector. It
// uses the NamespaceIndex if the indexer has it, else scans.
//
// Mirrors k8s.io/client-go/tools/cache.ListAllByNamespace.
func (l *NamespaceLister[T]) List(selector func(labels map[string]string) bool) ([]T, error) {
	items, err := l.indexer.ByIndex(NamespaceIndex, l.namespace)
	if err != nil && !errors.Is(err, ErrIndexNotFound) {
		return nil, err
	}
	if err != nil {
		// No namespace index: scan everything.
		all := l.indexer.List()
		items = all[:0:0]
		for _, obj := range all {
			if m, ok := metav1.Accessor(obj); ok && m.GetNamespace() == l.namespace {
				items = append(items, obj)
			}
		}
	}
	return filterAs[T](items, selector)
}

// Get returns the object name of the namespace, or a NotFound error.
func (l *NamespaceLister[T]) Get(name string) (T, error) {
	key := name
	if l.namespace != "" {
		key = l.namespace + "/" + name
	}
	return getAs[T](l.indexer, l.resource, key, name)
}

func getAs[T metav1.Object](indexer Indexer, resource scheme.GroupResource, key, name string) (T, error) {
	var zero T
	obj, exists, err := indexer.GetByKey(key)
	if err != nil {
		return zero, err
	}
	if !exists {
		return zero, apierrors.NewNotFound(resource, name)
	}
	t, ok := obj.(T)
	if !ok {
		return zero, fmt.Errorf("cached object %q is a %T, not a %T", key, obj, zero)
	}
	return t, nil
}

func filterAs[T metav1.Object](items []any, selector func(labels map[string]string) bool) ([]T, error) {
	out := make([]T, 0, len(items))
	for _, obj := range items {
		t, ok := obj.(T)
		if !ok {
			var zero T
			return nil, fmt.Errorf("cached object is a %T, not a %T", obj, zero)
		}
		if selector == nil || selector(t.GetLabels()) {
			out = append(out, t)
		}
	}
	return out, nil
}
