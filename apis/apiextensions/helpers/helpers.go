package helpers

import (
	"fmt"
	"time"

	kubeversion "github.com/crdlab/crdlab/machinery/version"

	apiextensionsv1 "github.com/crdlab/crdlab/apis/apiextensions/v1"
	metav1 "github.com/crdlab/crdlab/apis/meta/v1"
)

// SetCRDCondition sets (adds or updates) newCondition on crd. The
// condition's LastTransitionTime is now, and it is written only when the
// status changes (or was never set): a controller that keeps reporting
// Established=True does not move the time.
//
// Mirrors apihelpers.SetCRDCondition in k8s.io/apiextensions-apiserver/pkg/apihelpers/helpers.go.
func SetCRDCondition(crd *apiextensionsv1.CustomResourceDefinition, newCondition apiextensionsv1.CustomResourceDefinitionCondition) {
	SetCRDConditionAt(crd, newCondition, time.Now())
}

// SetCRDConditionAt is SetCRDCondition with the clock given, for callers
// (and tests) that inject time.
func SetCRDConditionAt(crd *apiextensionsv1.CustomResourceDefinition, newCondition apiextensionsv1.CustomResourceDefinitionCondition, now time.Time) {
	newCondition.LastTransitionTime = metav1.NewTime(now)
	existing := FindCRDCondition(crd, newCondition.Type)
	if existing == nil {
		crd.Status.Conditions = append(crd.Status.Conditions, newCondition)
		return
	}
	if existing.Status != newCondition.Status || existing.LastTransitionTime.IsZero() {
		existing.LastTransitionTime = newCondition.LastTransitionTime
	}
	existing.Status = newCondition.Status
	existing.Reason = newCondition.Reason
	existing.Message = newCondition.Message
	existing.ObservedGeneration = newCondition.ObservedGeneration
}

// RemoveCRDCondition removes the condition of the given type, if any.
func RemoveCRDCondition(crd *apiextensionsv1.CustomResourceDefinition, conditionType apiextensionsv1.CustomResourceDefinitionConditionType) {
	var kept []apiextensionsv1.CustomResourceDefinitionCondition
	for _, c := range crd.Status.Conditions {
		if c.Type != conditionType {
			kept = append(kept, c)
		}
	}
	crd.Status.Conditions = kept
}

// FindCRDCondition returns the condition of the given type (a pointer into
// crd.Status.Conditions), or nil.
func FindCRDCondition(crd *apiextensionsv1.CustomResourceDefinition, conditionType apiextensionsv1.CustomResourceDefinitionConditionType) *apiextensionsv1.CustomResourceDefinitionCondition {
	for i := range crd.Status.Conditions {
		if crd.Status.Conditions[i].Type == conditionType {
			return &crd.Status.Conditions[i]
		}
	}
	return nil
}

// IsCRDConditionTrue reports whether the condition is present and True.
func IsCRDConditionTrue(crd *apiextensionsv1.CustomResourceDefinition, conditionType apiextensionsv1.CustomResourceDefinitionConditionType) bool {
	return IsCRDConditionPresentAndEqual(crd, conditionType, apiextensionsv1.ConditionTrue)
}

// IsCRDConditionFalse reports whether the condition is present and False.
func IsCRDConditionFalse(crd *apiextensionsv1.CustomResourceDefinition, conditionType apiextensionsv1.CustomResourceDefinitionConditionType) bool {
	return IsCRDConditionPresentAndEqual(crd, conditionType, apiextensionsv1.ConditionFalse)
}

// IsCRDConditionPresentAndEqual reports whether the condition is present
// with the given status.
func IsCRDConditionPresentAndEqual(crd *apiextensionsv1.CustomResourceDefinition, conditionType apiextensionsv1.CustomResourceDefinitionConditionType, status apiextensionsv1.ConditionStatus) bool {
	c := FindCRDCondition(crd, conditionType)
	return c != nil && c.Status == status
}

// IsCRDConditionEquivalent reports whether two conditions say the same
// thing (ignoring LastTransitionTime).
func IsCRDConditionEquivalent(lhs, rhs *apiextensionsv1.CustomResourceDefinitionCondition) bool {
	if lhs == nil || rhs == nil {
		return lhs == rhs
	}
	return lhs.Type == rhs.Type && lhs.Status == rhs.Status && lhs.Reason == rhs.Reason &&
		lhs.Message == rhs.Message && lhs.ObservedGeneration == rhs.ObservedGeneration
}

// CRDHasFinalizer reports whether crd carries the finalizer.
func CRDHasFinalizer(crd *apiextensionsv1.CustomResourceDefinition, needle string) bool {
	for _, f := range crd.Finalizers {
		if f == needle {
			return true
		}
	}
	return false
}

