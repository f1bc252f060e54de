package bolt

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"go.etcd.io/bbolt"

	"github.com/crdlab/crdlab/storage"
)

// writeOp is one write waiting for the committer: put value under key, or
// delete key, if key's current mod revision is still expect.
//
// The condition is etcd's transaction If(ModRevision(key) == expect), the
// way upstream's etcd3 store makes GuaranteedUpdate and Delete safe.
type writeOp struct {
	key     string
	deleted bool   // a delete: value is the state being deleted
	value   []byte // the encoded object, without resourceVersion
	// expect is the mod revision key must have for the write to happen: 0
	// means the key must not exist (a create).
	expect int64
	// expires is the put's expiry in Unix nanoseconds, 0 for never
	// (ttl.go); expired marks the delete of an expired object.
	expires int64
	expired bool
	// done receives exactly one result; it is buffered, so the committer
	// never waits for the writer.
	done chan writeResult
	// start is when the write was asked for, with tracing on (trace.go).
	start time.Time
}

type writeResult struct {
	rec *record // the committed record
	err error
}

// errModified says the key changed since the writer read it: the writer
// reads again and retries (or reports AlreadyExists, for a create).
var errModified = errors.New("key modified since it was read")

// write hands op to the committer and waits for the outcome. It returns
// only after the write is durable on disk, or with an error and nothing
// written. Once handed over, the write is not abandoned if ctx ends: the
// result would otherwise be unknown to the caller.
func (db *DB) write(ctx context.Context, op *writeOp) (*record, error) {
	if err := db.submit(ctx, op); err != nil {
		return nil, err
	}
	return db.await(op)
}

// submit is write's first half: it hands op to the committer. The caller
// may work while the commit runs (decode what it wrote, say), then must
// call await.
func (db *DB) submit(ctx context.Context, op *writeOp) error {
	if err := db.usable(); err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		return &storage.Error{Kind: storage.ErrTimeout, Key: op.key, Msg: "the request ended before the write: " + err.Error()}
	}
	if p := db.failed.Load(); p != nil {
		return &storage.Error{Kind: storage.ErrInternal, Key: op.key, Err: fmt.Errorf("%w: %w", ErrFailed, *p)}
	}
	op.done = make(chan writeResult, 1)
	if db.opts.Tracer.Enabled() {
		op.start = time.Now()
	}
	select {
	case db.queue <- op:
		return nil
	case <-db.closing:
		return &storage.Error{Kind: storage.ErrInternal, Key: op.key, Err: storage.ErrClosed}
	case <-ctx.Done():
		return &storage.Error{Kind: storage.ErrTimeout, Key: op.key, Msg: "the request ended before the write: " + ctx.Err().Error()}
	}
}

// await is write's second half: the outcome of a submitted op.
func (db *DB) await(op *writeOp) (*record, error) {
	select {
	case r := <-op.done:
		return r.rec, r.err
	case <-db.committerDone:
		// The committer answers every op it takes before it exits.
		select {
		case r := <-op.done:
			return r.rec, r.err
		default:
			return nil, &storage.Error{Kind: storage.ErrInternal, Key: op.key, Err: storage.ErrClosed}
		}
	}
}

