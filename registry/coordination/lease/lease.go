package lease

import (
	"context"

	"github.com/crdlab/crdlab/apis/coordination"
	"github.com/crdlab/crdlab/apis/validation/field"
	"github.com/crdlab/crdlab/registry"
	"github.com/crdlab/crdlab/registry/printers"
	"github.com/crdlab/crdlab/scheme"
	"github.com/crdlab/crdlab/storage"
)

// Resource is leases in coordination.k8s.io.
var Resource = coordination.Resource("leases")

// REST is the storage of leases.
type REST struct {
	*registry.Store
	printers.TableConvertor
}

// NewREST returns the storage of leases.
//
// Mirrors NewREST in pkg/registry/coordination/lease/storage/storage.go.
func NewREST(s *scheme.Scheme, opts registry.StoreOptions) (*REST, error) {
	st := strategy{registry.PlainStrategy{ObjectTyper: s}}
	store := &registry.Store{
		NewFunc:                  func() storage.Object { return &coordination.Lease{} },
		NewListFunc:              func() scheme.Object { return &coordination.LeaseList{} },
		DefaultQualifiedResource: Resource,
		CreateStrategy:           st,
		UpdateStrategy:           st,
		DeleteStrategy:           st,
	}
	if opts.ResourcePrefix == "" {
		opts.ResourcePrefix = "/registry/leases"
	}
	if err := store.CompleteWithOptions(opts); err != nil {
		return nil, err
	}
	return &REST{Store: store, TableConvertor: printers.Leases}, nil
}

// strategy mirrors leaseStrategy in pkg/registry/coordination/lease/strategy.go.
type strategy struct {
	registry.PlainStrategy
}

var (
	_ registry.CreateStrategy = strategy{}
	_ registry.UpdateStrategy = strategy{}
)

// AllowCreateOnUpdate is true: a PUT of a missing Lease creates it.
func (strategy) AllowCreateOnUpdate() bool { return true }

// AllowUnconditionalUpdate is false: an update must name the
// resourceVersion it read, so that two candidates cannot both win.
func (strategy) AllowUnconditionalUpdate() bool { return false }

func (strategy) Validate(_ context.Context, obj scheme.Object) field.ErrorList {
	return coordination.ValidateLease(obj.(*coordination.Lease))
}

func (strategy) ValidateUpdate(_ context.Context, obj, old scheme.Object) field.ErrorList {
	return coordination.ValidateLeaseUpdate(obj.(*coordination.Lease), old.(*coordination.Lease))
}