// CRDRemoveFinalizer removes every occurrence of the finalizer.
func CRDRemoveFinalizer(crd *apiextensionsv1.CustomResourceDefinition, needle string) {
	var kept []string
	for _, f := range crd.Finalizers {
		if f != needle {
			kept = append(kept, f)
		}
	}
	crd.Finalizers = kept
}

// HasServedCRDVersion reports whether version is a served version of crd.
func HasServedCRDVersion(crd *apiextensionsv1.CustomResourceDefinition, version string) bool {
	for _, v := range crd.Spec.Versions {
		if v.Name == version {
			return v.Served
		}
	}
	return false
}

// ErrNoStorageVersion says a CRD has no version marked storage (validation
// forbids it, so seeing it means the object was not validated).
var ErrNoStorageVersion = fmt.Errorf("invalid apiextensionsv1.CustomResourceDefinition, no storage version")

// GetCRDStorageVersion returns the name of the storage version.
func GetCRDStorageVersion(crd *apiextensionsv1.CustomResourceDefinition) (string, error) {
	for _, v := range crd.Spec.Versions {
		if v.Storage {
			return v.Name, nil
		}
	}
	return "", ErrNoStorageVersion
}

// IsStoredVersion reports whether version is in status.storedVersions.
func IsStoredVersion(crd *apiextensionsv1.CustomResourceDefinition, version string) bool {
	for _, v := range crd.Status.StoredVersions {
		if v == version {
			return true
		}
	}
	return false
}

// VersionNotFoundError says a CRD has no version of that name.
type VersionNotFoundError struct {
	CRD     string
	Version string
}

func (e *VersionNotFoundError) Error() string {
	return fmt.Sprintf("version %s not found in apiextensionsv1.CustomResourceDefinition: %v", e.Version, e.CRD)
}

func findVersion(crd *apiextensionsv1.CustomResourceDefinition, version string) (*apiextensionsv1.CustomResourceDefinitionVersion, error) {
	for i := range crd.Spec.Versions {
		if crd.Spec.Versions[i].Name == version {
			return &crd.Spec.Versions[i], nil
		}
	}
	return nil, &VersionNotFoundError{CRD: crd.Name, Version: version}
}

// GetSchemaForVersion returns the schema of the version (nil if it has none).
func GetSchemaForVersion(crd *apiextensionsv1.CustomResourceDefinition, version string) (*apiextensionsv1.CustomResourceValidation, error) {
	v, err := findVersion(crd, version)
	if err != nil {
		return nil, err
	}
	return v.Schema, nil
}

// GetSubresourcesForVersion returns the subresources of the version.
func GetSubresourcesForVersion(crd *apiextensionsv1.CustomResourceDefinition, version string) (*apiextensionsv1.CustomResourceSubresources, error) {
	v, err := findVersion(crd, version)
	if err != nil {
		return nil, err
	}
	return v.Subresources, nil
}

// GetColumnsForVersion returns the additional printer columns of the version.
func GetColumnsForVersion(crd *apiextensionsv1.CustomResourceDefinition, version string) ([]apiextensionsv1.CustomResourceColumnDefinition, error) {
	v, err := findVersion(crd, version)
	if err != nil {
		return nil, err
	}
	return v.AdditionalPrinterColumns, nil
}

// GetSelectableFieldsForVersion returns the selectable fields of the version.
func GetSelectableFieldsForVersion(crd *apiextensionsv1.CustomResourceDefinition, version string) ([]apiextensionsv1.SelectableField, error) {
	v, err := findVersion(crd, version)
	if err != nil {
		return nil, err
	}
	return v.SelectableFields, nil
}

// GetDeprecationWarning returns the warning to send with responses of a
// deprecated version, or nil if the version is not deprecated: its
// deprecationWarning, else "<group>/<version> <Kind> is deprecated" and,
// if a later version is served and not deprecated, "; use
// <group>/<best such version> <Kind>".
//
// Mirrors the deprecation warnings of getOrCreateServingInfoFor and
// defaultDeprecationWarning in customresource_handler.go.
func GetDeprecationWarning(crd *apiextensionsv1.CustomResourceDefinition, version string) (*string, error) {
	v, err := findVersion(crd, version)
	if err != nil {
		return nil, err
	}
	if !v.Deprecated {
		return nil, nil
	}
	if v.DeprecationWarning != nil {
		return v.DeprecationWarning, nil
	}
	w := fmt.Sprintf("%s/%s %s is deprecated", crd.Spec.Group, v.Name, crd.Spec.Names.Kind)
	best := ""
	for _, other := range crd.Spec.Versions {
		if other.Served && !other.Deprecated && kubeversion.CompareKubeAwareVersionStrings(v.Name, other.Name) < 0 &&
			(best == "" || kubeversion.CompareKubeAwareVersionStrings(other.Name, best) > 0) {
			best = other.Name
		}
	}
	if best != "" {
		w += fmt.Sprintf("; use %s/%s %s", crd.Spec.Group, best, crd.Spec.Names.Kind)
	}
	return &w, nil
}
