package validation

import (
	"fmt"
	"reflect"
	"time"

	"github.com/crdlab/crdlab/apis/core"
	metav1 "github.com/crdlab/crdlab/apis/meta/v1"
	apivalidation "github.com/crdlab/crdlab/apis/validation"
	"github.com/crdlab/crdlab/apis/validation/field"
	utilvalidation "github.com/crdlab/crdlab/machinery/validation"
	"github.com/crdlab/crdlab/scheme"
)

// Length limits of an Event's fields.
const (
	ReportingInstanceLengthLimit = 128
	ActionLengthLimit            = 128
	ReasonLengthLimit            = 128
	NoteLengthLimit              = 1024
)

// coreV1 is the version an Event written through /api/v1 arrives in:
// such Events get only the legacy checks, so that old recorders keep
// working.
var coreV1 = scheme.GroupVersion{Version: "v1"}

// ValidateEventCreate checks a new Event. requestVersion is the version
// the client wrote in: core/v1 Events get the legacy checks only;
// events.k8s.io/v1 Events must also have eventTime, a Normal or Warning
// type, and none of the deprecated fields.
//
// Mirrors ValidateEventCreate in pkg/apis/core/validation/events.go.
func ValidateEventCreate(event *core.Event, requestVersion scheme.GroupVersion) field.ErrorList {
	errs := legacyValidateEvent(event, requestVersion)
	if requestVersion == coreV1 {
		return errs
	}
	errs = append(errs, apivalidation.ValidateObjectMeta(&event.ObjectMeta, true, apivalidation.NameIsDNSSubdomain, field.NewPath("metadata"))...)
	errs = append(errs, validateV1EventSeries(event)...)
	if event.EventTime.Time.IsZero() {
		errs = append(errs, field.Required(field.NewPath("eventTime"), ""))
	}
	if event.Type != core.EventTypeNormal && event.Type != core.EventTypeWarning {
		errs = append(errs, field.Invalid(field.NewPath("type"), "", fmt.Sprintf("has invalid value: %v", event.Type)))
	}
	if !event.FirstTimestamp.Time.IsZero() {
		errs = append(errs, field.Invalid(field.NewPath("firstTimestamp"), "", "needs to be unset"))
	}
	if !event.LastTimestamp.Time.IsZero() {
		errs = append(errs, field.Invalid(field.NewPath("lastTimestamp"), "", "needs to be unset"))
	}
	if event.Count != 0 {
		errs = append(errs, field.Invalid(field.NewPath("count"), "", "needs to be unset"))
	}
	if event.Source.Component != "" || event.Source.Host != "" {
		errs = append(errs, field.Invalid(field.NewPath("source"), "", "needs to be unset"))
	}
	return errs
}

// ValidateEventUpdate checks a changed Event: through events.k8s.io/v1
// only the series (and metadata) may change.
//
// Mirrors ValidateEventUpdate in pkg/apis/core/validation/events.go.
func ValidateEventUpdate(event, old *core.Event, requestVersion scheme.GroupVersion) field.ErrorList {
	errs := legacyValidateEvent(event, requestVersion)
	if requestVersion == coreV1 {
		return errs
	}
	errs = append(errs, apivalidation.ValidateObjectMetaUpdate(&event.ObjectMeta, &old.ObjectMeta, field.NewPath("metadata"))...)
	if !reflect.DeepEqual(event.Series, old.Series) {
		errs = append(errs, validateV1EventSeries(event)...)
	}
	immutable := func(n, o any, name string) {
		errs = append(errs, apivalidation.ValidateImmutableField(n, o, field.NewPath(name))...)
	}
	immutable(event.InvolvedObject, old.InvolvedObject, "involvedObject")
	immutable(event.Reason, old.Reason, "reason")
	immutable(event.Message, old.Message, "message")
	immutable(event.Source, old.Source, "source")
	immutable(event.FirstTimestamp, old.FirstTimestamp, "firstTimestamp")
	immutable(event.LastTimestamp, old.LastTimestamp, "lastTimestamp")
	immutable(event.Count, old.Count, "count")
	immutable(event.Type, old.Type, "type")
	if !event.EventTime.Truncate(time.Microsecond).Equal(old.EventTime.Truncate(time.Microsecond)) {
		immutable(event.EventTime, old.EventTime, "eventTime")
	}
	immutable(event.Action, old.Action, "action")
	immutable(event.Related, old.Related, "related")
	immutable(event.ReportingController, old.ReportingController, "reportingController")
	immutable(event.ReportingInstance, old.ReportingInstance, "reportingInstance")
	return errs
}

func validateV1EventSeries(event *core.Event) field.ErrorList {
	var errs field.ErrorList
	if event.Series != nil {
		if event.Series.Count < 2 {
			errs = append(errs, field.Invalid(field.NewPath("series.count"), "", "should be at least 2"))
		}
		if event.Series.LastObservedTime.Time.IsZero() {
			errs = append(errs, field.Required(field.NewPath("series.lastObservedTime"), ""))
		}
	}
	return errs
}

// legacyValidateEvent is what every Event gets: the namespace of the
// involved object must match the Event's, and an Event with an eventTime
// (the new shape) needs reportingController, reportingInstance, action
// and reason, within their lengths.
func legacyValidateEvent(event *core.Event, requestVersion scheme.GroupVersion) field.ErrorList {
	var errs field.ErrorList
	reportingControllerField := "reportingController"
	if requestVersion == coreV1 {
		reportingControllerField = "reportingComponent"
	}
	involvedNamespace := field.NewPath("involvedObject", "namespace")
	if event.EventTime.Time.IsZero() {
		if event.InvolvedObject.Namespace == "" {
			if event.Namespace != metav1.NamespaceNone && event.Namespace != metav1.NamespaceDefault {
				errs = append(errs, field.Invalid(involvedNamespace, event.InvolvedObject.Namespace, "does not match event.namespace"))
			}
		} else if event.Namespace != event.InvolvedObject.Namespace {
			errs = append(errs, field.Invalid(involvedNamespace, event.InvolvedObject.Namespace, "does not match event.namespace"))
		}
		return errs
	}
	if event.InvolvedObject.Namespace == "" && event.Namespace != metav1.NamespaceDefault && event.Namespace != metav1.NamespaceSystem {
		errs = append(errs, field.Invalid(involvedNamespace, event.InvolvedObject.Namespace, "does not match event.namespace"))
	}
	if event.ReportingController == "" {
		errs = append(errs, field.Required(field.NewPath(reportingControllerField), ""))
	}
	for _, msg := range utilvalidation.IsQualifiedName(event.ReportingController) {
		errs = append(errs, field.Invalid(field.NewPath(reportingControllerField), event.ReportingController, msg))
	}
	limited := func(value, name string, limit int, required bool) {
		if required && value == "" {
			errs = append(errs, field.Required(field.NewPath(name), ""))
		}
		if len(value) > limit {
			errs = append(errs, field.Invalid(field.NewPath(name), "", fmt.Sprintf("can have at most %v characters", limit)))
		}
	}
	limited(event.ReportingInstance, "reportingInstance", ReportingInstanceLengthLimit, true)
	limited(event.Action, "action", ActionLengthLimit, true)
	limited(event.Reason, "reason", ReasonLengthLimit, true)
	limited(event.Message, "message", NoteLengthLimit, false)
	return errs
}
