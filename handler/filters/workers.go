package filters

import (
	"sync/atomic"
	"time"
)

// handlerWorkers runs WithTimeout's handlers on goroutines that outlive
// one request, so that a request's handler starts on a stack already
// grown by the requests before it.
//
// A new goroutine starts with a small stack (2 KiB, or the average of the
// stacks the last garbage collection saw, which on a server with many
// idle watches stays small), and an update's handler needs about 32 KiB:
// structured-merge-diff's walkers recurse, the JSON encoder recurses. The
// runtime grows a stack by copying it to one twice its size, so a fresh
// goroutine per request paid up to four copies, about 40 µs of CPU per
// update with 100 watches open (BenchmarkWatchFanout_Update, session 18):
// a tenth of the update's handler. gRPC's server reuses its stream
// goroutines for the same reason (grpc-go's NumStreamWorkers and
// serverWorker: "the runtime.morestack problem", golang/go#18138).
//
// Upstream's WithTimeoutForNonLongRunningRequests starts a goroutine per
// request; crdlab's answers are the same, only where the handler runs
// differs.
type handlerWorkers struct {
	// work hands a handler to an idle worker; a send succeeds only when
	// one is waiting.
	work chan func()
	// idle counts the workers waiting on work; at most maxIdle wait, the
	// others end after their handler, and a worker that waits idleFor
	// ends too: a server gone quiet keeps none (the soak test counts its
	// goroutines after the load).
	idle    atomic.Int32
	maxIdle int32
	idleFor time.Duration
	// idleEnded counts the workers that ended for want of work.
	idleEnded atomic.Int64
	// runs bounds the handlers one worker runs (runsPerWorker; a test
	// sets fewer).
	runs int
}

// runsPerWorker bounds the handlers one worker runs before it ends: a
// stack grown large by one request (a deep object) does not stay with
// the pool for good; the garbage collector shrinks only idle stacks.
const runsPerWorker = 1 << 14

func newHandlerWorkers(maxIdle int32, idleFor time.Duration) *handlerWorkers {
	return &handlerWorkers{work: make(chan func()), maxIdle: maxIdle, idleFor: idleFor, runs: runsPerWorker}
}

// Go runs f on an idle worker, or on a new goroutine when none is idle.
// f must not panic (WithTimeout's handler recovers its own), and must
// leave no state on its goroutine for the next f: a runtime.LockOSThread
// without its unlock, pprof labels set without pprof.Do (crdlab's
// handlers do neither). A runtime.Goexit only ends that worker.
func (p *handlerWorkers) Go(f func()) {
	select {
	case p.work <- f:
	default:
		go p.loop(f)
	}
}

func (p *handlerWorkers) loop(f func()) {
	var idle *time.Timer
	for n := 1; ; n++ {
		f()
		// A worker that has run its share ends before it waits again,
		// never after: a handler it received would not run, and its
		// request would hang until the timeout's 504 (every 16,384th
		// request of a client that sends one at a time did, until
		// session 21).
		if n >= p.runs {
			return
		}
		if p.idle.Add(1) > p.maxIdle {
			p.idle.Add(-1)
			return
		}
		if idle == nil {
			idle = time.NewTimer(p.idleFor)
		} else {
			idle.Reset(p.idleFor) // Go 1.23 timers: no stale tick to drain
		}
		select {
		case f = <-p.work:
			p.idle.Add(-1)
		case <-idle.C:
			p.idle.Add(-1)
			p.idleEnded.Add(1)
			return
		}
	}
}
