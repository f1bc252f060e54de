package v1

import metav1 "github.com/crdlab/crdlab/apis/meta/v1"

// CoordinatedLeaseStrategy defines the strategy for picking the leader
// for coordinated leader election.
type CoordinatedLeaseStrategy string

// Lease defines a lease concept.
//
// Mirrors k8s.io/api/coordination/v1.Lease.
type Lease struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              LeaseSpec `json:"spec,omitempty"`
}

// LeaseSpec is a specification of a Lease.
type LeaseSpec struct {
	HolderIdentity       *string                   `json:"holderIdentity,omitempty"`
	LeaseDurationSeconds *int32                    `json:"leaseDurationSeconds,omitempty"`
	AcquireTime          *metav1.MicroTime         `json:"acquireTime,omitempty"`
	RenewTime            *metav1.MicroTime         `json:"renewTime,omitempty"`
	LeaseTransitions     *int32                    `json:"leaseTransitions,omitempty"`
	Strategy             *CoordinatedLeaseStrategy `json:"strategy,omitempty"`
	PreferredHolder      *string                   `json:"preferredHolder,omitempty"`
}

// LeaseList is a list of Lease objects.
type LeaseList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Lease `json:"items"`
}
