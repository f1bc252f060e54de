package main

// The "many objects" family of issue 20. At each size it starts both servers afresh and,
// interleaved as the other phases: creates N custom resources of 1–5 KB, updates each once
// (noting the resourceVersion catchUp updates before the end), watches from that
// resourceVersion until caught up, restarts each server on its data (start-up and RSS),
// lists (full, both modes, and paginated), and compacts the history with a writer running.
// The family's own servers keep their automatic compaction off until the compaction step,
// so that no compaction runs at a moment of its own choosing.

import (
	"bufio"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/crdlab/crdlab/bench/internal/procs"
	"github.com/crdlab/crdlab/bench/internal/report"
	"github.com/crdlab/crdlab/bench/internal/stats"
	"github.com/crdlab/crdlab/bench/internal/workload"
)

const (
	nsObjects = "objects"
	objPrefix = "o"
)

var objectsCRD = workload.NewCRD("objwidgets")

// objectsParams are the family's sizes.
type objectsParams struct {
	sizes     []int
	catchUp   int
	pageLimit int
	listReps  int
	rounds    int
}

func objectsSizes(short bool, override string) (objectsParams, error) {
	p := objectsParams{sizes: []int{10_000, 100_000}, catchUp: 10_000, pageLimit: 500, listReps: 3, rounds: 4}
	if short {
		p = objectsParams{sizes: []int{300}, catchUp: 100, pageLimit: 50, listReps: 2, rounds: 2}
	}
	if override != "" {
		p.sizes = nil
		for _, f := range strings.Split(override, ",") {
			n, err := strconv.Atoi(strings.TrimSpace(f))
			if err != nil || n < p.catchUp {
				return p, fmt.Errorf("-objects-sizes: %q: each size is a number ≥ %d (the catch-up distance)", f, p.catchUp)
			}
			p.sizes = append(p.sizes, n)
		}
	}
	return p, nil
}

// objServer is one server of the family: its processes, restartable on their data.
type objServer struct {
	name   string
	dir    string
	target *workload.Target
	procs  []*procs.Proc
	res    *report.ObjectsServer
	// main is the server of the main workload of the same name: its errors fail the run.
	main *server

	// reference: etcd's ports (kept across restarts: its data names its peer URL).
	etcdBin, etcdURL string
	etcdPorts        [2]int
	// crdlab
	crdlabBin   string
	crdlabExtra []string
	crdlabEnv   []string
	refBin      string
}

func (s *objServer) dataDir() string {
	if s.name == report.Reference {
		return filepath.Join(s.dir, "etcd-data")
	}
	return filepath.Join(s.dir, "crdlab-data")
}

func (s *objServer) stop() {
	for _, p := range slices.Backward(s.procs) {
		p.Stop(30 * time.Second)
	}
	s.procs = nil
}

