package differential

import (
	"context"
	"net/http"
	"os"
	"path/filepath"
	"time"

	"github.com/crdlab/crdlab/bench/internal/procs"
)

// Env is the two servers under test and the processes behind them.
type Env struct {
	Upstream, Crdlab *Server
	procs            []*procs.Proc
}

// Start builds crdlab (from the checkout the working directory is in) and
// the upstream refserver, and starts etcd, the refserver on it, and
// crdlab, all on loopback with their data under work. Binaries already
// built can be passed in (refBin, crdlabBin non-empty).
func Start(ctx context.Context, work, refBin, crdlabBin string, logf func(string, ...any)) (*Env, error) {
	root, err := procs.RepoRoot()
	if err != nil {
		return nil, err
	}
	etcdBin, err := procs.EnsureEtcd(ctx, logf)
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(filepath.Join(work, "bin"), 0o755); err != nil {
		return nil, err
	}
	if refBin == "" {
		refBin = filepath.Join(work, "bin", "refserver")
		logf("building refserver (upstream apiextensions-apiserver v0.37.2)")
		if err := procs.Build(ctx, filepath.Join(root, "bench"), refBin, "./cmd/refserver", procs.RefVersionLDFlags); err != nil {
			return nil, err
		}
	}
	if crdlabBin == "" {
		crdlabBin = filepath.Join(work, "bin", "crdlab")
		logf("building crdlab")
		if err := procs.Build(ctx, root, crdlabBin, "./cmd/crdlab", ""); err != nil {
			return nil, err
		}
	}
	e := &Env{}
	etcd, etcdURL, err := procs.StartEtcd(ctx, etcdBin, work)
	if err != nil {
		return nil, err
	}
	e.procs = append(e.procs, etcd)
	ref, refURL, err := procs.StartRefServer(ctx, refBin, etcdURL, work)
	if err != nil {
		e.Stop()
		return nil, err
	}
	e.procs = append(e.procs, ref)
	cr, crURL, err := procs.StartCrdlab(ctx, crdlabBin, work, nil, nil)
	if err != nil {
		e.Stop()
		return nil, err
	}
	e.procs = append(e.procs, cr)
	client := &http.Client{Timeout: time.Minute}
	e.Upstream = &Server{Name: "upstream", Base: refURL, HTTP: client}
	e.Crdlab = &Server{Name: "crdlab", Base: crURL, HTTP: client}
	return e, nil
}

// Stop stops every process Start started, newest first.
func (e *Env) Stop() {
	for i := len(e.procs) - 1; i >= 0; i-- {
		e.procs[i].Stop(5 * time.Second)
	}
	e.procs = nil
}
