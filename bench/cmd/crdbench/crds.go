package main

// The "many CRDs" family of issue 20: at each size, fresh servers (crdlab; the reference
// apiextensions-apiserver on etcd) get that many real-size CRDs from internal/crdgen, and
// the run measures how long until all are Established and served, what the server spent
// (CPU, resident memory per CRD), and how discovery, OpenAPI, kubectl and custom-resource
// creates fare with all of them present.

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/crdlab/crdlab/bench/internal/procs"
	"github.com/crdlab/crdlab/bench/internal/report"
	"github.com/crdlab/crdlab/bench/internal/stats"
	"github.com/crdlab/crdlab/bench/internal/workload"
)

// crdsParams are the family's sizes and budgets.
type crdsParams struct {
	sizes                   []int
	kib, versions, perGroup int
	// budget and budgetRSS bound the reference at one size (crdlab's limit is budget too,
	// but reaching it is an error).
	budget    time.Duration
	budgetRSS int64
	// crdlabBudget, if set, is crdlab's time limit instead of budget
	// (-crds-crdlab-budget: a crdlab-only run of a size the reference is
	// not run at).
	crdlabBudget time.Duration
	// settle bounds the wait for the server's CPU to quiet down.
	settle time.Duration
	// gets is the timed requests of each discovery / OpenAPI measure. A p99 of
	// 200 was the third-slowest request: on a 2-core machine shared by the
	// client and the server, a few requests in a thousand take 3–8 ms without
	// a collection or anything else of the server's running (crdlab at 2,000
	// CRDs: p50 0.7 ms, p99 of 1,000 1.4–2.1 ms, the slowest 5–8 ms), so the
	// p99 of 200 moved 1.6–7.3 ms between runs of one build and the flatness
	// ratio with it. The p99 of 1,000 is the eleventh-slowest.
	gets int
	gvs  int // distinct group versions the OpenAPI gets cycle through
	crs  int // custom resources created per CR create measure
}

func crdsSizes(short bool, override string, crdlabBudget time.Duration) (crdsParams, error) {
	p := crdsParams{sizes: []int{100, 500, 2000}, kib: 265, versions: 2, perGroup: 8,
		budget: 15 * time.Minute, budgetRSS: 10 << 30, settle: 10 * time.Minute, gets: 1000, gvs: 50, crs: 300}
	if short {
		p = crdsParams{sizes: []int{3}, kib: 265, versions: 2, perGroup: 2,
			budget: 3 * time.Minute, budgetRSS: 4 << 30, settle: time.Minute, gets: 5, gvs: 5, crs: 5}
	}
	p.crdlabBudget = crdlabBudget
	if override != "" {
		p.sizes = nil
		for _, f := range strings.Split(override, ",") {
			n, err := strconv.Atoi(strings.TrimSpace(f))
			if err != nil || n < 2 {
				return p, fmt.Errorf("-crds-sizes: %q is not a count of at least 2", f)
			}
			p.sizes = append(p.sizes, n)
		}
	}
	return p, nil
}

