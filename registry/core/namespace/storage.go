package namespace

import (
	"context"
	"slices"
	"time"

	"github.com/crdlab/crdlab/apis/core"
	metav1 "github.com/crdlab/crdlab/apis/meta/v1"
	"github.com/crdlab/crdlab/registry"
	"github.com/crdlab/crdlab/registry/printers"
	"github.com/crdlab/crdlab/scheme"
	"github.com/crdlab/crdlab/storage"
)

// Resource is namespaces in the core group.
var Resource = core.Resource("namespaces")

// REST is the storage of namespaces.
//
// Mirrors REST in pkg/registry/core/namespace/storage/storage.go.
type REST struct {
	*registry.Store
	printers.TableConvertor
}

// StatusREST is the storage of namespaces/status.
type StatusREST struct{ store *registry.Store }

// FinalizeREST is the storage of namespaces/finalize.
type FinalizeREST struct{ store *registry.Store }

// NewREST returns the storage of namespaces and of their /status and
// /finalize subresources, kept in opts.Backend under /registry/namespaces.
//
// Mirrors NewREST in pkg/registry/core/namespace/storage/storage.go.
func NewREST(s *scheme.Scheme, opts registry.StoreOptions) (*REST, *StatusREST, *FinalizeREST, error) {
	st := strategy{ObjectTyper: s}
	store := &registry.Store{
		NewFunc:                  func() storage.Object { return &core.Namespace{} },
		NewListFunc:              func() scheme.Object { return &core.NamespaceList{} },
		DefaultQualifiedResource: Resource,
		CreateStrategy:           st,
		UpdateStrategy:           st,
		DeleteStrategy:           st,
		AttrFunc:                 GetAttrs,
		CheckFieldLabel:          checkFieldLabel,
		ShouldDeleteDuringUpdate: ShouldDeleteNamespaceDuringUpdate,
	}
	if opts.ResourcePrefix == "" {
		opts.ResourcePrefix = "/registry/namespaces"
	}
	if err := store.CompleteWithOptions(opts); err != nil {
		return nil, nil, nil, err
	}
	statusStore, finalizeStore := *store, *store
	statusStore.UpdateStrategy = statusStrategy{st}
	finalizeStore.UpdateStrategy = finalizeStrategy{st}
	return &REST{Store: store, TableConvertor: printers.Namespaces},
		&StatusREST{store: &statusStore}, &FinalizeREST{store: &finalizeStore}, nil
}

// DeleteCollection is not served for namespaces, as upstream, whose
// namespace REST keeps the generic store in a field rather than embedding
// it: `DELETE /api/v1/namespaces` is 405, and no collection delete skips
// Delete's lifecycle (Terminating, the namespace controller, and
// NamespaceLifecycle's protection of default and kube-system). Declared
// without arguments, it hides the store's method, so REST is not a
// registry.CollectionDeleter.
func (r *REST) DeleteCollection() {}

// ShortNames are kubectl's abbreviations: ns.
func (r *REST) ShortNames() []string { return []string{"ns"} }

// Delete starts the deletion of a namespace, or finishes it:
//   - an Active namespace is marked: deletionTimestamp set, phase
//     Terminating, and the orphan or foregroundDeletion finalizer the
//     options ask for; nothing is deleted yet;
//   - a Terminating namespace whose spec.finalizers are not empty stays
//     as it is (the namespace controller is still emptying it);
//   - a Terminating namespace with no spec.finalizers is deleted by the
//     generic store (which still waits for metadata.finalizers).
//
// Mirrors (*REST).Delete in pkg/registry/core/namespace/storage/storage.go.
func (r *REST) Delete(ctx context.Context, name string, deleteValidation registry.ValidateObjectFunc, opts *metav1.DeleteOptions) (scheme.Object, bool, error) {
	obj, err := r.Get(ctx, name, &metav1.GetOptions{})
	if err != nil {
		return nil, false, err
	}
	ns := obj.(*core.Namespace)
	o, err := registry.DeletePreconditions(Resource, ns, opts)
	if err != nil {
		return nil, false, err
	}
	if ns.DeletionTimestamp == nil {
		return r.markTerminating(ctx, name, deleteValidation, &o)
	}
	if len(ns.Spec.Finalizers) != 0 {
		return ns, false, nil
	}
	return r.Store.Delete(ctx, name, deleteValidation, &o)
}

