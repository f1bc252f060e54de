package customresource

import (
	"context"
	"fmt"
	"math"
	"reflect"
	"sort"
	"strconv"
	"strings"

	metav1 "github.com/crdlab/crdlab/apis/meta/v1"
	"github.com/crdlab/crdlab/apis/meta/v1/unstructured"
	"github.com/crdlab/crdlab/apis/validation"
	"github.com/crdlab/crdlab/apis/validation/field"
	utilvalidation "github.com/crdlab/crdlab/machinery/validation"
	"github.com/crdlab/crdlab/registry"
	"github.com/crdlab/crdlab/scheme"
	"github.com/crdlab/crdlab/storage"
)

// strategy is what custom resources of one CRD do on create, update and
// delete through the main endpoint.
//
// Mirrors customResourceStrategy in
// k8s.io/apiextensions-apiserver/pkg/registry/customresource/strategy.go.
type strategy struct {
	registry.SimpleNameGenerator

	// gvk is the kind of the stored objects (the storage version).
	gvk        scheme.GroupVersionKind
	namespaced bool
	// hasStatus says whether the status subresource is on: then the main
	// endpoint cannot write .status (and /status can write nothing else).
	hasStatus bool
	scale     *ScaleConfig
	// validator and validateUpdate are the schema checks from the handler.
	validator      func(ctx context.Context, obj *unstructured.Unstructured) []metav1.StatusCause
	validateUpdate func(ctx context.Context, obj, old *unstructured.Unstructured) []metav1.StatusCause
	// selectableFields are the field selector names besides metadata.*,
	// e.g. "spec.color", with the path they read.
	selectableFields []selectableField
}

type selectableField struct {
	name string   // "spec.color"
	path []string // ["spec", "color"]
}

var (
	_ registry.CreateStrategy = strategy{}
	_ registry.UpdateStrategy = strategy{}
	_ registry.DeleteStrategy = strategy{}
	_ registry.CauseValidator = strategy{}
)

// ObjectKinds answers the CRD's kind in the storage version for every
// object, as upstream's unstructured typer reads it from the object.
func (a strategy) ObjectKinds(scheme.Object) ([]scheme.GroupVersionKind, error) {
	return []scheme.GroupVersionKind{a.gvk}, nil
}

func (a strategy) NamespaceScoped() bool { return a.namespaced }

// PrepareForCreate drops status if the status subresource is on (clients
// set status only through /status) and sets generation to 1.
func (a strategy) PrepareForCreate(_ context.Context, obj scheme.Object) {
	u := obj.(*unstructured.Unstructured)
	if a.hasStatus {
		delete(u.Object, "status")
	}
	u.SetGeneration(1)
}

// PrepareForUpdate keeps the stored status if the status subresource is on,
// and bumps generation if anything but metadata changed.
//
// Without the status subresource, status is part of what a client writes
// through the main endpoint, so a status change bumps generation too (as
// upstream: copyNonMetadata keeps status).
func (a strategy) PrepareForUpdate(_ context.Context, obj, old scheme.Object) {
	newU, oldU := obj.(*unstructured.Unstructured), old.(*unstructured.Unstructured)
	if a.hasStatus {
		oldStatus, oldHas := oldU.Object["status"]
		_, newHas := newU.Object["status"]
		switch {
		case oldHas:
			newU.Object["status"] = oldStatus
		case newHas:
			delete(newU.Object, "status")
		}
	}
	if !reflect.DeepEqual(withoutMetadata(newU.Object), withoutMetadata(oldU.Object)) {
		newU.SetGeneration(oldU.GetGeneration() + 1)
	}
}

// withoutMetadata returns a shallow copy of obj without "metadata".
func withoutMetadata(obj map[string]any) map[string]any {
	out := make(map[string]any, len(obj))
	for k, v := range obj {
		if k != "metadata" {
			out[k] = v
		}
	}
	return out
}

// Validate checks apiVersion/kind, metadata (the name must be a DNS
// subdomain) and the scale paths; the schema checks come from
// ValidateCauses.
//
// Mirrors customResourceStrategy.Validate and customResourceValidator.Validate.
func (a strategy) Validate(ctx context.Context, obj scheme.Object) field.ErrorList {
	u := obj.(*unstructured.Unstructured)
	if errs := a.validateTypeMeta(u); len(errs) > 0 {
		return errs
	}
	errs := validation.ValidateObjectMeta(u, a.namespaced, validation.NameIsDNSSubdomain, field.NewPath("metadata"))
	errs = append(errs, a.validateScaleSpec(u)...)
	errs = append(errs, a.validateScaleStatus(u)...)
	return errs
}

// ValidateCauses runs the handler's schema validator.
func (a strategy) ValidateCauses(ctx context.Context, obj scheme.Object) []metav1.StatusCause {
	if a.validator == nil {
		return nil
	}
	return a.validator(ctx, obj.(*unstructured.Unstructured))
}

