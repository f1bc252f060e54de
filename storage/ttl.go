package storage

import "time"

// Expiry (TTL) is part of the contract, because kube-apiserver keeps
// Events only for --event-ttl (an hour by default) after their last
// write, and clients watch them go. The rules every engine keeps:
//
//   - A resource has a TTL (ResourceConfig.TTL), or none. Every write
//     that stores an object of it, Create or a GuaranteedUpdate that
//     changes or creates the object, starts the object's clock again: it
//     expires TTL after its last write. A GuaranteedUpdate that changes
//     nothing writes nothing and leaves the clock alone.
//   - An expired object is deleted by the store itself, as a Delete
//     would: at the next revision, as a write of its own, with its last
//     state as the DELETED event's object. Readers may still see it for a
//     moment after its deadline, until the store gets to it (etcd checks
//     its leases every 500 ms).
//   - Expiry survives restarts: an object whose deadline passed while no
//     server ran is deleted soon after the next one starts.
//
// storage/bolt keeps each write's deadline in its record and deletes what
// is due from a loop; storage/etcd3 attaches each write to an etcd lease,
// which etcd revokes. docs/storage.md says more.
//
// Mirrors the ttl of (*store).Create and the TTL an UpdateFunc returns in
// k8s.io/apiserver/pkg/storage/interfaces.go, as the Event registry uses
// them (its TTLFunc gives every write --event-ttl).

// ExpiresAt returns when an object of the resource written at now
// expires, or the zero time if the resource has no TTL.
func (r *Resource) ExpiresAt(now time.Time) time.Time {
	if r.TTL <= 0 {
		return time.Time{}
	}
	return now.Add(r.TTL)
}
