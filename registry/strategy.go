package registry

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"

	apierrors "github.com/crdlab/crdlab/apis/errors"
	metav1 "github.com/crdlab/crdlab/apis/meta/v1"
	"github.com/crdlab/crdlab/apis/validation"
	"github.com/crdlab/crdlab/apis/validation/field"
	"github.com/crdlab/crdlab/scheme"
	"github.com/crdlab/crdlab/storage"
)

// ObjectTyper says which kinds an object is. Strategies use it to name the
// kind in Invalid errors ("CronTab.stable.example.com \"x\" is invalid").
//
// Mirrors k8s.io/apimachinery/pkg/runtime.ObjectTyper (without
// Recognizes).
type ObjectTyper interface {
	ObjectKinds(obj scheme.Object) ([]scheme.GroupVersionKind, error)
}

// NameGenerator turns a generateName prefix into a name.
//
// Mirrors k8s.io/apiserver/pkg/storage/names.NameGenerator.
type NameGenerator interface {
	GenerateName(base string) string
}

// CreateStrategy is what one resource does on create, around the generic
// steps of Store.Create. Methods are called in this order:
// PrepareForCreate, Validate, WarningsOnCreate, Canonicalize.
//
// Mirrors k8s.io/apiserver/pkg/registry/rest.RESTCreateStrategy.
type CreateStrategy interface {
	ObjectTyper
	NameGenerator
	// NamespaceScoped reports whether objects live in namespaces.
	NamespaceScoped() bool
	// PrepareForCreate normalizes obj before validation: clears status,
	// sets generation, drops fields that are not persisted.
	PrepareForCreate(ctx context.Context, obj scheme.Object)
	// Validate returns what is wrong with obj; it must not change it.
	Validate(ctx context.Context, obj scheme.Object) field.ErrorList
	// WarningsOnCreate returns warnings for the client; must not change obj.
	WarningsOnCreate(ctx context.Context, obj scheme.Object) []string
	// Canonicalize puts obj in canonical form once it is valid.
	Canonicalize(obj scheme.Object)
}

// UpdateStrategy is what one resource does on update. Methods are called in
// this order: PrepareForUpdate, ValidateUpdate, WarningsOnUpdate,
// Canonicalize.
//
// Mirrors k8s.io/apiserver/pkg/registry/rest.RESTUpdateStrategy.
type UpdateStrategy interface {
	ObjectTyper
	// NamespaceScoped reports whether objects live in namespaces.
	NamespaceScoped() bool
	// AllowCreateOnUpdate reports whether PUT may create a missing object.
	AllowCreateOnUpdate() bool
	// PrepareForUpdate normalizes obj, given the stored old object: keeps
	// the parts this endpoint may not change, bumps generation.
	PrepareForUpdate(ctx context.Context, obj, old scheme.Object)
	// ValidateUpdate returns what is wrong with the change from old to obj.
	ValidateUpdate(ctx context.Context, obj, old scheme.Object) field.ErrorList
	// WarningsOnUpdate returns warnings for the client.
	WarningsOnUpdate(ctx context.Context, obj, old scheme.Object) []string
	// Canonicalize puts obj in canonical form once it is valid.
	Canonicalize(obj scheme.Object)
	// AllowUnconditionalUpdate reports whether an update without a
	// resourceVersion overwrites the stored object (true) or is rejected
	// (false: "metadata.resourceVersion: must be specified for an update").
	AllowUnconditionalUpdate() bool
}

// UpdateCopier may be implemented by an UpdateStrategy whose updates
// never change a part of the object in place: CopyForUpdate copies an
// object for an update's steps (the transformers of UpdatedObjectInfo,
// PrepareForUpdate, validation), sharing that part. Store.Update uses it
// instead of DeepCopyObject for the stored object it hands to the
// transformers, for a DefaultUpdatedObjectInfo's body and for what it
// hands to the validating admission (which only reads). The CRD
// /status strategy shares the spec: PrepareForUpdate replaces the new
// object's spec with the stored one, which nothing changes in place.
//
// Not upstream: upstream's Store hands the stored object over uncopied
// and DefaultUpdatedObjectInfo deep-copies the body.
type UpdateCopier interface {
	CopyForUpdate(obj scheme.Object) scheme.Object
}

