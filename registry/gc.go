package registry

import (
	"slices"

	metav1 "github.com/crdlab/crdlab/apis/meta/v1"
	"github.com/crdlab/crdlab/storage"
)

// What a delete asks of the garbage collector, decided here, in the
// store, and carried to the collector as finalizers on the owner:
//
//	propagationPolicy   finalizer added        the garbage collector then
//	Background (default) none                  deletes the dependents once the owner is gone
//	Foreground          foregroundDeletion     deletes the dependents first, then removes the finalizer
//	Orphan              orphan                 removes the owner's ownerReferences from the dependents, then the finalizer
//
// orphanDependents (deprecated) true is Orphan and false is Background;
// with neither option, the finalizers already on the object decide.

// shouldOrphanDependents reports whether obj should carry the orphan
// finalizer after a delete with opts.
//
// Mirrors shouldOrphanDependents in
// k8s.io/apiserver/pkg/registry/generic/registry/store.go, for strategies
// whose default policy is Background (every crdlab resource).
func shouldOrphanDependents(obj storage.Object, opts *metav1.DeleteOptions) bool {
	// An explicit option overrides everything.
	if opts != nil && opts.OrphanDependents != nil {
		return *opts.OrphanDependents
	}
	if opts != nil && opts.PropagationPolicy != nil {
		return *opts.PropagationPolicy == metav1.DeletePropagationOrphan
	}
	// Then the finalizers already on the object.
	for _, f := range obj.GetFinalizers() {
		switch f {
		case metav1.FinalizerOrphanDependents:
			return true
		case metav1.FinalizerDeleteDependents:
			return false
		}
	}
	return false
}

// shouldDeleteDependents reports whether obj should carry the
// foregroundDeletion finalizer after a delete with opts.
//
// Mirrors shouldDeleteDependents in store.go.
func shouldDeleteDependents(obj storage.Object, opts *metav1.DeleteOptions) bool {
	if opts != nil && opts.OrphanDependents != nil {
		return false
	}
	if opts != nil && opts.PropagationPolicy != nil {
		return *opts.PropagationPolicy == metav1.DeletePropagationForeground
	}
	for _, f := range obj.GetFinalizers() {
		switch f {
		case metav1.FinalizerDeleteDependents:
			return true
		case metav1.FinalizerOrphanDependents:
			return false
		}
	}
	return false
}

// deletionFinalizersForGarbageCollection returns obj's finalizers as a
// delete with opts leaves them: the orphan and foregroundDeletion
// finalizers removed, then added back as the options say. update is
// false when that changes nothing, and always without
// EnableGarbageCollection.
//
// Mirrors deletionFinalizersForGarbageCollection in store.go.
func (e *Store) deletionFinalizersForGarbageCollection(obj storage.Object, opts *metav1.DeleteOptions) (update bool, finalizers []string) {
	if !e.EnableGarbageCollection {
		return false, obj.GetFinalizers()
	}
	orphan, foreground := shouldOrphanDependents(obj, opts), shouldDeleteDependents(obj, opts)
	finalizers = slices.DeleteFunc(slices.Clone(obj.GetFinalizers()), func(f string) bool {
		return f == metav1.FinalizerOrphanDependents || f == metav1.FinalizerDeleteDependents
	})
	if orphan {
		finalizers = append(finalizers, metav1.FinalizerOrphanDependents)
	}
	if foreground {
		finalizers = append(finalizers, metav1.FinalizerDeleteDependents)
	}
	old, updated := slices.Clone(obj.GetFinalizers()), slices.Clone(finalizers)
	slices.Sort(old)
	slices.Sort(updated)
	if slices.Equal(slices.Compact(old), slices.Compact(updated)) {
		return false, obj.GetFinalizers()
	}
	return true, finalizers
}
