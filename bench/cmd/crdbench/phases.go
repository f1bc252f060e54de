package main

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/crdlab/crdlab/bench/internal/report"
	"github.com/crdlab/crdlab/bench/internal/stats"
	"github.com/crdlab/crdlab/bench/internal/workload"
)

// Namespaces and CRDs of the workload. Every server gets the same ones.
const (
	nsBench  = "bench"  // the created objects: listed, then deleted with their CRD
	nsWarmup = "warmup" // the first object of each CRD the workload waits for
)

var (
	mainCRD   = workload.NewCRD("widgets")    // created, read, listed, deleted
	fanoutCRD = workload.NewCRD("fanwidgets") // watched
)

// order is the servers in the order round r runs them: alternating, so that neither
// always goes first (right after the other has warmed the machine up, or while the
// other's background work is still winding down).
func (b *bench) order(r int) []*server {
	s := slices.Clone(b.servers)
	if r%2 == 1 {
		slices.Reverse(s)
	}
	return s
}

func (b *bench) on(phase string) bool { return b.phases["all"] || b.phases[phase] }

func (b *bench) workload(ctx context.Context) error {
	p := b.p

	// Setup: the namespaces the phases write in (crdlab admits objects only
	// in existing namespaces; the reference serves no namespaces and
	// needs none), then the two CRDs every later phase uses, each usable
	// (a first object created).
	for _, s := range b.withNoKubeControllers() {
		if err := s.target.CreateNamespaces(ctx, nsWarmup, nsBench, "fanout-small", "fanout-big"); err != nil {
			return fmt.Errorf("setup: %w", err)
		}
		for _, crd := range []workload.CRD{mainCRD, fanoutCRD, workload.CELRoutes} {
			if _, _, err := s.target.FirstCRLatency(ctx, crd, nsWarmup); err != nil {
				return fmt.Errorf("setup: %w", err)
			}
		}
	}

	if b.on("established") {
		logf("phase: CRD created → Established (%d each)", p.EstablishedReps)
		lat := map[*server][]time.Duration{}
		for r := range p.EstablishedReps {
			for _, s := range b.order(r) {
				d, err := s.target.EstablishedLatency(ctx, workload.NewCRD(fmt.Sprintf("estwidget%ds", r)))
				if err != nil {
					s.fail("established", err)
					continue
				}
				lat[s] = append(lat[s], d)
			}
		}
		for _, s := range b.servers {
			s.res.Established = stats.Summarize(lat[s])
			logf("  %-9s p50 %.1f ms max %.1f ms", s.res.Name, s.res.Established.P50, s.res.Established.Max)
		}
		b.mem("established")
	}

	if b.on("firstcr") {
		logf("phase: CRD created → first custom resource created (%d each)", p.FirstCRReps)
		lat := map[*server][]time.Duration{}
		for r := range p.FirstCRReps {
			for _, s := range b.order(r) {
				d, n, err := s.target.FirstCRLatency(ctx, workload.NewCRD(fmt.Sprintf("firstwidget%ds", r)), nsWarmup)
				if err != nil {
					s.fail("firstcr", err)
					continue
				}
				lat[s] = append(lat[s], d)
				s.res.FirstCRAttempts += n
			}
		}
		for _, s := range b.servers {
			s.res.FirstCR = stats.Summarize(lat[s])
			logf("  %-9s p50 %.1f ms max %.1f ms (%d attempts)", s.res.Name, s.res.FirstCR.P50, s.res.FirstCR.Max, s.res.FirstCRAttempts)
		}
		b.mem("firstcr")
	}

	var names []string
	if b.on("create") {
		names = append(names, b.create(ctx, "create1", "c1", p.Create1N, 1, func(r *report.Server) *report.Throughput { return &r.Create1 })...)
		names = append(names, b.create(ctx, "create16", "c16", p.Create16N, 16, func(r *report.Server) *report.Throughput { return &r.Create16 })...)
		b.mem("create")
		if s := b.noKubeControllers; s != nil {
			// Its part is done: it leaves the machine to the others.
			s.mem("create")
			s.res.CPUSeconds = (s.cpu() - s.cpu0).Seconds()
			s.stop()
		}
	}
	if b.on("createcel") {
		b.createOf(ctx, workload.CELRoutes, "createcel", "cel", p.CreateCELN, 16, func(r *report.Server) *report.Throughput { return &r.CreateCEL })
		b.mem("createcel")
	}

	if b.on("get") && len(names) > 0 {
		logf("phase: get, 1 client, N=%d", p.GetN)
		per := p.GetN / p.Rounds
		acc := map[*server]*accum{}
		for r := range p.Rounds {
			for _, s := range b.order(r) {
				c0 := s.cpu()
				t, err := s.target.Get(ctx, mainCRD, nsBench, names, per, uint64(r))
				if err != nil {
					s.fail("get", err)
					continue
				}
				acc[s] = acc[s].add(t, s.cpu()-c0)
			}
		}
		for _, s := range b.servers {
			s.res.Get = acc[s].throughput(1)
			logf("  %-9s %.0f/s p50 %.2f ms p99 %.2f ms", s.res.Name, s.res.Get.PerSec, s.res.Get.Lat.P50, s.res.Get.Lat.P99)
		}
		b.mem("get")
	}

	if b.on("list") && len(names) > 0 {
		logf("phase: list %d objects, latest and resourceVersion=0 (%d each)", len(names), p.ListReps)
		type key struct {
			s  *server
			rv string
		}
		lat := map[key][]time.Duration{}
		for r := range p.ListReps {
			modes := []string{"", "0"}
			if r%2 == 1 {
				slices.Reverse(modes)
			}
			for _, s := range b.order(r) {
				for _, rv := range modes {
					l, err := s.target.List(ctx, mainCRD, nsBench, rv, r < 2)
					if err != nil {
						s.fail("list", err)
						continue
					}
					if l.Items >= 0 && l.Items != len(names) {
						s.fail("list", fmt.Errorf("list (resourceVersion=%q) has %d items, want %d", rv, l.Items, len(names)))
					}
					lat[key{s, rv}] = append(lat[key{s, rv}], l.Latency)
					dst := &s.res.ListLatest
					if rv == "0" {
						dst = &s.res.ListRV0
					}
					dst.Bytes, dst.Objects = l.Bytes, len(names)
				}
			}
		}
		for _, s := range b.servers {
			s.res.ListLatest.Lat = stats.Summarize(lat[key{s, ""}])
			s.res.ListRV0.Lat = stats.Summarize(lat[key{s, "0"}])
			logf("  %-9s latest p50 %.1f ms, rv=0 p50 %.1f ms, %.2f MB", s.res.Name, s.res.ListLatest.Lat.P50, s.res.ListRV0.Lat.P50, float64(s.res.ListLatest.Bytes)/1e6)
		}
		b.mem("list")
	}

	settle := 60 * time.Second
	if b.o.short {
		settle = 20 * time.Second
	}
	if b.on("watch") {
		b.watch(ctx, "fanout-small", p.WatchSmall, p.WatchUpdates, settle, true, func(r *report.Server, w *report.Watch) { r.WatchSmall = w })
		b.mem("watch")
	}
	if b.on("watchbig") {
		// The reference need only take part "if it copes": its failure is reported, not an
		// error of the harness.
		b.watch(ctx, "fanout-big", p.WatchBig, p.WatchUpdates, settle, false, func(r *report.Server, w *report.Watch) { r.WatchBig = w })
		b.mem("watchbig")
	}

	if b.on("apply") {
		b.applyOne(ctx, "apply1", "applied-by-1", p.Apply1N, 1, func(r *report.Server) *report.Throughput { return &r.Apply1 })
		b.applyOne(ctx, "apply16", "applied-by-16", p.Apply16N, 16, func(r *report.Server) *report.Throughput { return &r.Apply16 })
		logf("phase: server-side apply of %d objects with %d list-type map entries each, 1 client, %d rounds", p.ApplyListObjects, p.ApplyListEntries, p.Rounds)
		acc := map[*server]*accum{}
		for r := range p.Rounds {
			for _, s := range b.order(r) {
				c0 := s.cpu()
				t, err := s.target.ApplyMany(ctx, mainCRD, nsBench, "applied-list", r, p.ApplyListObjects, p.ApplyListEntries)
				if err != nil {
					s.fail("applylist", err)
					continue
				}
				acc[s] = acc[s].add(t, s.cpu()-c0)
			}
		}
		for _, s := range b.servers {
			s.res.ApplyList = acc[s].throughput(1)
			t := s.res.ApplyList
			logf("  %-9s %.0f/s p50 %.2f ms p99 %.2f ms, server CPU %.2f ms/op", s.res.Name, t.PerSec, t.Lat.P50, t.Lat.P99, t.CPUMsPerOp)
		}
		b.mem("apply")
	}

	if b.on("delete") && len(names) > 0 {
		timeout := 10 * time.Minute
		if b.o.short {
			timeout = 2 * time.Minute
		}
		logf("phase: delete the CRD with %d instances", len(names))
		for _, s := range b.order(0) {
			d, err := s.target.DeleteCRDUntil404(ctx, mainCRD, nsBench, timeout)
			if err != nil {
				s.fail("delete", err)
				continue
			}
			s.res.DeleteCRD = &report.DeleteCRD{Instances: len(names), Ms: stats.Ms(d)}
			logf("  %-9s %.0f ms", s.res.Name, s.res.DeleteCRD.Ms)
		}
		b.mem("delete")
	}
	return ctx.Err()
}

