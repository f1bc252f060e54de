package main

import (
	"context"
	_ "embed"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/crdlab/crdlab/bench/internal/procs"
	"github.com/crdlab/crdlab/bench/internal/report"
	"github.com/crdlab/crdlab/bench/internal/workload"
)

//go:embed perf-notes.md
var perfNotes string

type options struct {
	short             bool
	out, work         string
	keep              bool
	servers, phases   string
	crdlabBin, refBin string
	crdlabArgs        string
	crdlabEnv         string
	render            bool
	rounds            int
	// Size overrides, for profiling; 0 keeps the default.
	create1N, create16N, getN, watchUpdates int
	// objectsSizes overrides the sizes of the many-objects family (objects.go).
	objectsSizes    string
	objectsListReps int
	// crdsSizes overrides the sizes of the many-CRDs family (crds.go).
	crdsSizes string
	// crdsCrdlabBudget overrides crdlab's time limit in that family.
	crdsCrdlabBudget time.Duration
}

// sizes are the workload's sizes for a full or a short run.
func sizes(short bool) report.Params {
	if short {
		return report.Params{
			EstablishedReps: 2, FirstCRReps: 1,
			Create1N: 100, Create16N: 160, CreateCELN: 160, GetN: 100, ListReps: 3,
			WatchSmall: 10, WatchBig: 50, WatchUpdates: 50, Rounds: 2,
			Apply1N: 50, Apply16N: 80, ApplyListObjects: 20, ApplyListEntries: 20,
		}
	}
	return report.Params{
		EstablishedReps: 6, FirstCRReps: 5,
		Create1N: 2000, Create16N: 3000, CreateCELN: 3000, GetN: 2000, ListReps: 10,
		WatchSmall: 100, WatchBig: 1000, WatchUpdates: 1000, Rounds: 4,
		Apply1N: 1000, Apply16N: 2000, ApplyListObjects: 100, ApplyListEntries: 20,
	}
}

// server is one server under test with its processes.
type server struct {
	target *workload.Target
	res    *report.Server
	procs  []*procs.Proc
	// dataDirs hold its data (for the disk figure).
	dataDirs []string
	cpu0     time.Duration
}

func (s *server) cpu() time.Duration {
	var sum time.Duration
	for _, p := range s.procs {
		if d, err := procs.CPUTime(p.Pid()); err == nil {
			sum += d
		}
	}
	return sum
}

// stop stops the server's processes, last started first.
func (s *server) stop() {
	for _, p := range slices.Backward(s.procs) {
		p.Stop(10 * time.Second)
	}
}

func (s *server) fail(phase string, err error) {
	msg := fmt.Sprintf("%s: %v", phase, err)
	logf("%s: ERROR %s", s.res.Name, msg)
	s.res.Errors = append(s.res.Errors, msg)
}

// mem reads every process's memory; the sum of peaks is the server's peak.
func (s *server) mem(phase string) {
	var peak, rss int64
	if s.res.Memory == nil {
		s.res.Memory = map[string]report.ProcMem{}
	}
	for _, p := range s.procs {
		m, err := procs.ReadMem(p.Pid())
		if err != nil {
			continue
		}
		s.res.Memory[p.Name] = report.ProcMem{PeakRSS: m.HWM, RSS: m.RSS}
		peak += m.HWM
		rss += m.RSS
	}
	s.res.PeakRSS = peak
	s.res.MemTimeline = append(s.res.MemTimeline, report.MemPoint{Phase: phase, PeakRSS: peak, RSS: rss})
}

type bench struct {
	o       options
	p       report.Params
	servers []*server
	// noKubeControllers is crdlab without its kube controllers, in the
	// create phases only (nil if they do not run).
	noKubeControllers *server
	phases            map[string]bool
	commit            string
}