// start starts the server on its data dir (creating it the first time) and returns the
// time from the first process's start to /readyz 200. crdlabCompaction is crdlab's
// --compaction-interval.
func (s *objServer) start(ctx context.Context, crdlabCompaction string) (time.Duration, error) {
	if s.name == report.Crdlab {
		args := append([]string{"--compaction-interval=" + crdlabCompaction}, s.crdlabExtra...)
		p, base, err := procs.StartCrdlab(ctx, s.crdlabBin, s.dir, args, s.crdlabEnv)
		if err != nil {
			return 0, err
		}
		d := time.Since(p.Started)
		s.procs = []*procs.Proc{p}
		s.target = workload.NewTarget(s.name, base, p.Pid())
		return d, nil
	}
	if s.etcdPorts[0] == 0 {
		for i := range s.etcdPorts {
			port, err := procs.FreePort()
			if err != nil {
				return 0, err
			}
			s.etcdPorts[i] = port
		}
	}
	client := fmt.Sprintf("http://127.0.0.1:%d", s.etcdPorts[0])
	peer := fmt.Sprintf("http://127.0.0.1:%d", s.etcdPorts[1])
	// As procs.StartEtcd, on fixed ports.
	etcd, err := procs.Start("etcd", s.etcdBin, []string{
		"--name", "bench", "--data-dir", s.dataDir(),
		"--listen-client-urls", client, "--advertise-client-urls", client,
		"--listen-peer-urls", peer, "--initial-advertise-peer-urls", peer,
		"--initial-cluster", "bench=" + peer, "--log-level", "warn",
	}, filepath.Join(s.dir, "etcd.log"), nil)
	if err != nil {
		return 0, err
	}
	if _, err := etcd.WaitReady(ctx, client+"/health", 60*time.Second); err != nil {
		etcd.Stop(time.Second)
		return 0, err
	}
	s.etcdURL = client
	// As procs.StartRefServer, with the apiserver's compactor off.
	hport, err := procs.FreePort()
	if err != nil {
		etcd.Stop(5 * time.Second)
		return 0, err
	}
	sport, err := procs.FreePort()
	if err != nil {
		etcd.Stop(5 * time.Second)
		return 0, err
	}
	base := fmt.Sprintf("http://127.0.0.1:%d", hport)
	ref, err := procs.Start("apiextensions-apiserver", s.refBin, []string{
		"--etcd-servers", client, "--etcd-compaction-interval=0",
		"--bind-address", "127.0.0.1", "--secure-port", fmt.Sprint(sport),
		"--http-address", fmt.Sprintf("127.0.0.1:%d", hport),
		"--cert-dir", filepath.Join(s.dir, "refserver-certs"),
	}, filepath.Join(s.dir, "refserver.log"), nil)
	if err != nil {
		etcd.Stop(5 * time.Second)
		return 0, err
	}
	if _, err := ref.WaitReady(ctx, base+"/readyz", 120*time.Second); err != nil {
		ref.Stop(time.Second)
		etcd.Stop(5 * time.Second)
		return 0, err
	}
	d := time.Since(etcd.Started)
	s.procs = []*procs.Proc{etcd, ref}
	s.target = workload.NewTarget(s.name, base, ref.Pid(), etcd.Pid())
	return d, nil
}

// rss is the sum of the processes' resident memory now, and of their peaks.
func (s *objServer) rss() (now, peak int64) {
	m := s.mem()
	return m.RSS, m.HWM
}

// mem is the memory of the server's processes together.
func (s *objServer) mem() procs.Mem {
	var sum procs.Mem
	for _, p := range s.procs {
		if m, err := procs.ReadMem(p.Pid()); err == nil {
			sum.RSS += m.RSS
			sum.HWM += m.HWM
			sum.Anon += m.Anon
		}
	}
	return sum
}

// fail records an error of the family; crdlab's and the reference's both fail the run.
func (s *objServer) fail(n int, step string, err error) {
	msg := fmt.Sprintf("%s: %v", step, err)
	s.res.Errors = append(s.res.Errors, msg)
	if s.main != nil {
		s.main.fail(fmt.Sprintf("objects %d: %s", n, step), err)
	} else {
		logf("%s: ERROR objects %d: %s", s.name, n, msg)
	}
}

