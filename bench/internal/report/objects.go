package report

import (
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/crdlab/crdlab/bench/internal/stats"
)

// Objects is the "many objects" family of issue 20: the same steps at each size, on fresh
// servers per size.
type Objects struct {
	// CatchUp is how many revisions old the resourceVersion of the catch-up watch is.
	CatchUp int `json:"catch_up_revisions"`
	// PageLimit is the limit of the paginated list.
	PageLimit int            `json:"page_limit"`
	Sizes     []*ObjectsSize `json:"sizes"`
}

// ObjectsSize is one size of the family.
type ObjectsSize struct {
	N int `json:"objects"`
	// PayloadBytes is the mean payload (objects are 1–5 KB as sent).
	PayloadBytes int                       `json:"mean_payload_bytes"`
	Servers      map[string]*ObjectsServer `json:"servers"`
	// ListReps is how many times each list ran.
	ListReps int `json:"list_reps"`
	// The run of this size (a run of the family alone, -phases objects, merges its sizes
	// into the results of the last full run).
	Date    string     `json:"date"`
	Commit  string     `json:"commit"`
	WallSec float64    `json:"wall_seconds"`
	LoadAvg [2]float64 `json:"load_average_start_end"`
}

// Merge puts the sizes of o into into, replacing those of the same size.
func (o *Objects) Merge(into *Objects) *Objects {
	if into == nil {
		return o
	}
	into.CatchUp, into.PageLimit = o.CatchUp, o.PageLimit
	for _, sz := range o.Sizes {
		i := slices.IndexFunc(into.Sizes, func(x *ObjectsSize) bool { return x.N == sz.N })
		if i >= 0 {
			into.Sizes[i] = sz
		} else {
			into.Sizes = append(into.Sizes, sz)
		}
	}
	slices.SortFunc(into.Sizes, func(a, b *ObjectsSize) int { return a.N - b.N })
	return into
}

// ObjectsServer is what one server did at one size.
type ObjectsServer struct {
	Create Throughput `json:"create_16_clients"`
	Update Throughput `json:"update_16_clients"`
	// Restart on the data written: process start (for the reference: etcd's) to /readyz
	// 200, and the resident memory (all processes) then.
	StartupMs  float64 `json:"startup_ms"`
	StartupRSS int64   `json:"startup_rss_bytes"`
	// FirstListMs is the first full list after the restart (caches cold).
	FirstListMs float64 `json:"first_list_after_restart_ms"`
	ListLatest  List    `json:"list_latest"`
	ListRV0     List    `json:"list_rv0"`
	ListPaged   List    `json:"list_paginated"`
	Pages       int     `json:"pages"`
	// PeakRSSLists is the peak resident memory (all processes) after the lists.
	PeakRSSLists int64    `json:"peak_rss_after_lists_bytes"`
	CatchUp      *CatchUp `json:"catch_up,omitempty"`
	// Disk: the data before and after compaction (and, for etcd, defragmentation).
	DiskBefore int64 `json:"disk_before_compaction_bytes"`
	DiskAfter  int64 `json:"disk_after_compaction_bytes"`
	// DiskAfterDB is the database file alone after compaction (etcd's member/snap/db,
	// without its write-ahead log; crdlab's bbolt file).
	DiskAfterDB int64       `json:"disk_after_compaction_db_bytes"`
	Compaction  *Compaction `json:"compaction,omitempty"`
	Errors      []string    `json:"errors,omitempty"`
}

// CatchUp is a watch from a resourceVersion CatchUp revisions old, read until it has
// delivered them all.
type CatchUp struct {
	Events       int     `json:"events"`
	FirstMs      float64 `json:"first_event_ms"`
	AllMs        float64 `json:"all_events_ms"`
	EventsPerSec float64 `json:"events_per_sec"`
	OutOfOrder   int     `json:"out_of_order"`
	Failed       string  `json:"failed,omitempty"`
}

// Compaction is one compaction of the history written (every object's previous
// versions), timed, with a writer running before, during and after it.
type Compaction struct {
	Ms float64 `json:"ms"`
	// How it was done and measured.
	How string `json:"how"`
	// DefragMs is the defragmentation after it: etcd's, asked for with the writer
	// stopped; crdlab's, which its compaction starts by itself when it freed enough
	// of the file, with the writer running. DefragPausedMs is how long crdlab's held
	// writes back (its last step).
	DefragMs       float64         `json:"defrag_ms,omitempty"`
	DefragPausedMs float64         `json:"defrag_paused_ms,omitempty"`
	Idle           stats.Latencies `json:"writes_idle"`
	During         stats.Latencies `json:"writes_during"`
	Failed         string          `json:"failed,omitempty"`
}

