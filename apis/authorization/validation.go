package authorization

import (
	"fmt"
	"reflect"

	metav1 "github.com/crdlab/crdlab/apis/meta/v1"
	"github.com/crdlab/crdlab/apis/validation/field"
)

// ValidateSelfSubjectAccessReview: exactly one of resourceAttributes and
// nonResourceAttributes, well-formed selector attributes, and empty
// metadata (a review is never stored, so it has no name).
//
// Mirrors ValidateSelfSubjectAccessReview in
// pkg/apis/authorization/validation/validation.go.
func ValidateSelfSubjectAccessReview(sar *SelfSubjectAccessReview) field.ErrorList {
	var errs field.ErrorList
	spec, fldPath := sar.Spec, field.NewPath("spec")
	if (spec.ResourceAttributes != nil) == (spec.NonResourceAttributes != nil) {
		errs = append(errs, field.Invalid(fldPath, spec.NonResourceAttributes, `exactly one of nonResourceAttributes or resourceAttributes must be specified`))
	}
	if ra := spec.ResourceAttributes; ra != nil {
		p := field.NewPath("spec.resourceAttributes")
		if s := ra.FieldSelector; s != nil {
			errs = append(errs, validateSelectorAttributes(s.RawSelector, len(s.Requirements), p.Child("fieldSelector"))...)
		}
		if s := ra.LabelSelector; s != nil {
			errs = append(errs, validateSelectorAttributes(s.RawSelector, len(s.Requirements), p.Child("labelSelector"))...)
		}
	}
	meta := sar.ObjectMeta
	meta.ManagedFields = nil
	if !reflect.DeepEqual(metav1.ObjectMeta{}, meta) {
		errs = append(errs, field.Invalid(field.NewPath("metadata"), sar.ObjectMeta, `must be empty`))
	}
	return errs
}

// validateSelectorAttributes: a raw selector or requirements, not both,
// not neither.
func validateSelectorAttributes(raw string, requirements int, fldPath *field.Path) field.ErrorList {
	switch {
	case raw != "" && requirements > 0:
		return field.ErrorList{field.Invalid(fldPath.Child("rawSelector"), raw, "may not specified at the same time as requirements")}
	case raw == "" && requirements == 0:
		return field.ErrorList{field.Required(fldPath.Child("requirements"), fmt.Sprintf("when %s is specified, requirements or rawSelector is required", fldPath))}
	}
	return nil
}