// objects runs the family at every size and returns its results.
func (b *bench) objects(ctx context.Context, work string, bins map[string]string) (*report.Objects, error) {
	op, err := objectsSizes(b.o.short, b.o.objectsSizes)
	if err != nil {
		return nil, err
	}
	if b.o.objectsListReps > 0 {
		op.listReps = b.o.objectsListReps
	}
	out := &report.Objects{CatchUp: op.catchUp, PageLimit: op.pageLimit}
	for i, n := range op.sizes {
		if ctx.Err() != nil {
			return out, ctx.Err()
		}
		start := time.Now()
		sz := &report.ObjectsSize{N: n, Servers: map[string]*report.ObjectsServer{}, ListReps: op.listReps,
			Date: start.UTC().Format("2006-01-02 15:04 UTC"), Commit: b.commit, LoadAvg: [2]float64{loadAvg(), 0}}
		var sum int
		for j := range n {
			sum += workload.SizedPayloadBytes(j)
		}
		sz.PayloadBytes = sum / n
		out.Sizes = append(out.Sizes, sz)
		var ss []*objServer
		for _, m := range b.servers {
			s := &objServer{
				name: m.res.Name, dir: filepath.Join(work, fmt.Sprintf("objects-%d", n), m.res.Name),
				res: &report.ObjectsServer{}, main: m,
				etcdBin: bins["etcd"], refBin: bins["refserver"], crdlabBin: bins["crdlab"],
				crdlabExtra: strings.Fields(b.o.crdlabArgs), crdlabEnv: strings.Fields(b.o.crdlabEnv),
			}
			if err := os.MkdirAll(s.dir, 0o755); err != nil {
				return out, err
			}
			sz.Servers[s.name] = s.res
			ss = append(ss, s)
		}
		if i%2 == 1 {
			slices.Reverse(ss)
		}
		err := b.objectsSize(ctx, op, n, ss)
		for _, s := range ss {
			s.stop()
		}
		sz.WallSec, sz.LoadAvg[1] = time.Since(start).Seconds(), loadAvg()
		if err != nil {
			return out, err
		}
		if !b.o.keep {
			os.RemoveAll(filepath.Join(work, fmt.Sprintf("objects-%d", n)))
		}
	}
	return out, nil
}

