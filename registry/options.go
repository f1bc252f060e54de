package registry

import (
	"fmt"
	"strings"

	apierrors "github.com/crdlab/crdlab/apis/errors"
	metav1 "github.com/crdlab/crdlab/apis/meta/v1"
	"github.com/crdlab/crdlab/apis/validation/field"
	"github.com/crdlab/crdlab/machinery/fields"
	"github.com/crdlab/crdlab/machinery/labels"
	"github.com/crdlab/crdlab/scheme"
	"github.com/crdlab/crdlab/storage"
)

// IsDryRun reports whether the dryRun option asks not to write.
//
// Mirrors k8s.io/apiserver/pkg/util/dryrun.IsDryRun.
func IsDryRun(dryRun []string) bool { return len(dryRun) > 0 }

// ValidateDryRun accepts only dryRun=All.
//
// Mirrors k8s.io/apimachinery/pkg/apis/meta/v1/validation.ValidateDryRun.
func ValidateDryRun(fldPath *field.Path, dryRun []string) field.ErrorList {
	for _, v := range dryRun {
		if v != metav1.DryRunAll {
			return field.ErrorList{field.NotSupported(fldPath, dryRun, []string{metav1.DryRunAll})}
		}
	}
	return nil
}

// ValidateDeleteOptions checks the propagation policy and dryRun.
//
// Mirrors k8s.io/apimachinery/pkg/apis/meta/v1/validation.ValidateDeleteOptions.
func ValidateDeleteOptions(opts *metav1.DeleteOptions) field.ErrorList {
	var errs field.ErrorList
	if opts.OrphanDependents != nil && opts.PropagationPolicy != nil {
		errs = append(errs, field.Invalid(field.NewPath("propagationPolicy"), opts.PropagationPolicy, "orphanDependents and deletionPropagation cannot be both set"))
	}
	if p := opts.PropagationPolicy; p != nil &&
		*p != metav1.DeletePropagationForeground && *p != metav1.DeletePropagationBackground && *p != metav1.DeletePropagationOrphan {
		errs = append(errs, field.NotSupported(field.NewPath("propagationPolicy"), opts.PropagationPolicy,
			[]string{string(metav1.DeletePropagationForeground), string(metav1.DeletePropagationBackground), string(metav1.DeletePropagationOrphan), "nil"}))
	}
	if opts.GracePeriodSeconds != nil && *opts.GracePeriodSeconds < 0 {
		errs = append(errs, field.Invalid(field.NewPath("gracePeriodSeconds"), *opts.GracePeriodSeconds, "must be greater than or equal to 0"))
	}
	errs = append(errs, ValidateDryRun(field.NewPath("dryRun"), opts.DryRun)...)
	return errs
}

// optionsInvalid is the 422 for bad query options of kind (ListOptions,
// CreateOptions …), as upstream's handlers answer it.
func optionsInvalid(kind string, errs field.ErrorList) error {
	return NewInvalid(scheme.GroupKind{Group: metav1.GroupName, Kind: kind}, "", errs)
}

// ValidateListOptions checks the resourceVersion options of a list or (with
// opts.Watch) a watch.
//
// Mirrors k8s.io/apimachinery/pkg/apis/meta/internalversion/validation.ValidateListOptions
// with the WatchList feature on.
func ValidateListOptions(opts *metav1.ListOptions) field.ErrorList {
	if opts.Watch {
		return validateWatchOptions(opts)
	}
	var errs field.ErrorList
	match := opts.ResourceVersionMatch
	if len(match) > 0 {
		if len(opts.ResourceVersion) == 0 {
			errs = append(errs, field.Forbidden(field.NewPath("resourceVersionMatch"), "resourceVersionMatch is forbidden unless resourceVersion is provided"))
		}
		if len(opts.Continue) > 0 {
			errs = append(errs, field.Forbidden(field.NewPath("resourceVersionMatch"), "resourceVersionMatch is forbidden when continue is provided"))
		}
		if match != metav1.ResourceVersionMatchExact && match != metav1.ResourceVersionMatchNotOlderThan {
			errs = append(errs, field.NotSupported(field.NewPath("resourceVersionMatch"), match,
				[]string{string(metav1.ResourceVersionMatchExact), string(metav1.ResourceVersionMatchNotOlderThan), ""}))
		}
		if match == metav1.ResourceVersionMatchExact && opts.ResourceVersion == "0" {
			errs = append(errs, field.Forbidden(field.NewPath("resourceVersionMatch"), "resourceVersionMatch \"exact\" is forbidden for resourceVersion \"0\""))
		}
	}
	if opts.SendInitialEvents != nil {
		errs = append(errs, field.Forbidden(field.NewPath("sendInitialEvents"), "sendInitialEvents is forbidden for list"))
	}
	return errs
}

