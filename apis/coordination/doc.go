// Package coordination is the internal (hub) version of the
// coordination.k8s.io API group: Lease, the object client-go's leader
// election (LeaseLock) takes turns on. A Lease has one holder
// (holderIdentity) for leaseDurationSeconds after its renewTime; a
// candidate that sees it expired takes it over with an update that
// carries the resourceVersion it read, so that only one candidate wins.
//
// Layout: types.go, register.go, validation.go, zz_deepcopy.go.
//
// Upstream:
//   - k8s.io/kubernetes/pkg/apis/coordination: types.go, register.go
//   - k8s.io/kubernetes/pkg/apis/coordination/validation (ValidateLease,
//     ValidateLeaseUpdate, ValidateLeaseSpec)
//
// Differences from upstream: no LeaseCandidate (coordinated leader
// election, alpha/beta upstream); validation.go sits in this package.
package coordination
