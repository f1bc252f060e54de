package validation

import (
	"fmt"
	"unicode"

	metav1 "github.com/crdlab/crdlab/apis/meta/v1"
	"github.com/crdlab/crdlab/apis/validation/field"
)

// FieldManagerMaxLength is the longest fieldManager accepted, in bytes.
const FieldManagerMaxLength = 128

// maxSubresourceNameLength is the longest subresource of a managedFields
// entry.
const maxSubresourceNameLength = 256

// ValidateFieldManager checks a fieldManager (a query parameter or an
// entry's manager): at most FieldManagerMaxLength bytes, printable
// characters only. "" is valid: the server derives one.
//
// Mirrors ValidateFieldManager in k8s.io/apimachinery/pkg/apis/meta/v1/validation.
func ValidateFieldManager(manager string, fldPath *field.Path) field.ErrorList {
	var errs field.ErrorList
	if len(manager) > FieldManagerMaxLength {
		errs = append(errs, field.TooLong(fldPath, "", FieldManagerMaxLength))
	}
	for i, r := range manager {
		if !unicode.IsPrint(r) {
			errs = append(errs, field.Invalid(fldPath, manager, fmt.Sprintf("invalid character %#U (at position %d)", r, i)))
		}
	}
	return errs
}

// ValidateManagedFields checks the managedFields an object is stored with:
// each entry's operation is Apply or Update, its fieldsType FieldsV1 (or
// unset), its manager a valid fieldManager, its subresource not too long.
//
// Mirrors ValidateManagedFields in k8s.io/apimachinery/pkg/apis/meta/v1/validation.
func ValidateManagedFields(entries []metav1.ManagedFieldsEntry, fldPath *field.Path) field.ErrorList {
	var errs field.ErrorList
	for i, e := range entries {
		p := fldPath.Index(i)
		switch e.Operation {
		case "":
			errs = append(errs, field.Required(p.Child("operation"), "must not be empty"))
		case metav1.ManagedFieldsOperationApply, metav1.ManagedFieldsOperationUpdate:
		default:
			errs = append(errs, field.NotSupported(p.Child("operation"), e.Operation,
				[]metav1.ManagedFieldsOperationType{metav1.ManagedFieldsOperationApply, metav1.ManagedFieldsOperationUpdate}))
		}
		if e.FieldsType != "" && e.FieldsType != "FieldsV1" {
			errs = append(errs, field.Invalid(p.Child("fieldsType"), e.FieldsType, "must be `FieldsV1`"))
		}
		errs = append(errs, ValidateFieldManager(e.Manager, p.Child("manager"))...)
		if len(e.Subresource) > maxSubresourceNameLength {
			errs = append(errs, field.TooLong(p.Child("subresource"), "", maxSubresourceNameLength))
		}
	}
	return errs
}