// objectsSize runs the family's steps at one size. An error is returned only if nothing
// more can be measured; a server's failure of a step is recorded with it.
func (b *bench) objectsSize(ctx context.Context, op objectsParams, n int, ss []*objServer) error {
	order := func(r int) []*objServer {
		o := slices.Clone(ss)
		if r%2 == 1 {
			slices.Reverse(o)
		}
		return o
	}
	logf("objects %d: start, CRD, namespace", n)
	for _, s := range ss {
		if _, err := s.start(ctx, "0"); err != nil {
			return fmt.Errorf("objects %d: %s: %w", n, s.name, err)
		}
		if err := s.target.PrepareNamespace(ctx, nsObjects); err != nil {
			return err
		}
		if err := s.target.PrepareNamespace(ctx, nsWarmup); err != nil {
			return err
		}
		if _, _, err := s.target.FirstCRLatency(ctx, objectsCRD, nsWarmup); err != nil {
			return fmt.Errorf("objects %d: %w", n, err)
		}
	}
	live := map[*objServer]bool{}
	for _, s := range ss {
		live[s] = true
	}
	ok := func(s *objServer, step string, err error) bool {
		if err != nil {
			s.fail(n, step, err)
			live[s] = false
		}
		return err == nil
	}

	// Create, then update every object once: in rounds, alternating the order.
	inRounds := func(step string, first, count int, acc map[*objServer]*accum, do func(s *objServer, first, count int) (workload.Timed, error)) {
		per := count / op.rounds
		for r := range op.rounds {
			c := per
			if r == op.rounds-1 {
				c = count - per*(op.rounds-1)
			}
			for _, s := range order(r) {
				if !live[s] || c == 0 {
					continue
				}
				t, err := do(s, first+r*per, c)
				if ok(s, step, err) {
					acc[s] = acc[s].add(t, 0)
				}
			}
		}
	}
	summarize := func(step string, acc map[*objServer]*accum, dst func(*report.ObjectsServer) *report.Throughput) {
		for _, s := range ss {
			if a := acc[s]; a != nil && live[s] {
				t := dst(s.res)
				*t = a.throughput(16)
				t.CPUMsPerOp = 0 // not measured in this family
				logf("  %-9s %s: %.0f/s p50 %.1f ms p99 %.1f ms", s.name, step, t.PerSec, t.Lat.P50, t.Lat.P99)
			}
		}
	}
	create := func(s *objServer, first, count int) (workload.Timed, error) {
		return s.target.CreateSized(ctx, objectsCRD, nsObjects, objPrefix, first, count, 16)
	}
	update := func(s *objServer, first, count int) (workload.Timed, error) {
		return s.target.PatchCounter(ctx, objectsCRD, nsObjects, objPrefix, first, count, 16, 1)
	}
	logf("objects %d: create, 16 clients", n)
	acc := map[*objServer]*accum{}
	inRounds("create", 0, n, acc, create)
	summarize("create", acc, func(r *report.ObjectsServer) *report.Throughput { return &r.Create })

	logf("objects %d: update each once, 16 clients (the last %d after noting a resourceVersion)", n, op.catchUp)
	acc = map[*objServer]*accum{}
	inRounds("update", 0, n-op.catchUp, acc, update)
	rvOld := map[*objServer]string{}
	for _, s := range ss {
		if live[s] {
			rv, err := s.target.CurrentRV(ctx, objectsCRD, nsObjects)
			if ok(s, "resourceVersion before the last updates", err) {
				rvOld[s] = rv
			}
		}
	}
	inRounds("update", n-op.catchUp, op.catchUp, acc, update)
	summarize("update", acc, func(r *report.ObjectsServer) *report.Throughput { return &r.Update })

	logf("objects %d: watch from %d revisions back until caught up", n, op.catchUp)
	for _, s := range order(0) {
		if !live[s] {
			continue
		}
		c, err := s.target.WatchCatchUp(ctx, objectsCRD, nsObjects, rvOld[s], op.catchUp, 5*time.Minute)
		cu := &report.CatchUp{Events: c.Events, FirstMs: stats.Ms(c.First), AllMs: stats.Ms(c.All), OutOfOrder: c.OutOfOrder}
		if c.All > 0 {
			cu.EventsPerSec = float64(c.Events) / c.All.Seconds()
		}
		switch {
		case err != nil && s.name == report.Reference && errors.Is(err, workload.ErrWatchExpired):
			// The reference need only take part if it copes: its watch cache may not
			// reach that far back. Reported, not an error of the harness.
			cu.Failed = err.Error()
			logf("  %-9s did not cope: %v", s.name, err)
		case err != nil:
			cu.Failed = err.Error()
			s.fail(n, "catch-up watch", err)
		case c.OutOfOrder > 0:
			s.fail(n, "catch-up watch", fmt.Errorf("%d of %d events out of order", c.OutOfOrder, c.Events))
		}
		s.res.CatchUp = cu
		logf("  %-9s first event %.0f ms, %d events in %.0f ms", s.name, cu.FirstMs, cu.Events, cu.AllMs)
	}

	logf("objects %d: restart on the data, then list", n)
	for _, s := range order(0) {
		if !live[s] {
			continue
		}
		var others []*objServer
		for o := range live {
			if o != s && live[o] {
				others = append(others, o)
			}
		}
		if d := quiet(ctx, others, time.Minute); d > 2*time.Second {
			logf("  %-9s restarts after %.1f s, once the other server was quiet", s.name, d.Seconds())
		}
		s.stop()
		s.res.DiskBefore = procs.DirSize(s.dataDir())
		d, err := s.start(ctx, "0")
		if !ok(s, "restart", err) {
			continue
		}
		s.res.StartupMs = stats.Ms(d)
		s.res.StartupRSS, _ = s.rss()
		l, err := s.target.ListStream(ctx, objectsCRD, objectsCRD.Path(nsObjects))
		if ok(s, "first list after restart", err) {
			s.res.FirstListMs = stats.Ms(l.Latency)
			if l.Items != n {
				s.fail(n, "first list after restart", fmt.Errorf("%d items, want %d", l.Items, n))
			}
		}
		logf("  %-9s ready in %.0f ms, RSS %.0f MiB; first list %.0f ms; disk %.1f MiB", s.name, s.res.StartupMs, float64(s.res.StartupRSS)/(1<<20), s.res.FirstListMs, float64(s.res.DiskBefore)/(1<<20))
	}
	type lkey struct {
		s    *objServer
		mode string
	}
	lat := map[lkey][]time.Duration{}
	for r := range op.listReps {
		for _, s := range order(r) {
			if !live[s] {
				continue
			}
			for _, mode := range []string{"latest", "rv0", "paged"} {
				var l workload.StreamList
				var err error
				switch mode {
				case "latest":
					l, err = s.target.ListStream(ctx, objectsCRD, objectsCRD.Path(nsObjects))
				case "rv0":
					l, err = s.target.ListStream(ctx, objectsCRD, objectsCRD.Path(nsObjects)+"?resourceVersion=0")
				case "paged":
					l, s.res.Pages, err = s.target.PagedList(ctx, objectsCRD, nsObjects, op.pageLimit)
				}
				if !ok(s, "list "+mode, err) {
					break
				}
				if l.Items != n {
					s.fail(n, "list "+mode, fmt.Errorf("%d items, want %d", l.Items, n))
				}
				lat[lkey{s, mode}] = append(lat[lkey{s, mode}], l.Latency)
				dst := map[string]*report.List{"latest": &s.res.ListLatest, "rv0": &s.res.ListRV0, "paged": &s.res.ListPaged}[mode]
				dst.Objects, dst.Bytes = l.Items, int(l.Bytes)
			}
		}
	}
	for _, s := range ss {
		if !live[s] {
			continue
		}
		s.res.ListLatest.Lat = stats.Summarize(lat[lkey{s, "latest"}])
		s.res.ListRV0.Lat = stats.Summarize(lat[lkey{s, "rv0"}])
		s.res.ListPaged.Lat = stats.Summarize(lat[lkey{s, "paged"}])
		_, s.res.PeakRSSLists = s.rss()
		logf("  %-9s list latest p50 %.0f ms, rv=0 p50 %.0f ms, paginated p50 %.0f ms (%d pages), %.1f MB; peak RSS %.0f MiB", s.name,
			s.res.ListLatest.Lat.P50, s.res.ListRV0.Lat.P50, s.res.ListPaged.Lat.P50, s.res.Pages, float64(s.res.ListLatest.Bytes)/1e6, float64(s.res.PeakRSSLists)/(1<<20))
	}

	logf("objects %d: compaction with a writer running", n)
	for _, s := range order(1) {
		if !live[s] {
			continue
		}
		var c *report.Compaction
		var err error
		if s.name == report.Crdlab {
			c, err = compactCrdlab(ctx, s, n, rvOld[s])
		} else {
			c, err = compactEtcd(ctx, s, n)
		}
		if c != nil {
			s.res.Compaction = c
		}
		if !ok(s, "compaction", err) {
			continue
		}
		s.stop()
		s.res.DiskAfter = procs.DirSize(s.dataDir())
		s.res.DiskAfterDB = s.res.DiskAfter
		if s.name == report.Reference {
			s.res.DiskAfterDB = procs.DirSize(filepath.Join(s.dataDir(), "member", "snap", "db"))
		}
		logf("  %-9s compaction %.0f ms (defrag %.0f ms); writes p99 idle %.1f ms (%d), during %.1f ms (%d); disk %.1f → %.1f MiB", s.name, c.Ms, c.DefragMs,
			c.Idle.P99, c.Idle.N, c.During.P99, c.During.N, float64(s.res.DiskBefore)/(1<<20), float64(s.res.DiskAfter)/(1<<20))
	}
	return ctx.Err()
}

