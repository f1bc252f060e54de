// Package v1 is events.k8s.io/v1: the newer shape of an Event, converted
// through the same hub (core.Event) as core/v1's.
//
// Conversion rules (conversion.go): regarding ↔ involvedObject, note ↔
// message, deprecatedSource ↔ source, deprecatedFirstTimestamp ↔
// firstTimestamp, deprecatedLastTimestamp ↔ lastTimestamp,
// deprecatedCount ↔ count, reportingController ↔ the hub's
// ReportingController (core/v1 spells it reportingComponent on the wire).
//
// Upstream:
//   - k8s.io/api/events/v1/types.go
//   - k8s.io/kubernetes/pkg/apis/events/v1/conversion.go
//     (Convert_v1_Event_To_core_Event, Convert_core_Event_To_v1_Event,
//     AddFieldLabelConversionsForEvent)
//
// Differences from upstream: no protobuf tags.
package v1
