package report

import (
	"fmt"
	"image/color"
	"math"
	"os"
	"path/filepath"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Colours of the two servers in every chart.
var (
	refColor = color.RGBA{R: 0x4c, G: 0x72, B: 0xb0, A: 0xff} // blue
	clColor  = color.RGBA{R: 0xdd, G: 0x84, B: 0x52, A: 0xff} // orange
	etcColor = color.RGBA{R: 0x93, G: 0xb5, B: 0xe0, A: 0xff} // light blue: etcd
)

// Chart is one PNG of docs/perf.
type Chart struct {
	File  string // name under the charts directory
	Title string // alt text and caption
}

// WriteCharts draws the charts into dir and returns what it drew.
func (r *Results) WriteCharts(dir string) ([]Chart, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	ref, cl := r.Servers[Reference], r.Servers[Crdlab]
	pick := func(s *Server, f func(*Server) float64) float64 {
		if s == nil {
			return 0
		}
		v := f(s)
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return 0
		}
		return v
	}
	series := func(fs ...func(*Server) float64) (a, b []float64) {
		for _, f := range fs {
			a = append(a, pick(ref, f))
			b = append(b, pick(cl, f))
		}
		return a, b
	}
	var charts []Chart
	save := func(p *plot.Plot, file, title string, w vg.Length) error {
		if err := p.Save(w, 9*vg.Centimeter, filepath.Join(dir, file)); err != nil {
			return fmt.Errorf("chart %s: %w", file, err)
		}
		charts = append(charts, Chart{File: file, Title: title})
		return nil
	}

	// Request throughput, with the disk's fsync rate as a line.
	a, b := series(
		func(s *Server) float64 { return s.Create1.PerSec },
		func(s *Server) float64 { return s.Create16.PerSec },
		func(s *Server) float64 { return s.Get.PerSec },
	)
	p, err := grouped("Requests per second (higher is better)", "requests/s",
		[]string{"create, 1 client", "create, 16 clients", "get, 1 client"}, a, b, "%.0f")
	if err != nil {
		return nil, err
	}
	if f := r.Fsync.Mean(); f > 0 {
		if err := hline(p, f, 3, fmt.Sprintf("raw fsync rate (%.0f/s)", f)); err != nil {
			return nil, err
		}
	}
	if err := save(p, "throughput.png", "Requests per second", 16*vg.Centimeter); err != nil {
		return nil, err
	}

	// Request latency p50 and p99.
	a, b = series(
		func(s *Server) float64 { return s.Create1.Lat.P50 },
		func(s *Server) float64 { return s.Create1.Lat.P99 },
		func(s *Server) float64 { return s.Create16.Lat.P50 },
		func(s *Server) float64 { return s.Create16.Lat.P99 },
		func(s *Server) float64 { return s.Get.Lat.P50 },
		func(s *Server) float64 { return s.Get.Lat.P99 },
	)
	p, err = grouped("Request latency (lower is better)", "ms",
		[]string{"create×1 p50", "create×1 p99", "create×16 p50", "create×16 p99", "get p50", "get p99"}, a, b, "%.2f")
	if err != nil {
		return nil, err
	}
	if err := save(p, "latency.png", "Request latency", 18*vg.Centimeter); err != nil {
		return nil, err
	}

	// Lists.
	a, b = series(
		func(s *Server) float64 { return s.ListLatest.Lat.P50 },
		func(s *Server) float64 { return s.ListRV0.Lat.P50 },
	)
	p, err = grouped(fmt.Sprintf("List of %d objects, p50 (lower is better)", r.Meta.Params.ListObjects), "ms",
		[]string{"latest (consistent read)", "resourceVersion=0"}, a, b, "%.1f")
	if err != nil {
		return nil, err
	}
	if err := save(p, "list.png", "List latency", 12*vg.Centimeter); err != nil {
		return nil, err
	}

	// Watch fan-out.
	ws := func(big bool, f func(*Watch) float64) func(*Server) float64 {
		return func(s *Server) float64 {
			w := s.WatchSmall
			if big {
				w = s.WatchBig
			}
			if w == nil || w.Failed != "" {
				return 0
			}
			return f(w)
		}
	}
	small, big := fmt.Sprintf("%d watchers", r.Meta.Params.WatchSmall), fmt.Sprintf("%d watchers", r.Meta.Params.WatchBig)
	a, b = series(ws(false, func(w *Watch) float64 { return w.EventsPerSec }), ws(true, func(w *Watch) float64 { return w.EventsPerSec }))
	p, err = grouped("Watch fan-out: events delivered per second (higher is better)", "events/s", []string{small, big}, a, b, "%.0f")
	if err != nil {
		return nil, err
	}
	if err := save(p, "watch-throughput.png", "Watch fan-out: events/s", 12*vg.Centimeter); err != nil {
		return nil, err
	}
	a, b = series(
		ws(false, func(w *Watch) float64 { return w.Lat.P50 }), ws(false, func(w *Watch) float64 { return w.Lat.P99 }),
		ws(true, func(w *Watch) float64 { return w.Lat.P50 }), ws(true, func(w *Watch) float64 { return w.Lat.P99 }),
	)
	p, err = grouped("Watch delivery latency, write acknowledged → event read (lower is better)", "ms",
		[]string{small + " p50", small + " p99", big + " p50", big + " p99"}, a, b, "%.1f")
	if err != nil {
		return nil, err
	}
	if err := save(p, "watch-latency.png", "Watch delivery latency", 16*vg.Centimeter); err != nil {
		return nil, err
	}

	// CRD lifecycle, in seconds.
	a, b = series(
		func(s *Server) float64 { return s.Established.P50 / 1000 },
		func(s *Server) float64 { return s.FirstCR.P50 / 1000 },
		func(s *Server) float64 {
			if s.DeleteCRD == nil {
				return 0
			}
			return s.DeleteCRD.Ms / 1000
		},
	)
	p, err = grouped("CRD lifecycle (lower is better)", "seconds",
		[]string{"created → Established", "created → first CR created", fmt.Sprintf("delete with %d instances", r.Meta.Params.ListObjects)}, a, b, "%.3f")
	if err != nil {
		return nil, err
	}
	if err := save(p, "lifecycle.png", "CRD lifecycle", 16*vg.Centimeter); err != nil {
		return nil, err
	}

	// Memory: the reference's apiserver and etcd stacked.
	if err := memoryChart(r, dir); err != nil {
		return nil, err
	}
	charts = append(charts, Chart{File: "memory.png", Title: "Peak resident memory"})

	// Latency percentile curves: create×16 and the small watch fan-out.
	if err := curveChart(r, dir); err != nil {
		return nil, err
	}
	charts = append(charts, Chart{File: "percentiles.png", Title: "Latency percentiles"})
	if c, err := objectsChart(r, dir); err != nil {
		return nil, err
	} else if c != nil {
		charts = append(charts, *c)
	}
	return charts, nil
}

