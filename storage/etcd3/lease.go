package etcd3

import (
	"context"
	"sync"
	"time"

	clientv3 "go.etcd.io/etcd/client/v3"
)

// leaseManager hands out the etcd leases that writes of a resource with a
// TTL attach their key to (storage/ttl.go): when etcd revokes a lease, it
// deletes its keys at a new revision, and watchers see DELETED. A lease
// is reused for the writes of a short window, so that a burst of Events
// does not grant one lease each: it is granted for ttl plus the window
// (5% of ttl, at most a minute), and reused while it still outlives ttl.
// An object thus expires between ttl and ttl plus the window after its
// last write, as upstream's.
//
// Mirrors leaseManager in k8s.io/apiserver/pkg/storage/etcd3/lease_manager.go.
type leaseManager struct {
	client *clientv3.Client

	mu      sync.Mutex // guards the fields below
	prevID  clientv3.LeaseID
	prevTTL int64     // the ttl prevID was granted for, window excluded
	prevEnd time.Time // when prevID expires
	count   int64     // objects attached to prevID
}

const (
	leaseReuseSeconds = 60   // at most, upstream's default
	leaseReusePercent = 0.05 // of the ttl, upstream's
	leaseMaxObjects   = 1000 // per lease, upstream's default
)

// lease returns a lease that lives at least ttl seconds from now.
func (l *leaseManager) lease(ctx context.Context, ttl int64) (clientv3.LeaseID, error) {
	now := time.Now()
	reuse := min(int64(leaseReusePercent*float64(ttl)), leaseReuseSeconds)
	l.mu.Lock()
	defer l.mu.Unlock()
	valid := now.Add(time.Duration(ttl) * time.Second).Before(l.prevEnd)
	sufficient := now.Add(time.Duration(ttl+reuse) * time.Second).After(l.prevEnd)
	l.count++
	if l.prevTTL == ttl && valid && sufficient && l.count <= leaseMaxObjects {
		return l.prevID, nil
	}
	resp, err := l.client.Grant(ctx, ttl+reuse)
	if err != nil {
		return 0, err
	}
	l.prevID, l.prevTTL, l.prevEnd, l.count = resp.ID, ttl, now.Add(time.Duration(ttl+reuse)*time.Second), 1
	return resp.ID, nil
}

// putOptions returns the options of a Put of s: a lease if its resource
// has a TTL (rounded up to whole seconds, etcd's unit).
func (s *store) putOptions(ctx context.Context) ([]clientv3.OpOption, error) {
	if s.TTL <= 0 {
		return nil, nil
	}
	id, err := s.b.leases.lease(ctx, int64((s.TTL+time.Second-1)/time.Second))
	if err != nil {
		return nil, err
	}
	return []clientv3.OpOption{clientv3.WithLease(id)}, nil
}
