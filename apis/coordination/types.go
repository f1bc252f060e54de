package coordination

import metav1 "github.com/crdlab/crdlab/apis/meta/v1"

// CoordinatedLeaseStrategy is how a coordinated election picks a leader.
type CoordinatedLeaseStrategy string

// OldestEmulationVersion is the only strategy upstream knows.
const OldestEmulationVersion CoordinatedLeaseStrategy = "OldestEmulationVersion"

// Lease is a lease held by one holder at a time.
//
// Mirrors k8s.io/kubernetes/pkg/apis/coordination.Lease.
type Lease struct {
	metav1.TypeMeta
	metav1.ObjectMeta
	Spec LeaseSpec
}

// LeaseSpec is who holds the lease, since when and for how long.
type LeaseSpec struct {
	HolderIdentity       *string
	LeaseDurationSeconds *int32
	AcquireTime          *metav1.MicroTime
	RenewTime            *metav1.MicroTime
	LeaseTransitions     *int32
	Strategy             *CoordinatedLeaseStrategy
	PreferredHolder      *string
}

// LeaseList is a list of Leases.
type LeaseList struct {
	metav1.TypeMeta
	metav1.ListMeta
	Items []Lease
}
