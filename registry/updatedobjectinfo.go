package registry

import (
	"context"

	metav1 "github.com/crdlab/crdlab/apis/meta/v1"
	"github.com/crdlab/crdlab/scheme"
)

// PreconditionsProvider is implemented by UpdatedObjectInfo values that
// carry preconditions for the write (a PUT body with a uid). Store.Update
// checks them atomically with the write.
//
// Mirrors the Preconditions method of k8s.io/apiserver/pkg/registry/rest.UpdatedObjectInfo.
type PreconditionsProvider interface {
	Preconditions() *metav1.Preconditions
}

// TransformFunc changes the object an update wants, given the stored one.
//
// Mirrors rest.TransformFunc.
type TransformFunc func(ctx context.Context, newObj, oldObj scheme.Object) (scheme.Object, error)

// DefaultUpdatedObjectInfo returns the UpdatedObjectInfo of a PUT: the
// object of the request (copied on each call, since an update may be
// retried), passed through transformers. Its preconditions hold the uid of
// obj, if it has one.
//
// Mirrors rest.DefaultUpdatedObjectInfo.
func DefaultUpdatedObjectInfo(obj scheme.Object, transformers ...TransformFunc) UpdatedObjectInfo {
	return &defaultUpdatedObjectInfo{obj: obj, transformers: transformers}
}

type defaultUpdatedObjectInfo struct {
	obj          scheme.Object
	transformers []TransformFunc
	// copy copies obj for each try; nil: DeepCopyObject (Store.Update
	// sets its strategy's UpdateCopier).
	copy func(scheme.Object) scheme.Object
}

var (
	_ UpdatedObjectInfo     = (*defaultUpdatedObjectInfo)(nil)
	_ PreconditionsProvider = (*defaultUpdatedObjectInfo)(nil)
)

func (i *defaultUpdatedObjectInfo) Preconditions() *metav1.Preconditions {
	m, ok := metav1.Accessor(i.obj)
	if !ok || m.GetUID() == "" {
		return nil
	}
	uid := m.GetUID()
	return &metav1.Preconditions{UID: &uid}
}

func (i *defaultUpdatedObjectInfo) UpdatedObject(ctx context.Context, old scheme.Object) (scheme.Object, error) {
	var obj scheme.Object
	switch {
	case i.obj == nil:
	case i.copy != nil:
		obj = i.copy(i.obj)
	default:
		obj = i.obj.DeepCopyObject()
	}
	for _, t := range i.transformers {
		var err error
		if obj, err = t(ctx, obj, old); err != nil {
			return nil, err
		}
	}
	return obj, nil
}