func (b *bench) mem(phase string) {
	for _, s := range b.servers {
		s.mem(phase)
	}
}

// withNoKubeControllers is the servers and crdlab without its kube
// controllers, if it runs.
func (b *bench) withNoKubeControllers() []*server {
	if b.noKubeControllers == nil {
		return b.servers
	}
	return append(slices.Clone(b.servers), b.noKubeControllers)
}

// create runs a create phase, on crdlab without its kube controllers too,
// and returns the names it created.
func (b *bench) create(ctx context.Context, phase, prefix string, n, clients int, dst func(*report.Server) *report.Throughput) []string {
	return b.createOn(ctx, b.withNoKubeControllers(), mainCRD, phase, prefix, n, clients, dst)
}

// createOf creates n objects of crd in rounds, on each server in turn.
func (b *bench) createOf(ctx context.Context, crd workload.CRD, phase, prefix string, n, clients int, dst func(*report.Server) *report.Throughput) []string {
	return b.createOn(ctx, b.servers, crd, phase, prefix, n, clients, dst)
}

// createOn creates n objects of crd in rounds, on each of servers in turn
// (alternating order).
func (b *bench) createOn(ctx context.Context, servers []*server, crd workload.CRD, phase, prefix string, n, clients int, dst func(*report.Server) *report.Throughput) []string {
	logf("phase: %s, %d client(s), N=%d", phase, clients, n)
	per := n / b.p.Rounds
	acc := map[*server]*accum{}
	for r := range b.p.Rounds {
		count := per
		if r == b.p.Rounds-1 {
			count = n - per*(b.p.Rounds-1)
		}
		order := slices.Clone(servers)
		if r%2 == 1 {
			slices.Reverse(order)
		}
		for _, s := range order {
			c0 := s.cpu()
			t, err := s.target.Create(ctx, crd, nsBench, prefix, r*per, count, clients)
			if err != nil {
				s.fail(phase, err)
				continue
			}
			acc[s] = acc[s].add(t, s.cpu()-c0)
		}
	}
	for _, s := range servers {
		*dst(s.res) = acc[s].throughput(clients)
		t := dst(s.res)
		logf("  %-9s %.0f/s p50 %.2f ms p99 %.2f ms, server CPU %.2f ms/op", s.res.Name, t.PerSec, t.Lat.P50, t.Lat.P99, t.CPUMsPerOp)
	}
	names := make([]string, n)
	for i := range names {
		names[i] = workload.ObjectName(prefix, i)
	}
	return names
}