// markTerminating sets deletionTimestamp and phase Terminating in one
// guaranteed update, with the garbage-collection finalizers the options
// ask for.
func (r *REST) markTerminating(ctx context.Context, name string, deleteValidation registry.ValidateObjectFunc, opts *metav1.DeleteOptions) (scheme.Object, bool, error) {
	return r.MarkForDeletion(ctx, name, opts, deleteValidation, func(existing storage.Object) {
		ns := existing.(*core.Namespace)
		if ns.DeletionTimestamp == nil {
			now := metav1.NewTime(r.now())
			ns.DeletionTimestamp = &now
		}
		ns.Status.Phase = core.NamespaceTerminating
		ns.Finalizers = gcFinalizers(ns.Finalizers, opts)
	})
}

func (r *REST) now() time.Time {
	if r.Clock != nil {
		return r.Clock()
	}
	return time.Now()
}

// gcFinalizers adds or removes the orphan and foregroundDeletion
// finalizers as the delete options ask (no option: keep what is there).
//
// Mirrors shouldHaveOrphanFinalizer and shouldHaveDeleteDependentsFinalizer.
func gcFinalizers(finalizers []string, opts *metav1.DeleteOptions) []string {
	has := func(f string) bool { return slices.Contains(finalizers, f) }
	orphan, foreground := has(metav1.FinalizerOrphanDependents), has(metav1.FinalizerDeleteDependents)
	switch {
	case opts.OrphanDependents != nil:
		orphan, foreground = *opts.OrphanDependents, !*opts.OrphanDependents
	case opts.PropagationPolicy != nil:
		orphan = *opts.PropagationPolicy == metav1.DeletePropagationOrphan
		foreground = *opts.PropagationPolicy == metav1.DeletePropagationForeground
	}
	out := slices.DeleteFunc(slices.Clone(finalizers), func(f string) bool {
		return f == metav1.FinalizerOrphanDependents || f == metav1.FinalizerDeleteDependents
	})
	if orphan {
		out = append(out, metav1.FinalizerOrphanDependents)
	}
	if foreground {
		out = append(out, metav1.FinalizerDeleteDependents)
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// ShouldDeleteNamespaceDuringUpdate: an update deletes a namespace being
// deleted only once both its spec.finalizers and its metadata.finalizers
// are empty (the /finalize that clears the last one).
//
// Mirrors ShouldDeleteNamespaceDuringUpdate.
func ShouldDeleteNamespaceDuringUpdate(obj, existing storage.Object) bool {
	ns, ok := obj.(*core.Namespace)
	return ok && len(ns.Spec.Finalizers) == 0 && registry.ShouldDeleteDuringUpdate(obj, existing)
}

var (
	_ registry.Getter  = (*StatusREST)(nil)
	_ registry.Updater = (*StatusREST)(nil)
	_ registry.Updater = (*FinalizeREST)(nil)
)

func (r *StatusREST) New() scheme.Object    { return &core.Namespace{} }
func (r *StatusREST) Destroy()              {}
func (r *StatusREST) NamespaceScoped() bool { return false }

// Get reads the namespace.
func (r *StatusREST) Get(ctx context.Context, name string, opts *metav1.GetOptions) (scheme.Object, error) {
	return r.store.Get(ctx, name, opts)
}

// Update writes the namespace's status.
func (r *StatusREST) Update(ctx context.Context, name string, objInfo registry.UpdatedObjectInfo, createValidation registry.ValidateObjectFunc,
	updateValidation registry.ValidateObjectUpdateFunc, _ bool, opts *metav1.UpdateOptions) (scheme.Object, bool, error) {
	return r.store.Update(ctx, name, objInfo, createValidation, updateValidation, false, opts)
}

func (r *FinalizeREST) New() scheme.Object    { return &core.Namespace{} }
func (r *FinalizeREST) Destroy()              {}
func (r *FinalizeREST) NamespaceScoped() bool { return false }

// Update writes the namespace's spec.finalizers; clearing the last one of
// a Terminating namespace deletes it.
func (r *FinalizeREST) Update(ctx context.Context, name string, objInfo registry.UpdatedObjectInfo, createValidation registry.ValidateObjectFunc,
	updateValidation registry.ValidateObjectUpdateFunc, _ bool, opts *metav1.UpdateOptions) (scheme.Object, bool, error) {
	return r.store.Update(ctx, name, objInfo, createValidation, updateValidation, false, opts)
}
