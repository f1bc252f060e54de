package workqueue

import (
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/crdlab/crdlab/machinery/clock"
)

// recordingProvider is a MetricsProvider that keeps every value, for tests.
type recordingProvider struct {
	mu      sync.Mutex // guards the maps and every metric's value
	names   []string
	metrics map[string]*recordingMetric
}

type recordingMetric struct {
	p       *recordingProvider
	value   float64
	samples []float64
}

func newRecordingProvider() *recordingProvider {
	return &recordingProvider{metrics: map[string]*recordingMetric{}}
}

func (p *recordingProvider) metric(kind, name string) *recordingMetric {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.names = append(p.names, name)
	m := &recordingMetric{p: p}
	p.metrics[kind] = m
	return m
}

func (m *recordingMetric) Inc() { m.p.mu.Lock(); m.value++; m.p.mu.Unlock() }
func (m *recordingMetric) Dec() { m.p.mu.Lock(); m.value--; m.p.mu.Unlock() }
func (m *recordingMetric) Observe(sec float64) {
	m.p.mu.Lock()
	m.samples = append(m.samples, sec)
	m.p.mu.Unlock()
}

func (p *recordingProvider) NewDepthMetric(n string) GaugeMetric     { return p.metric("depth", n) }
func (p *recordingProvider) NewAddsMetric(n string) CounterMetric    { return p.metric("adds", n) }
func (p *recordingProvider) NewRetriesMetric(n string) CounterMetric { return p.metric("retries", n) }
func (p *recordingProvider) NewLatencyMetric(n string) HistogramMetric {
	return p.metric("latency", n)
}
func (p *recordingProvider) NewWorkDurationMetric(n string) HistogramMetric {
	return p.metric("work", n)
}

func (p *recordingProvider) value(kind string) float64 {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.metrics[kind].value
}

func (p *recordingProvider) samples(kind string) []float64 {
	p.mu.Lock()
	defer p.mu.Unlock()
	return slices.Clone(p.metrics[kind].samples)
}

func TestQueue_Metrics(t *testing.T) {
	fakeClock := clock.NewFakeClock(epoch)
	p := newRecordingProvider()
	q := newDelaying[string](Config{Name: "crds", Clock: fakeClock, MetricsProvider: p})
	defer q.ShutDown()

	for _, n := range p.names {
		if n != "crds" {
			t.Fatalf("metric named %q, want the queue's name", n)
		}
	}
	want := func(kind string, v float64) {
		t.Helper()
		if got := p.value(kind); got != v {
			t.Fatalf("%s = %v, want %v", kind, got, v)
		}
	}

	q.Add("a")
	q.Add("a") // coalesced: not an add
	want("adds", 1)
	want("depth", 1)

	fakeClock.Step(2 * time.Second)
	mustGet(t, q, "a")
	want("depth", 0)
	if got := p.samples("latency"); !slices.Equal(got, []float64{2}) {
		t.Fatalf("latency samples = %v, want [2]", got)
	}

	q.Add("a") // while processing: dirty, so depth counts it though Len does not
	want("adds", 2)
	want("depth", 1)
	wantLen(t, q, 0)

	fakeClock.Step(3 * time.Second)
	q.Done("a")
	if got := p.samples("work"); !slices.Equal(got, []float64{3}) {
		t.Fatalf("work duration samples = %v, want [3]", got)
	}
	mustGet(t, q, "a")
	if got := p.samples("latency"); !slices.Equal(got, []float64{2, 3}) {
		t.Fatalf("latency samples = %v, want [2 3]", got)
	}
	q.Done("a")

	q.AddAfter("b", time.Second)
	q.AddAfter("c", 0)
	want("retries", 2)
	mustCheck(t, q.Queue)
}