// runCommitter is the only goroutine that writes history. It takes the
// first queued write, then every write queued behind it (up to
// MaxBatchSize), and commits them in one bbolt transaction: while one
// commit waits for fsync, the next batch gathers, so under concurrency
// many writes share each fsync and each still gets its own revision and
// result.
//
// Mirrors the role of etcd's backend batchTx (server/storage/backend/
// batch_tx.go) and bbolt's DB.Batch, but a write is acknowledged only after
// its commit, not after a WAL append.
func (db *DB) runCommitter() {
	defer db.wg.Done()
	defer close(db.committerDone)
	var (
		batch  = make([]*writeOp, 0, db.opts.MaxBatchSize)
		recent [16]int       // sizes of the last batches, a ring
		last   int           // index in recent of the last batch
		took   time.Duration // how long the last commit took
		timer  = time.NewTimer(time.Hour)
		job    *deleteJob // a compaction's deletes under way
		idle   = time.NewTimer(time.Hour)
		// idling says idle runs: it is armed once per quiet spell, when
		// a job waits and no write came since; a reader's signal or a
		// release does not re-arm it (reads every few milliseconds would
		// otherwise put the deletes off for ever).
		idling bool
		// The mapped pages are released (resident.go) releaseQuiet after
		// the last commit, or releaseDelay after the first since the last
		// release, whichever comes first; armed says both timers run.
		release = time.NewTimer(time.Hour)
		quiet   = time.NewTimer(time.Hour)
		armed   bool
	)
	timer.Stop()
	idle.Stop()
	release.Stop()
	quiet.Stop()
	// committed arms the release after a commit, or a reader's
	// transaction.
	committed := func() {
		quiet.Reset(releaseQuiet)
		if !armed {
			release.Reset(releaseDelay)
			armed = true
		}
	}
	for {
		var jobs chan *deleteJob // receive a job only when none is under way
		var idleC, releaseC, quietC <-chan time.Time
		if job == nil {
			jobs = db.deletes
		} else {
			if !idling {
				idle.Reset(deleteLinger)
				idling = true
			}
			idleC = idle.C
		}
		if armed {
			releaseC, quietC = release.C, quiet.C
		}
		select {
		case op := <-db.queue:
			idle.Stop()
			idling = false
			batch = append(batch[:0], op)
		case fn := <-db.pause:
			idle.Stop()
			idling = false
			fn()
			committed() // Defragment's switch: the new file's pages its copy touched
			continue
		case <-db.read:
			committed() // a reader touched the mapping
			continue
		case <-releaseC:
			quiet.Stop()
			armed = false
			db.releaseMapped()
			continue
		case <-quietC:
			release.Stop()
			armed = false
			db.releaseMapped()
			continue
		case job = <-jobs:
			continue
		case <-idleC:
			// No write for a moment: the deletes go in a commit of their own.
			idling = false
			job = db.commitDeletes(job)
			committed()
			continue
		case <-db.closing:
			for {
				select {
				case op := <-db.queue:
					op.done <- writeResult{err: &storage.Error{Kind: storage.ErrInternal, Key: op.key, Err: storage.ErrClosed}}
				default:
					return
				}
			}
		}
		batch = db.gather(batch, slices.Max(recent[:]), took, timer)
		last = (last + 1) % len(recent)
		recent[last] = len(batch)
		start := time.Now()
		var dels []int64
		if job != nil {
			dels = job.revs[:min(len(job.revs), deletesPerCommit)]
		}
		if db.commit(batch, dels) && job != nil {
			job = job.advance(len(dels))
		}
		took = time.Since(start)
		committed()
		clear(batch) // drop references to values already on disk
	}
}

// gather adds to batch the writes queued behind its first one. If recent
// batches were larger than what is queued now (peak), it waits up to one
// commit time (took, at most maxLinger) for the missing writers: those
// acknowledged by the last commit come back within microseconds with their
// next write. Without the wait, concurrent writers split into two halves
// that take turns, each commit holding only the writes queued during the
// one before, and every fsync serves half as many writes. A lone writer
// (peak 1) never waits.
//
// This is the group-commit delay of databases (PostgreSQL's commit_delay,
// MySQL's binlog_group_commit_sync_delay), sized from the observed load.
func (db *DB) gather(batch []*writeOp, peak int, took time.Duration, timer *time.Timer) []*writeOp {
	for len(batch) < cap(batch) {
		select {
		case op := <-db.queue:
			batch = append(batch, op)
			continue
		default:
		}
		break
	}
	target := min(peak, cap(batch))
	if len(batch) >= target || took <= 0 {
		return batch
	}
	timer.Reset(min(took, maxLinger))
	defer timer.Stop()
	for len(batch) < target {
		select {
		case op := <-db.queue:
			batch = append(batch, op)
		case <-timer.C:
			return batch
		case <-db.closing:
			return batch
		}
	}
	return batch
}

// maxLinger bounds how long gather waits for more writes.
const maxLinger = time.Millisecond