func run(ctx context.Context, o options) error {
	if o.render {
		return render(o)
	}
	start := time.Now()
	p := sizes(o.short)
	if o.rounds > 0 {
		p.Rounds = o.rounds
	}
	for _, o := range []struct {
		dst *int
		v   int
	}{{&p.Create1N, o.create1N}, {&p.Create16N, o.create16N}, {&p.GetN, o.getN}, {&p.WatchUpdates, o.watchUpdates}} {
		if o.v > 0 {
			*o.dst = o.v
		}
	}
	p.ListObjects = p.Create1N + p.Create16N
	b := &bench{o: o, p: p, phases: map[string]bool{}}
	for _, ph := range strings.Split(o.phases, ",") {
		b.phases[strings.TrimSpace(ph)] = true
	}
	want := map[string]bool{}
	for _, s := range strings.Split(o.servers, ",") {
		want[strings.TrimSpace(s)] = true
	}

	if n, err := procs.RaiseFileLimit(); err == nil {
		logf("open files limit %d", n)
	}
	root, err := procs.RepoRoot()
	if err != nil {
		return err
	}
	work := o.work
	if work == "" {
		if work, err = os.MkdirTemp("", "crdbench-"); err != nil {
			return err
		}
	}
	if err := os.MkdirAll(work, 0o755); err != nil {
		return err
	}
	keep := o.keep
	defer func() {
		if keep {
			logf("work directory kept: %s", work)
		} else {
			os.RemoveAll(work)
		}
	}()
	out := o.out
	if out == "" {
		if o.short {
			out = filepath.Join(work, "docs")
		} else {
			out = filepath.Join(root, "docs")
		}
	}

	res := &report.Results{Servers: map[string]*report.Server{}}
	res.Meta = report.Meta{
		Date:       time.Now().UTC().Format("2006-01-02 15:04 UTC"),
		Short:      o.short,
		Machine:    cpuModel(),
		CPUs:       runtime.NumCPU(),
		Kernel:     kernel(),
		Filesystem: procs.Filesystem(work),
		GoVersion:  runtime.Version(),
		Commit:     gitCommit(root),
		Versions:   map[string]string{},
		Params:     p,
		LoadAvg:    [2]float64{loadAvg(), 0},
	}
	b.commit = res.Meta.Commit

	// Binaries.
	etcdBin := ""
	if want[report.Reference] {
		if etcdBin, err = procs.EnsureEtcd(ctx, logf); err != nil {
			return err
		}
		res.Meta.Versions["reference-storage"] = "etcd " + strings.TrimPrefix(procs.EtcdVersion(etcdBin), "etcd Version: ") + " (Debian etcd-server), a separate process"
		if o.refBin == "" {
			o.refBin = filepath.Join(work, "bin", "refserver")
			logf("building refserver (upstream apiextensions-apiserver v0.37.2; a cold build takes minutes)")
			if err := procs.Build(ctx, filepath.Join(root, "bench"), o.refBin, "./cmd/refserver", procs.RefVersionLDFlags); err != nil {
				return err
			}
		}
	}
	if want[report.Crdlab] {
		res.Meta.Versions["crdlab-storage"] = "bbolt, embedded in the server process"
		if o.crdlabBin == "" {
			o.crdlabBin = filepath.Join(work, "bin", "crdlab")
			logf("building crdlab")
			if err := procs.Build(ctx, root, o.crdlabBin, "./cmd/crdlab", ""); err != nil {
				return err
			}
		}
	}

	// The disk's floor, before the servers start.
	fsyncDur := 3 * time.Second
	if o.short {
		fsyncDur = 300 * time.Millisecond
	}
	if res.Fsync.Before, err = procs.FsyncRate(work, fsyncDur); err != nil {
		return fmt.Errorf("fsync rate: %w", err)
	}
	logf("raw fsync rate: %.0f/s", res.Fsync.Before)
	cpu := &report.CPUTask{}
	if cpu.BeforeMs, err = procs.CPUTask(report.CPUTaskReps); err != nil {
		return fmt.Errorf("CPU task: %w", err)
	}
	res.CPU = cpu
	logf("host CPU task: %.2f ms", cpu.BeforeMs)
	touch := &report.PageTouch{PageBytes: os.Getpagesize()}
	if touch.BeforeUs, err = procs.PageTouch(report.PageTouchBytes, report.PageTouchReps); err != nil {
		return fmt.Errorf("page touch: %w", err)
	}
	res.PageTouch = touch
	logf("host memory: first write to a fresh page %.1f µs", touch.BeforeUs)

	// Servers.
	defer func() {
		for _, s := range b.servers {
			for _, p := range slices.Backward(s.procs) {
				p.Stop(10 * time.Second)
			}
		}
	}()
	if want[report.Reference] {
		dir := filepath.Join(work, "reference")
		os.MkdirAll(dir, 0o755)
		etcd, etcdURL, err := procs.StartEtcd(ctx, etcdBin, dir)
		if err != nil {
			keep = true
			return err
		}
		ref, base, err := procs.StartRefServer(ctx, o.refBin, etcdURL, dir)
		if err != nil {
			etcd.Stop(5 * time.Second)
			keep = true
			return err
		}
		s := &server{
			target:   workload.NewTarget(report.Reference, base, ref.Pid(), etcd.Pid()),
			res:      &report.Server{Name: report.Reference, Desc: "k8s.io/apiextensions-apiserver v0.37.2 standalone (bench/cmd/refserver: authn, authz, admission, APF off; watch cache on; CRDs published in OpenAPI v2 and v3; plain HTTP)"},
			procs:    []*procs.Proc{etcd, ref},
			dataDirs: []string{filepath.Join(dir, "etcd-data")},
		}
		s.res.StartupMs = float64(time.Since(ref.Started).Milliseconds())
		b.servers = append(b.servers, s)
		logf("reference ready at %s (etcd %s), %v ms after start", base, etcdURL, s.res.StartupMs)
	}
	if want[report.Crdlab] {
		dir := filepath.Join(work, "crdlab")
		os.MkdirAll(dir, 0o755)
		var extra []string
		if o.crdlabArgs != "" {
			extra = strings.Fields(o.crdlabArgs)
		}
		cl, base, err := procs.StartCrdlab(ctx, o.crdlabBin, dir, extra, strings.Fields(o.crdlabEnv))
		if err != nil {
			keep = true
			return err
		}
		s := &server{
			target:   workload.NewTarget(report.Crdlab, base, cl.Pid()),
			res:      &report.Server{Name: report.Crdlab, Desc: "crdlab serve (" + res.Meta.Commit + ")"},
			procs:    []*procs.Proc{cl},
			dataDirs: []string{filepath.Join(dir, "crdlab-data")},
		}
		s.res.StartupMs = float64(time.Since(cl.Started).Milliseconds())
		b.servers = append(b.servers, s)
		logf("crdlab ready at %s, %v ms after start", base, s.res.StartupMs)

		if b.on("create") {
			// crdlab as the reference runs: without the kube controllers
			// (no kube-controller-manager upstream). It takes part in the
			// create phases only, then stops (phases.go).
			dir := filepath.Join(work, report.CrdlabNoKubeControllers)
			os.MkdirAll(dir, 0o755)
			args := append(slices.Clone(extra), report.NoKubeControllersArgs)
			cl, base, err := procs.StartCrdlab(ctx, o.crdlabBin, dir, args, strings.Fields(o.crdlabEnv))
			if err != nil {
				keep = true
				return err
			}
			b.noKubeControllers = &server{
				target:   workload.NewTarget(report.CrdlabNoKubeControllers, base, cl.Pid()),
				res:      &report.Server{Name: report.CrdlabNoKubeControllers, Desc: "crdlab serve " + report.NoKubeControllersArgs + " (" + res.Meta.Commit + ")"},
				procs:    []*procs.Proc{cl},
				dataDirs: []string{filepath.Join(dir, "crdlab-data")},
			}
			logf("crdlab without the kube controllers ready at %s", base)
		}
	}
	if s := b.noKubeControllers; s != nil {
		defer s.stop()
		res.Servers[s.res.Name] = s.res
		s.cpu0 = s.cpu()
		s.mem("start")
	}
	for _, s := range b.servers {
		res.Servers[s.res.Name] = s.res
		s.cpu0 = s.cpu()
		s.mem("start")
	}

	if err := b.workload(ctx); err != nil {
		keep = true
		return err
	}

	if res.Fsync.After, err = procs.FsyncRate(work, fsyncDur); err != nil {
		return fmt.Errorf("fsync rate: %w", err)
	}
	if res.CPU.AfterMs, err = procs.CPUTask(report.CPUTaskReps); err != nil {
		return fmt.Errorf("CPU task: %w", err)
	}
	if res.PageTouch.AfterUs, err = procs.PageTouch(report.PageTouchBytes, report.PageTouchReps); err != nil {
		return fmt.Errorf("page touch: %w", err)
	}
	for _, s := range b.servers {
		s.mem("end")
		s.res.CPUSeconds = (s.cpu() - s.cpu0).Seconds()
		for _, d := range s.dataDirs {
			s.res.DiskBytes += procs.DirSize(d)
		}
		for _, p := range s.procs {
			if ok, err := p.Exited(); ok {
				s.fail("process", fmt.Errorf("%s exited during the run (%v); log tail:\n%s", p.Name, err, p.LogTail(20)))
			}
		}
	}
	if b.on("objects") {
		// The many-objects family runs on servers of its own, one size after the other:
		// the main workload's servers stop first, to leave it the machine.
		for _, s := range b.servers {
			for _, p := range slices.Backward(s.procs) {
				p.Stop(10 * time.Second)
			}
		}
		if res.Objects, err = b.objects(ctx, work, map[string]string{"etcd": etcdBin, "refserver": o.refBin, "crdlab": o.crdlabBin}); err != nil {
			keep = true
			return err
		}
	}
	if b.on("crds") {
		// The many-CRDs family, likewise on servers of its own (crds.go).
		for _, s := range b.servers {
			for _, p := range slices.Backward(s.procs) {
				p.Stop(10 * time.Second)
			}
		}
		if res.CRDs, err = b.crds(ctx, work, root, map[string]string{"etcd": etcdBin, "refserver": o.refBin, "crdlab": o.crdlabBin}); err != nil {
			keep = true
			return err
		}
	}
	res.Meta.WallSec = time.Since(start).Seconds()
	res.Meta.LoadAvg[1] = loadAvg()
	if len(b.phases) == 1 && b.phases["crds"] && !o.short {
		// The family alone: its sizes go into the results of the last full run.
		if prev, err := os.ReadFile(filepath.Join(out, "perf.json")); err == nil {
			var full report.Results
			if err := json.Unmarshal(prev, &full); err != nil {
				return fmt.Errorf("%s: %w", filepath.Join(out, "perf.json"), err)
			}
			full.CRDs = res.CRDs.Merge(full.CRDs)
			res = &full
			logf("the many-CRDs figures go into the results of the run of %s", full.Meta.Date)
		}
	}
	if len(b.phases) == 1 && b.phases["objects"] && !o.short {
		// The family alone: its sizes go into the results of the last full run.
		if prev, err := os.ReadFile(filepath.Join(out, "perf.json")); err == nil {
			var full report.Results
			if err := json.Unmarshal(prev, &full); err != nil {
				return fmt.Errorf("%s: %w", filepath.Join(out, "perf.json"), err)
			}
			full.Objects = res.Objects.Merge(full.Objects)
			res = &full
			logf("the many-objects figures go into the results of the run of %s", full.Meta.Date)
		}
	}
	if len(b.phases) == 1 && b.phases["createcel"] && !o.short {
		// The CEL create alone: its figures go into the results of the last full run,
		// with a note saying when and how they were measured.
		if prev, err := os.ReadFile(filepath.Join(out, "perf.json")); err == nil {
			var full report.Results
			if err := json.Unmarshal(prev, &full); err != nil {
				return fmt.Errorf("%s: %w", filepath.Join(out, "perf.json"), err)
			}
			for name, s := range res.Servers {
				if f := full.Servers[name]; f != nil {
					f.CreateCEL = s.CreateCEL
				}
			}
			full.Meta.Params.CreateCELN = res.Meta.Params.CreateCELN
			full.Notes = slices.DeleteFunc(full.Notes, func(n string) bool { return strings.HasPrefix(n, createCELNote) })
			full.Notes = append(full.Notes, fmt.Sprintf("%s were measured alone on %s (commit `%s`, load average %.1f at the start, %.1f at the end) by `go -C bench run ./cmd/crdbench -phases createcel`; every other figure is from the run above.",
				createCELNote, res.Meta.Date, res.Meta.Commit, res.Meta.LoadAvg[0], res.Meta.LoadAvg[1]))
			res = &full
			logf("the CEL create figures go into the results of the run of %s", full.Meta.Date)
		}
	}
	if !o.short && !(len(b.phases) == 1 && (b.phases["crds"] || b.phases["objects"] || b.phases["createcel"])) {
		// The main workload (or some of its phases) without a family: the
		// families keep the figures of their last runs.
		if prev, err := os.ReadFile(filepath.Join(out, "perf.json")); err == nil {
			var last report.Results
			if err := json.Unmarshal(prev, &last); err != nil {
				return fmt.Errorf("%s: %w", filepath.Join(out, "perf.json"), err)
			}
			if !b.on("objects") && res.Objects == nil {
				res.Objects = last.Objects
			}
			if !b.on("crds") && res.CRDs == nil {
				res.CRDs = last.CRDs
			}
		}
	}
	res.CheckTargets()

	if err := write(res, out); err != nil {
		return err
	}
	printSummary(res)

	// What a run must show, short or full: every phase ran on every server, nothing was
	// missed. Nothing about speed.
	var problems []string
	for _, s := range b.withNoKubeControllers() {
		for _, e := range s.res.Errors {
			problems = append(problems, s.res.Name+": "+e)
		}
	}
	if len(problems) > 0 {
		keep = true
		return fmt.Errorf("%d problem(s):\n  %s", len(problems), strings.Join(problems, "\n  "))
	}
	return nil
}

