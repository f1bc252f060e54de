package coordination

import (
	"github.com/crdlab/crdlab/apis/validation"
	"github.com/crdlab/crdlab/apis/validation/field"
)

// ValidateLease checks a new Lease: its metadata (a DNS subdomain name,
// in a namespace) and its spec.
//
// Mirrors ValidateLease in pkg/apis/coordination/validation/validation.go.
func ValidateLease(lease *Lease) field.ErrorList {
	errs := validation.ValidateObjectMeta(&lease.ObjectMeta, true, validation.NameIsDNSSubdomain, field.NewPath("metadata"))
	return append(errs, ValidateLeaseSpec(&lease.Spec, field.NewPath("spec"))...)
}

// ValidateLeaseUpdate checks a changed Lease.
func ValidateLeaseUpdate(lease, old *Lease) field.ErrorList {
	errs := validation.ValidateObjectMetaUpdate(&lease.ObjectMeta, &old.ObjectMeta, field.NewPath("metadata"))
	return append(errs, ValidateLeaseSpec(&lease.Spec, field.NewPath("spec"))...)
}

// ValidateLeaseSpec: a positive duration, non-negative transitions, a
// known strategy, and preferredHolder only with a strategy.
func ValidateLeaseSpec(spec *LeaseSpec, fldPath *field.Path) field.ErrorList {
	var errs field.ErrorList
	if spec.LeaseDurationSeconds != nil && *spec.LeaseDurationSeconds <= 0 {
		errs = append(errs, field.Invalid(fldPath.Child("leaseDurationSeconds"), *spec.LeaseDurationSeconds, "must be greater than 0"))
	}
	if spec.LeaseTransitions != nil && *spec.LeaseTransitions < 0 {
		errs = append(errs, field.Invalid(fldPath.Child("leaseTransitions"), *spec.LeaseTransitions, "must be greater than or equal to 0"))
	}
	if spec.Strategy != nil && *spec.Strategy != OldestEmulationVersion {
		errs = append(errs, field.NotSupported(fldPath.Child("strategy"), *spec.Strategy, []CoordinatedLeaseStrategy{OldestEmulationVersion}))
	}
	if spec.PreferredHolder != nil && *spec.PreferredHolder != "" && (spec.Strategy == nil || *spec.Strategy == "") {
		errs = append(errs, field.Forbidden(fldPath.Child("preferredHolder"), "may only be specified if `strategy` is defined"))
	}
	return errs
}
