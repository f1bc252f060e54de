package garbagecollector

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	metav1 "github.com/crdlab/crdlab/apis/meta/v1"
	"github.com/crdlab/crdlab/controller"
)

// readLog records when each discovery read started.
type readLog struct {
	mu     sync.Mutex
	starts []time.Time
}

func (l *readLog) discover(context.Context) ([]*metav1.APIResourceList, error) {
	l.mu.Lock()
	l.starts = append(l.starts, time.Now())
	l.mu.Unlock()
	// A resource the collector does not follow (no delete, list, watch):
	// discovery answers, and no monitor is started.
	return []*metav1.APIResourceList{{GroupVersion: "v1", APIResources: []metav1.APIResource{{Name: "things", Kind: "Thing", Verbs: []string{"get"}}}}}, nil
}

func (l *readLog) snapshot() []time.Time {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]time.Time(nil), l.starts...)
}

// TestSync_CoalescesResyncs: a burst of Resync calls (a CRD burst, each a
// discovery change) costs at most one discovery read per interval, not one
// each, and the last call is still followed by a read that starts after
// it.
func TestSync_CoalescesResyncs(t *testing.T) {
	const interval = 200 * time.Millisecond
	var reads readLog
	gc := NewGarbageCollector(nil, reads.discover, nil, controller.Options{})
	gc.resyncMinInterval = interval

	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan struct{})
	go func() {
		defer close(done)
		gc.Sync(ctx, time.Hour) // no periodic read within the test
	}()
	defer func() { cancel(); <-done }()

	require.Eventually(t, func() bool { return len(reads.snapshot()) == 1 }, 30*time.Second, 5*time.Millisecond, "the first read at start")

	// 300 requests, 2 ms apart: the pattern of a burst of CRD writes.
	const requests = 300
	start := time.Now()
	tick := time.NewTicker(2 * time.Millisecond)
	for range requests {
		<-tick.C
		gc.Resync()
	}
	tick.Stop()
	lastRequest := time.Now()
	burst := lastRequest.Sub(start)

	// The last request is answered by a read that starts after it.
	require.Eventually(t, func() bool {
		s := reads.snapshot()
		return s[len(s)-1].After(lastRequest)
	}, 30*time.Second, 5*time.Millisecond, "a read after the last Resync")

	s := reads.snapshot()
	for i := 1; i < len(s); i++ {
		// Sync spaces the starts it notes by the interval; these stamps
		// are taken a moment later, so allow for scheduling.
		assert.GreaterOrEqual(t, s[i].Sub(s[i-1]), interval/2, "reads %d and %d closer than the interval", i-1, i)
	}
	// Reads are spaced by the interval: within the burst and the one
	// after it, no more than burst/interval + 2 of them.
	maxReads := 1 + int(burst/interval) + 2
	assert.LessOrEqual(t, len(s), maxReads, "%d Resync calls over %v made %d reads", requests, burst, len(s)-1)
	assert.Less(t, len(s)-1, requests/4, "requests were not coalesced")
	t.Logf("%d Resync calls over %v: %d discovery reads", requests, burst.Round(time.Millisecond), len(s)-1)
}

// TestSync_ResyncAfterQuiet: after a quiet interval a single Resync is
// served without waiting for the periodic read.
func TestSync_ResyncAfterQuiet(t *testing.T) {
	var reads readLog
	gc := NewGarbageCollector(nil, reads.discover, nil, controller.Options{})
	gc.resyncMinInterval = 10 * time.Millisecond

	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan struct{})
	go func() {
		defer close(done)
		gc.Sync(ctx, time.Hour)
	}()
	defer func() { cancel(); <-done }()

	require.Eventually(t, func() bool { return len(reads.snapshot()) == 1 }, 30*time.Second, 5*time.Millisecond)
	for n := 2; n <= 4; n++ {
		gc.Resync()
		require.Eventually(t, func() bool { return len(reads.snapshot()) == n }, 30*time.Second, 5*time.Millisecond, "read %d", n)
	}
}

// TestSync_SlowReadsSpacedByTheirCost: reads that take long (a server with
// thousands of resources) are spaced by resyncReadShare times their own
// duration, not by the minimum interval, so that during a long burst of
// Resync calls they take a bounded share of the time.
func TestSync_SlowReadsSpacedByTheirCost(t *testing.T) {
	const readTakes = 20 * time.Millisecond // the simulated cost of one read
	var reads readLog
	slow := func(ctx context.Context) ([]*metav1.APIResourceList, error) {
		all, err := reads.discover(ctx)
		time.Sleep(readTakes)
		return all, err
	}
	gc := NewGarbageCollector(nil, slow, nil, controller.Options{})
	gc.resyncMinInterval = time.Millisecond

	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan struct{})
	go func() {
		defer close(done)
		gc.Sync(ctx, time.Hour)
	}()
	defer func() { cancel(); <-done }()

	require.Eventually(t, func() bool { return len(reads.snapshot()) == 1 }, 30*time.Second, 5*time.Millisecond, "the first read at start")
	// Ask continuously until three more reads have happened.
	require.Eventually(t, func() bool { gc.Resync(); return len(reads.snapshot()) >= 4 }, 60*time.Second, time.Millisecond)
	s := reads.snapshot()
	for i := 1; i < len(s); i++ {
		assert.GreaterOrEqual(t, s[i].Sub(s[i-1]), resyncReadShare*readTakes, "reads %d and %d: spaced less than %d times a read's duration", i-1, i, resyncReadShare)
	}
}
