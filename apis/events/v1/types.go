package v1

import (
	corev1 "github.com/crdlab/crdlab/apis/core/v1"
	metav1 "github.com/crdlab/crdlab/apis/meta/v1"
)

// Event is a report of an event somewhere in the cluster.
//
// Mirrors k8s.io/api/events/v1.Event.
type Event struct {
	metav1.TypeMeta          `json:",inline"`
	metav1.ObjectMeta        `json:"metadata"`
	EventTime                metav1.MicroTime        `json:"eventTime"`
	Series                   *EventSeries            `json:"series,omitempty"`
	ReportingController      string                  `json:"reportingController,omitempty"`
	ReportingInstance        string                  `json:"reportingInstance,omitempty"`
	Action                   string                  `json:"action,omitempty"`
	Reason                   string                  `json:"reason,omitempty"`
	Regarding                corev1.ObjectReference  `json:"regarding,omitempty"`
	Related                  *corev1.ObjectReference `json:"related,omitempty"`
	Note                     string                  `json:"note,omitempty"`
	Type                     string                  `json:"type,omitempty"`
	DeprecatedSource         corev1.EventSource      `json:"deprecatedSource,omitempty"`
	DeprecatedFirstTimestamp metav1.Time             `json:"deprecatedFirstTimestamp,omitempty"`
	DeprecatedLastTimestamp  metav1.Time             `json:"deprecatedLastTimestamp,omitempty"`
	DeprecatedCount          int32                   `json:"deprecatedCount,omitempty"`
}

// EventSeries contains information on a series of events.
type EventSeries struct {
	Count            int32            `json:"count"`
	LastObservedTime metav1.MicroTime `json:"lastObservedTime"`
}

// EventList is a list of Events.
type EventList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Event `json:"items"`
}
