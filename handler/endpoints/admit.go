package endpoints

import (
	"context"

	metav1 "github.com/crdlab/crdlab/apis/meta/v1"
	"github.com/crdlab/crdlab/handler/admission"
	"github.com/crdlab/crdlab/registry"
	"github.com/crdlab/crdlab/scheme"
)

// The admission steps of a write. A create asks the scope's admission up
// front, once its body is decoded (RequestScope.admitCreate, upstream's
// mutating admission call in handlers/create.go); updates and deletes
// hand the registry validation functions, which it calls with the objects
// exactly as they are about to be written (after the strategy's checks).
// A PUT or apply that creates is admitted as a create.
//
// Mirrors rest.AdmissionToValidateObjectFunc and
// AdmissionToValidateObjectUpdateFunc, and the admission call of
// handlers/delete.go.

// attributes are the admission attributes of a write of s.
func (s *RequestScope) attributes(op admission.Operation, namespace string, obj, old scheme.Object, dryRun bool) admission.Attributes {
	a := admission.Attributes{
		Operation: op, Kind: s.Kind, Resource: s.Resource, Subresource: s.Subresource,
		Namespace: s.namespaceFor(namespace), Object: obj, OldObject: old, DryRun: dryRun,
	}
	for _, o := range []scheme.Object{obj, old} {
		if o == nil {
			continue
		}
		if m, ok := metav1.Accessor(o); ok {
			a.Name = m.GetName()
			break
		}
	}
	return a
}

// admitCreate asks the scope's admission, if any, about creating obj: a
// create, or an apply of an object that does not exist yet.
func (s *RequestScope) admitCreate(ctx context.Context, namespace string, obj scheme.Object, dryRun bool) error {
	if s.Admit == nil {
		return nil
	}
	return s.Admit.Admit(ctx, s.attributes(admission.Create, namespace, obj, nil, dryRun))
}

// validateCreate is the create validation of a PUT that may create; nil
// without admission.
func (s *RequestScope) validateCreate(namespace string, dryRun []string) registry.ValidateObjectFunc {
	if s.Admit == nil {
		return nil
	}
	return func(ctx context.Context, obj scheme.Object) error {
		return s.admitCreate(ctx, namespace, obj, registry.IsDryRun(dryRun))
	}
}

// validateUpdate is the update validation of s; nil without admission
// that handles updates, so that the registry copies no objects for it.
func (s *RequestScope) validateUpdate(namespace string, dryRun []string) registry.ValidateObjectUpdateFunc {
	if s.Admit == nil || !admission.Handles(s.Admit, admission.Update) {
		return nil
	}
	return func(ctx context.Context, obj, old scheme.Object) error {
		return s.Admit.Admit(ctx, s.attributes(admission.Update, namespace, obj, old, registry.IsDryRun(dryRun)))
	}
}

// validateDelete is the delete validation of s: it sees the stored
// object.
func (s *RequestScope) validateDelete(namespace string, dryRun []string) registry.ValidateObjectFunc {
	if s.Admit == nil {
		return nil
	}
	return func(ctx context.Context, obj scheme.Object) error {
		return s.Admit.Admit(ctx, s.attributes(admission.Delete, namespace, nil, obj, registry.IsDryRun(dryRun)))
	}
}
