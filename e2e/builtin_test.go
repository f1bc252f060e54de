package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// bundle is a multi-document YAML a user applies at once: a namespace and
// what goes into it, custom resources included (their CRD is installed
// before).
const bundle = `apiVersion: v1
kind: Namespace
metadata:
  name: shop
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: settings
  namespace: shop
  labels: {app: shop}
data:
  color: blue
---
apiVersion: v1
kind: Secret
metadata:
  name: db
  namespace: shop
  labels: {app: shop}
stringData:
  password: hunter2
---
apiVersion: stable.example.com/v1
kind: CronTab
metadata:
  name: nightly
  namespace: shop
spec:
  cronSpec: "0 3 * * *"
  image: backup:1
---
apiVersion: stable.example.com/v1
kind: CronTab
metadata:
  name: hourly
  namespace: shop
spec:
  cronSpec: "0 * * * *"
  image: backup:1
`

// TestKubectlBuiltins drives the built-in API of crdlab's kube-apiserver
// link with the real kubectl: namespaces, a bundle of built-in kinds and
// custom resources, a kind: List round trip, pruning, events.
func TestKubectlBuiltins(t *testing.T) {
	s := startServer(t)
	s.kubectlOK(t, "apply", "-f", "testdata/crontab-crd.yaml")
	s.kubectlOK(t, "wait", "--for", "condition=Established", "crd/"+crdName, "--timeout=60s")
	write := func(name, content string) string {
		p := filepath.Join(s.dir, name)
		if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}

	t.Run("CreateNamespace", func(t *testing.T) {
		feature(t, "kubectl", "create namespace", "kubectl create namespace team-a")
		wantContains(t, s.kubectlOK(t, "create", "namespace", "team-a"), "namespace/team-a created")
		wantContains(t, s.kubectlOK(t, "get", "namespace", "team-a", "-o", "jsonpath={.status.phase} {.spec.finalizers}"), `Active ["kubernetes"]`)
		rows := tableOf(t, s.kubectlOK(t, "get", "namespaces"))
		for _, ns := range []string{"default", "kube-system", "kube-public", "kube-node-lease", "team-a"} {
			wantRow(t, rows, ns)
		}
		stderr := s.kubectlFails(t, "create", "-n", "nowhere", "-f", "testdata/crontab.yaml")
		wantContains(t, stderr, `namespaces "nowhere" not found`)
	})

	if !t.Run("Bundle", func(t *testing.T) {
		feature(t, "kubectl", "apply a multi-document bundle: Namespace, ConfigMap, Secret and custom resources",
			"kubectl apply -f bundle.yaml")
		out := s.kubectlOK(t, "apply", "-f", write("bundle.yaml", bundle))
		for _, want := range []string{"namespace/shop created", "configmap/settings created", "secret/db created",
			"crontab.stable.example.com/nightly created", "crontab.stable.example.com/hourly created"} {
			wantContains(t, out, want)
		}
		wantContains(t, s.kubectlOK(t, "get", "secret", "db", "-n", "shop", "-o", "jsonpath={.data.password}"), "aHVudGVyMg==")
		rows := tableOf(t, s.kubectlOK(t, "get", "configmaps,secrets", "-n", "shop"))
		wantRow(t, rows, "configmap/settings")
		wantRow(t, rows, "secret/db")
	}) {
		t.Fatal("the bundle did not apply")
	}

	t.Run("ListRoundTrip", func(t *testing.T) {
		feature(t, "kubectl", "get -o yaml > f && delete -f f && apply -f f of a kind: List",
			"kubectl get cm,secret,crontabs -l … -o yaml > f; kubectl delete -f f; kubectl apply -f f")
		s.kubectlOK(t, "label", "-n", "shop", "crontab", "nightly", "app=shop")
		list := s.kubectlOK(t, "get", "configmaps,secrets,crontabs", "-n", "shop", "-l", "app=shop", "-o", "yaml")
		wantContains(t, list, "kind: List")
		f := write("list.yaml", list)
		out := s.kubectlOK(t, "delete", "-f", f)
		wantContains(t, out, `configmap "settings" deleted`)
		wantContains(t, out, `crontab.stable.example.com "nightly" deleted`)
		// Applying the List validates each item against /openapi/v2 (kubectl's
		// fallback for kind: List) and creates them again.
		out = s.kubectlOK(t, "apply", "-f", f)
		wantContains(t, out, "configmap/settings created")
		wantContains(t, out, "secret/db created")
		wantContains(t, out, "crontab.stable.example.com/nightly created")
		wantContains(t, s.kubectlOK(t, "get", "configmap", "settings", "-n", "shop", "-o", "jsonpath={.data.color}"), "blue")
	})

	t.Run("PruneAllowlist", func(t *testing.T) {
		row := feature(t, "kubectl", "apply --prune of ConfigMaps with an allowlist",
			"kubectl apply --prune --prune-allowlist=core/v1/ConfigMap -l app=prune -f dir/")
		dir := filepath.Join(s.dir, "prune")
		if err := os.MkdirAll(dir, 0o700); err != nil {
			t.Fatal(err)
		}
		cm := func(name string) string {
			return "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: " + name + "\n  namespace: default\n  labels: {app: prune}\ndata: {k: v}\n"
		}
		if err := os.WriteFile(filepath.Join(dir, "a.yaml"), []byte(cm("keep")), 0o600); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "b.yaml"), []byte(cm("drop")), 0o600); err != nil {
			t.Fatal(err)
		}
		args := []string{"apply", "--prune", "--prune-allowlist=core/v1/ConfigMap", "-l", "app=prune", "-f", dir}
		s.kubectlOK(t, args...)
		if err := os.Remove(filepath.Join(dir, "b.yaml")); err != nil {
			t.Fatal(err)
		}
		wantContains(t, s.kubectlOK(t, args...), "configmap/drop pruned")
		rows := tableOf(t, s.kubectlOK(t, "get", "configmaps", "-l", "app=prune"))
		wantRow(t, rows, "keep")
		if len(rows) != 2 { // the header and keep
			t.Errorf("configmaps after the prune: %v", rows)
		}
		row.notef("without --prune-allowlist kubectl maps its whole default list (Pods, Deployments …), which crdlab does not serve: the apply fails")
	})

	t.Run("PatchStrategic", func(t *testing.T) {
		feature(t, "kubectl", "patch a ConfigMap with a strategic merge patch (kubectl's default type): maps merge, finalizers merge as a set, $deleteFromPrimitiveList",
			`kubectl patch configmap patched -p '{"metadata":{"finalizers":[…]}}'`)
		s.kubectlOK(t, "create", "configmap", "patched", "--from-literal=k=v", "--from-literal=gone=x")
		wantContains(t, s.kubectlOK(t, "patch", "configmap", "patched", "--type", "strategic",
			"-p", `{"metadata":{"labels":{"tier":"gold"},"finalizers":["example.com/a"]},"data":{"gone":null,"n":"1"}}`), "configmap/patched patched")
		// No --type: kubectl's default is a strategic merge patch.
		s.kubectlOK(t, "patch", "configmap", "patched", "-p", `{"metadata":{"finalizers":["example.com/b"]}}`)
		got := s.kubectlOK(t, "get", "configmap", "patched", "-o", "jsonpath={.metadata.labels.tier} {.metadata.finalizers} {.data}")
		if want := `gold ["example.com/b","example.com/a"] {"k":"v","n":"1"}`; got != want {
			t.Errorf("after the patches: %s, want %s", got, want)
		}
		s.kubectlOK(t, "patch", "configmap", "patched", "-p", `{"metadata":{"$deleteFromPrimitiveList/finalizers":["example.com/a","example.com/b"]}}`)
		if got := s.kubectlOK(t, "get", "configmap", "patched", "-o", "jsonpath={.metadata.finalizers}"); got != "" {
			t.Errorf("finalizers left: %s", got)
		}
		wantContains(t, s.kubectlOK(t, "delete", "configmap", "patched"), `configmap "patched" deleted`)
	})

	t.Run("ApplyTwice", func(t *testing.T) {
		feature(t, "kubectl", "client-side apply twice of a changed ConfigMap and Secret (a three-way strategic merge patch: removed keys go)",
			"kubectl apply -f app.yaml; (edit app.yaml); kubectl apply -f app.yaml")
		// The first version has a label and a data key the second drops.
		app := func(color string, first bool) string {
			labels, extra := "{app: web}", ""
			if first {
				labels, extra = "{app: web, tier: one}", "  extra: one\n"
			}
			return "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: app\n  namespace: default\n  labels: " + labels + "\n" +
				"data:\n  color: " + color + "\n" + extra +
				"---\napiVersion: v1\nkind: Secret\nmetadata:\n  name: app\n  namespace: default\nstringData:\n  password: " + color + "\n"
		}
		f := write("app.yaml", app("blue", true))
		out := s.kubectlOK(t, "apply", "-f", f)
		wantContains(t, out, "configmap/app created")
		wantContains(t, out, "secret/app created")
		// Someone else adds a label: the second apply must keep it.
		s.kubectlOK(t, "label", "configmap", "app", "owner=ops")
		f = write("app.yaml", app("green", false))
		out = s.kubectlOK(t, "apply", "-f", f)
		wantContains(t, out, "configmap/app configured")
		wantContains(t, out, "secret/app configured")
		got := s.kubectlOK(t, "get", "configmap", "app", "-o", "jsonpath={.data} {.metadata.labels}")
		if want := `{"color":"green"} {"app":"web","owner":"ops"}`; got != want {
			t.Errorf("after the second apply: %s, want %s", got, want)
		}
		wantContains(t, s.kubectlOK(t, "get", "secret", "app", "-o", "jsonpath={.data.password}"), "Z3JlZW4=")
		wantContains(t, s.kubectlOK(t, "apply", "-f", f), "configmap/app unchanged")
	})

	t.Run("Events", func(t *testing.T) {
		feature(t, "kubectl", "events (core/v1 and events.k8s.io/v1 Events, one storage)", "kubectl events -n default --for configmap/keep")
		event := `apiVersion: events.k8s.io/v1
kind: Event
metadata:
  name: keep.rotated
  namespace: default
eventTime: "` + time.Now().UTC().Format("2006-01-02T15:04:05.000000Z") + `"
reportingController: example.com/rotator
reportingInstance: rotator-1
action: Rotate
reason: Rotated
note: the settings were rotated
type: Normal
regarding: {kind: ConfigMap, name: keep, namespace: default, apiVersion: v1}
`
		s.kubectlOK(t, "create", "-f", write("event.yaml", event))
		out := s.kubectlOK(t, "events", "-n", "default", "--for", "configmap/keep")
		wantContains(t, out, "Rotated")
		wantContains(t, out, "the settings were rotated")
		wantContains(t, s.kubectlOK(t, "get", "events", "-n", "default"), "Rotated")
	})

	t.Run("ExplainSecret", func(t *testing.T) {
		feature(t, "kubectl", "explain a built-in kind from /openapi/v3", "kubectl explain secret.data")
		out := s.kubectlOK(t, "explain", "secret.data")
		wantContains(t, out, "KIND:       Secret")
		wantContains(t, out, "map[string]string")
	})
}

