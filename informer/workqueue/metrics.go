package workqueue

import (
	"time"

	"github.com/crdlab/crdlab/machinery/clock"
)

// GaugeMetric is a value that goes up and down (queue depth).
//
// GaugeMetric mirrors workqueue.GaugeMetric in metrics.go.
type GaugeMetric interface {
	Inc()
	Dec()
}

// CounterMetric is a value that only goes up (adds, retries).
//
// CounterMetric mirrors workqueue.CounterMetric in metrics.go.
type CounterMetric interface {
	Inc()
}

// HistogramMetric records observations, in seconds (latency, work duration).
//
// HistogramMetric mirrors workqueue.HistogramMetric in metrics.go.
type HistogramMetric interface {
	Observe(seconds float64)
}

// MetricsProvider makes the metrics of one queue; name is Config.Name. Each
// method is called once, when the queue is built.
//
// MetricsProvider mirrors workqueue.MetricsProvider in metrics.go, without
// the unfinished-work and longest-running-processor gauges.
type MetricsProvider interface {
	// NewDepthMetric: items that are dirty, i.e. Added and not yet handed
	// out by Get (this counts a re-Added item still processing, which
	// Len does not).
	NewDepthMetric(name string) GaugeMetric
	// NewAddsMetric: Adds that made an item dirty (coalesced Adds don't
	// count).
	NewAddsMetric(name string) CounterMetric
	// NewLatencyMetric: seconds from the Add that made an item dirty to the
	// Get that handed it out.
	NewLatencyMetric(name string) HistogramMetric
	// NewWorkDurationMetric: seconds from Get to Done.
	NewWorkDurationMetric(name string) HistogramMetric
	// NewRetriesMetric: calls to AddAfter (and so AddRateLimited).
	NewRetriesMetric(name string) CounterMetric
}

// noopMetricsProvider is the default MetricsProvider: every metric drops
// what it is given.
//
// noopMetricsProvider mirrors noopMetricsProvider in metrics.go.
type noopMetricsProvider struct{}

type noopMetric struct{}

func (noopMetric) Inc()            {}
func (noopMetric) Dec()            {}
func (noopMetric) Observe(float64) {}

func (noopMetricsProvider) NewDepthMetric(string) GaugeMetric            { return noopMetric{} }
func (noopMetricsProvider) NewAddsMetric(string) CounterMetric           { return noopMetric{} }
func (noopMetricsProvider) NewLatencyMetric(string) HistogramMetric      { return noopMetric{} }
func (noopMetricsProvider) NewWorkDurationMetric(string) HistogramMetric { return noopMetric{} }
func (noopMetricsProvider) NewRetriesMetric(string) CounterMetric        { return noopMetric{} }

// queueMetrics turns queue events into metric updates. Its methods are
// called with the queue's lock held (retry excepted, which only touches a
// counter), so its maps need no lock of their own.
//
// queueMetrics mirrors defaultQueueMetrics in metrics.go.
type queueMetrics[T comparable] struct {
	clock clock.Clock

	depth        GaugeMetric
	adds         CounterMetric
	latency      HistogramMetric
	workDuration HistogramMetric
	retries      CounterMetric

	// addTimes holds, for each dirty item, when it became dirty. An item is
	// a key if and only if it is in the queue's dirty set.
	addTimes map[T]time.Time
	// processingStartTimes holds, for each processing item, when Get handed
	// it out. An item is a key if and only if it is in the processing set.
	processingStartTimes map[T]time.Time
}

func newQueueMetrics[T comparable](name string, p MetricsProvider, c clock.Clock) *queueMetrics[T] {
	return &queueMetrics[T]{
		clock:                c,
		depth:                p.NewDepthMetric(name),
		adds:                 p.NewAddsMetric(name),
		latency:              p.NewLatencyMetric(name),
		workDuration:         p.NewWorkDurationMetric(name),
		retries:              p.NewRetriesMetric(name),
		addTimes:             map[T]time.Time{},
		processingStartTimes: map[T]time.Time{},
	}
}

// add records that item became dirty.
func (m *queueMetrics[T]) add(item T) {
	m.adds.Inc()
	m.depth.Inc()
	if _, ok := m.addTimes[item]; !ok {
		m.addTimes[item] = m.clock.Now()
	}
}

// get records that Get handed item out, and returns how long item
// waited since it became dirty.
func (m *queueMetrics[T]) get(item T) (waited time.Duration) {
	now := m.clock.Now()
	m.depth.Dec()
	if start, ok := m.addTimes[item]; ok {
		waited = now.Sub(start)
		m.latency.Observe(waited.Seconds())
		delete(m.addTimes, item)
	}
	m.processingStartTimes[item] = now
	return waited
}

// done records that a worker called Done on item, and returns how long
// the worker held it.
func (m *queueMetrics[T]) done(item T) (worked time.Duration) {
	if start, ok := m.processingStartTimes[item]; ok {
		worked = m.clock.Now().Sub(start)
		m.workDuration.Observe(worked.Seconds())
		delete(m.processingStartTimes, item)
	}
	return worked
}

// retry records an AddAfter.
func (m *queueMetrics[T]) retry() {
	m.retries.Inc()
}
