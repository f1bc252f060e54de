package v1

import (
	"encoding/json"

	"github.com/crdlab/crdlab/apis/core"
	metav1 "github.com/crdlab/crdlab/apis/meta/v1"
)

// Constants shared with the hub.
const (
	NamespaceNodeLease   = core.NamespaceNodeLease
	LabelMetadataName    = core.LabelMetadataName
	FinalizerKubernetes  = FinalizerName(core.FinalizerKubernetes)
	NamespaceActive      = NamespacePhase(core.NamespaceActive)
	NamespaceTerminating = NamespacePhase(core.NamespaceTerminating)
	SecretTypeOpaque     = SecretType(core.SecretTypeOpaque)
	EventTypeNormal      = core.EventTypeNormal
	EventTypeWarning     = core.EventTypeWarning
)

// FinalizerName is a name in a Namespace's spec.finalizers.
type FinalizerName string

// NamespacePhase is Active or Terminating.
type NamespacePhase string

// NamespaceConditionType names a condition of a Namespace.
type NamespaceConditionType string

// ConditionStatus is True, False or Unknown.
type ConditionStatus = metav1.ConditionStatus

// Namespace provides a scope for names.
//
// Mirrors k8s.io/api/core/v1.Namespace.
type Namespace struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              NamespaceSpec   `json:"spec,omitempty"`
	Status            NamespaceStatus `json:"status,omitempty"`
}

// NamespaceSpec describes the attributes on a Namespace.
type NamespaceSpec struct {
	Finalizers []FinalizerName `json:"finalizers,omitempty"`
}

// NamespaceStatus is information about the current status of a Namespace.
type NamespaceStatus struct {
	Phase      NamespacePhase       `json:"phase,omitempty"`
	Conditions []NamespaceCondition `json:"conditions,omitempty" patchStrategy:"merge" patchMergeKey:"type"`
}

// NamespaceCondition contains details about the state of a namespace.
type NamespaceCondition struct {
	Type               NamespaceConditionType `json:"type"`
	Status             ConditionStatus        `json:"status"`
	LastTransitionTime metav1.Time            `json:"lastTransitionTime,omitempty"`
	Reason             string                 `json:"reason,omitempty"`
	Message            string                 `json:"message,omitempty"`
}

// NamespaceList is a list of Namespaces.
type NamespaceList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Namespace `json:"items"`
}

// SecretType is used to facilitate programmatic handling of secret data.
type SecretType string

// Secret holds secret data of a certain type; data values travel as
// base64 (Go's encoding of []byte).
//
// Mirrors k8s.io/api/core/v1.Secret.
type Secret struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Immutable         *bool             `json:"immutable,omitempty"`
	Data              map[string][]byte `json:"data,omitempty"`
	// StringData is write-only: merged into Data on write, never read back.
	StringData map[string]string `json:"stringData,omitempty"`
	Type       SecretType        `json:"type,omitempty"`
}

// SecretList is a list of Secrets.
type SecretList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Secret `json:"items"`
}

// ConfigMap holds configuration data.
//
// Mirrors k8s.io/api/core/v1.ConfigMap.
type ConfigMap struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Immutable         *bool             `json:"immutable,omitempty"`
	Data              map[string]string `json:"data,omitempty"`
	BinaryData        map[string][]byte `json:"binaryData,omitempty"`
}

// ConfigMapList is a list of ConfigMaps.
type ConfigMapList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []ConfigMap `json:"items"`
}

// ObjectReference contains enough information to let you inspect or
// modify the referred object.
//
// Mirrors k8s.io/api/core/v1.ObjectReference.
type ObjectReference struct {
	Kind            string     `json:"kind,omitempty"`
	Namespace       string     `json:"namespace,omitempty"`
	Name            string     `json:"name,omitempty"`
	UID             metav1.UID `json:"uid,omitempty"`
	APIVersion      string     `json:"apiVersion,omitempty"`
	ResourceVersion string     `json:"resourceVersion,omitempty"`
	FieldPath       string     `json:"fieldPath,omitempty"`
}

// EventSource contains information for an event.
type EventSource struct {
	Component string `json:"component,omitempty"`
	Host      string `json:"host,omitempty"`
}

// Event is a report of an event somewhere in the cluster.
//
// Mirrors k8s.io/api/core/v1.Event.
type Event struct {
	metav1.TypeMeta     `json:",inline"`
	metav1.ObjectMeta   `json:"metadata"`
	InvolvedObject      ObjectReference  `json:"involvedObject"`
	Reason              string           `json:"reason,omitempty"`
	Message             string           `json:"message,omitempty"`
	Source              EventSource      `json:"source,omitempty"`
	FirstTimestamp      metav1.Time      `json:"firstTimestamp,omitempty"`
	LastTimestamp       metav1.Time      `json:"lastTimestamp,omitempty"`
	Count               int32            `json:"count,omitempty"`
	Type                string           `json:"type,omitempty"`
	EventTime           metav1.MicroTime `json:"eventTime,omitempty"`
	Series              *EventSeries     `json:"series,omitempty"`
	Action              string           `json:"action,omitempty"`
	Related             *ObjectReference `json:"related,omitempty"`
	ReportingController string           `json:"reportingComponent"`
	ReportingInstance   string           `json:"reportingInstance"`
}

// EventSeries contains information on a series of events.
type EventSeries struct {
	Count            int32            `json:"count,omitempty"`
	LastObservedTime metav1.MicroTime `json:"lastObservedTime,omitempty"`
}

// EventList is a list of Events.
type EventList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Event `json:"items"`
}

// List holds a list of objects, which may not be known by the server.
//
// Mirrors k8s.io/api/core/v1.List (type List metav1.List; crdlab has no
// metav1.List, as nothing but core/v1 uses one).
type List struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []json.RawMessage `json:"items"`
}