func (o *ObjectsServer) catchUp(f func(*CatchUp) float64) float64 {
	if o == nil || o.CatchUp == nil || o.CatchUp.Failed != "" {
		return math.NaN()
	}
	return f(o.CatchUp)
}

func (o *ObjectsServer) compaction(f func(*Compaction) float64) float64 {
	if o == nil || o.Compaction == nil || o.Compaction.Failed != "" {
		return math.NaN()
	}
	return f(o.Compaction)
}

// largest is the family's largest size, or nil.
func (o *Objects) largest() *ObjectsSize {
	if o == nil || len(o.Sizes) == 0 {
		return nil
	}
	return o.Sizes[len(o.Sizes)-1]
}

// objectsTargets are issue 20's targets for the largest size.
func (r *Results) objectsTargets() []Target {
	sz := r.Objects.largest()
	if sz == nil {
		return nil
	}
	ref, cl := sz.Servers[Reference], sz.Servers[Crdlab]
	v := func(s *ObjectsServer, f func(*ObjectsServer) float64) float64 {
		if s == nil {
			return math.NaN()
		}
		return f(s)
	}
	// The targets against the reference are taken at the largest size where the
	// reference ran too (it may be stopped short of the largest), and say so.
	rsz := sz
	if ref == nil {
		for _, x := range slices.Backward(r.Objects.Sizes) {
			if x.Servers[Reference] != nil && x.Servers[Crdlab] != nil {
				rsz = x
				break
			}
		}
	}
	var ts []Target
	atSize := func(n int, name, want string, val float64, ok bool, format string) {
		t := Target{Name: fmt.Sprintf("%d objects: %s", n, name), Want: want, Measured: !math.IsNaN(val)}
		if t.Measured {
			t.Value, t.Met, t.Display = val, ok, fmt.Sprintf(format, val)
		} else {
			t.Display = "not measured"
		}
		ts = append(ts, t)
	}
	add := func(name, want string, val float64, ok bool, format string) {
		atSize(sz.N, name, want, val, ok, format)
	}
	start := func(s *ObjectsServer) float64 { return s.StartupMs }
	cs := v(cl, start)
	add("start-up on the data (crdlab)", "≤ 2 s", cs/1000, cs <= 2000, "%.2f s")
	// From here on, against the reference: at rsz.
	ref, cl = rsz.Servers[Reference], rsz.Servers[Crdlab]
	add = func(name, want string, val float64, ok bool, format string) {
		atSize(rsz.N, name, want, val, ok, format)
	}
	sr := ratio(v(cl, start), v(ref, start))
	add("start-up vs reference (apiserver + etcd)", "≤ 0.25×", sr, sr <= 0.25, "%.2f×")
	refBest := v(ref, func(s *ObjectsServer) float64 {
		return math.Min(math.Min(s.ListLatest.Lat.P50, s.ListRV0.Lat.P50), s.ListPaged.Lat.P50)
	})
	clWorst := v(cl, func(s *ObjectsServer) float64 { return math.Max(s.ListLatest.Lat.P50, s.ListRV0.Lat.P50) })
	lr := ratio(clWorst, refBest)
	add("full list (p50, crdlab's worse mode vs reference's best)", "≤ 0.33×", lr, lr <= 0.33, "%.2f×")
	disk := func(s *ObjectsServer) float64 { return float64(s.DiskAfterDB) }
	dr := ratio(v(cl, disk), v(ref, disk))
	add("database file after compaction (etcd's also defragmented, WAL not counted)", "≤ 1× etcd", dr, dr <= 1, "%.2f×")
	cl = sz.Servers[Crdlab]
	cr := v(cl, func(s *ObjectsServer) float64 {
		return ratio(s.compaction(func(c *Compaction) float64 { return c.During.P99 }), s.compaction(func(c *Compaction) float64 { return c.Idle.P99 }))
	})
	atSize(sz.N, "write p99 during compaction vs idle (crdlab)", "≤ 2×", cr, cr <= 2, "%.2f×")
	return ts
}

