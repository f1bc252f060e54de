package bolt

import (
	"container/heap"
	"context"
	"errors"
	"sync"
	"time"

	"github.com/crdlab/crdlab/storage"
)

// Expiry, the bbolt engine's half of the contract in storage/ttl.go.
//
// A write to a resource with a TTL puts its deadline (Unix nanoseconds,
// wall clock) into its record, so the deadline is on disk with the write
// and survives a restart. The DB keeps a schedule of deadlines in memory:
// filled from the latest records at Open, added to by every commit. Every
// ExpiryInterval the expirer takes the deadlines that are due and deletes
// those objects through the committer, as a Delete would: each delete is
// conditional on the key still being at the revision whose deadline came
// due (If(ModRevision(key) == rev)), so an object written again meanwhile
// (with a later deadline) or deleted meanwhile is left alone. The delete
// gets the next revision and its tombstone keeps the last state, so
// watchers see DELETED with that state, as when etcd revokes a lease.
//
// Mirrors etcd's lessor (server/lease/lessor.go: runLoop, which revokes
// expired leases every 500 ms, each revoke a delete of the attached keys
// at a new revision).

// deadline is when the object of key, as written at rev, expires.
type deadline struct {
	at  int64 // Unix nanoseconds
	key string
	rev int64
}

// deadlines is a min-heap by at (container/heap).
type deadlines []deadline

func (d deadlines) Len() int           { return len(d) }
func (d deadlines) Less(i, j int) bool { return d[i].at < d[j].at }
func (d deadlines) Swap(i, j int)      { d[i], d[j] = d[j], d[i] }
func (d *deadlines) Push(x any)        { *d = append(*d, x.(deadline)) }
func (d *deadlines) Pop() any {
	old := *d
	x := old[len(old)-1]
	*d = old[:len(old)-1]
	return x
}

// expiry is the schedule. A deadline stays in it until it comes due, even
// if its object was written again since: the expirer then finds the key
// at another revision and skips it.
type expiry struct {
	mu   sync.Mutex // guards heap
	heap deadlines
}

// add schedules r's deadline, if it is a put that expires.
func (e *expiry) add(r *record) {
	if r.expires == 0 || r.deleted {
		return
	}
	e.mu.Lock()
	heap.Push(&e.heap, deadline{at: r.expires, key: r.key, rev: r.rev})
	e.mu.Unlock()
}

// schedule adds the deadlines of a committed batch.
func (e *expiry) schedule(events []event) {
	for _, ev := range events {
		e.add(ev.rec)
	}
}

// due removes and returns the deadlines at or before now.
func (e *expiry) due(now int64) []deadline {
	e.mu.Lock()
	defer e.mu.Unlock()
	var out []deadline
	for len(e.heap) > 0 && e.heap[0].at <= now {
		out = append(out, heap.Pop(&e.heap).(deadline))
	}
	return out
}

// expiresAt returns the deadline of a write of s made now, in Unix
// nanoseconds, or 0 if s's resource has no TTL.
func (s *store) expiresAt() int64 {
	if t := s.ExpiresAt(s.db.opts.Now()); !t.IsZero() {
		return t.UnixNano()
	}
	return 0
}

// runExpirer deletes expired objects every ExpiryInterval, and once at
// the start, for the deadlines that passed while no server ran.
func (db *DB) runExpirer() {
	defer db.wg.Done()
	tick := time.NewTicker(db.opts.ExpiryInterval)
	defer tick.Stop()
	for {
		if err := db.expire(); err != nil {
			db.log.Error("deleting expired objects failed", "err", err)
		}
		select {
		case <-db.closing:
			return
		case <-tick.C:
		}
	}
}

// expire deletes the objects whose deadline has come, and returns how
// they went: nil, or the first error other than "written again
// meanwhile" (a failed or closed DB). Runs go one at a time, so that
// when one returns, every deadline that had come when it was called is
// deleted: the deadlines leave the heap when a run takes them, and a
// second run at the same moment would find none and return while the
// first still deletes (TestDB_TTL/DeadlinesSurviveARestart failed that
// way, 1 in many, when its call met the run Open starts).
func (db *DB) expire() error {
	db.expiring.Lock()
	defer db.expiring.Unlock()
	due := db.expiry.due(db.opts.Now().UnixNano())
	if len(due) == 0 {
		return nil
	}
	// Queue every delete first, so that they share commits, then wait.
	var ops []*writeOp
	for _, d := range due {
		r := db.latest(d.key)
		if r == nil || r.deleted || r.rev != d.rev {
			continue // written again (a later deadline) or deleted meanwhile
		}
		value, err := db.value(r)
		if errors.Is(err, errGone) {
			continue // written again meanwhile
		}
		if err != nil {
			return err
		}
		ops = append(ops, &writeOp{key: d.key, deleted: true, value: value, expect: d.rev, expired: true})
	}
	errs := make(chan error, len(ops))
	var wg sync.WaitGroup
	for _, op := range ops {
		wg.Go(func() {
			_, err := db.write(context.Background(), op)
			errs <- err
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil && !errors.Is(err, errModified) && !errors.Is(err, storage.ErrClosed) {
			return err
		}
	}
	return nil
}
