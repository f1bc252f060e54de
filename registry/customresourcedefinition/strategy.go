package customresourcedefinition

import (
	"context"
	"reflect"

	"github.com/crdlab/crdlab/apis/apiextensions"
	"github.com/crdlab/crdlab/apis/apiextensions/validation"
	"github.com/crdlab/crdlab/apis/validation/field"
	"github.com/crdlab/crdlab/internal/deepcopy"
	"github.com/crdlab/crdlab/registry"
	"github.com/crdlab/crdlab/scheme"
)

// strategy is what CRDs do on create, update and delete through the main
// endpoint.
//
// Mirrors strategy in
// k8s.io/apiextensions-apiserver/pkg/registry/customresourcedefinition/strategy.go.
type strategy struct {
	registry.ObjectTyper
	registry.SimpleNameGenerator
}

var (
	_ registry.CreateStrategy = strategy{}
	_ registry.UpdateStrategy = strategy{}
	_ registry.DeleteStrategy = strategy{}
)

// NamespaceScoped is false: CRDs are cluster-scoped.
func (strategy) NamespaceScoped() bool { return false }

// PrepareForCreate resets status (the controllers write it), sets
// generation 1 and records the storage version in status.storedVersions.
func (strategy) PrepareForCreate(_ context.Context, obj scheme.Object) {
	crd := obj.(*apiextensions.CustomResourceDefinition)
	crd.Status = apiextensions.CustomResourceDefinitionStatus{}
	crd.Generation = 1
	addStorageVersion(crd)
}

// PrepareForUpdate keeps the stored status (status changes go through
// /status), bumps generation when the spec changes, and appends a new
// storage version to status.storedVersions.
func (strategy) PrepareForUpdate(_ context.Context, obj, old scheme.Object) {
	newCRD, oldCRD := obj.(*apiextensions.CustomResourceDefinition), old.(*apiextensions.CustomResourceDefinition)
	newCRD.Status = deepcopy.Copy(oldCRD.Status)
	if !reflect.DeepEqual(newCRD.Spec, oldCRD.Spec) {
		newCRD.Generation = oldCRD.Generation + 1
	}
	addStorageVersion(newCRD)
}

// addStorageVersion appends the storage version to status.storedVersions
// if it is not there: objects may now be stored in it, so a later version
// removal must know.
func addStorageVersion(crd *apiextensions.CustomResourceDefinition) {
	for _, v := range crd.Spec.Versions {
		if v.Storage {
			if !apiextensions.IsStoredVersion(crd, v.Name) {
				crd.Status.StoredVersions = append(crd.Status.StoredVersions, v.Name)
			}
			return
		}
	}
}

// Validate validates a new CRD.
func (strategy) Validate(_ context.Context, obj scheme.Object) field.ErrorList {
	return validation.ValidateCustomResourceDefinition(obj.(*apiextensions.CustomResourceDefinition))
}

// ValidateUpdate validates an update of a CRD (the rules a stored CRD
// already broke are kept off, as upstream ratchets them).
func (strategy) ValidateUpdate(_ context.Context, obj, old scheme.Object) field.ErrorList {
	return validation.ValidateCustomResourceDefinitionUpdate(obj.(*apiextensions.CustomResourceDefinition), old.(*apiextensions.CustomResourceDefinition))
}

func (strategy) WarningsOnCreate(context.Context, scheme.Object) []string                { return nil }
func (strategy) WarningsOnUpdate(context.Context, scheme.Object, scheme.Object) []string { return nil }
func (strategy) Canonicalize(scheme.Object)                                              {}

// AllowCreateOnUpdate is false: PUT on a missing CRD is a 404.
func (strategy) AllowCreateOnUpdate() bool { return false }

// AllowUnconditionalUpdate is false: a PUT must carry a resourceVersion.
func (strategy) AllowUnconditionalUpdate() bool { return false }

// statusStrategy is what the /status endpoint does: it writes status (and
// finalizers, which the finalizer controller removes through /status), and
// keeps spec, labels, annotations, owner references and generation.
//
// Mirrors statusStrategy in customresourcedefinition/strategy.go.
type statusStrategy struct {
	strategy
}

var _ registry.UpdateStrategy = statusStrategy{}

func (statusStrategy) PrepareForUpdate(_ context.Context, obj, old scheme.Object) {
	newCRD, oldCRD := obj.(*apiextensions.CustomResourceDefinition), old.(*apiextensions.CustomResourceDefinition)
	// The stored spec is shared, not copied (as upstream): old is this
	// update's own read of the stored CRD, and neither is changed after.
	newCRD.Spec = oldCRD.Spec
	newCRD.Labels = oldCRD.Labels
	newCRD.Annotations = oldCRD.Annotations
	newCRD.OwnerReferences = oldCRD.OwnerReferences
	newCRD.Generation = oldCRD.Generation
	newCRD.SelfLink = oldCRD.SelfLink
}

// CopyForUpdate copies a CRD for a /status write's steps: metadata and
// status are copied, the spec is shared. PrepareForUpdate replaces the
// new object's spec with the stored one's, and no step of an update
// changes a spec in place (the rule of specmemo.go), so a status write
// copies no schema.
func (statusStrategy) CopyForUpdate(obj scheme.Object) scheme.Object {
	crd := obj.(*apiextensions.CustomResourceDefinition)
	return &apiextensions.CustomResourceDefinition{
		TypeMeta:   crd.TypeMeta,
		ObjectMeta: deepcopy.Copy(crd.ObjectMeta),
		Spec:       crd.Spec,
		Status:     deepcopy.Copy(crd.Status),
	}
}

var _ registry.UpdateCopier = statusStrategy{}

func (statusStrategy) ValidateUpdate(_ context.Context, obj, old scheme.Object) field.ErrorList {
	return validation.ValidateUpdateCustomResourceDefinitionStatus(obj.(*apiextensions.CustomResourceDefinition), old.(*apiextensions.CustomResourceDefinition))
}
