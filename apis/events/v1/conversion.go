package v1

import (
	"fmt"

	"github.com/crdlab/crdlab/apis/core"
	corev1 "github.com/crdlab/crdlab/apis/core/v1"
)

// Convert_v1_Event_To_core_Event converts to the hub: the fields both
// versions share are copied (zz_conversion.go), then the renamed ones
// are moved to their core names.
//
// Mirrors Convert_v1_Event_To_core_Event in pkg/apis/events/v1/conversion.go.
func Convert_v1_Event_To_core_Event(in *Event, out *core.Event) error {
	autoConvert_v1_Event_To_core_Event(in, out)
	if err := corev1.Convert_v1_ObjectReference_To_core_ObjectReference(&in.Regarding, &out.InvolvedObject); err != nil {
		return err
	}
	if err := corev1.Convert_v1_EventSource_To_core_EventSource(&in.DeprecatedSource, &out.Source); err != nil {
		return err
	}
	out.Message = in.Note
	out.FirstTimestamp = in.DeprecatedFirstTimestamp
	out.LastTimestamp = in.DeprecatedLastTimestamp
	out.Count = in.DeprecatedCount
	return nil
}

// Convert_core_Event_To_v1_Event converts from the hub, moving the
// renamed fields back.
//
// Mirrors Convert_core_Event_To_v1_Event in pkg/apis/events/v1/conversion.go.
func Convert_core_Event_To_v1_Event(in *core.Event, out *Event) error {
	autoConvert_core_Event_To_v1_Event(in, out)
	if err := corev1.Convert_core_ObjectReference_To_v1_ObjectReference(&in.InvolvedObject, &out.Regarding); err != nil {
		return err
	}
	if err := corev1.Convert_core_EventSource_To_v1_EventSource(&in.Source, &out.DeprecatedSource); err != nil {
		return err
	}
	out.Note = in.Message
	out.DeprecatedFirstTimestamp = in.FirstTimestamp
	out.DeprecatedLastTimestamp = in.LastTimestamp
	out.DeprecatedCount = in.Count
	return nil
}

// FieldLabels maps the field selector keys events.k8s.io/v1 accepts to
// the core/v1 fields they select on (the Event's selectable fields are
// named the core way).
//
// Mirrors the mapping of AddFieldLabelConversionsForEvent.
var FieldLabels = map[string]string{
	"reason":                    "reason",
	"regarding.kind":            "involvedObject.kind",
	"regarding.namespace":       "involvedObject.namespace",
	"regarding.name":            "involvedObject.name",
	"regarding.uid":             "involvedObject.uid",
	"regarding.apiVersion":      "involvedObject.apiVersion",
	"regarding.resourceVersion": "involvedObject.resourceVersion",
	"regarding.fieldPath":       "involvedObject.fieldPath",
	"reportingController":       "reportingComponent",
	"type":                      "type",
	"metadata.namespace":        "metadata.namespace",
	"metadata.name":             "metadata.name",
}

// ConvertFieldLabel maps one field selector key; an unknown one is an
// error ("field label not supported: x").
func ConvertFieldLabel(label, value string) (string, string, error) {
	mapped, ok := FieldLabels[label]
	if !ok {
		return "", "", fmt.Errorf("field label not supported: %s", label)
	}
	return mapped, value, nil
}
