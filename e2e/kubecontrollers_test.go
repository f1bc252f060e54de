package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestKubectlKubeControllers drives the two kube-controller-manager
// controllers crdlab runs in the server (namespace controller, garbage
// collector) with the real kubectl: what a user sees when a namespace goes
// and when an owner is deleted with each --cascade.
func TestKubectlKubeControllers(t *testing.T) {
	s := startServer(t)
	s.kubectlOK(t, "apply", "-f", "testdata/crontab-crd.yaml")
	s.kubectlOK(t, "wait", "--for", "condition=Established", "crd/"+crdName, "--timeout=60s")

	t.Run("DeleteNamespace", func(t *testing.T) {
		feature(t, "kubectl", "delete namespace: its custom resources and built-in objects go with it",
			"kubectl delete namespace team-b (kubectl waits until it is gone)")
		s.kubectlOK(t, "create", "namespace", "team-b")
		s.kubectlOK(t, "create", "configmap", "settings", "-n", "team-b", "--from-literal=color=blue")
		s.kubectlOK(t, "create", "secret", "generic", "db", "-n", "team-b", "--from-literal=password=hunter2")
		s.kubectlOK(t, "create", "-n", "team-b", "-f", "testdata/crontab.yaml")
		// kubectl delete waits for the object to be gone (--wait=true): the
		// namespace controller has to empty it and remove its finalizer.
		out := s.kubectlOK(t, "delete", "namespace", "team-b", "--timeout=90s")
		wantContains(t, out, `namespace "team-b" deleted`)
		stderr := s.kubectlFails(t, "get", "namespace", "team-b")
		wantContains(t, stderr, `namespaces "team-b" not found`)
		// Nothing of it is left: a namespace of the same name starts empty.
		s.kubectlOK(t, "create", "namespace", "team-b")
		for _, kind := range []string{"configmaps", "secrets", "crontabs"} {
			got := s.kubectlOK(t, "get", kind, "-n", "team-b", "-o", "name")
			if strings.TrimSpace(got) != "" {
				t.Errorf("%s left in the recreated namespace: %q", kind, got)
			}
		}
	})

	apply := func(t *testing.T, name, content string) {
		t.Helper()
		p := filepath.Join(s.dir, name)
		if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
		s.kubectlOK(t, "apply", "-f", p)
	}
	// owned writes a CronTab owner and a ConfigMap it owns, blocking the
	// owner's deletion.
	owned := func(t *testing.T, owner, child string) {
		t.Helper()
		ct := fmt.Sprintf("apiVersion: stable.example.com/v1\nkind: CronTab\nmetadata: {name: %s, namespace: default}\nspec: {cronSpec: '* * * * */5', image: img}\n", owner)
		apply(t, owner+".yaml", ct)
		uid := strings.TrimSpace(s.kubectlOK(t, "get", "crontab", owner, "-n", "default", "-o", "jsonpath={.metadata.uid}"))
		cm := fmt.Sprintf(`apiVersion: v1
kind: ConfigMap
metadata:
  name: %s
  namespace: default
  ownerReferences:
  - {apiVersion: stable.example.com/v1, kind: CronTab, name: %s, uid: %s, blockOwnerDeletion: true}
data: {k: v}
`, child, owner, uid)
		apply(t, child+".yaml", cm)
	}

	t.Run("CascadeBackground", func(t *testing.T) {
		feature(t, "kubectl", "delete --cascade=background: the garbage collector deletes the dependents after the owner",
			"kubectl delete crontab owner-bg (--cascade=background, the default)")
		owned(t, "owner-bg", "child-bg")
		wantContains(t, s.kubectlOK(t, "delete", "crontab", "owner-bg", "-n", "default"), `"owner-bg" deleted`)
		s.kubectlOK(t, "wait", "--for=delete", "configmap/child-bg", "-n", "default", "--timeout=60s")
	})

	t.Run("CascadeForeground", func(t *testing.T) {
		feature(t, "kubectl", "delete --cascade=foreground: the owner goes after its blocking dependents",
			"kubectl delete crontab owner-fg --cascade=foreground")
		owned(t, "owner-fg", "child-fg")
		// kubectl waits for the owner to be gone, which the foregroundDeletion
		// finalizer holds until the collector deleted the dependent.
		wantContains(t, s.kubectlOK(t, "delete", "crontab", "owner-fg", "-n", "default", "--cascade=foreground", "--timeout=60s"), `"owner-fg" deleted`)
		stderr := s.kubectlFails(t, "get", "configmap", "child-fg", "-n", "default")
		wantContains(t, stderr, `configmaps "child-fg" not found`)
	})

	t.Run("CascadeOrphan", func(t *testing.T) {
		feature(t, "kubectl", "delete --cascade=orphan: dependents stay, without the owner's reference",
			"kubectl delete crontab owner-or --cascade=orphan")
		owned(t, "owner-or", "child-or")
		wantContains(t, s.kubectlOK(t, "delete", "crontab", "owner-or", "-n", "default", "--cascade=orphan", "--timeout=60s"), `"owner-or" deleted`)
		refs := s.kubectlOK(t, "get", "configmap", "child-or", "-n", "default", "-o", "jsonpath={.metadata.ownerReferences}")
		if strings.TrimSpace(refs) != "" {
			t.Errorf("the orphaned ConfigMap still has owner references: %s", refs)
		}
	})
}