// objectsMarkdown is the family's section of docs/perf.md.
func (r *Results) objectsMarkdown(b *strings.Builder) {
	o := r.Objects
	if o == nil || len(o.Sizes) == 0 {
		return
	}
	p := func(format string, a ...any) { fmt.Fprintf(b, format, a...) }
	p("## Many objects (issue 20)\n\n")
	for _, sz := range o.Sizes {
		p("- %s objects: run of %s, commit `%s`, %.0f s, load average %.1f at the start and %.1f at the end.\n", thousands(sz.N), sz.Date, sz.Commit, sz.WallSec, sz.LoadAvg[0], sz.LoadAvg[1])
	}
	p("\n")
	p("Fresh servers at each size; custom resources of 1–5 KB (a payload of 770–4,750 bytes) in one\n")
	p("namespace, created and then each updated once by 16 clients, the servers restarted on their data,\n")
	p("then read and compacted. Ratios are crdlab / reference. How each figure is taken is under\n")
	p("\"How the many-objects family is measured\" below.\n\n")
	p("| figure |")
	for _, sz := range o.Sizes {
		p(" reference, %s | crdlab, %s | ratio |", thousands(sz.N), thousands(sz.N))
	}
	p("\n|---|")
	for range o.Sizes {
		p("---|---|---|")
	}
	p("\n")
	row := func(fig string, f func(*ObjectsServer) float64, format string) {
		p("| %s |", fig)
		for _, sz := range o.Sizes {
			rv, cv := math.NaN(), math.NaN()
			if s := sz.Servers[Reference]; s != nil {
				rv = f(s)
			}
			if s := sz.Servers[Crdlab]; s != nil {
				cv = f(s)
			}
			p(" %s | %s | %s |", num(rv, format), num(cv, format), ratioString(cv, rv))
		}
		p("\n")
	}
	mb := func(x int64) float64 { return float64(x) / (1 << 20) }
	row("create, 16 clients: throughput", func(s *ObjectsServer) float64 { return s.Create.PerSec }, "%.0f /s")
	row("create: p99", func(s *ObjectsServer) float64 { return s.Create.Lat.P99 }, "%.1f ms")
	row("update (merge patch), 16 clients: throughput", func(s *ObjectsServer) float64 { return s.Update.PerSec }, "%.0f /s")
	row("restart: process start → /readyz 200", func(s *ObjectsServer) float64 { return s.StartupMs }, "%.0f ms")
	row("restart: RSS at ready", func(s *ObjectsServer) float64 { return mb(s.StartupRSS) }, "%.0f MiB")
	row("first full list after the restart", func(s *ObjectsServer) float64 { return s.FirstListMs }, "%.0f ms")
	reps := "p50 of " + strings.Join(func() []string {
		var rs []string
		for _, sz := range o.Sizes {
			rs = append(rs, fmt.Sprint(sz.ListReps))
		}
		return rs
	}(), "/")
	row("full list, latest: "+reps, func(s *ObjectsServer) float64 { return s.ListLatest.Lat.P50 }, "%.0f ms")
	row("full list, resourceVersion=0: "+reps, func(s *ObjectsServer) float64 { return s.ListRV0.Lat.P50 }, "%.0f ms")
	row("full list: response size", func(s *ObjectsServer) float64 { return float64(s.ListLatest.Bytes) / 1e6 }, "%.1f MB")
	row(fmt.Sprintf("paginated list (limit %d), all pages: %s", o.PageLimit, reps), func(s *ObjectsServer) float64 { return s.ListPaged.Lat.P50 }, "%.0f ms")
	row("peak RSS after the lists", func(s *ObjectsServer) float64 { return mb(s.PeakRSSLists) }, "%.0f MiB")
	row(fmt.Sprintf("watch from %s revisions back: first event", thousands(o.CatchUp)), func(s *ObjectsServer) float64 { return s.catchUp(func(c *CatchUp) float64 { return c.FirstMs }) }, "%.0f ms")
	row("… all events", func(s *ObjectsServer) float64 { return s.catchUp(func(c *CatchUp) float64 { return c.AllMs }) }, "%.0f ms")
	row("… events /s", func(s *ObjectsServer) float64 { return s.catchUp(func(c *CatchUp) float64 { return c.EventsPerSec }) }, "%.0f /s")
	row("disk before compaction, per object", func(s *ObjectsServer) float64 { return perObject(s.DiskBefore, s) }, "%.0f B")
	row("disk after compaction (etcd: + defrag), per object", func(s *ObjectsServer) float64 { return perObject(s.DiskAfter, s) }, "%.0f B")
	row("… of which the database file (etcd: without its WAL)", func(s *ObjectsServer) float64 { return perObject(s.DiskAfterDB, s) }, "%.0f B")
	row("compaction time", func(s *ObjectsServer) float64 { return s.compaction(func(c *Compaction) float64 { return c.Ms }) }, "%.0f ms")
	row("defragmentation time", func(s *ObjectsServer) float64 {
		return s.compaction(func(c *Compaction) float64 {
			if c.DefragMs == 0 {
				return math.NaN()
			}
			return c.DefragMs
		})
	}, "%.0f ms")
	row("… of which writes held back (crdlab)", func(s *ObjectsServer) float64 {
		return s.compaction(func(c *Compaction) float64 {
			if c.DefragPausedMs == 0 {
				return math.NaN()
			}
			return c.DefragPausedMs
		})
	}, "%.1f ms")
	row("write p99, idle", func(s *ObjectsServer) float64 { return s.compaction(func(c *Compaction) float64 { return c.Idle.P99 }) }, "%.1f ms")
	row("write p99 during compaction", func(s *ObjectsServer) float64 {
		return s.compaction(func(c *Compaction) float64 { return c.During.P99 })
	}, "%.1f ms")
	row("writes during compaction", func(s *ObjectsServer) float64 {
		return s.compaction(func(c *Compaction) float64 { return float64(c.During.N) })
	}, "%.0f")
	p("\n")
	for _, sz := range o.Sizes {
		for _, name := range []string{Reference, Crdlab} {
			s := sz.Servers[name]
			if s == nil {
				continue
			}
			if s.CatchUp != nil && s.CatchUp.Failed != "" {
				p("- %s, %s objects: the catch-up watch did not complete: %s\n", name, thousands(sz.N), escape(s.CatchUp.Failed))
			}
			if s.Compaction != nil && s.Compaction.Failed != "" {
				p("- %s, %s objects: compaction not measured: %s\n", name, thousands(sz.N), escape(s.Compaction.Failed))
			}
			for _, e := range s.Errors {
				p("- %s, %s objects: error: %s\n", name, thousands(sz.N), escape(e))
			}
		}
	}
	for _, name := range []string{Reference, Crdlab} {
		for _, sz := range slices.Backward(o.Sizes) {
			if s := sz.Servers[name]; s != nil && s.Compaction != nil && s.Compaction.How != "" {
				p("- Compaction on %s: %s\n", name, s.Compaction.How)
				break
			}
		}
	}
	p("\n")
}

