package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/crdlab/crdlab/e2e/internal/proc"
)

// helm3Chart is a chart with the CronTab CRD in crds/ and, in templates/,
// a ConfigMap and two CronTabs that read the values.
const helm3Chart = "testdata/helm3/crontabs"

// helm3Binary is Helm 3 (helm.sh/helm/v3, a tool of this module: see
// go.mod), built once per test binary into binaries.dir.
var helm3Binary struct {
	once sync.Once
	path string
	err  error
}

// buildHelm3 builds Helm 3's own cmd/helm, as its release does (Helm 3
// has no importable command package).
func buildHelm3(t *testing.T) string {
	t.Helper()
	helm3Binary.once.Do(func() {
		helm3Binary.path = filepath.Join(binaries.dir, "helm3")
		helm3Binary.err = proc.Build(".", helm3Binary.path, "helm.sh/helm/v3/cmd/helm",
			"-X helm.sh/helm/v3/internal/version.version=v3.22.0")
	})
	if helm3Binary.err != nil {
		t.Fatalf("building Helm 3: %v", helm3Binary.err)
	}
	return helm3Binary.path
}

// helmResult is what one Helm run printed.
type helmResult struct {
	stdout, stderr string
	err            error
}

// helm3Run runs Helm 3 against s with its default storage driver
// (Secrets) and its own config, cache and data directories.
func (s *server) helm3Run(t *testing.T, args ...string) helmResult {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), kubectlTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, buildHelm3(t), append([]string{"--kubeconfig", s.kubeconfig}, args...)...)
	root := filepath.Join(s.dir, "helm3")
	cmd.Env = []string{"HOME=" + s.home, "PATH=" + os.Getenv("PATH"),
		"HELM_CONFIG_HOME=" + filepath.Join(root, "config"), "HELM_CACHE_HOME=" + filepath.Join(root, "cache"),
		"HELM_DATA_HOME=" + filepath.Join(root, "data")}
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	t.Logf("$ helm %s\n%s%s", strings.Join(args, " "), stdout.String(), stderr.String())
	return helmResult{stdout: stdout.String(), stderr: stderr.String(), err: err}
}

// helm3 runs Helm 3 and fails t unless it succeeds; it returns stdout.
func (s *server) helm3(t *testing.T, args ...string) string {
	t.Helper()
	r := s.helm3Run(t, args...)
	if r.err != nil {
		t.Fatalf("helm %s failed: %v\n%s", strings.Join(args, " "), r.err, r.stderr)
	}
	return r.stdout
}