// applyOne runs a phase of server-side applies to one object (the first creates it),
// each changing it.
func (b *bench) applyOne(ctx context.Context, phase, name string, n, clients int, dst func(*report.Server) *report.Throughput) {
	logf("phase: server-side apply of one object, %d client(s), N=%d", clients, n)
	per := n / b.p.Rounds
	acc := map[*server]*accum{}
	for r := range b.p.Rounds {
		count := per
		if r == b.p.Rounds-1 {
			count = n - per*(b.p.Rounds-1)
		}
		for _, s := range b.order(r) {
			c0 := s.cpu()
			t, err := s.target.ApplyOne(ctx, mainCRD, nsBench, name, r*per, count, clients)
			if err != nil {
				s.fail(phase, err)
				continue
			}
			acc[s] = acc[s].add(t, s.cpu()-c0)
		}
	}
	for _, s := range b.servers {
		*dst(s.res) = acc[s].throughput(clients)
		t := dst(s.res)
		logf("  %-9s %.0f/s p50 %.2f ms p99 %.2f ms, server CPU %.2f ms/op", s.res.Name, t.PerSec, t.Lat.P50, t.Lat.P99, t.CPUMsPerOp)
	}
}

// accum adds up the rounds of a timed phase.
type accum struct {
	lat  []time.Duration
	wall time.Duration
	cpu  time.Duration
}

func (a *accum) add(t workload.Timed, cpu time.Duration) *accum {
	if a == nil {
		a = &accum{}
	}
	a.lat = append(a.lat, t.Latencies...)
	a.wall += t.Wall
	a.cpu += cpu
	return a
}

