package secret

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

// Resource is secrets in the core group.
var Resource = core.Resource("secrets")

// REST is the storage of secrets.
type REST struct {
	*registry.Store
	printers.TableConvertor
}

// NewREST returns the storage of secrets.
//
// Mirrors NewREST in pkg/registry/core/secret/storage/storage.go.
func NewREST(s *scheme.Scheme, opts registry.StoreOptions) (*REST, error) {
	st := strategy{registry.PlainStrategy{ObjectTyper: s}}
	store := &registry.Store{
		NewFunc:                  func() storage.Object { return &core.Secret{} },
		NewListFunc:              func() scheme.Object { return &core.SecretList{} },
		DefaultQualifiedResource: Resource,
		CreateStrategy:           st,
		UpdateStrategy:           st,
		DeleteStrategy:           st,
		AttrFunc:                 GetAttrs,
		CheckFieldLabel:          checkFieldLabel,
	}
	if opts.ResourcePrefix == "" {
		opts.ResourcePrefix = "/registry/secrets"
	}
	if err := store.CompleteWithOptions(opts); err != nil {
		return nil, err
	}
	return &REST{Store: store, TableConvertor: printers.Secrets}, nil
}

// strategy mirrors strategy in pkg/registry/core/secret/strategy.go.
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
	return validation.ValidateSecret(obj.(*core.Secret))
}

// PrepareForUpdate keeps the stored type when the update has none (a
// client that leaves type out does not mean to change it).
func (strategy) PrepareForUpdate(_ context.Context, obj, old scheme.Object) {
	if s := obj.(*core.Secret); s.Type == "" {
		s.Type = old.(*core.Secret).Type
	}
}

func (strategy) ValidateUpdate(_ context.Context, obj, old scheme.Object) field.ErrorList {
	return validation.ValidateSecretUpdate(obj.(*core.Secret), old.(*core.Secret))
}

// GetAttrs returns a secret's labels and selectable fields.
//
// Mirrors GetAttrs and SelectableFields.
func GetAttrs(obj storage.Object) (map[string]string, map[string]string, error) {
	s, ok := obj.(*core.Secret)
	if !ok {
		return nil, nil, fmt.Errorf("not a secret")
	}
	return s.Labels, map[string]string{"metadata.name": s.Name, "metadata.namespace": s.Namespace, "type": string(s.Type)}, nil
}

func checkFieldLabel(label string) error {
	switch label {
	case "metadata.name", "metadata.namespace", "type":
		return nil
	}
	return fmt.Errorf("field label not supported: %s", label)
}
