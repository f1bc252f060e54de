package e2e

import (
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"helm.sh/helm/v4/pkg/action"
	"helm.sh/helm/v4/pkg/chart"
	"helm.sh/helm/v4/pkg/chart/loader"
	"helm.sh/helm/v4/pkg/kube"
	"k8s.io/cli-runtime/pkg/genericclioptions"
	"k8s.io/client-go/discovery"
)

// The defaults of the helm CLI's flags (pkg/cmd: --wait, --timeout),
// which the actions leave unset.
const (
	helmWait    = kube.HookOnlyStrategy
	helmTimeout = 300 * time.Second
)

// TestHelm installs, upgrades and uninstalls a chart with Helm 4 (built
// from helm.sh/helm/v4, the actions its CLI runs) and its defaults:
// server-side apply for the CRD of the chart's crds/ and for its
// templates. An upgrade whose chart drops a field removes it, as
// server-side apply does for fields their manager stops applying.
func TestHelm(t *testing.T) {
	s := startServer(t)
	// The manager Helm's own main names itself in managedFields.
	kube.ManagedFieldsManager = "helm"

	chartDir := filepath.Join(t.TempDir(), "crontab")
	writeChart(t, chartDir, "note: first version\n")

	ns := "default"
	flags := genericclioptions.NewConfigFlags(false)
	flags.KubeConfig = &s.kubeconfig
	flags.Namespace = &ns
	// Releases are kept where Helm keeps them by default, in Secrets,
	// once the server serves them; until then in memory, shared by the
	// actions of this test (the storage driver is not what is tested).
	driver := "secret"
	dc, err := discovery.NewDiscoveryClientForConfig(s.restConfig(t))
	if err != nil {
		t.Fatal(err)
	}
	if !servesSecrets(dc) {
		driver = "memory"
	}
	cfg := action.NewConfiguration()
	cfg.SetLogger(slog.NewTextHandler(io.Discard, nil))
	if err := cfg.Init(flags, ns, driver); err != nil {
		t.Fatal(err)
	}
	ctx := t.Context()

	load := func(t *testing.T) chart.Charter {
		t.Helper()
		ch, err := loader.Load(chartDir)
		if err != nil {
			t.Fatal(err)
		}
		return ch
	}

	if !t.Run("Install", func(t *testing.T) {
		row := feature(t, "helm", "helm install (server-side apply, a CRD in crds/ and a custom resource)", "helm install demo ./crontab")
		if driver == "memory" {
			row.notef("releases kept in memory: crdlab serves no Secrets yet")
		}
		install := action.NewInstall(cfg)
		install.ReleaseName, install.Namespace = "demo", ns
		install.WaitStrategy, install.Timeout = helmWait, helmTimeout
		if !install.ServerSideApply {
			t.Fatal("Helm's install does not default to server-side apply")
		}
		if _, err := install.RunWithContext(ctx, load(t), nil); err != nil {
			t.Fatalf("install: %v", err)
		}
		crd := s.getJSON(t, "crd", crdName, "--show-managed-fields")
		if m := managers(crd); !strings.Contains(m, "helm/Apply") {
			t.Errorf("CRD managedFields %s, want helm's Apply entry", m)
		}
		obj := s.getJSON(t, "crontab", "demo", "--show-managed-fields")
		wantValue(t, obj, "first version", "spec", "note")
		if m := managers(obj); m != "helm/Apply" {
			t.Errorf("CronTab managedFields %s, want helm's Apply entry", m)
		}
		if driver == "secret" {
			rel := s.getJSON(t, "secret", "sh.helm.release.v1.demo.v1")
			wantValue(t, rel, "helm.sh/release.v1", "type")
			wantValue(t, rel, "deployed", "metadata", "labels", "status")
		}
	}) {
		t.Fatal("install failed; the rest depends on it")
	}

	t.Run("UpgradeRemovesADroppedField", func(t *testing.T) {
		feature(t, "helm", "helm upgrade (a field dropped from the chart disappears)", "helm upgrade demo ./crontab")
		writeChart(t, chartDir, "")
		upgrade := action.NewUpgrade(cfg)
		upgrade.Namespace = ns
		upgrade.WaitStrategy, upgrade.Timeout = helmWait, helmTimeout
		if upgrade.ServerSideApply != "auto" {
			t.Fatalf("Helm's upgrade defaults to server-side %q, want auto (the release's own method)", upgrade.ServerSideApply)
		}
		if _, err := upgrade.RunWithContext(ctx, "demo", load(t), nil); err != nil {
			t.Fatalf("upgrade: %v", err)
		}
		obj := s.getJSON(t, "crontab", "demo", "--show-managed-fields")
		wantValue(t, obj, nil, "spec", "note")
		wantValue(t, obj, "my-cron-image:2", "spec", "image")
		// "auto" kept the release's method: still one Apply entry, no Update.
		if m := managers(obj); m != "helm/Apply" {
			t.Errorf("CronTab managedFields %s after the upgrade, want helm's Apply entry alone", m)
		}
	})

	t.Run("Uninstall", func(t *testing.T) {
		feature(t, "helm", "helm uninstall", "helm uninstall demo")
		uninstall := action.NewUninstall(cfg)
		uninstall.WaitStrategy, uninstall.Timeout = helmWait, helmTimeout
		if _, err := uninstall.Run("demo"); err != nil {
			t.Fatalf("uninstall: %v", err)
		}
		eventually(t, "the CronTab is gone", func() error {
			if r := s.kubectl(t, "get", "crontab", "demo"); r.err == nil {
				return fmt.Errorf("still there")
			}
			return nil
		})
		if driver == "secret" {
			if r := s.kubectl(t, "get", "secret", "-l", "owner=helm,name=demo", "-o", "name"); r.err != nil || strings.TrimSpace(r.stdout) != "" {
				t.Errorf("release Secrets after uninstall: %v", r)
			}
		}
		// Helm leaves the CRDs of crds/ in place.
		s.getJSON(t, "crd", crdName)
	})
}

// writeChart writes a chart with the CronTab CRD in crds/ and one
// CronTab; values sets its note (none: the field is left out) and, when
// there is no note, a newer image.
func writeChart(t *testing.T, dir, note string) {
	t.Helper()
	crd, err := os.ReadFile("testdata/crontab-crd.yaml")
	if err != nil {
		t.Fatal(err)
	}
	image := "my-cron-image:1"
	if note == "" {
		image = "my-cron-image:2"
	}
	files := map[string]string{
		"Chart.yaml":            "apiVersion: v2\nname: crontab\nversion: 0.1.0\n",
		"values.yaml":           "image: " + image + "\n" + note,
		"crds/crontab-crd.yaml": string(crd),
		"templates/crontab.yaml": `apiVersion: stable.example.com/v1
kind: CronTab
metadata:
  name: {{ .Release.Name }}
spec:
  cronSpec: "* * * * */5"
  image: {{ .Values.image }}
  {{- with .Values.note }}
  note: {{ . }}
  {{- end }}
`,
	}
	for name, content := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// servesSecrets tells whether the server's discovery lists core/v1
// secrets, where Helm keeps its releases by default.
func servesSecrets(dc discovery.DiscoveryInterface) bool {
	list, err := dc.ServerResourcesForGroupVersion("v1")
	if err != nil {
		return false
	}
	for _, r := range list.APIResources {
		if r.Name == "secrets" {
			return true
		}
	}
	return false
}