// grouped is a bar chart with one group of two bars (reference, crdlab) per category,
// each bar labelled with its value.
func grouped(title, ylabel string, cats []string, ref, cl []float64, format string) (*plot.Plot, error) {
	p := plot.New()
	p.Title.Text = title
	p.Y.Label.Text = ylabel
	w := vg.Points(22)
	max := 0.0
	for i, set := range []struct {
		name string
		vs   []float64
		c    color.Color
		off  vg.Length
	}{{"reference (apiextensions-apiserver + etcd)", ref, refColor, -w / 2}, {"crdlab", cl, clColor, w / 2}} {
		bars, err := plotter.NewBarChart(plotter.Values(set.vs), w)
		if err != nil {
			return nil, err
		}
		bars.Color = set.c
		bars.LineStyle.Width = 0
		bars.Offset = set.off
		p.Add(bars)
		p.Legend.Add(set.name, bars)
		xys := make(plotter.XYs, len(set.vs))
		labels := make([]string, len(set.vs))
		for j, v := range set.vs {
			xys[j] = plotter.XY{X: float64(j), Y: v}
			labels[j] = fmt.Sprintf(format, v)
			if v > max {
				max = v
			}
		}
		l, err := plotter.NewLabels(plotter.XYLabels{XYs: xys, Labels: labels})
		if err != nil {
			return nil, err
		}
		for k := range l.TextStyle {
			l.TextStyle[k].XAlign = draw.XCenter
			l.TextStyle[k].Font.Size = vg.Points(7)
		}
		l.Offset = vg.Point{X: set.off, Y: vg.Points(2)}
		p.Add(l)
		_ = i
	}
	p.NominalX(cats...)
	p.Y.Min = 0
	p.Y.Max = max * 1.25
	if p.Y.Max == 0 {
		p.Y.Max = 1
	}
	p.Legend.Top = true
	p.Legend.Left = true
	p.Legend.TextStyle.Font.Size = vg.Points(8)
	return p, nil
}

// hline draws a dashed horizontal line at y across n categories, with a legend entry.
func hline(p *plot.Plot, y float64, n int, label string) error {
	l, err := plotter.NewLine(plotter.XYs{{X: -0.5, Y: y}, {X: float64(n) - 0.5, Y: y}})
	if err != nil {
		return err
	}
	l.Color = color.Gray{Y: 0x60}
	l.Dashes = []vg.Length{vg.Points(4), vg.Points(3)}
	p.Add(l)
	p.Legend.Add(label, l)
	if y*1.25 > p.Y.Max {
		p.Y.Max = y * 1.25
	}
	return nil
}

