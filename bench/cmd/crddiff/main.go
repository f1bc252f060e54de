// Command crddiff runs a differential corpus (bench/internal/differential)
// against crdlab and the upstream apiextensions-apiserver v0.37.2 on etcd,
// prints every difference, and with -report rewrites that corpus's figures
// section of docs/compatibility.md.
//
// The corpus is crdlab's own (testdata/, -corpus own) or the real
// projects' CRDs read from the module cache (-corpus real; realcrds.go).
//
// Usage (from the bench module; make differential and make
// differential-real run the whole corpora):
//
//	go run ./cmd/crddiff [-corpus own|real] [-tier all|ci|full] [-case NAME] [-report ../docs/compatibility.md]
//
// It exits 1 if any step differs.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"github.com/crdlab/crdlab/bench/internal/differential"
	"github.com/crdlab/crdlab/bench/internal/procs"
)

func main() {
	corpus := flag.String("corpus", "own", "corpus: own (testdata/) or real (the real projects' CRDs)")
	tier := flag.String("tier", "all", "corpus tier: ci, full or all")
	only := flag.String("case", "", "run only the cases whose name contains this")
	reportPath := flag.String("report", "", "rewrite the figures section of this markdown file")
	refBin := flag.String("refserver", "", "a prebuilt refserver binary")
	crdlabBin := flag.String("crdlab", "", "a prebuilt crdlab binary")
	flag.BoolVar(&show, "show", false, "print upstream's answer to every step (to review the corpus)")
	flag.Parse()
	if err := run(*corpus, *tier, *only, *reportPath, *refBin, *crdlabBin); err != nil {
		fmt.Fprintln(os.Stderr, "crddiff:", err)
		os.Exit(1)
	}
}

// show prints every upstream outcome.
var show bool

func logf(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "crddiff: "+format+"\n", args...)
}

func run(corpus, tier, only, reportPath, refBin, crdlabBin string) error {
	tiers := []string{differential.TierCI, differential.TierFull}
	if tier != "all" {
		tiers = []string{tier}
	}
	root, err := procs.RepoRoot()
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Minute)
	defer cancel()
	var cases []differential.Case
	var real []differential.RealCase
	switch corpus {
	case "own":
		if cases, err = differential.Load(filepath.Join(root, "bench", "internal", "differential", "testdata"), tiers...); err != nil {
			return err
		}
	case "real":
		realTier := differential.TierCI
		if tier != differential.TierCI {
			realTier = "all"
		}
		if real, err = differential.LoadReal(ctx, filepath.Join(root, "bench", "realcrds"), realTier); err != nil {
			return err
		}
		for _, c := range real {
			cases = append(cases, c.Case)
		}
	default:
		return fmt.Errorf("-corpus %q is neither own nor real", corpus)
	}
	if only != "" {
		var keep []differential.Case
		for _, c := range cases {
			if strings.Contains(c.Name, only) {
				keep = append(keep, c)
			}
		}
		cases = keep
	}
	work, err := os.MkdirTemp("", "crddiff-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(work)
	env, err := differential.Start(ctx, work, refBin, crdlabBin, logf)
	if err != nil {
		return err
	}
	defer env.Stop()
	start := time.Now()
	results, err := differential.Run(ctx, env.Upstream, env.Crdlab, cases)
	if err != nil {
		return err
	}
	elapsed := time.Since(start)
	if show {
		for _, r := range results {
			fmt.Printf("%s/%s: %d %s\n", r.Case, r.Step, r.Upstream.Code, r.Upstream.Reason)
			for _, c := range append(r.Upstream.Causes, r.Upstream.Warnings...) {
				fmt.Printf("    %s\n", c)
			}
			if r.Upstream.Message != "" {
				fmt.Printf("    %s\n", r.Upstream.Message)
			}
		}
		fmt.Println()
	}
	differential.WriteDiffs(os.Stdout, results)
	s := differential.Summarize(results)
	fmt.Printf("\n%d cases, %d steps in %s: %d the same (%d of %d CRD steps, %d of %d custom resource steps); upstream rejected %d, crdlab the same way %d; %d corpus expectations wrong\n",
		s.Cases, s.Steps, elapsed.Round(time.Second), s.Same, s.SameCRD, s.CRDSteps, s.SameObject, s.ObjectSteps, s.Rejected, s.RejectedSame, s.ExpectationsWrong)
	if real != nil {
		fmt.Println()
		fmt.Print(realTable(differential.SummarizeReal(real, results)))
	}
	if reportPath != "" {
		if real != nil {
			err = writeRealReport(reportPath, tier, real, results, elapsed)
		} else {
			err = writeReport(reportPath, tiers, results, s, elapsed)
		}
		if err != nil {
			return err
		}
	}
	if s.Same != s.Steps || s.ExpectationsWrong > 0 {
		return fmt.Errorf("%d steps differ", s.Steps-s.Same)
	}
	return nil
}