// commit checks each op of a batch in order, gives the accepted ones the
// next revisions, writes them in one bbolt transaction, applies them to the
// index, hands them to the watch fan-out, and answers every op. The same
// transaction deletes the history records dels (a compaction's, which the
// index has forgotten already); it reports whether it did.
func (db *DB) commit(ops []*writeOp, dels []int64) (deleted bool) {
	if p := db.failed.Load(); p != nil {
		for _, op := range ops {
			op.done <- writeResult{err: &storage.Error{Kind: storage.ErrInternal, Key: op.key, Err: fmt.Errorf("%w: %w", ErrFailed, *p)}}
		}
		return false
	}

	// Check the conditions against the index, and against the writes
	// accepted earlier in this batch.
	var (
		accepted []*writeOp
		events   []event
		pending  map[string]*record
	)
	if len(ops) > 1 {
		pending = make(map[string]*record, len(ops))
	}
	db.mu.RLock()
	rev := db.rev
	for _, op := range ops {
		cur, inBatch := pending[op.key]
		if !inBatch {
			if ki := db.index.get(op.key); ki != nil {
				cur = ki.latest
			}
		}
		var live int64
		if cur != nil && !cur.deleted {
			live = cur.rev
		}
		if live != op.expect || (op.deleted && live == 0) {
			op.done <- writeResult{err: errModified}
			continue
		}
		rev++
		r := &record{rev: rev, key: op.key, deleted: op.deleted, value: op.value, createRev: rev, expires: op.expires}
		var prev *record
		if live != 0 {
			r.createRev, r.prevRev, prev = cur.createRev, cur.rev, cur
		}
		if pending != nil {
			pending[op.key] = r
		}
		accepted = append(accepted, op)
		events = append(events, event{rec: r, prev: prev})
	}
	db.mu.RUnlock()
	if len(accepted) == 0 {
		return false
	}

	err := db.bbolt.Update(func(tx *bbolt.Tx) error {
		h := tx.Bucket(bucketHistory)
		for _, r := range dels {
			if err := deleteRecord(tx, h, revKey(r)); err != nil {
				return err
			}
		}
		loadSuperseded(tx, events)
		h.FillPercent = 1 // keys only ever append: fill pages up
		for _, e := range events {
			if err := putRecord(tx, h, revKey(e.rec.rev), e.rec, e.rec.encode()); err != nil {
				return err
			}
		}
		return tx.Bucket(bucketMeta).Put(metaRevision, u64(rev))
	})
	if err != nil {
		// The state of the file after a failed fsync is unknown (the
		// kernel may have dropped the dirty pages): refuse further writes
		// rather than build on it, as PostgreSQL does.
		db.failed.Store(&err)
		db.log.Error("commit failed; refusing writes until reopened", "err", err, "writes", len(accepted))
		for _, op := range accepted {
			op.done <- writeResult{err: &storage.Error{Kind: storage.ErrInternal, Key: op.key, Err: fmt.Errorf("%w: %w", ErrFailed, err)}}
		}
		return false
	}

	db.mu.Lock()
	for _, e := range events {
		db.index.put(db.indexed(e.rec))
	}
	db.rev = rev
	db.mu.Unlock()
	db.expiry.schedule(events)

	if db.opts.Tracer.Enabled() {
		for i, op := range accepted {
			db.traceCommit(op, events[i].rec, len(accepted))
		}
	}
	// The writers are answered before the watchers get the events, as
	// upstream's are (etcd answers the commit; the watch cache gets the
	// event after it): the woken handlers are then first in line for a
	// core, ahead of the watch streams the fan-out is about to wake. In
	// the other order a writer's response waited behind a hundred stream
	// writes (crdbench's watch fan-out; storage.md, session 12).
	for i, op := range accepted {
		op.done <- writeResult{rec: events[i].rec}
	}
	db.fanout.enqueue(events, rev)
	return true
}

// deleteJob is a compaction's record deletions, handed to the committer:
// it makes them a few hundred at a time in the commits of writes, so that
// no write waits for a transaction of the compaction's (each costs two
// fsyncs, as a commit does), and in commits of their own only when no
// write has come for deleteLinger. done is closed when all are made, or
// when a commit fails (the next Open deletes the rest).
type deleteJob struct {
	revs []int64
	done chan struct{}
}

// deletesPerCommit is the most deletions one commit carries. Each
// deletion dirties a page of history (a compaction deletes old revisions
// spread over many pages), and every dirty page is written and fsynced
// with the commit: with 512, a write that carried them took 3–4× its idle
// time (BenchmarkCompactWrites, 30,000 objects); with 64, 1.2–2×, the
// compaction taking twice as long.
const deletesPerCommit = 64

// deleteLinger is how long the committer waits for a write to carry
// deletions before it commits them alone.
const deleteLinger = 10 * time.Millisecond

// advance drops the first n revisions of j, and returns j, or nil (with
// done closed) once none are left.
func (j *deleteJob) advance(n int) *deleteJob {
	if j.revs = j.revs[n:]; len(j.revs) == 0 {
		close(j.done)
		return nil
	}
	return j
}

// commitDeletes makes up to deletesPerCommit of j's deletions in a commit
// of their own, and returns what is left of j. A failed commit fails the
// DB, as a failed write does, and ends the job.
func (db *DB) commitDeletes(j *deleteJob) *deleteJob {
	if db.failed.Load() != nil {
		close(j.done)
		return nil
	}
	dels := j.revs[:min(len(j.revs), deletesPerCommit)]
	err := db.bbolt.Update(func(tx *bbolt.Tx) error {
		h := tx.Bucket(bucketHistory)
		for _, r := range dels {
			if err := deleteRecord(tx, h, revKey(r)); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		db.failed.Store(&err)
		db.log.Error("commit of compaction deletes failed; refusing writes until reopened", "err", err)
		close(j.done)
		return nil
	}
	return j.advance(len(dels))
}