// DeleteStrategy is what one resource does on delete. crdlab's resources
// have no graceful deletion (pods do, upstream), so it only types objects.
//
// Mirrors k8s.io/apiserver/pkg/registry/rest.RESTDeleteStrategy.
type DeleteStrategy interface {
	ObjectTyper
}

// CauseValidator may be implemented by a CreateStrategy or UpdateStrategy
// whose checks come as ready Status causes rather than field errors: the
// custom resource strategy runs the handler's schema validator, which
// answers in causes. Store appends these causes to those of Validate /
// ValidateUpdate in the same Invalid error.
//
// Not upstream: upstream's schema validator returns a field.ErrorList.
type CauseValidator interface {
	ValidateCauses(ctx context.Context, obj scheme.Object) []metav1.StatusCause
	ValidateUpdateCauses(ctx context.Context, obj, old scheme.Object) []metav1.StatusCause
}

// PlainStrategy is the part of a create and update strategy that a
// namespaced kind with nothing to prepare, warn about or canonicalize
// shares: ConfigMap, Secret, Event and Lease embed it, and write out only
// what is theirs (Validate, ValidateUpdate, AllowCreateOnUpdate,
// AllowUnconditionalUpdate, and Secret's PrepareForUpdate).
//
// Not upstream: each upstream strategy.go writes these no-ops out.
type PlainStrategy struct {
	ObjectTyper
	SimpleNameGenerator
}

// NamespaceScoped is true.
func (PlainStrategy) NamespaceScoped() bool { return true }

// PrepareForCreate changes nothing.
func (PlainStrategy) PrepareForCreate(context.Context, scheme.Object) {}

// PrepareForUpdate changes nothing.
func (PlainStrategy) PrepareForUpdate(context.Context, scheme.Object, scheme.Object) {}

// WarningsOnCreate has no warnings.
func (PlainStrategy) WarningsOnCreate(context.Context, scheme.Object) []string { return nil }

// WarningsOnUpdate has no warnings.
func (PlainStrategy) WarningsOnUpdate(context.Context, scheme.Object, scheme.Object) []string {
	return nil
}

// Canonicalize changes nothing.
func (PlainStrategy) Canonicalize(scheme.Object) {}

// SimpleNameGenerator appends five random characters to a generateName
// prefix, cutting the prefix so that the name fits in 63 characters.
//
// Mirrors k8s.io/apiserver/pkg/storage/names.SimpleNameGenerator.
type SimpleNameGenerator struct{}

// The generated suffix: upstream's utilrand alphabet has no vowels (no
// words) and no look-alikes (0/o, 1/l, 3/e).
const (
	nameAlphabet           = "bcdfghjklmnpqrstvwxz2456789"
	randomNameLength       = 5
	maxGeneratedNameLength = 63 - randomNameLength
)

// GenerateName returns base followed by five random characters.
func (SimpleNameGenerator) GenerateName(base string) string {
	if len(base) > maxGeneratedNameLength {
		base = base[:maxGeneratedNameLength]
	}
	b := make([]byte, randomNameLength)
	for i := range b {
		b[i] = nameAlphabet[rand.IntN(len(nameAlphabet))]
	}
	return base + string(b)
}

// objectKind returns the kind typer gives obj, for error messages.
func objectKind(typer ObjectTyper, obj scheme.Object) (scheme.GroupVersionKind, error) {
	kinds, err := typer.ObjectKinds(obj)
	if err != nil {
		return scheme.GroupVersionKind{}, apierrors.NewInternalError(err)
	}
	if len(kinds) == 0 {
		return scheme.GroupVersionKind{}, apierrors.NewInternalError(fmt.Errorf("no kind for %T", obj))
	}
	return kinds[0], nil
}

// NewInvalid is apierrors.NewInvalid for a field.ErrorList (plus causes
// that came ready-made): one cause per error, its message without the
// field path, as upstream's errors.NewInvalid builds them.
func NewInvalid(gk scheme.GroupKind, name string, errs field.ErrorList, more ...metav1.StatusCause) *apierrors.StatusError {
	return apierrors.NewInvalid(gk, name, append(StatusCauses(errs), more...))
}