// createCELNote starts the note of a CEL create measured alone.
const createCELNote = "The figures of \"create with 10 CEL rules\""

// write writes perf.json, perf.md and the charts into out.
func write(res *report.Results, out string) error {
	chartDir := filepath.Join(out, "perf")
	if err := os.MkdirAll(chartDir, 0o755); err != nil {
		return err
	}
	charts, err := res.WriteCharts(chartDir)
	if err != nil {
		return err
	}
	if err := res.WriteJSON(filepath.Join(out, "perf.json")); err != nil {
		return err
	}
	if err := res.WriteMarkdown(filepath.Join(out, "perf.md"), chartDir, charts, perfNotes); err != nil {
		return err
	}
	logf("wrote %s, %s and %d charts in %s", filepath.Join(out, "perf.md"), filepath.Join(out, "perf.json"), len(charts), chartDir)
	return nil
}

// render redraws the outputs of an earlier run from its perf.json.
func render(o options) error {
	out := o.out
	if out == "" {
		root, err := procs.RepoRoot()
		if err != nil {
			return err
		}
		out = filepath.Join(root, "docs")
	}
	b, err := os.ReadFile(filepath.Join(out, "perf.json"))
	if err != nil {
		return err
	}
	var res report.Results
	if err := json.Unmarshal(b, &res); err != nil {
		return fmt.Errorf("%s: %w", filepath.Join(out, "perf.json"), err)
	}
	res.CheckTargets()
	return write(&res, out)
}

