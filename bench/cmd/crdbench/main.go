// Command crdbench measures crdlab next to the upstream apiextensions-apiserver, in one
// run on one machine, and writes docs/perf.md, docs/perf.json and docs/perf/*.png.
//
// It installs Debian's etcd-server if etcd is missing, builds bench/cmd/refserver (the
// upstream server, k8s.io/apiextensions-apiserver v0.37.2, standalone) and crdlab, starts
// etcd + refserver and `crdlab serve` side by side on free loopback ports with fresh data
// directories, and runs the same plain-HTTP workload against both, one after the other in
// alternating order. See perf-notes.md (the second half of docs/perf.md) for the method.
//
// Usage, from the repository root:
//
//	make bench          # full run (≈ 10 minutes), rewrites docs/perf.md
//	make bench-short    # small sizes (CI): checks the harness, asserts nothing about speed
//	go -C bench run ./cmd/crdbench [-short] [-out DIR] [-servers crdlab] [-keep]
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"syscall"
	"time"
)

func main() {
	var o options
	flag.BoolVar(&o.short, "short", false, "small sizes, for CI: checks that the harness works, asserts nothing about speed")
	flag.StringVar(&o.out, "out", "", `where perf.md, perf.json and perf/*.png go (default: <repo>/docs, or a temporary directory with -short)`)
	flag.StringVar(&o.work, "work", "", "directory for binaries, data and logs (default: a new temporary directory)")
	flag.BoolVar(&o.keep, "keep", false, "keep the work directory (logs, data) after the run")
	flag.StringVar(&o.servers, "servers", "reference,crdlab", "which servers to run: reference, crdlab or both")
	flag.StringVar(&o.phases, "phases", "all", "comma-separated phases to run: established,firstcr,create,createcel,get,list,watch,watchbig,apply,delete,objects,crds (all: every one)")
	flag.StringVar(&o.crdlabBin, "crdlab-bin", "", "use this crdlab binary instead of building one")
	flag.StringVar(&o.refBin, "refserver-bin", "", "use this refserver binary instead of building one")
	flag.StringVar(&o.crdlabArgs, "crdlab-args", "", "extra arguments for `crdlab serve`, space-separated")
	flag.StringVar(&o.crdlabEnv, "crdlab-env", "", "extra environment for `crdlab serve`, space-separated NAME=value (e.g. GOGC=50)")
	flag.BoolVar(&o.render, "render", false, "run nothing: redraw perf.md and the charts from the perf.json in -out (after editing perf-notes.md)")
	flag.IntVar(&o.rounds, "rounds", 0, "rounds each interleaved workload is split into (default 4, 2 with -short)")
	flag.IntVar(&o.create1N, "create1-n", 0, "override: objects created by 1 client")
	flag.IntVar(&o.create16N, "create16-n", 0, "override: objects created by 16 clients")
	flag.IntVar(&o.getN, "get-n", 0, "override: gets")
	flag.IntVar(&o.watchUpdates, "watch-updates", 0, "override: updates in each watch fan-out")
	flag.IntVar(&o.objectsListReps, "objects-list-reps", 0, "override: how many times each list of the many-objects family runs (default 3, 2 with -short)")
	flag.StringVar(&o.crdsSizes, "crds-sizes", "", "override: the sizes of the many-CRDs family, comma-separated (default 100,500,2000; 3 with -short)")
	flag.DurationVar(&o.crdsCrdlabBudget, "crds-crdlab-budget", 0, "override: crdlab's time limit at each size of the many-CRDs family (default: the reference's budget, 15m)")
	flag.StringVar(&o.objectsSizes, "objects-sizes", "", "override: the sizes of the many-objects family, comma-separated (default 10000,100000; 300 with -short)")
	flag.Parse()

	ctx, cancel := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer cancel()
	start := time.Now()
	err := run(ctx, o)
	logf("done in %s", time.Since(start).Round(time.Second))
	if err != nil {
		fmt.Fprintln(os.Stderr, "crdbench:", err)
		os.Exit(1)
	}
}

func logf(format string, a ...any) {
	fmt.Fprintf(os.Stderr, "%s crdbench: %s\n", time.Now().Format("15:04:05.000"), fmt.Sprintf(format, a...))
}