// StatusCauses turns field errors into Status causes.
// Repeated errors (the generic and a strategy's checks may both see a bad
// label) are reported once, as upstream's aggregate message prints them.
func StatusCauses(errs field.ErrorList) []metav1.StatusCause {
	causes := make([]metav1.StatusCause, 0, len(errs))
	seen := map[metav1.StatusCause]bool{}
	for _, e := range errs {
		c := metav1.StatusCause{Type: metav1.CauseType(e.Type), Message: e.ErrorBody(), Field: e.Field}
		if !seen[c] {
			seen[c] = true
			causes = append(causes, c)
		}
	}
	return causes
}

// ExpectedNamespaceForScope returns the namespace an object must have: the
// request's for namespaced resources, none for cluster-scoped ones.
//
// Mirrors rest.ExpectedNamespaceForScope.
func ExpectedNamespaceForScope(requestNamespace string, namespaceScoped bool) string {
	if namespaceScoped {
		return requestNamespace
	}
	return ""
}

// EnsureObjectNamespaceMatchesRequestNamespace fills an object's empty
// namespace from the request, clears it for cluster-scoped resources, and
// rejects a namespace that differs from the request's.
//
// Mirrors rest.EnsureObjectNamespaceMatchesRequestNamespace.
func EnsureObjectNamespaceMatchesRequestNamespace(requestNamespace string, obj metav1.Object) error {
	objNamespace := obj.GetNamespace()
	switch {
	case objNamespace == requestNamespace:
		return nil
	case objNamespace == "":
		obj.SetNamespace(requestNamespace)
		return nil
	case requestNamespace == "":
		obj.SetNamespace("")
		return nil
	default:
		return apierrors.NewBadRequest("the namespace of the provided object does not match the namespace sent on the request")
	}
}

// validatePathSegmentName is the name check every resource gets: a name
// must be usable as one segment of a URL path. Strategies add stricter
// checks (DNS subdomain) of their own.
//
// Mirrors k8s.io/apimachinery/pkg/api/validation/path.ValidatePathSegmentName.
func validatePathSegmentName(name string, prefix bool) []string {
	var msgs []string
	if !prefix {
		for _, illegal := range []string{".", ".."} {
			if name == illegal {
				msgs = append(msgs, fmt.Sprintf("may not be '%s'", illegal))
			}
		}
	}
	for _, illegal := range []string{"/", "%"} {
		if strings.Contains(name, illegal) {
			msgs = append(msgs, fmt.Sprintf("may not contain '%s'", illegal))
		}
	}
	return msgs
}

// BeforeCreate runs the generic create steps on obj, whose system fields
// (uid, creationTimestamp) and generated name are already set: the
// namespace check, the strategy's PrepareForCreate and Validate, the
// generic metadata checks, warnings and Canonicalize. It returns nil if the
// object may be created.
//
// Mirrors rest.BeforeCreate.
func BeforeCreate(ctx context.Context, strategy CreateStrategy, obj storage.Object) error {
	gvk, err := objectKind(strategy, obj)
	if err != nil {
		return err
	}
	if len(obj.GetGenerateName()) > 0 && len(obj.GetName()) == 0 {
		return apierrors.NewInternalError(fmt.Errorf("metadata.name was not generated"))
	}
	if err := EnsureObjectNamespaceMatchesRequestNamespace(ExpectedNamespaceForScope(NamespaceFrom(ctx), strategy.NamespaceScoped()), obj); err != nil {
		return err
	}

	strategy.PrepareForCreate(ctx, obj)

	errs := strategy.Validate(ctx, obj)
	var causes []metav1.StatusCause
	if cv, ok := strategy.(CauseValidator); ok {
		causes = cv.ValidateCauses(ctx, obj)
	}
	if len(errs) > 0 || len(causes) > 0 {
		return NewInvalid(gvk.GroupKind(), obj.GetName(), errs, causes...)
	}
	// The generic checks come after the strategy's, so that its more
	// specific messages win (upstream's order).
	if errs := validation.ValidateObjectMeta(obj, strategy.NamespaceScoped(), validatePathSegmentName, field.NewPath("metadata")); len(errs) > 0 {
		return NewInvalid(gvk.GroupKind(), obj.GetName(), errs)
	}
	for _, w := range strategy.WarningsOnCreate(ctx, obj) {
		AddWarning(ctx, w)
	}
	strategy.Canonicalize(obj)
	return nil
}