func perObject(bytes int64, s *ObjectsServer) float64 {
	if bytes <= 0 || s.Create.N == 0 {
		return math.NaN()
	}
	return float64(bytes) / float64(s.Create.N)
}

func thousands(n int) string {
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// objectsChart draws cost against size: one line per server and figure.
func objectsChart(r *Results, dir string) (*Chart, error) {
	o := r.Objects
	if o == nil || len(o.Sizes) < 2 {
		return nil, nil
	}
	p := plot.New()
	p.Title.Text = "Many objects: cost against size (log–log; lower is better)"
	p.X.Label.Text = "custom resources"
	p.Y.Label.Text = "ms"
	p.X.Scale, p.Y.Scale = plot.LogScale{}, plot.LogScale{}
	p.X.Tick.Marker = plot.LogTicks{Prec: -1}
	p.Y.Tick.Marker = plot.LogTicks{Prec: -1}
	figs := []struct {
		name   string
		f      func(*ObjectsServer) float64
		dashes []vg.Length
	}{
		{"full list", func(s *ObjectsServer) float64 { return s.ListLatest.Lat.P50 }, nil},
		{"paginated list", func(s *ObjectsServer) float64 { return s.ListPaged.Lat.P50 }, []vg.Length{vg.Points(5), vg.Points(3)}},
		{"restart to ready", func(s *ObjectsServer) float64 { return s.StartupMs }, []vg.Length{vg.Points(1), vg.Points(3)}},
		{"compaction", func(s *ObjectsServer) float64 { return s.compaction(func(c *Compaction) float64 { return c.Ms }) }, []vg.Length{vg.Points(8), vg.Points(2), vg.Points(2), vg.Points(2)}},
	}
	n := 0
	for _, fig := range figs {
		for _, name := range []string{Reference, Crdlab} {
			var xys plotter.XYs
			for _, sz := range o.Sizes {
				s := sz.Servers[name]
				if s == nil {
					continue
				}
				if v := fig.f(s); v > 0 && !math.IsNaN(v) {
					xys = append(xys, plotter.XY{X: float64(sz.N), Y: v})
				}
			}
			if len(xys) < 2 {
				continue
			}
			l, pts, err := plotter.NewLinePoints(xys)
			if err != nil {
				return nil, err
			}
			c := refColor
			if name == Crdlab {
				c = clColor
			}
			l.Color, pts.Color, pts.Shape = c, c, draw.CircleGlyph{}
			l.Width, l.Dashes = vg.Points(1.5), fig.dashes
			p.Add(l, pts)
			p.Legend.Add(name+": "+fig.name, l)
			n++
		}
	}
	if n == 0 {
		return nil, nil
	}
	p.Legend.Top, p.Legend.Left = true, true
	p.Legend.TextStyle.Font.Size = vg.Points(8)
	p.Add(plotter.NewGrid())
	const file = "objects.png"
	if err := p.Save(16*vg.Centimeter, 10*vg.Centimeter, filepath.Join(dir, file)); err != nil {
		return nil, fmt.Errorf("chart %s: %w", file, err)
	}
	return &Chart{File: file, Title: "Many objects: cost against size"}, nil
}
