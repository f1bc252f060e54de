package registry

import (
	"context"
	"fmt"

	apierrors "github.com/crdlab/crdlab/apis/errors"
	metav1 "github.com/crdlab/crdlab/apis/meta/v1"
	"github.com/crdlab/crdlab/scheme"
	"github.com/crdlab/crdlab/storage"
)

// A two-step delete is how namespaces and CRDs go: the first DELETE only
// marks the object (deletionTimestamp, a phase or condition, a finalizer)
// and a controller empties it; a later delete, or the update that removes
// the last finalizer, removes it. Their Delete methods use the two
// helpers below.

// DeletePreconditions returns a copy of opts whose preconditions name obj,
// the object a two-step Delete read first: its UID unless the caller gave
// one. A caller's UID or resourceVersion that is not obj's is a 409
// Conflict. The marking write then carries these preconditions, so that an
// object deleted and re-created meanwhile is left alone.
//
// Mirrors the precondition checks that (*REST).Delete writes out in
// upstream's pkg/registry/core/namespace/storage/storage.go and
// apiextensions-apiserver's customresourcedefinition/etcd.go.
func DeletePreconditions(gr scheme.GroupResource, obj metav1.Object, opts *metav1.DeleteOptions) (metav1.DeleteOptions, error) {
	o := metav1.DeleteOptions{}
	if opts != nil {
		o = *opts
	}
	p := metav1.Preconditions{}
	if o.Preconditions != nil {
		p = *o.Preconditions
	}
	name, uid, rv := obj.GetName(), obj.GetUID(), obj.GetResourceVersion()
	if p.UID == nil {
		p.UID = &uid
	} else if *p.UID != uid {
		return o, apierrors.NewConflict(gr, name,
			fmt.Errorf("Precondition failed: UID in precondition: %v, UID in object meta: %v", *p.UID, uid))
	}
	if p.ResourceVersion != nil && *p.ResourceVersion != rv {
		return o, apierrors.NewConflict(gr, name,
			fmt.Errorf("Precondition failed: ResourceVersion in precondition: %v, ResourceVersion in object meta: %v", *p.ResourceVersion, rv))
	}
	o.Preconditions = &p
	return o, nil
}

// MarkForDeletion writes the first step of a two-step delete: it
// validates opts, then, in one guaranteed update under opts'
// preconditions, runs deleteValidation on (a copy of) the stored object
// and lets mark change it. With dryRun it returns the marked object
// without writing it. It returns the object and false: nothing is deleted
// yet.
func (e *Store) MarkForDeletion(ctx context.Context, name string, opts *metav1.DeleteOptions, deleteValidation ValidateObjectFunc,
	mark func(existing storage.Object)) (scheme.Object, bool, error) {
	if errs := ValidateDeleteOptions(opts); len(errs) > 0 {
		return nil, false, NewInvalid(scheme.GroupKind{Group: metav1.GroupName, Kind: "DeleteOptions"}, "", errs)
	}
	key, err := e.KeyFunc(ctx, name)
	if err != nil {
		return nil, false, err
	}
	var preconditions storage.Preconditions
	if p := opts.Preconditions; p != nil {
		preconditions = storage.Preconditions{UID: p.UID, ResourceVersion: p.ResourceVersion}
	}
	out, err := e.guaranteedUpdate(ctx, key, false, &preconditions, IsDryRun(opts.DryRun),
		func(existing storage.Object) (storage.Object, error) {
			if deleteValidation != nil {
				if err := deleteValidation(ctx, existing.DeepCopyObject()); err != nil {
					return nil, err
				}
			}
			mark(existing)
			return existing, nil
		})
	if err != nil {
		return nil, false, InterpretDeleteError(err, e.DefaultQualifiedResource, name)
	}
	return out, false, nil
}