func memoryChart(r *Results, dir string) error {
	ref, cl := r.Servers[Reference], r.Servers[Crdlab]
	mib := func(b int64) float64 { return float64(b) / (1 << 20) }
	var apisrv, etcd, crd float64
	if ref != nil {
		apisrv = mib(ref.Memory["apiextensions-apiserver"].PeakRSS)
		etcd = mib(ref.Memory["etcd"].PeakRSS)
	}
	if cl != nil {
		crd = mib(cl.Memory["crdlab"].PeakRSS)
	}
	p := plot.New()
	p.Title.Text = "Peak resident memory (VmHWM; lower is better)"
	p.Y.Label.Text = "MiB"
	w := vg.Points(40)
	b1, err := plotter.NewBarChart(plotter.Values{apisrv, 0}, w)
	if err != nil {
		return err
	}
	b1.Color, b1.LineStyle.Width = refColor, 0
	b2, err := plotter.NewBarChart(plotter.Values{etcd, 0}, w)
	if err != nil {
		return err
	}
	b2.Color, b2.LineStyle.Width = etcColor, 0
	b2.StackOn(b1)
	b3, err := plotter.NewBarChart(plotter.Values{0, crd}, w)
	if err != nil {
		return err
	}
	b3.Color, b3.LineStyle.Width = clColor, 0
	p.Add(b1, b2, b3)
	p.Legend.Add("apiextensions-apiserver", b1)
	p.Legend.Add("etcd", b2)
	p.Legend.Add("crdlab", b3)
	l, err := plotter.NewLabels(plotter.XYLabels{
		XYs:    plotter.XYs{{X: 0, Y: apisrv + etcd}, {X: 1, Y: crd}},
		Labels: []string{fmt.Sprintf("%.0f MiB", apisrv+etcd), fmt.Sprintf("%.0f MiB", crd)},
	})
	if err != nil {
		return err
	}
	for k := range l.TextStyle {
		l.TextStyle[k].XAlign = draw.XCenter
	}
	l.Offset = vg.Point{Y: vg.Points(2)}
	p.Add(l)
	p.NominalX("reference", "crdlab")
	p.Y.Min, p.Y.Max = 0, math.Max(apisrv+etcd, crd)*1.25+1
	p.Legend.Top = true
	return p.Save(10*vg.Centimeter, 9*vg.Centimeter, filepath.Join(dir, "memory.png"))
}

func curveChart(r *Results, dir string) error {
	p := plot.New()
	p.Title.Text = "Latency by percentile (log scale; lower is better)"
	p.X.Label.Text = "percentile"
	p.Y.Label.Text = "ms"
	p.Y.Scale = plot.LogScale{}
	p.Y.Tick.Marker = plot.LogTicks{Prec: -1}
	type curve struct {
		name   string
		server string
		pick   func(*Server) []float64
		dashed bool
	}
	curves := []curve{
		{"create×16", Reference, func(s *Server) []float64 { return s.Create16.Lat.Curve }, false},
		{"create×16", Crdlab, func(s *Server) []float64 { return s.Create16.Lat.Curve }, false},
		{"watch delivery", Reference, func(s *Server) []float64 { return watchCurve(s.WatchSmall) }, true},
		{"watch delivery", Crdlab, func(s *Server) []float64 { return watchCurve(s.WatchSmall) }, true},
	}
	lo, hi := math.Inf(1), 0.0
	for _, c := range curves {
		s := r.Servers[c.server]
		if s == nil {
			continue
		}
		vs := c.pick(s)
		if len(vs) == 0 {
			continue
		}
		xys := make(plotter.XYs, len(vs))
		for i, v := range vs {
			v = math.Max(v, 0.01) // a log axis has no 0
			xys[i] = plotter.XY{X: float64(i + 1), Y: v}
			lo, hi = math.Min(lo, v), math.Max(hi, v)
		}
		l, err := plotter.NewLine(xys)
		if err != nil {
			return err
		}
		l.Width = vg.Points(1.5)
		l.Color = refColor
		if c.server == Crdlab {
			l.Color = clColor
		}
		if c.dashed {
			l.Dashes = []vg.Length{vg.Points(5), vg.Points(3)}
		}
		p.Add(l)
		p.Legend.Add(c.server+": "+c.name, l)
	}
	if hi == 0 {
		lo, hi = 0.01, 1
	}
	p.Y.Min, p.Y.Max = lo/1.5, hi*1.5
	p.X.Min, p.X.Max = 1, 100
	p.Legend.Top = true
	p.Legend.Left = true
	p.Legend.TextStyle.Font.Size = vg.Points(8)
	p.Add(plotter.NewGrid())
	return p.Save(16*vg.Centimeter, 10*vg.Centimeter, filepath.Join(dir, "percentiles.png"))
}

func watchCurve(w *Watch) []float64 {
	if w == nil || w.Failed != "" {
		return nil
	}
	return w.Lat.Curve
}