// TestHelm3 installs, upgrades, rolls back and uninstalls a chart with
// Helm 3 and its default driver, which keeps each release revision in a
// Secret of the release's namespace: crdlab's built-in link serves the
// namespace (--create-namespace), the Secrets (listed by label), the
// ConfigMap; the apiextensions link serves the CRD and the CronTabs.
func TestHelm3(t *testing.T) {
	s := startServer(t)
	buildHelm3(t)

	// settings is the color the chart's ConfigMap holds now.
	settings := func(t *testing.T) string {
		t.Helper()
		return s.kubectlOK(t, "get", "configmap", "shop-settings", "-n", "shop", "-o", "jsonpath={.data.color}")
	}
	// releases are the names of Helm's release Secrets, oldest first.
	releases := func(t *testing.T) string {
		t.Helper()
		return s.kubectlOK(t, "get", "secrets", "-n", "shop", "-l", "owner=helm,name=shop",
			"--sort-by", "{.metadata.name}", "-o", "jsonpath={range .items[*]}{.metadata.name}:{.metadata.labels.status} {end}")
	}

	if !t.Run("Install", func(t *testing.T) {
		feature(t, "helm", "Helm 3 install --create-namespace of a chart with a CRD in crds/ and a ConfigMap and custom resources in templates/ (default Secret driver)",
			"helm install shop ./crontabs -n shop --create-namespace --wait")
		out := s.helm3(t, "install", "shop", helm3Chart, "-n", "shop", "--create-namespace", "--wait", "--timeout", "60s")
		wantContains(t, out, "STATUS: deployed")
		wantContains(t, out, "REVISION: 1")
		wantContains(t, s.kubectlOK(t, "get", "namespace", "shop", "-o", "jsonpath={.status.phase}"), "Active")
		wantContains(t, s.kubectlOK(t, "get", "crd", crdName, "-o", "name"), crdName)
		wantContains(t, settings(t), "blue")
		rows := tableOf(t, s.kubectlOK(t, "get", "crontabs", "-n", "shop"))
		wantRow(t, rows, "shop-nightly")
		wantRow(t, rows, "shop-hourly")
		if got := releases(t); got != "sh.helm.release.v1.shop.v1:deployed " {
			t.Errorf("release secrets: %q", got)
		}
	}) {
		t.Fatal("the chart did not install")
	}

	// Helm 3 updates a built-in kind it knows the Go type of (the
	// ConfigMap) with a three-way strategic merge patch, and a custom
	// resource with a JSON merge patch.
	t.Run("Upgrade", func(t *testing.T) {
		feature(t, "helm", "Helm 3 upgrade (a three-way strategic merge patch of the ConfigMap, a merge patch of the custom resources)",
			"helm upgrade shop ./crontabs -n shop --set color=green")
		out := s.helm3(t, "upgrade", "shop", helm3Chart, "-n", "shop", "--set", "color=green", "--set", "image=backup:2", "--set", "extra=on")
		wantContains(t, out, "STATUS: deployed")
		wantContains(t, out, "REVISION: 2")
		wantContains(t, settings(t), "green")
		wantContains(t, s.kubectlOK(t, "get", "configmap", "shop-settings", "-n", "shop", "-o", "jsonpath={.data.extra}"), "on")
		wantContains(t, s.kubectlOK(t, "get", "crontab", "shop-nightly", "-n", "shop", "-o", "jsonpath={.spec.image}"), "backup:2")
		if got := releases(t); got != "sh.helm.release.v1.shop.v1:superseded sh.helm.release.v1.shop.v2:deployed " {
			t.Errorf("release secrets: %q", got)
		}
	})

	t.Run("History", func(t *testing.T) {
		feature(t, "helm", "Helm 3 history", "helm history shop -n shop")
		var history []struct {
			Revision int    `json:"revision"`
			Status   string `json:"status"`
		}
		out := s.helm3(t, "history", "shop", "-n", "shop", "-o", "json")
		if err := json.Unmarshal([]byte(out), &history); err != nil {
			t.Fatalf("%v: %s", err, out)
		}
		if len(history) != 2 || history[0].Revision != 1 || history[0].Status != "superseded" ||
			history[1].Revision != 2 || history[1].Status != "deployed" {
			t.Errorf("history: %+v", history)
		}
	})

	t.Run("Rollback", func(t *testing.T) {
		feature(t, "helm", "Helm 3 rollback (a field the older revision lacks is removed by the strategic merge patch)",
			"helm rollback shop 1 -n shop")
		wantContains(t, s.helm3(t, "rollback", "shop", "1", "-n", "shop", "--wait", "--timeout", "60s"), "Rollback was a success")
		wantContains(t, settings(t), "blue")
		cm := s.kubectlOK(t, "get", "configmap", "shop-settings", "-n", "shop", "-o", "jsonpath={.data}")
		if strings.Contains(cm, "extra") {
			t.Errorf("the rollback kept data.extra: %s", cm)
		}
		wantContains(t, s.kubectlOK(t, "get", "crontab", "shop-nightly", "-n", "shop", "-o", "jsonpath={.spec.image}"), "backup:1")
		if got := releases(t); got != "sh.helm.release.v1.shop.v1:superseded sh.helm.release.v1.shop.v2:superseded sh.helm.release.v1.shop.v3:deployed " {
			t.Errorf("release secrets: %q", got)
		}
	})

	t.Run("Uninstall", func(t *testing.T) {
		feature(t, "helm", "Helm 3 uninstall (templates' objects and release Secrets deleted; the CRD kept, as Helm does)",
			"helm uninstall shop -n shop")
		wantContains(t, s.helm3(t, "uninstall", "shop", "-n", "shop", "--wait", "--timeout", "60s"), `release "shop" uninstalled`)
		if out := s.kubectlOK(t, "get", "configmaps,crontabs,secrets", "-n", "shop", "-o", "name"); strings.TrimSpace(out) != "" {
			t.Errorf("left behind in shop:\n%s", out)
		}
		// Helm never deletes what crds/ installed.
		wantContains(t, s.kubectlOK(t, "get", "crd", crdName, "-o", "name"), crdName)
		if out := s.helm3(t, "list", "-n", "shop", "-q"); strings.TrimSpace(out) != "" {
			t.Errorf("helm list after uninstall: %q", out)
		}
	})
}