func (a *accum) throughput(clients int) report.Throughput {
	if a == nil || len(a.lat) == 0 {
		return report.Throughput{Clients: clients}
	}
	n := len(a.lat)
	return report.Throughput{
		N: n, Clients: clients,
		Seconds:    a.wall.Seconds(),
		PerSec:     float64(n) / a.wall.Seconds(),
		Lat:        stats.SummarizeCurve(a.lat),
		CPUMsPerOp: stats.Ms(a.cpu) / float64(n),
	}
}

// watch runs a watch fan-out on every server, in b.p.Rounds interleaved rounds of the
// whole fan-out (watchers × updates each; the servers' order alternates, as the other
// phases'), and pools them: events/s is every event delivered over the rounds' spans
// added up, the latencies are all rounds'. One run a server was as much as 15 % off the
// next on this machine (the reference 27,842 and 36,799 events/s in two runs of the same
// build); a round that fails ends the server's fan-out, reported as before.
func (b *bench) watch(ctx context.Context, ns string, watchers, updates int, settle time.Duration, required bool, dst func(*report.Server, *report.Watch)) {
	logf("phase: watch fan-out, %d watchers × %d updates, %d rounds", watchers, updates, b.p.Rounds)
	type pooled struct {
		w      workload.WatchResult
		span   time.Duration
		perSec []float64
		err    error
	}
	acc := map[*server]*pooled{}
	for r := range b.p.Rounds {
		for _, s := range b.order(r) {
			a := acc[s]
			if a == nil {
				a = &pooled{}
				acc[s] = a
			}
			if a.err != nil || a.w.Missed > 0 || a.w.OutOfOrder > 0 || a.w.WatchErrors > 0 {
				continue // this server's fan-out already failed
			}
			w, err := s.target.WatchFanout(ctx, fanoutCRD, ns, fmt.Sprintf("fan-%d", r), watchers, updates, settle)
			a.w.Latencies = append(a.w.Latencies, w.Latencies...)
			a.w.WriteLatencies = append(a.w.WriteLatencies, w.WriteLatencies...)
			a.w.Delivered += w.Delivered
			a.w.Missed += w.Missed
			a.w.OutOfOrder += w.OutOfOrder
			a.w.WatchErrors += w.WatchErrors
			if a.w.FirstError == "" {
				a.w.FirstError = w.FirstError
			}
			a.span += w.Span
			a.err = err
			if w.Span > 0 {
				a.perSec = append(a.perSec, float64(w.Delivered)/w.Span.Seconds())
			}
			logf("  round %d: %-9s %.0f events/s, writer p50 %.2f ms", r+1, s.res.Name, float64(w.Delivered)/max(w.Span, time.Nanosecond).Seconds(), stats.Summarize(w.WriteLatencies).P50)
		}
	}
	for _, s := range b.servers {
		a := acc[s]
		if a == nil {
			continue
		}
		w, err := a.w, a.err
		out := &report.Watch{
			Watchers: watchers, Updates: updates, RoundEventsPerSec: a.perSec,
			Delivered: w.Delivered, Missed: w.Missed, OutOfOrder: w.OutOfOrder,
			WatchErrors: w.WatchErrors, FirstError: w.FirstError,
			Lat:      stats.SummarizeCurve(w.Latencies),
			WriteLat: stats.Summarize(w.WriteLatencies),
		}
		if a.span > 0 {
			out.EventsPerSec = float64(w.Delivered) / a.span.Seconds()
		}
		switch {
		case err != nil:
			out.Failed = err.Error()
			if required || s.res.Name == report.Crdlab || ctx.Err() != nil {
				s.fail(ns, err)
			} else {
				logf("  %-9s did not cope: %v", s.res.Name, err)
			}
		case w.Missed > 0 || w.OutOfOrder > 0 || w.WatchErrors > 0:
			msg := fmt.Errorf("%d events missed, %d out of order, %d watch errors (first: %s)", w.Missed, w.OutOfOrder, w.WatchErrors, w.FirstError)
			if required || s.res.Name == report.Crdlab {
				s.fail(ns, msg)
			} else {
				out.Failed = msg.Error()
				logf("  %-9s did not cope: %v", s.res.Name, msg)
			}
		}
		dst(s.res, out)
		logf("  %-9s %.0f events/s, delivery p50 %.2f ms p99 %.2f ms, missed %d, writer p50 %.2f ms",
			s.res.Name, out.EventsPerSec, out.Lat.P50, out.Lat.P99, out.Missed, out.WriteLat.P50)
	}
}
