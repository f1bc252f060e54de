package apiserver

import (
	"bytes"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/pprof"
	"sort"
	"strings"
	"sync"
)

// HealthChecker is one named check of /healthz, /livez or /readyz.
//
// Mirrors k8s.io/apiserver/pkg/server/healthz.HealthChecker.
type HealthChecker struct {
	Name  string
	Check func(r *http.Request) error
}

// healthChecks holds the checks of one endpoint (/readyz …). Checks may be
// added while the server runs.
type healthChecks struct {
	mu     sync.RWMutex // guards checks
	checks []HealthChecker
}

func (h *healthChecks) add(c HealthChecker) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.checks = append(h.checks, c)
}

func (h *healthChecks) list() []HealthChecker {
	h.mu.RLock()
	defer h.mu.RUnlock()
	return append([]HealthChecker(nil), h.checks...)
}

// installHealthz serves path (e.g. /readyz) and path/<check>.
//
// Mirrors InstallPathHandler in k8s.io/apiserver/pkg/server/healthz/healthz.go.
func installHealthz(mux *http.ServeMux, path string, checks *healthChecks, log *slog.Logger) {
	name := strings.TrimPrefix(path, "/")
	mux.HandleFunc(path, func(w http.ResponseWriter, r *http.Request) {
		serveRootHealth(w, r, name, checks.list(), log)
	})
	mux.HandleFunc(path+"/", func(w http.ResponseWriter, r *http.Request) {
		want := strings.TrimPrefix(r.URL.Path, path+"/")
		for _, c := range checks.list() {
			if c.Name == want {
				if err := c.Check(r); err != nil {
					http.Error(w, fmt.Sprintf("internal server error: %v", err), http.StatusInternalServerError)
					return
				}
				writePlain(w, "ok")
				return
			}
		}
		http.NotFound(w, r)
	})
}

// serveRootHealth runs every check not excluded with ?exclude=<name>. It
// answers "ok", or with ?verbose one "[+]name ok" line per check and
// "<name> check passed". On failure it answers 500 with the per-check
// lines, the reasons withheld (they go to the log).
//
// Mirrors handleRootHealth in healthz.go.
func serveRootHealth(w http.ResponseWriter, r *http.Request, name string, checks []HealthChecker, log *slog.Logger) {
	excluded := map[string]bool{}
	for _, e := range r.URL.Query()["exclude"] {
		for _, n := range strings.Split(e, ",") {
			if n = strings.TrimSpace(n); n != "" {
				excluded[n] = true
			}
		}
	}
	var out, failedLog bytes.Buffer
	var failed []string
	for _, c := range checks {
		if excluded[c.Name] {
			delete(excluded, c.Name)
			fmt.Fprintf(&out, "[+]%s excluded: ok\n", c.Name)
			continue
		}
		if err := c.Check(r); err != nil {
			fmt.Fprintf(&out, "[-]%s failed: reason withheld\n", c.Name)
			fmt.Fprintf(&failedLog, "[-]%s failed: %v\n", c.Name, err)
			failed = append(failed, c.Name)
		} else {
			fmt.Fprintf(&out, "[+]%s ok\n", c.Name)
		}
	}
	if len(excluded) > 0 {
		var names []string
		for n := range excluded {
			names = append(names, fmt.Sprintf("%q", n))
		}
		sort.Strings(names)
		fmt.Fprintf(&out, "warn: some health checks cannot be excluded: no matches for %s\n", strings.Join(names, ","))
	}
	if len(failed) > 0 {
		log.Info("health check failed", "endpoint", name, "checks", strings.Join(failed, ","), "detail", failedLog.String())
		http.Error(w, fmt.Sprintf("%s%s check failed", out.String(), name), http.StatusInternalServerError)
		return
	}
	if _, verbose := r.URL.Query()["verbose"]; !verbose {
		writePlain(w, "ok")
		return
	}
	writePlain(w, out.String()+name+" check passed\n")
}

func writePlain(w http.ResponseWriter, s string) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	_, _ = w.Write([]byte(s))
}

// installProfiling serves Go's profiles under /debug/pprof/, as
// kube-apiserver does with --profiling (its default). Authorization
// applies: with AlwaysAllow and a token file, any user with a token.
//
// Mirrors routes.Profiling in k8s.io/apiserver/pkg/server/routes/profiling.go.
func installProfiling(mux *http.ServeMux) {
	mux.HandleFunc("/debug/pprof/", pprof.Index)
	mux.HandleFunc("/debug/pprof/cmdline", pprof.Cmdline)
	mux.HandleFunc("/debug/pprof/profile", pprof.Profile)
	mux.HandleFunc("/debug/pprof/symbol", pprof.Symbol)
	mux.HandleFunc("/debug/pprof/trace", pprof.Trace)
}