// TestKubectlAuth asks the server about the user, under the Static
// policy of the TLS server: what may I do, and who am I.
func TestKubectlAuth(t *testing.T) {
	s, _ := startTLSServer(t)
	// The admin (the kubeconfig's token) installs the CRD the viewer may
	// read; kubectl maps crontabs.stable.example.com through discovery.
	s.kubectlOK(t, "apply", "-f", "testdata/crontab-crd.yaml")
	s.kubectlOK(t, "wait", "--for", "condition=Established", "crd/"+crdName, "--timeout=60s")
	t.Run("CanI", func(t *testing.T) {
		feature(t, "kubectl", "auth can-i (allowed and denied under --authorization-mode=Static)",
			"kubectl --token viewer-token auth can-i list|delete crontabs")
		out := s.kubectlOK(t, "--token", "viewer-token", "auth", "can-i", "list", "crontabs.stable.example.com", "-n", "default")
		if strings.TrimSpace(out) != "yes" {
			t.Errorf("can-i list: %q, want yes", out)
		}
		r := s.kubectl(t, "--token", "viewer-token", "auth", "can-i", "delete", "crontabs.stable.example.com", "-n", "default")
		if r.err == nil || strings.TrimSpace(r.stdout) != "no" {
			t.Errorf("can-i delete: %s, want no and exit code 1", r)
		}
		list := s.kubectlOK(t, "--token", "viewer-token", "auth", "can-i", "--list", "-n", "default")
		wantContains(t, list, "crontabs.stable.example.com")
	})
	t.Run("WhoAmI", func(t *testing.T) {
		feature(t, "kubectl", "auth whoami", "kubectl --token viewer-token auth whoami")
		out := s.kubectlOK(t, "--token", "viewer-token", "auth", "whoami")
		wantContains(t, out, "viewer")
		wantContains(t, out, "system:authenticated")
	})
}
