package admission

import (
	"context"
	"fmt"

	apierrors "github.com/crdlab/crdlab/apis/errors"
	"github.com/crdlab/crdlab/scheme"
)

// Operation is the kind of write being admitted.
type Operation string

// The operations.
const (
	Create Operation = "CREATE"
	Update Operation = "UPDATE"
	Delete Operation = "DELETE"
)

// Attributes describe a write.
//
// Mirrors admission.Attributes (as a struct: admission.attributesRecord).
type Attributes struct {
	Operation Operation
	// Kind is the kind of the object (in the request's version).
	Kind scheme.GroupVersionKind
	// Resource is the resource of the URL.
	Resource    scheme.GroupVersionResource
	Subresource string
	// Namespace is the request's namespace ("" for cluster-scoped).
	Namespace string
	// Name is the object's name (for a create, once generated).
	Name string
	// Object is the object about to be written (nil for a delete),
	// OldObject the stored one (nil for a create). Plugins must not
	// change either.
	Object, OldObject scheme.Object
	DryRun            bool
}

// Interface is an admission plugin.
//
// Mirrors admission.ValidationInterface's Validate.
type Interface interface {
	// Admit returns nil to let the write go on, or an API error.
	Admit(ctx context.Context, a Attributes) error
}

// Handler is an Interface that may refuse only some operations: Admit
// returns nil for every write of an operation Handles is false for. A
// write of such an operation does not ask it, nor copy the objects it
// would be handed (an update's two, each a deep copy: a sixth of a custom
// resource update's allocations; docs/storage.md, session 13).
//
// Mirrors admission.Interface's Handles.
type Handler interface {
	Interface
	Handles(op Operation) bool
}

// Handles reports whether i may refuse a write of op: true unless i is a
// Handler that says otherwise.
func Handles(i Interface, op Operation) bool {
	h, ok := i.(Handler)
	return !ok || h.Handles(op)
}

// NewForbidden is the 403 of a write an admission plugin refuses:
// `<resource> "<name>" is forbidden: <reason>`.
//
// Mirrors admission.NewForbidden.
func NewForbidden(a Attributes, reason error) *apierrors.StatusError {
	name := a.Name
	if name == "" && a.Object != nil {
		if m, ok := a.Object.(interface{ GetName() string }); ok {
			name = m.GetName()
		}
	}
	gr := a.Resource.GroupResource()
	if a.Subresource != "" {
		gr.Resource += "/" + a.Subresource
	}
	return apierrors.NewForbidden(gr, name, fmt.Errorf("%w", reason))
}