// BeforeUpdate runs the generic update steps on obj, given the stored old
// object: the namespace check, generation kept from old (the strategy may
// bump it), PrepareForUpdate, system fields kept from old, the generic
// metadata checks and the strategy's ValidateUpdate, warnings and
// Canonicalize.
//
// Mirrors rest.BeforeUpdate.
func BeforeUpdate(ctx context.Context, strategy UpdateStrategy, obj, old storage.Object) error {
	gvk, err := objectKind(strategy, obj)
	if err != nil {
		return err
	}
	if err := EnsureObjectNamespaceMatchesRequestNamespace(ExpectedNamespaceForScope(NamespaceFrom(ctx), strategy.NamespaceScoped()), obj); err != nil {
		return err
	}

	// Clients cannot set generation; the strategy bumps it.
	obj.SetGeneration(old.GetGeneration())

	strategy.PrepareForUpdate(ctx, obj, old)

	if len(obj.GetUID()) == 0 {
		obj.SetUID(old.GetUID())
	}
	if ct := old.GetCreationTimestamp(); !ct.IsZero() {
		obj.SetCreationTimestamp(ct)
	}
	// An update can never remove or move a deletion timestamp, nor remove
	// the grace period.
	if old.GetDeletionTimestamp() != nil {
		obj.SetDeletionTimestamp(old.GetDeletionTimestamp())
	}
	if old.GetDeletionGracePeriodSeconds() != nil && obj.GetDeletionGracePeriodSeconds() == nil {
		obj.SetDeletionGracePeriodSeconds(old.GetDeletionGracePeriodSeconds())
	}

	errs := validation.ValidateObjectMeta(obj, strategy.NamespaceScoped(), validatePathSegmentName, field.NewPath("metadata"))
	errs = append(errs, validation.ValidateObjectMetaUpdate(obj, old, field.NewPath("metadata"))...)
	errs = append(errs, strategy.ValidateUpdate(ctx, obj, old)...)
	var causes []metav1.StatusCause
	if cv, ok := strategy.(CauseValidator); ok {
		causes = cv.ValidateUpdateCauses(ctx, obj, old)
	}
	if len(errs) > 0 || len(causes) > 0 {
		return NewInvalid(gvk.GroupKind(), obj.GetName(), errs, causes...)
	}
	for _, w := range strategy.WarningsOnUpdate(ctx, obj, old) {
		AddWarning(ctx, w)
	}
	strategy.Canonicalize(obj)
	return nil
}

// BeforeDelete checks the delete options and, early, their preconditions
// (Store checks them again, atomically, when it writes).
//
// Mirrors rest.BeforeDelete for strategies without graceful deletion.
func BeforeDelete(ctx context.Context, strategy DeleteStrategy, obj storage.Object, opts *metav1.DeleteOptions) error {
	gvk, err := objectKind(strategy, obj)
	if err != nil {
		return err
	}
	if errs := ValidateDeleteOptions(opts); len(errs) > 0 {
		return NewInvalid(scheme.GroupKind{Group: metav1.GroupName, Kind: "DeleteOptions"}, "", errs)
	}
	if p := opts.Preconditions; p != nil {
		// Upstream names the kind where a resource is expected here.
		gr := scheme.GroupResource{Group: gvk.Group, Resource: gvk.Kind}
		if p.UID != nil && *p.UID != obj.GetUID() {
			return apierrors.NewConflict(gr, obj.GetName(), fmt.Errorf("the UID in the precondition (%s) does not match the UID in record (%s). The object might have been deleted and then recreated", *p.UID, obj.GetUID()))
		}
		if p.ResourceVersion != nil && *p.ResourceVersion != obj.GetResourceVersion() {
			return apierrors.NewConflict(gr, obj.GetName(), fmt.Errorf("the ResourceVersion in the precondition (%s) does not match the ResourceVersion in record (%s). The object might have been modified", *p.ResourceVersion, obj.GetResourceVersion()))
		}
	}
	return nil
}