func validateWatchOptions(opts *metav1.ListOptions) field.ErrorList {
	var errs field.ErrorList
	match := opts.ResourceVersionMatch
	if opts.SendInitialEvents != nil && match != metav1.ResourceVersionMatchNotOlderThan {
		errs = append(errs, field.Forbidden(field.NewPath("resourceVersionMatch"),
			fmt.Sprintf("sendInitialEvents requires setting resourceVersionMatch to %s", metav1.ResourceVersionMatchNotOlderThan)))
	}
	if len(match) > 0 {
		if opts.SendInitialEvents == nil {
			errs = append(errs, field.Forbidden(field.NewPath("resourceVersionMatch"), "resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided"))
		}
		if match != metav1.ResourceVersionMatchNotOlderThan {
			errs = append(errs, field.NotSupported(field.NewPath("resourceVersionMatch"), match, []string{string(metav1.ResourceVersionMatchNotOlderThan)}))
		}
		if len(opts.Continue) > 0 {
			errs = append(errs, field.Forbidden(field.NewPath("resourceVersionMatch"), "resourceVersionMatch is forbidden when continue is provided"))
		}
	}
	return errs
}

// listResourceVersionMatch returns the match a list is read with. A list
// with a limit and a resourceVersion other than "" and "0" but no match
// keeps the legacy meaning: Exact.
//
// Mirrors the "legacy case" in (*store).GetList of k8s.io/apiserver/pkg/storage/etcd3.
func listResourceVersionMatch(opts *metav1.ListOptions) metav1.ResourceVersionMatch {
	if opts.ResourceVersionMatch == "" && opts.Limit > 0 && opts.Continue == "" &&
		opts.ResourceVersion != "" && opts.ResourceVersion != "0" {
		return metav1.ResourceVersionMatchExact
	}
	return opts.ResourceVersionMatch
}

// parseSelectors parses the labelSelector and fieldSelector of opts; a
// selector that does not parse is a 400 BadRequest, as in upstream's
// parameter decoding. Empty selectors come back nil (match everything).
func parseSelectors(opts *metav1.ListOptions) (storage.LabelSelector, storage.FieldSelector, error) {
	var (
		l storage.LabelSelector
		f storage.FieldSelector
	)
	if opts.LabelSelector != "" {
		sel, err := labels.Parse(opts.LabelSelector)
		if err != nil {
			return nil, nil, apierrors.NewBadRequest(err.Error())
		}
		l = sel
	}
	if opts.FieldSelector != "" {
		sel, err := fields.ParseSelector(opts.FieldSelector)
		if err != nil {
			return nil, nil, apierrors.NewBadRequest(err.Error())
		}
		f = sel
	}
	return l, f, nil
}

// fieldSelectorKeys returns the field names a field selector (already
// parsed, so well-formed) tests, e.g. [metadata.name spec.color] for
// "metadata.name=x,spec.color!=red". Terms are split on unescaped commas,
// and the name is what precedes the first operator.
func fieldSelectorKeys(selector string) []string {
	var keys []string
	start, escaped := 0, false
	addTerm := func(term string) {
		i := strings.IndexAny(term, "!=")
		if i < 0 {
			return
		}
		if k := strings.TrimSpace(term[:i]); k != "" {
			keys = append(keys, k)
		}
	}
	for i := 0; i < len(selector); i++ {
		switch {
		case escaped:
			escaped = false
		case selector[i] == '\\':
			escaped = true
		case selector[i] == ',':
			addTerm(selector[start:i])
			start = i + 1
		}
	}
	addTerm(selector[start:])
	return keys
}
