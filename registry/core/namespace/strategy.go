package namespace

import (
	"context"
	"fmt"

	"github.com/crdlab/crdlab/apis/core"
	"github.com/crdlab/crdlab/apis/core/validation"
	"github.com/crdlab/crdlab/apis/validation/field"
	"github.com/crdlab/crdlab/internal/deepcopy"
	"github.com/crdlab/crdlab/registry"
	"github.com/crdlab/crdlab/scheme"
	"github.com/crdlab/crdlab/storage"
)

// strategy is what Namespaces do on create, update and delete through the
// main resource.
//
// Mirrors namespaceStrategy in pkg/registry/core/namespace/strategy.go.
type strategy struct {
	registry.ObjectTyper
	registry.SimpleNameGenerator
}

var (
	_ registry.CreateStrategy = strategy{}
	_ registry.UpdateStrategy = strategy{}
	_ registry.DeleteStrategy = strategy{}
)

// NamespaceScoped is false: namespaces are cluster-scoped.
func (strategy) NamespaceScoped() bool { return false }

// PrepareForCreate makes the namespace Active and adds the "kubernetes"
// finalizer to spec.finalizers (the namespace controller's, which it
// removes once the namespace is empty). It is not a default: a client may
// remove it later through /finalize.
func (strategy) PrepareForCreate(_ context.Context, obj scheme.Object) {
	ns := obj.(*core.Namespace)
	ns.Status = core.NamespaceStatus{Phase: core.NamespaceActive}
	for _, f := range ns.Spec.Finalizers {
		if f == core.FinalizerKubernetes {
			return
		}
	}
	ns.Spec.Finalizers = append(ns.Spec.Finalizers, core.FinalizerKubernetes)
}

// PrepareForUpdate keeps spec.finalizers and status: they change only
// through /finalize and /status.
func (strategy) PrepareForUpdate(_ context.Context, obj, old scheme.Object) {
	ns, oldNS := obj.(*core.Namespace), old.(*core.Namespace)
	ns.Spec.Finalizers = deepcopy.Copy(oldNS.Spec.Finalizers)
	ns.Status = deepcopy.Copy(oldNS.Status)
}

func (strategy) Validate(_ context.Context, obj scheme.Object) field.ErrorList {
	return validation.ValidateNamespace(obj.(*core.Namespace))
}

func (strategy) WarningsOnCreate(context.Context, scheme.Object) []string { return nil }

// Canonicalize labels the namespace with its name
// (kubernetes.io/metadata.name), also when the name was generated.
func (strategy) Canonicalize(obj scheme.Object) {
	ns := obj.(*core.Namespace)
	if ns.Labels == nil {
		ns.Labels = map[string]string{}
	}
	ns.Labels[core.LabelMetadataName] = ns.Name
}

func (strategy) AllowCreateOnUpdate() bool { return false }

func (strategy) ValidateUpdate(_ context.Context, obj, old scheme.Object) field.ErrorList {
	errs := validation.ValidateNamespace(obj.(*core.Namespace))
	return append(errs, validation.ValidateNamespaceUpdate(obj.(*core.Namespace), old.(*core.Namespace))...)
}

func (strategy) WarningsOnUpdate(context.Context, scheme.Object, scheme.Object) []string { return nil }

func (strategy) AllowUnconditionalUpdate() bool { return true }

// statusStrategy writes status only.
//
// Mirrors namespaceStatusStrategy.
type statusStrategy struct{ strategy }

func (statusStrategy) PrepareForUpdate(_ context.Context, obj, old scheme.Object) {
	obj.(*core.Namespace).Spec = deepcopy.Copy(old.(*core.Namespace).Spec)
}

func (statusStrategy) ValidateUpdate(_ context.Context, obj, old scheme.Object) field.ErrorList {
	return validation.ValidateNamespaceStatusUpdate(obj.(*core.Namespace), old.(*core.Namespace))
}

// finalizeStrategy writes spec.finalizers only.
//
// Mirrors namespaceFinalizeStrategy.
type finalizeStrategy struct{ strategy }

func (finalizeStrategy) PrepareForUpdate(_ context.Context, obj, old scheme.Object) {
	obj.(*core.Namespace).Status = deepcopy.Copy(old.(*core.Namespace).Status)
}

func (finalizeStrategy) ValidateUpdate(_ context.Context, obj, old scheme.Object) field.ErrorList {
	return validation.ValidateNamespaceFinalizeUpdate(obj.(*core.Namespace), old.(*core.Namespace))
}

// GetAttrs returns a namespace's labels and selectable fields:
// metadata.name, name and status.phase.
//
// Mirrors GetAttrs and NamespaceToSelectableFields.
func GetAttrs(obj storage.Object) (map[string]string, map[string]string, error) {
	ns, ok := obj.(*core.Namespace)
	if !ok {
		return nil, nil, fmt.Errorf("not a namespace")
	}
	return ns.Labels, map[string]string{
		"metadata.name": ns.Name,
		"name":          ns.Name,
		"status.phase":  string(ns.Status.Phase),
	}, nil
}

// checkFieldLabel rejects field selectors on other fields.
func checkFieldLabel(label string) error {
	switch label {
	case "metadata.name", "name", "status.phase":
		return nil
	}
	return fmt.Errorf("field label not supported: %s", label)
}