// compactedLine is crdlab's log line of a compaction (storage/bolt (*DB).Compact).
var (
	compactedLine = regexp.MustCompile(`^time=(\S+) .*msg=compacted .*records_deleted=(\d+) .*took=(\S+)(?: defragment=(true|false))?`)
	// defragmentedLine is the defragmentation that follows a compaction that freed
	// enough of the file (storage/bolt (*DB).Defragment).
	defragmentedLine = regexp.MustCompile(`^time=(\S+) .*msg=defragmented .*took=(\S+) writes_paused=(\S+)`)
	defragFailedLine = regexp.MustCompile(`msg="defragmentation after compaction failed"`)
)

// compactCrdlab restarts crdlab with a short --compaction-interval, keeps a writer
// running, and times the first compaction from its log line: the compactor samples the
// revision every interval and compacts to the sample an interval old, so about two
// intervals after the start it forgets every superseded version written before.
func compactCrdlab(ctx context.Context, s *objServer, n int, rvOld string) (*report.Compaction, error) {
	const interval = 3 * time.Second
	c := &report.Compaction{How: fmt.Sprintf("restarted with --compaction-interval=%s (its compactor then compacts to the revision of %s after the start, or of the lists its own informers read at the start if older (--events-history-window keeps their watches' history), forgetting every superseded version before it, and defragments the file if that freed 40%% of it); the time is the `took` of its log line (the defragmentation's apart), and writes that overlap the compaction and the defragmentation count as during it", interval, interval)}
	s.stop()
	if _, err := s.start(ctx, interval.String()); err != nil {
		return nil, err
	}
	ready := time.Now()
	w := s.target.StartWriter(ctx, objectsCRD, nsObjects, objPrefix, n)
	var end time.Time
	var took, window time.Duration // the compaction's; with its defragmentation's
	var defrag, defragDone bool
	deadline := time.Now().Add(3 * time.Minute)
	logPath := s.procs[0].LogPath
	for end.IsZero() || (defrag && !defragDone) {
		if time.Now().After(deadline) {
			w.Stop()
			return nil, fmt.Errorf("no compaction in %s's log after 3 minutes", logPath)
		}
		select {
		case <-ctx.Done():
			w.Stop()
			return nil, ctx.Err()
		case <-time.After(50 * time.Millisecond):
		}
		f, err := os.Open(logPath)
		if err != nil {
			w.Stop()
			return nil, err
		}
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			if !end.IsZero() {
				// The compaction is found: its defragmentation, if any.
				if defragFailedLine.MatchString(sc.Text()) {
					f.Close()
					w.Stop()
					return nil, fmt.Errorf("defragmentation failed: %s", sc.Text())
				}
				m := defragmentedLine.FindStringSubmatch(sc.Text())
				if m == nil {
					continue
				}
				t, err1 := time.Parse(time.RFC3339Nano, m[1])
				d, err2 := time.ParseDuration(m[2])
				p, err3 := time.ParseDuration(m[3])
				if err := errors.Join(err1, err2, err3); err != nil {
					f.Close()
					w.Stop()
					return nil, fmt.Errorf("unreadable defragmentation line %q: %v", sc.Text(), err)
				}
				// Writes during the defragmentation count as during the compaction.
				end, window = t, t.Sub(end)+took
				c.DefragMs, c.DefragPausedMs = stats.Ms(d), stats.Ms(p)
				defragDone = true
				break
			}
			m := compactedLine.FindStringSubmatch(sc.Text())
			if m == nil {
				continue
			}
			defrag = m[4] == "true"
			deleted, _ := strconv.Atoi(m[2])
			if deleted < n {
				f.Close()
				w.Stop()
				return nil, fmt.Errorf("the first compaction deleted %d records, want at least %d (every object's first version): %s", deleted, n, sc.Text())
			}
			t, err1 := time.Parse(time.RFC3339Nano, m[1])
			d, err2 := time.ParseDuration(m[3])
			if err1 != nil || err2 != nil {
				f.Close()
				w.Stop()
				return nil, fmt.Errorf("unreadable compaction line %q: %v %v", sc.Text(), err1, err2)
			}
			end, took, window = t, d, d
			if !defrag {
				break
			}
		}
		f.Close()
	}
	// Go on writing for a second after it, then sort the writes.
	select {
	case <-ctx.Done():
	case <-time.After(time.Second):
	}
	ws, err := w.Stop()
	if err != nil {
		return nil, fmt.Errorf("writer: %w", err)
	}
	// The first second after the restart warms the server up: not idle, not during.
	var warm []workload.Write
	for _, x := range ws {
		if x.Start.After(ready.Add(time.Second)) {
			warm = append(warm, x)
		}
	}
	during, idle := workload.Split(warm, end.Add(-window), end)
	c.Ms = stats.Ms(took)
	c.Idle, c.During = stats.Summarize(idle), stats.Summarize(during)
	// The history is gone: a watch from before the compaction is told so.
	if _, err := s.target.WatchCatchUp(ctx, objectsCRD, nsObjects, rvOld, 1, time.Minute); !errors.Is(err, workload.ErrWatchExpired) {
		return c, fmt.Errorf("after the compaction, a watch from %s: %v, want 410 Gone", rvOld, err)
	}
	return c, nil
}

