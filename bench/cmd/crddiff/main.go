// Command crddiff runs the differential corpus (bench/internal/differential)
// against crdlab and the upstream apiextensions-apiserver v0.37.2 on etcd,
// prints every difference, and with -report rewrites the figures section
// of docs/compatibility.md.
//
// Usage (from the bench module; make differential runs the full corpus):
//
//	go run ./cmd/crddiff [-tier all|ci|full] [-case NAME] [-report ../docs/compatibility.md]
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
	tier := flag.String("tier", "all", "corpus tier: ci, full or all")
	only := flag.String("case", "", "run only the cases whose name contains this")
	reportPath := flag.String("report", "", "rewrite the figures section of this markdown file")
	refBin := flag.String("refserver", "", "a prebuilt refserver binary")
	crdlabBin := flag.String("crdlab", "", "a prebuilt crdlab binary")
	flag.BoolVar(&show, "show", false, "print upstream's answer to every step (to review the corpus)")
	flag.Parse()
	if err := run(*tier, *only, *reportPath, *refBin, *crdlabBin); err != nil {
		fmt.Fprintln(os.Stderr, "crddiff:", err)
		os.Exit(1)
	}
}

// show prints every upstream outcome.
var show bool

func logf(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "crddiff: "+format+"\n", args...)
}

func run(tier, only, reportPath, refBin, crdlabBin string) error {
	tiers := []string{differential.TierCI, differential.TierFull}
	if tier != "all" {
		tiers = []string{tier}
	}
	root, err := procs.RepoRoot()
	if err != nil {
		return err
	}
	cases, err := differential.Load(filepath.Join(root, "bench", "internal", "differential", "testdata"), tiers...)
	if err != nil {
		return err
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
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Minute)
	defer cancel()
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
	if reportPath != "" {
		if err := writeReport(reportPath, tiers, results, s, elapsed); err != nil {
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

// writeReport replaces what lies between the markers of path.
func writeReport(path string, tiers []string, rs []differential.Result, s differential.Summary, elapsed time.Duration) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	doc := string(b)
	i, j := strings.Index(doc, beginMarker), strings.Index(doc, endMarker)
	if i < 0 || j < i {
		return fmt.Errorf("%s: no %s … %s section", path, beginMarker, endMarker)
	}
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
	doc = doc[:i] + r.String() + doc[j+len(endMarker):]
	return os.WriteFile(path, []byte(doc), 0o644)
}