// ValidateUpdate checks apiVersion/kind and the scale paths. The metadata
// update checks are the Store's (BeforeUpdate), so that they are not
// reported twice.
//
// Mirrors customResourceValidator.ValidateUpdate.
func (a strategy) ValidateUpdate(ctx context.Context, obj, old scheme.Object) field.ErrorList {
	u := obj.(*unstructured.Unstructured)
	if errs := a.validateTypeMeta(u); len(errs) > 0 {
		return errs
	}
	return append(a.validateScaleSpec(u), a.validateScaleStatus(u)...)
}

// ValidateUpdateCauses runs the handler's schema validator on an update.
func (a strategy) ValidateUpdateCauses(ctx context.Context, obj, old scheme.Object) []metav1.StatusCause {
	newU, oldU := obj.(*unstructured.Unstructured), old.(*unstructured.Unstructured)
	switch {
	case a.validateUpdate != nil:
		return a.validateUpdate(ctx, newU, oldU)
	case a.validator != nil:
		return a.validator(ctx, newU)
	}
	return nil
}

// WarningsOnCreate warns about finalizer names that are not
// domain-qualified. Mirrors (customResourceStrategy).WarningsOnCreate.
func (a strategy) WarningsOnCreate(_ context.Context, obj scheme.Object) []string {
	return finalizerWarnings(obj, nil)
}

// WarningsOnUpdate warns about the finalizers an update adds whose names
// are not domain-qualified. Mirrors (customResourceStrategy).WarningsOnUpdate.
func (a strategy) WarningsOnUpdate(_ context.Context, obj, old scheme.Object) []string {
	return finalizerWarnings(obj, old)
}

// standardFinalizers are the finalizers Kubernetes itself defines, which
// need no domain.
var standardFinalizers = map[string]bool{metav1.FinalizerOrphanDependents: true, metav1.FinalizerDeleteDependents: true, "kubernetes": true}

// finalizerWarnings returns a warning for each finalizer obj adds (to
// old's, if any) that is not a qualified name, or that has no "/" and is
// not a standard one, in name order.
//
// Mirrors generateWarningsFromObj and validateKubeFinalizerName in
// k8s.io/apiextensions-apiserver/pkg/registry/customresource (strategy.go,
// validator.go).
func finalizerWarnings(obj, old scheme.Object) []string {
	m, ok := metav1.Accessor(obj)
	if !ok {
		return nil
	}
	had := map[string]bool{}
	if old != nil {
		if o, ok := metav1.Accessor(old); ok {
			for _, f := range o.GetFinalizers() {
				had[f] = true
			}
		}
	}
	added := map[string]bool{}
	for _, f := range m.GetFinalizers() {
		if !had[f] {
			added[f] = true
		}
	}
	names := make([]string, 0, len(added))
	for f := range added {
		names = append(names, f)
	}
	sort.Strings(names)
	const fldPath = "metadata.finalizers"
	var warnings []string
	for _, f := range names {
		for _, msg := range utilvalidation.IsQualifiedName(f) {
			warnings = append(warnings, fmt.Sprintf("%s: %q: %s", fldPath, f, msg))
		}
		if !strings.Contains(f, "/") && !standardFinalizers[f] {
			if strings.Contains(f, ".") {
				warnings = append(warnings, fmt.Sprintf("%s: %q: prefer a domain-qualified finalizer name including a path (/) to avoid accidental conflicts with other finalizer writers", fldPath, f))
			} else {
				warnings = append(warnings, fmt.Sprintf("%s: %q: prefer a domain-qualified finalizer name to avoid accidental conflicts with other finalizer writers", fldPath, f))
			}
		}
	}
	return warnings
}
func (a strategy) Canonicalize(scheme.Object) {}

// AllowCreateOnUpdate is false: PUT on a missing custom resource is a 404.
func (a strategy) AllowCreateOnUpdate() bool { return false }

// AllowUnconditionalUpdate is false: a PUT must carry the resourceVersion
// it read ("metadata.resourceVersion: must be specified for an update").
func (a strategy) AllowUnconditionalUpdate() bool { return false }

// validateTypeMeta checks that the object is of the CRD's kind in the
// storage version (the handler converts before calling the store).
//
// Mirrors customResourceValidator.ValidateTypeMeta.
func (a strategy) validateTypeMeta(u *unstructured.Unstructured) field.ErrorList {
	var errs field.ErrorList
	if u.GetKind() != a.gvk.Kind {
		errs = append(errs, field.Invalid(field.NewPath("kind"), u.GetKind(), fmt.Sprintf("must be %v", a.gvk.Kind)))
	}
	if want := a.gvk.GroupVersion().String(); u.GetAPIVersion() != want {
		errs = append(errs, field.Invalid(field.NewPath("apiVersion"), u.GetAPIVersion(), fmt.Sprintf("must be %v", want)))
	}
	return errs
}

// validateScaleSpec checks the spec replicas of a scalable resource: a
// whole number in [0, MaxInt32], if present.
//
// Mirrors customResourceValidator.ValidateScaleSpec.
func (a strategy) validateScaleSpec(u *unstructured.Unstructured) field.ErrorList {
	if a.scale == nil {
		return nil
	}
	return validateReplicas(u, a.scale.SpecReplicasPath)
}