const (
	beginMarker = "<!-- crddiff:begin -->"
	endMarker   = "<!-- crddiff:end -->"
)

// replaceSection replaces what lies between the markers begin and end of
// path (markers included) by section.
func replaceSection(path, begin, end, section string) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	doc := string(b)
	i, j := strings.Index(doc, begin), strings.Index(doc, end)
	if i < 0 || j < i {
		return fmt.Errorf("%s: no %s … %s section", path, begin, end)
	}
	doc = doc[:i] + section + doc[j+len(end):]
	return os.WriteFile(path, []byte(doc), 0o644)
}

const (
	realBeginMarker = "<!-- crddiff-real:begin -->"
	realEndMarker   = "<!-- crddiff-real:end -->"
)

// realTable is the per-project table of the real corpus.
func realTable(ps []differential.ProjectSummary) string {
	var b strings.Builder
	fmt.Fprintf(&b, "| project | module | CRDs | created and Established as upstream | custom resource writes | same verdict | no difference at all | accepted by upstream only | refused by upstream only |\n")
	fmt.Fprintf(&b, "|---|---|---:|---:|---:|---:|---:|---:|---:|\n")
	for _, p := range ps {
		mod := "`" + p.Module + "@" + p.Version + "`"
		name := p.Project
		if p.Project == "all" {
			mod, name = "", "**all**"
		}
		fmt.Fprintf(&b, "| %s | %s | %d | %d | %d | %d | %d | %d | %d |\n", name, mod, p.CRDs, p.CRDsSame, p.Objects, p.VerdictsSame, p.Same, p.AcceptedByUpstreamOnly, p.RejectedByUpstreamOnly)
	}
	return b.String()
}

// writeRealReport rewrites the real corpus's section of path.
func writeRealReport(path, tier string, cases []differential.RealCase, rs []differential.Result, elapsed time.Duration) error {
	var r strings.Builder
	fmt.Fprintf(&r, "%s\n", realBeginMarker)
	fmt.Fprintf(&r, "Last run: %s, tier %s, %d CPUs (`make differential-real`), %d steps in %s.\n\n", time.Now().UTC().Format("2006-01-02"), tier, runtime.NumCPU(), len(rs), elapsed.Round(time.Second))
	ps := differential.SummarizeReal(cases, rs)
	r.WriteString(realTable(ps))
	if all := ps[len(ps)-1]; all.Capped > 0 {
		fmt.Fprintf(&r, "\n%d of the same verdicts are objects with more than 100 errors, of which crdlab lists some of upstream's and counts the rest (its documented cap on causes).\n", all.Capped)
	}
	if d := differential.DiffsByCase(rs); len(d) > 0 {
		fmt.Fprintf(&r, "\nCRDs with differences (steps): %s.\n", strings.ReplaceAll(strings.Join(d, ", "), "real/", ""))
	}
	fmt.Fprintf(&r, "\n%s", realEndMarker)
	return replaceSection(path, realBeginMarker, realEndMarker, r.String())
}

// writeReport rewrites the own corpus's section of path.
func writeReport(path string, tiers []string, rs []differential.Result, s differential.Summary, elapsed time.Duration) error {
	var r strings.Builder
	fmt.Fprintf(&r, "%s\n", beginMarker)
	fmt.Fprintf(&r, "Last run: %s, tiers %s, %d CPUs (`make differential`).\n\n", time.Now().UTC().Format("2006-01-02"), strings.Join(tiers, "+"), runtime.NumCPU())
	fmt.Fprintf(&r, "| | steps | same as upstream |\n|---|---:|---:|\n")
	fmt.Fprintf(&r, "| CRD writes | %d | %d |\n", s.CRDSteps, s.SameCRD)
	fmt.Fprintf(&r, "| custom resource writes | %d | %d |\n", s.ObjectSteps, s.SameObject)
	fmt.Fprintf(&r, "| of which upstream rejected | %d | %d |\n", s.Rejected, s.RejectedSame)
	fmt.Fprintf(&r, "| **all** (%d cases) | **%d** | **%d** |\n\n", s.Cases, s.Steps, s.Same)
	if d := differential.DiffsByCase(rs); len(d) > 0 {
		fmt.Fprintf(&r, "Cases with differences (steps): %s.\n\n", strings.Join(d, ", "))
	} else {
		fmt.Fprintf(&r, "No differences.\n\n")
	}
	fmt.Fprintf(&r, "Run time %s.\n%s", elapsed.Round(time.Second), endMarker)
	return replaceSection(path, beginMarker, endMarker, r.String())
}
