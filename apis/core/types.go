package core

import (
	"encoding/json"

	metav1 "github.com/crdlab/crdlab/apis/meta/v1"
)

// NamespaceNodeLease is the namespace of the nodes' heartbeat Leases.
const NamespaceNodeLease = "kube-node-lease"

// LabelMetadataName is the label every Namespace carries with its own
// name, so that selectors can pick namespaces by name.
const LabelMetadataName = "kubernetes.io/metadata.name"

// FinalizerName is a name in a Namespace's spec.finalizers.
type FinalizerName string

// FinalizerKubernetes is the namespace controller's finalizer: every
// Namespace gets it on create, and the controller removes it (through
// /finalize) once the namespace is empty.
const FinalizerKubernetes FinalizerName = "kubernetes"

// NamespacePhase is Active or Terminating.
type NamespacePhase string

// The phases of a Namespace.
const (
	// NamespaceActive: objects may be created in it.
	NamespaceActive NamespacePhase = "Active"
	// NamespaceTerminating: deleted, waiting for its finalizers; no new
	// objects may be created in it.
	NamespaceTerminating NamespacePhase = "Terminating"
)

// NamespaceTerminatingCause is the cause type of the 403 that refuses a
// create in a Terminating namespace.
const NamespaceTerminatingCause metav1.CauseType = "NamespaceTerminating"

// NamespaceConditionType names a condition the namespace controller sets.
type NamespaceConditionType string

// The conditions of a Namespace being deleted.
const (
	NamespaceDeletionDiscoveryFailure NamespaceConditionType = "NamespaceDeletionDiscoveryFailure"
	NamespaceDeletionContentFailure   NamespaceConditionType = "NamespaceDeletionContentFailure"
	NamespaceDeletionGVParsingFailure NamespaceConditionType = "NamespaceDeletionGroupVersionParsingFailure"
	NamespaceContentRemaining         NamespaceConditionType = "NamespaceContentRemaining"
	NamespaceFinalizersRemaining      NamespaceConditionType = "NamespaceFinalizersRemaining"
)

// ConditionStatus is True, False or Unknown.
type ConditionStatus = metav1.ConditionStatus

// Namespace scopes the names of namespaced objects.
//
// Mirrors k8s.io/kubernetes/pkg/apis/core.Namespace.
type Namespace struct {
	metav1.TypeMeta
	metav1.ObjectMeta
	Spec   NamespaceSpec
	Status NamespaceStatus
}

// NamespaceSpec holds the finalizers that must be gone before a deleted
// namespace disappears.
type NamespaceSpec struct {
	Finalizers []FinalizerName
}

// NamespaceStatus is the phase and the conditions of a Namespace.
type NamespaceStatus struct {
	Phase      NamespacePhase
	Conditions []NamespaceCondition
}

// NamespaceCondition is one condition of a Namespace.
type NamespaceCondition struct {
	Type               NamespaceConditionType
	Status             ConditionStatus
	LastTransitionTime metav1.Time
	Reason             string
	Message            string
}

// NamespaceList is a list of Namespaces.
type NamespaceList struct {
	metav1.TypeMeta
	metav1.ListMeta
	Items []Namespace
}

// MaxSecretSize bounds the total size of a Secret's data, and of a
// ConfigMap's data and binaryData: 1 MiB.
const MaxSecretSize = 1 * 1024 * 1024

// SecretType says what a Secret holds; some types require keys.
type SecretType string

// The types of Secret, and the data keys and annotations they require.
const (
	SecretTypeOpaque              SecretType = "Opaque"
	SecretTypeServiceAccountToken SecretType = "kubernetes.io/service-account-token"
	ServiceAccountNameKey                    = "kubernetes.io/service-account.name"
	SecretTypeDockercfg           SecretType = "kubernetes.io/dockercfg"
	DockerConfigKey                          = ".dockercfg"
	SecretTypeDockerConfigJSON    SecretType = "kubernetes.io/dockerconfigjson"
	DockerConfigJSONKey                      = ".dockerconfigjson"
	SecretTypeBasicAuth           SecretType = "kubernetes.io/basic-auth"
	BasicAuthUsernameKey                     = "username"
	BasicAuthPasswordKey                     = "password"
	SecretTypeSSHAuth             SecretType = "kubernetes.io/ssh-auth"
	SSHAuthPrivateKey                        = "ssh-privatekey"
	SecretTypeTLS                 SecretType = "kubernetes.io/tls"
	TLSCertKey                               = "tls.crt"
	TLSPrivateKeyKey                         = "tls.key"
	SecretTypeBootstrapToken      SecretType = "bootstrap.kubernetes.io/token"
)

// Secret holds secret bytes. The hub has no stringData: v1's stringData
// is merged into Data on the way in.
//
// Mirrors k8s.io/kubernetes/pkg/apis/core.Secret.
type Secret struct {
	metav1.TypeMeta
	metav1.ObjectMeta
	// Immutable true forbids every change of Data (and of Immutable).
	Immutable *bool
	Data      map[string][]byte
	// Type cannot change once set.
	Type SecretType
}

// SecretList is a list of Secrets.
type SecretList struct {
	metav1.TypeMeta
	metav1.ListMeta
	Items []Secret
}

// ConfigMap holds configuration: strings in Data, bytes in BinaryData,
// with no key in both.
//
// Mirrors k8s.io/kubernetes/pkg/apis/core.ConfigMap.
type ConfigMap struct {
	metav1.TypeMeta
	metav1.ObjectMeta
	Immutable  *bool
	Data       map[string]string
	BinaryData map[string][]byte
}

// ConfigMapList is a list of ConfigMaps.
type ConfigMapList struct {
	metav1.TypeMeta
	metav1.ListMeta
	Items []ConfigMap
}

// ObjectReference points at an object (an Event's involvedObject).
type ObjectReference struct {
	Kind            string
	Namespace       string
	Name            string
	UID             metav1.UID
	APIVersion      string
	ResourceVersion string
	FieldPath       string
}

// EventSource is the component (and host) that reported a core/v1 Event.
type EventSource struct {
	Component string
	Host      string
}

// The types of Event.
const (
	EventTypeNormal  = "Normal"
	EventTypeWarning = "Warning"
)

// Event reports something that happened to an object. It holds the union
// of core/v1's and events.k8s.io/v1's fields; the two versions name some
// of them differently (message/note, involvedObject/regarding,
// source/deprecatedSource …).
//
// Mirrors k8s.io/kubernetes/pkg/apis/core.Event.
type Event struct {
	metav1.TypeMeta
	metav1.ObjectMeta
	InvolvedObject      ObjectReference
	Reason              string
	Message             string
	Source              EventSource
	FirstTimestamp      metav1.Time
	LastTimestamp       metav1.Time
	Count               int32
	Type                string
	EventTime           metav1.MicroTime
	Series              *EventSeries
	Action              string
	Related             *ObjectReference
	ReportingController string
	ReportingInstance   string
}

// EventSeries counts the repeats of an Event.
type EventSeries struct {
	Count            int32
	LastObservedTime metav1.MicroTime
}

// EventList is a list of Events.
type EventList struct {
	metav1.TypeMeta
	metav1.ListMeta
	Items []Event
}

// List is a list of objects of any kinds (kind: List).
type List struct {
	metav1.TypeMeta
	metav1.ListMeta
	Items []json.RawMessage
}
