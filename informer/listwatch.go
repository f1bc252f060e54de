package informer

import (
	"context"
	"fmt"
	"reflect"

	metav1 "github.com/crdlab/crdlab/apis/meta/v1"
	"github.com/crdlab/crdlab/apis/meta/v1/unstructured"
	"github.com/crdlab/crdlab/machinery/watch"
	"github.com/crdlab/crdlab/scheme"
)

// ListerWatcher is the Reflector's view of the API server for one resource:
// a list and a watch with the same selectors.
//
// Contract: List returns a list object (a struct with an Items slice, or an
// *unstructured.UnstructuredList) whose metadata implements
// metav1.ListInterface, so its resourceVersion can be read. Watch started
// at that resourceVersion delivers every change after it, in order; an
// ERROR event carrying a 410 Status (Expired or Gone) says the version is
// too old. Both honour ctx.
//
// Mirrors k8s.io/client-go/tools/cache.ListerWatcher (listwatch.go),
// context-first as upstream's ListerWatcherWithContext.
type ListerWatcher interface {
	List(ctx context.Context, opts metav1.ListOptions) (scheme.Object, error)
	Watch(ctx context.Context, opts metav1.ListOptions) (watch.Interface, error)
}

// ListFunc lists a resource.
type ListFunc func(ctx context.Context, opts metav1.ListOptions) (scheme.Object, error)

// WatchFunc watches a resource.
type WatchFunc func(ctx context.Context, opts metav1.ListOptions) (watch.Interface, error)

// ListWatch adapts a pair of functions to ListerWatcher, usually closures
// over a client:
//
//	&informer.ListWatch{
//		ListFunc:  func(ctx context.Context, o metav1.ListOptions) (scheme.Object, error) { return c.List(ctx, o) },
//		WatchFunc: func(ctx context.Context, o metav1.ListOptions) (watch.Interface, error) { return c.Watch(ctx, o) },
//	}
//
// Mirrors k8s.io/client-go/tools/cache.ListWatch.
type ListWatch struct {
	ListFunc  ListFunc
	WatchFunc WatchFunc
}

var _ ListerWatcher = (*ListWatch)(nil)

// List calls ListFunc.
func (lw *ListWatch) List(ctx context.Context, opts metav1.ListOptions) (scheme.Object, error) {
	return lw.ListFunc(ctx, opts)
}

// Watch calls WatchFunc.
func (lw *ListWatch) Watch(ctx context.Context, opts metav1.ListOptions) (watch.Interface, error) {
	return lw.WatchFunc(ctx, opts)
}

// NewFilteredListWatch returns a ListWatch that passes every request to lw
// after tweakListOptions has edited (a copy of) its options — typically to
// set a label or field selector, so the informer caches only the matching
// objects. tweakListOptions must leave ResourceVersion, Watch and the
// watch-list fields alone; they belong to the Reflector. A nil
// tweakListOptions changes nothing.
//
// Building lw from a client (which path, which namespace) is left to the
// caller; see ListWatch.
//
// Mirrors k8s.io/client-go/tools/cache.NewFilteredListWatchFromClient and
// the tweakListOptions of dynamicinformer.NewFilteredDynamicInformer.
func NewFilteredListWatch(lw ListerWatcher, tweakListOptions func(*metav1.ListOptions)) *ListWatch {
	tweak := func(o metav1.ListOptions) metav1.ListOptions {
		if tweakListOptions != nil {
			tweakListOptions(&o)
		}
		return o
	}
	return &ListWatch{
		ListFunc: func(ctx context.Context, o metav1.ListOptions) (scheme.Object, error) {
			return lw.List(ctx, tweak(o))
		},
		WatchFunc: func(ctx context.Context, o metav1.ListOptions) (watch.Interface, error) {
			return lw.Watch(ctx, tweak(o))
		},
	}
}

// ExtractList returns the items of a list object as scheme.Objects that
// point into the list (they share its memory; nothing is copied).
//
// It understands *unstructured.UnstructuredList and any pointer to a struct
// with an Items field that is a slice of structs or of pointers, whose
// elements (or their addresses) implement scheme.Object.
//
// Mirrors k8s.io/apimachinery/pkg/api/meta.ExtractList.
func ExtractList(list scheme.Object) ([]scheme.Object, error) {
	if u, ok := list.(*unstructured.UnstructuredList); ok {
		out := make([]scheme.Object, len(u.Items))
		for i := range u.Items {
			out[i] = &u.Items[i]
		}
		return out, nil
	}
	v := reflect.ValueOf(list)
	if v.Kind() != reflect.Pointer || v.IsNil() || v.Elem().Kind() != reflect.Struct {
		return nil, fmt.Errorf("%T is not a pointer to a list struct", list)
	}
	items := v.Elem().FieldByName("Items")
	if !items.IsValid() || items.Kind() != reflect.Slice {
		return nil, fmt.Errorf("%T has no Items slice", list)
	}
	out := make([]scheme.Object, items.Len())
	for i := range out {
		e := items.Index(i)
		if e.Kind() != reflect.Pointer {
			e = e.Addr()
		}
		obj, ok := e.Interface().(scheme.Object)
		if !ok {
			return nil, fmt.Errorf("%T item %d (%s) is not a scheme.Object", list, i, e.Type())
		}
		out[i] = obj
	}
	return out, nil
}

// listResourceVersion returns the resourceVersion a list was read at.
//
// Mirrors meta.ListAccessor(list).GetResourceVersion().
func listResourceVersion(list scheme.Object) (string, error) {
	l, ok := list.(metav1.ListInterface)
	if !ok {
		return "", fmt.Errorf("%T has no list metadata (metav1.ListInterface)", list)
	}
	return l.GetResourceVersion(), nil
}