// crds runs the family at every size and returns its results.
func (b *bench) crds(ctx context.Context, work, root string, bins map[string]string) (*report.CRDs, error) {
	cp, err := crdsSizes(b.o.short, b.o.crdsSizes, b.o.crdsCrdlabBudget)
	if err != nil {
		return nil, err
	}
	out := &report.CRDs{KiB: cp.kib, Versions: cp.versions, PerGroup: cp.perGroup,
		BudgetSec: cp.budget.Seconds(), BudgetRSS: cp.budgetRSS, OpenAPIGVs: cp.gvs, GetsEncoding: "gzip"}

	// The CRDs, generated once for the largest size (smaller sizes take its first ones).
	genDir := filepath.Join(work, "crdgen")
	largest := slices.Max(cp.sizes)
	logf("crds: generating %d CRDs of %d KiB (internal/crdgen)", largest, cp.kib)
	cmd := exec.CommandContext(ctx, "go", "run", "./internal/crdgen/gencrds", "-n", strconv.Itoa(largest),
		"-kib", strconv.Itoa(cp.kib), "-versions", strconv.Itoa(cp.versions), "-per-group", strconv.Itoa(cp.perGroup), "-out", genDir)
	cmd.Dir = root
	if o, err := cmd.CombinedOutput(); err != nil {
		return nil, fmt.Errorf("gencrds: %w\n%s", err, o)
	}
	gen, err := workload.LoadGenCRDs(genDir)
	if err != nil {
		return nil, err
	}

	// kubectl, built from the e2e module (its build cache is shared with the e2e tests).
	kubectl := filepath.Join(work, "bin", "kubectl")
	if err := procs.Build(ctx, filepath.Join(root, "e2e"), kubectl, "./cmd/kubectl", ""); err != nil {
		out.Kubectl = "building kubectl from the e2e module failed: " + firstLine(err.Error())
		kubectl = ""
	}

	for i, n := range cp.sizes {
		if ctx.Err() != nil {
			return out, ctx.Err()
		}
		start := time.Now()
		sz := &report.CRDsSize{N: n, Servers: map[string]*report.CRDsServer{},
			Date: start.UTC().Format("2006-01-02 15:04 UTC"), Commit: b.commit, LoadAvg: [2]float64{loadAvg(), 0}}
		out.Sizes = append(out.Sizes, sz)
		var ss []*objServer
		for _, m := range b.servers {
			ss = append(ss, &objServer{
				name: m.res.Name, dir: filepath.Join(work, fmt.Sprintf("crds-%d", n), m.res.Name), main: m,
				etcdBin: bins["etcd"], refBin: bins["refserver"], crdlabBin: bins["crdlab"],
				crdlabExtra: strings.Fields(b.o.crdlabArgs), crdlabEnv: strings.Fields(b.o.crdlabEnv),
			})
		}
		if i%2 == 1 {
			slices.Reverse(ss)
		}
		for _, s := range ss {
			res := &report.CRDsServer{}
			sz.Servers[s.name] = res
			if err := os.MkdirAll(s.dir, 0o755); err != nil {
				return out, err
			}
			err := b.crdsOne(ctx, cp, gen.Index[:n], gen, s, res, kubectl)
			s.stop()
			if err != nil {
				res.Errors = append(res.Errors, err.Error())
				if s.name == report.Crdlab || ctx.Err() != nil {
					s.main.fail(fmt.Sprintf("crds %d", n), err)
				} else {
					logf("  %s at %d CRDs: %v", s.name, n, err)
				}
			}
			if !b.o.keep {
				os.RemoveAll(s.dir)
			}
		}
		sz.WallSec, sz.LoadAvg[1] = time.Since(start).Seconds(), loadAvg()
	}
	return out, nil
}