// compactEtcd keeps a writer running, and after two seconds compacts etcd to its
// current revision (physical: the call returns when the data is gone), then
// defragments it, as an operator of upstream does to give the space back.
func compactEtcd(ctx context.Context, s *objServer, n int) (*report.Compaction, error) {
	c := &report.Compaction{How: "etcd's Compact to its current revision (physical, as `etcdctl compact --physical`) with the apiserver's own compactor off; then Defragment, with the writer stopped"}
	etcd := workload.NewTarget("etcd", s.etcdURL)
	w := s.target.StartWriter(ctx, objectsCRD, nsObjects, objPrefix, min(n, 1000))
	select {
	case <-ctx.Done():
	case <-time.After(3 * time.Second):
	}
	// The current revision: the header of any range.
	body, err := etcd.Post(ctx, "/v3/kv/range", fmt.Appendf(nil, `{"key":%q}`, base64.StdEncoding.EncodeToString([]byte("/"))))
	if err != nil {
		w.Stop()
		return nil, err
	}
	var rr struct {
		Header struct{ Revision string } `json:"header"`
	}
	if err := json.Unmarshal(body, &rr); err != nil || rr.Header.Revision == "" {
		w.Stop()
		return nil, fmt.Errorf("etcd range: no revision in %s (%v)", body, err)
	}
	from := time.Now()
	if _, err := etcd.Post(ctx, "/v3/kv/compaction", fmt.Appendf(nil, `{"revision":%q,"physical":true}`, rr.Header.Revision)); err != nil {
		w.Stop()
		return nil, err
	}
	to := time.Now()
	select {
	case <-ctx.Done():
	case <-time.After(time.Second):
	}
	ws, err := w.Stop()
	if err != nil {
		return nil, fmt.Errorf("writer: %w", err)
	}
	var warm []workload.Write
	for _, x := range ws {
		if x.Start.After(ws[0].Start.Add(time.Second)) {
			warm = append(warm, x)
		}
	}
	during, idle := workload.Split(warm, from, to)
	c.Ms = stats.Ms(to.Sub(from))
	c.Idle, c.During = stats.Summarize(idle), stats.Summarize(during)
	d0 := time.Now()
	if _, err := etcd.Post(ctx, "/v3/maintenance/defragment", []byte(`{}`)); err != nil {
		return c, err
	}
	c.DefragMs = stats.Ms(time.Since(d0))
	return c, nil
}

// quiet waits until the processes of servers have used under 5 % of a core for a second,
// at most limit, and returns how long it waited: a server timed next should not share the
// cores with another's leftover work (the reference's apiserver, after its first list of
// 100,000 objects, collects a heap of several GB for seconds).
func quiet(ctx context.Context, servers []*objServer, limit time.Duration) time.Duration {
	cpu := func() (sum time.Duration) {
		for _, s := range servers {
			for _, pid := range s.target.Pids {
				if d, err := procs.CPUTime(pid); err == nil {
					sum += d
				}
			}
		}
		return sum
	}
	start := time.Now()
	for last := cpu(); time.Since(start) < limit; {
		select {
		case <-ctx.Done():
			return time.Since(start)
		case <-time.After(time.Second):
		}
		c := cpu()
		if c-last < 50*time.Millisecond {
			break
		}
		last = c
	}
	return time.Since(start)
}