func printSummary(r *report.Results) {
	fmt.Println("target                                                        wanted              this run       met")
	for _, t := range r.Targets {
		met := "no"
		if t.Met {
			met = "yes"
		} else if !t.Measured {
			met = "-"
		}
		fmt.Printf("%-61s %-19s %-14s %s\n", t.Name, t.Want, t.Display, met)
	}
}

func cpuModel() string {
	b, err := os.ReadFile("/proc/cpuinfo")
	if err != nil {
		return runtime.GOARCH
	}
	for _, line := range strings.Split(string(b), "\n") {
		if k, v, ok := strings.Cut(line, ":"); ok && strings.TrimSpace(k) == "model name" {
			return strings.TrimSpace(v)
		}
	}
	return runtime.GOARCH
}

func loadAvg() float64 {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return 0
	}
	var l float64
	fmt.Sscanf(string(b), "%f", &l)
	return l
}

func kernel() string {
	b, err := os.ReadFile("/proc/sys/kernel/osrelease")
	if err != nil {
		return "?"
	}
	return strings.TrimSpace(string(b))
}

func gitCommit(root string) string {
	out, err := exec.Command("git", "-C", root, "rev-parse", "--short", "HEAD").Output()
	if err != nil {
		return "unknown"
	}
	c := strings.TrimSpace(string(out))
	if st, err := exec.Command("git", "-C", root, "status", "--porcelain", "--untracked-files=no").Output(); err == nil && len(strings.TrimSpace(string(st))) > 0 {
		c += "+changes"
	}
	return c
}