// crdsOne runs one size on one server: start, one CRD and its CR create latency, the bulk
// creates until all are Established and served (or a budget stop), settling, then the
// measures with every CRD present.
func (b *bench) crdsOne(ctx context.Context, cp crdsParams, crds []workload.GenCRD, gen *workload.GenCRDs, s *objServer, res *report.CRDsServer, kubectl string) error {
	n := len(crds)
	logf("crds %d: %s: start", n, s.name)
	// crdlab keeps its history as the reference's apiserver does here (no compaction).
	if _, err := s.start(ctx, "0"); err != nil {
		return err
	}
	cpu := func() time.Duration {
		var sum time.Duration
		for _, pid := range s.target.Pids {
			if d, err := procs.CPUTime(pid); err == nil {
				sum += d
			}
		}
		return sum
	}
	faults := func() int64 {
		var sum int64
		for _, pid := range s.target.Pids {
			if n, err := procs.MinorFaults(pid); err == nil {
				sum += n
			}
		}
		return sum
	}
	one := crds[:1]
	if _, err := s.target.CreateCRDs(ctx, gen, 0, 1, 1); err != nil {
		return err
	}
	if _, why, err := s.target.WaitDiscovered(ctx, one, 100*time.Millisecond, budgetAfter(time.Now().Add(cp.budget))); err != nil || why != "" {
		return fmt.Errorf("the first CRD: %v%s", err, why)
	}
	if err := waitServed(ctx, s.target, one, time.Minute); err != nil {
		return err
	}
	f0 := faults()
	t, err := s.target.CreateCRs(ctx, crds[0], "one", cp.crs)
	if err != nil {
		return err
	}
	faults1 := float64(faults()-f0) / float64(cp.crs)
	res.CRCreate1 = stats.Summarize(t.Latencies)

	// The bulk: CRDs 1 … n-1, 4 clients; meanwhile discovery is polled.
	m0 := s.mem()
	res.RSSBefore, res.AnonBefore = m0.RSS, m0.Anon
	cpu0, self0, bulkFaults0 := cpu(), selfCPU(), faults()
	t0 := time.Now()
	budget := cp.budget
	if s.name == report.Crdlab && cp.crdlabBudget > 0 {
		budget = cp.crdlabBudget
	}
	deadline := t0.Add(budget)
	created := make(chan error, 1)
	go func() {
		_, err := s.target.CreateCRDs(ctx, gen, 1, n, 4)
		res.CreatesSec = time.Since(t0).Seconds()
		created <- err
	}()
	stop := func() string {
		now, _ := s.rss()
		if time.Now().After(deadline) {
			return fmt.Sprintf("time budget of %s reached", budget)
		}
		if now > cp.budgetRSS {
			return fmt.Sprintf("memory budget of %.1f GiB reached (RSS %.1f GiB)", float64(cp.budgetRSS)/(1<<30), float64(now)/(1<<30))
		}
		return ""
	}
	est, why, err := s.target.WaitDiscovered(ctx, crds, time.Second, stop)
	res.Established = est
	if err == nil && why == "" {
		err = waitServed(ctx, s.target, crds, time.Until(deadline))
	}
	res.EstablishedSec = time.Since(t0).Seconds()
	_, res.PeakRSS = s.rss()
	if why != "" {
		res.BudgetStop = fmt.Sprintf("%s after %.0f s, %d of %d Established", why, res.EstablishedSec, est, n)
		res.EstablishedSec = 0
		logf("crds %d: %s: budget stop: %s", n, s.name, res.BudgetStop)
		if s.name == report.Crdlab {
			return fmt.Errorf("budget stop: %s", res.BudgetStop)
		}
		return nil
	}
	if err != nil {
		return err
	}
	if err := <-created; err != nil {
		return err
	}
	logf("crds %d: %s: all Established and served after %.1f s (creates answered after %.1f s; server CPU %.1f s, this process's %.1f s; the server's minor page faults %d)",
		n, s.name, res.EstablishedSec, res.CreatesSec, (cpu() - cpu0).Seconds(), (selfCPU() - self0).Seconds(), faults()-bulkFaults0)

	// Settle: until the server's CPU stays under 5% of a core for 10 s.
	settleEnd := time.Now().Add(cp.settle)
	for last := cpu(); time.Now().Before(settleEnd); {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(10 * time.Second):
		}
		c := cpu()
		if c-last < 500*time.Millisecond {
			break
		}
		last = c
	}
	res.SettleSec = time.Since(t0).Seconds()
	res.CPUSec = (cpu() - cpu0).Seconds()
	m1 := s.mem()
	res.RSSAfter, res.AnonAfter = m1.RSS, m1.Anon
	res.PeakRSS = max(res.PeakRSS, m1.HWM)
	logf("crds %d: %s: settled after %.0f s, CPU %.0f s, RSS %.2f GiB (%.2f MiB per CRD; anonymous %.2f MiB per CRD)", n, s.name, res.SettleSec, res.CPUSec,
		float64(res.RSSAfter)/(1<<30), res.PerCRD(n)/(1<<20), res.AnonPerCRD(n)/(1<<20))

	// Discovery and OpenAPI with every CRD present, asked as kubectl asks (gzip accepted);
	// aggregated discovery once more uncompressed.
	if t, err = s.target.TimedGets(ctx, []string{"/apis"}, cp.gets, "application/json", "gzip"); err != nil {
		return err
	}
	res.Discovery = stats.Summarize(t.Latencies)
	if t, err = s.target.TimedGets(ctx, []string{"/apis"}, cp.gets, workload.AggregatedDiscovery, "gzip"); err != nil {
		return err
	}
	res.Aggregated, res.AggregatedBytes = stats.Summarize(t.Latencies), t.Bytes
	if t, err = s.target.TimedGets(ctx, []string{"/apis"}, cp.gets, workload.AggregatedDiscovery, ""); err != nil {
		return err
	}
	res.AggregatedPlain, res.AggregatedPlainBytes = stats.Summarize(t.Latencies), t.Bytes
	var gvs []string
	seen := map[string]bool{}
	for _, c := range crds {
		for _, v := range c.Versions {
			if p := "/openapi/v3/apis/" + c.Group + "/" + v; !seen[p] {
				seen[p] = true
				gvs = append(gvs, p)
			}
		}
	}
	if len(gvs) > cp.gvs {
		gvs = gvs[:cp.gvs]
	}
	// Once each first (a document may be built on its first request), then timed.
	if _, err := s.target.TimedGets(ctx, gvs, len(gvs), "application/json", "gzip"); err != nil {
		return err
	}
	if t, err = s.target.TimedGets(ctx, gvs, cp.gets, "application/json", "gzip"); err != nil {
		return err
	}
	res.OpenAPI = stats.Summarize(t.Latencies)
	if body, err := s.target.GetBody(ctx, gvs[0], "application/json"); err == nil {
		res.OpenAPIBytes = len(body)
	} else {
		res.Errors = append(res.Errors, report.OpenAPISizeError+": "+err.Error())
	}
	logf("crds %d: %s: p99 /apis %.1f ms, aggregated %.1f ms (%d bytes; uncompressed %.1f ms, %d bytes), OpenAPI G/V %.1f ms", n, s.name,
		res.Discovery.P99, res.Aggregated.P99, res.AggregatedBytes, res.AggregatedPlain.P99, res.AggregatedPlainBytes, res.OpenAPI.P99)

	// kubectl api-resources with a cold cache, three times.
	if kubectl != "" {
		for r := range 3 {
			cache := filepath.Join(s.dir, fmt.Sprintf("kubectl-cache-%d", r))
			start := time.Now()
			out, err := exec.CommandContext(ctx, kubectl, "--server", s.target.Base, "--cache-dir", cache, "api-resources").CombinedOutput()
			if err != nil {
				return fmt.Errorf("kubectl api-resources: %w: %s", err, firstLine(string(out)))
			}
			res.KubectlMs = append(res.KubectlMs, float64(time.Since(start).Microseconds())/1000)
			if lines := strings.Count(string(out), "\n"); lines < n {
				return fmt.Errorf("kubectl api-resources listed %d lines, want at least %d", lines, n)
			}
		}
		slices.Sort(res.KubectlMs)
	}

	f0 = faults()
	if t, err = s.target.CreateCRs(ctx, crds[0], "many", cp.crs); err != nil {
		return err
	}
	faultsN := float64(faults()-f0) / float64(cp.crs)
	res.CRCreateN = stats.Summarize(t.Latencies)
	logf("crds %d: %s: CR create p50 %.2f ms with 1 CRD, %.2f ms with %d (the server's page faults per create: %.0f, %.0f)",
		n, s.name, res.CRCreate1.P50, res.CRCreateN.P50, n, faults1, faultsN)
	return nil
}

// budgetAfter is a stop function for WaitDiscovered: a reason once deadline has passed.
func budgetAfter(deadline time.Time) func() string {
	return func() string {
		if time.Now().After(deadline) {
			return "not within the budget"
		}
		return ""
	}
}

// waitServed polls until a list of every CRD's custom resources answers 200.
func waitServed(ctx context.Context, t *workload.Target, crds []workload.GenCRD, limit time.Duration) error {
	deadline := time.Now().Add(limit)
	for {
		err := t.Served(ctx, crds, 4)
		if err == nil {
			return nil
		}
		if time.Now().After(deadline) || ctx.Err() != nil {
			return fmt.Errorf("not served: %w", err)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(200 * time.Millisecond):
		}
	}
}

func firstLine(s string) string {
	l, _, _ := strings.Cut(strings.TrimSpace(s), "\n")
	return l
}

// selfCPU is the CPU time this process has used. The CRDs are generated
// before the measured window (gencrds, a process of its own); in the window
// this process reads them from a file, sends them and polls discovery, on the
// same cores as the server: its CPU is logged beside the server's.
func selfCPU() time.Duration {
	d, _ := procs.CPUTime(os.Getpid())
	return d
}
