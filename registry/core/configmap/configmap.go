package configmap

import (
	"context"
	"fmt"

	"github.com/crdlab/crdlab/apis/core"
	"github.com/crdlab/crdlab/apis/core/validation"
	"github.com/crdlab/crdlab/apis/validation/field"
	"github.com/crdlab/crdlab/registry"
	"github.com/crdlab/crdlab/registry/printers"
	"github.com/crdlab/crdlab/scheme"
	"github.com/crdlab/crdlab/storage"
)

// Resource is configmaps in the core group.
var Resource = core.Resource("configmaps")

// REST is the storage of configmaps.
type REST struct {
	*registry.Store
	printers.TableConvertor
}

// NewREST returns the storage of configmaps.
//
// Mirrors NewREST in pkg/registry/core/configmap/storage/storage.go.
func NewREST(s *scheme.Scheme, opts registry.StoreOptions) (*REST, error) {
	st := strategy{registry.PlainStrategy{ObjectTyper: s}}
	store := &registry.Store{
		NewFunc:                  func() storage.Object { return &core.ConfigMap{} },
		NewListFunc:              func() scheme.Object { return &core.ConfigMapList{} },
		DefaultQualifiedResource: Resource,
		CreateStrategy:           st,
		UpdateStrategy:           st,
		DeleteStrategy:           st,
		CheckFieldLabel:          checkFieldLabel,
	}
	if opts.ResourcePrefix == "" {
		opts.ResourcePrefix = "/registry/configmaps"
	}
	if err := store.CompleteWithOptions(opts); err != nil {
		return nil, err
	}
	return &REST{Store: store, TableConvertor: printers.ConfigMaps}, nil
}

// ShortNames are kubectl's abbreviations: cm.
func (r *REST) ShortNames() []string { return []string{"cm"} }

// strategy mirrors strategy in pkg/registry/core/configmap/strategy.go.
type strategy struct {
	registry.PlainStrategy
}

var (
	_ registry.CreateStrategy = strategy{}
	_ registry.UpdateStrategy = strategy{}
)

func (strategy) AllowCreateOnUpdate() bool      { return false }
func (strategy) AllowUnconditionalUpdate() bool { return true }

func (strategy) Validate(_ context.Context, obj scheme.Object) field.ErrorList {
	return validation.ValidateConfigMap(obj.(*core.ConfigMap))
}

func (strategy) ValidateUpdate(_ context.Context, obj, old scheme.Object) field.ErrorList {
	return validation.ValidateConfigMapUpdate(obj.(*core.ConfigMap), old.(*core.ConfigMap))
}

func checkFieldLabel(label string) error {
	switch label {
	case "metadata.name", "metadata.namespace":
		return nil
	}
	return fmt.Errorf("field label not supported: %s", label)
}