// validateScaleStatus checks the status replicas (as the spec replicas)
// and that the label selector, if present, is a string.
//
// Mirrors customResourceValidator.ValidateScaleStatus.
func (a strategy) validateScaleStatus(u *unstructured.Unstructured) field.ErrorList {
	if a.scale == nil {
		return nil
	}
	errs := validateReplicas(u, a.scale.StatusReplicasPath)
	if p := a.scale.LabelSelectorPath; p != "" {
		if _, _, err := unstructured.NestedString(u.Object, splitPath(p)...); err != nil {
			errs = append(errs, field.Invalid(field.NewPath(p), "", err.Error()))
		}
	}
	return errs
}

func validateReplicas(u *unstructured.Unstructured, path string) field.ErrorList {
	replicas, _, err := unstructured.NestedInt64(u.Object, splitPath(path)...)
	switch {
	case err != nil:
		return field.ErrorList{field.Invalid(field.NewPath(path), replicas, err.Error())}
	case replicas < 0:
		return field.ErrorList{field.Invalid(field.NewPath(path), replicas, "should be a non-negative integer")}
	case replicas > math.MaxInt32:
		return field.ErrorList{field.Invalid(field.NewPath(path), replicas, fmt.Sprintf("should be less than or equal to %v", math.MaxInt32))}
	}
	return nil
}

// splitPath turns a simple JSON path (".spec.replicas") into field names.
func splitPath(path string) []string {
	return strings.Split(strings.TrimPrefix(path, "."), ".")
}

// getAttrs returns the labels of a custom resource and its selectable
// fields: metadata.name, metadata.namespace (namespaced resources) and the
// CRD's selectableFields, as strings.
//
// Mirrors customResourceStrategy.GetAttrs and selectableFieldSet.
func (a strategy) getAttrs(obj storage.Object) (map[string]string, map[string]string, error) {
	fields := map[string]string{"metadata.name": obj.GetName()}
	if a.namespaced {
		fields["metadata.namespace"] = obj.GetNamespace()
	}
	if len(a.selectableFields) > 0 {
		u, ok := obj.(*unstructured.Unstructured)
		if !ok {
			return nil, nil, fmt.Errorf("customresource: %T is not unstructured", obj)
		}
		for _, sf := range a.selectableFields {
			v, found, _ := unstructured.NestedFieldNoCopy(u.Object, sf.path...)
			if !found {
				continue
			}
			switch v := v.(type) {
			case string:
				fields[sf.name] = v
			case bool:
				fields[sf.name] = strconv.FormatBool(v)
			case int64:
				fields[sf.name] = strconv.FormatInt(v, 10)
			case float64:
				fields[sf.name] = strconv.FormatFloat(v, 'g', -1, 64)
			}
		}
	}
	return obj.GetLabels(), fields, nil
}

// checkFieldLabel rejects field selector names the resource has no value
// for.
//
// Mirrors (*crConverter).ConvertFieldLabel in customresource_handler.go.
func (a strategy) checkFieldLabel(label string) error {
	switch {
	case label == "metadata.name":
		return nil
	case a.namespaced && label == "metadata.namespace":
		return nil
	}
	for _, sf := range a.selectableFields {
		if sf.name == label {
			return nil
		}
	}
	return fmt.Errorf("field label not supported: %s", label)
}

// statusStrategy is what the /status endpoint does: it writes only
// .status, keeping every other part of the stored object.
//
// Mirrors statusStrategy in customresource/status_strategy.go.
type statusStrategy struct {
	strategy
}

var _ registry.UpdateStrategy = statusStrategy{}

// PrepareForUpdate copies the stored object and puts in the new status.
// The resourceVersion is the stored one too: Store has already checked
// that the request's matches it.
func (a statusStrategy) PrepareForUpdate(_ context.Context, obj, old scheme.Object) {
	newU, oldU := obj.(*unstructured.Unstructured), old.(*unstructured.Unstructured)
	status, ok := newU.Object["status"]
	// managedFields are the new ones: the field manager recorded this
	// status write in them.
	managedFields, hasManaged, _ := unstructured.NestedFieldNoCopy(newU.Object, "metadata", "managedFields")
	*newU = *oldU.DeepCopy()
	if ok {
		newU.Object["status"] = status
	} else {
		delete(newU.Object, "status")
	}
	if hasManaged {
		_ = unstructured.SetNestedField(newU.Object, managedFields, "metadata", "managedFields")
	} else {
		unstructured.RemoveNestedField(newU.Object, "metadata", "managedFields")
	}
}

// ValidateUpdate checks apiVersion/kind and the status scale paths.
//
// Mirrors customResourceValidator.ValidateStatusUpdate.
func (a statusStrategy) ValidateUpdate(ctx context.Context, obj, old scheme.Object) field.ErrorList {
	u := obj.(*unstructured.Unstructured)
	if errs := a.validateTypeMeta(u); len(errs) > 0 {
		return errs
	}
	return a.validateScaleStatus(u)
}
