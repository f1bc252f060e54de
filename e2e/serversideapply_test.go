package e2e

import (
	"crypto/sha256"
	"encoding/base64"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"k8s.io/kubectl/pkg/cmd/apply"
)

// TestKubectlServerSideApply drives server-side apply with the real
// kubectl, as the Kubernetes docs on server-side apply do: the CRD itself
// applied server-side, create, update and field removal, a conflict
// between two field managers and --force-conflicts, diff --server-side,
// get --show-managed-fields, the move from client-side apply, and ApplySet
// pruning. The subtests build on each other and run in order.
func TestKubectlServerSideApply(t *testing.T) {
	s := startServer(t)
	dir := t.TempDir()
	write := func(name, content string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	// crontab is a CronTab manifest with name and spec lines.
	crontab := func(name, spec string) string {
		return "apiVersion: stable.example.com/v1\nkind: CronTab\nmetadata:\n  name: " + name + "\nspec:\n" + indent(spec, "  ")
	}

	setup := t.Run("ApplyCRDServerSide", func(t *testing.T) {
		feature(t, "kubectl", "server-side apply of a CRD", "kubectl apply --server-side -f crontab-crd.yaml")
		out := s.kubectlOK(t, "apply", "--server-side", "-f", "testdata/crontab-crd.yaml")
		wantContains(t, out, "customresourcedefinition.apiextensions.k8s.io/"+crdName+" serverside-applied")
		s.kubectlOK(t, "wait", "--for", "condition=established", "--timeout", "60s", "crd/"+crdName)
		crd := s.getJSON(t, "crd", crdName, "--show-managed-fields")
		if m := managers(crd); !strings.Contains(m, "kubectl/Apply") {
			t.Fatalf("CRD managedFields: %s, want kubectl's Apply entry", m)
		}
	})
	if !setup {
		t.Fatal("the CRD could not be applied; the rest depends on it")
	}

	t.Run("Create", func(t *testing.T) {
		feature(t, "kubectl", "server-side apply", "kubectl apply --server-side -f crontab.yaml")
		out := s.kubectlOK(t, "apply", "--server-side", "-f", "testdata/crontab.yaml")
		wantContains(t, out, "crontab.stable.example.com/my-crontab serverside-applied")
		obj := s.getJSON(t, "crontab", "my-crontab", "--show-managed-fields")
		wantValue(t, obj, "first version", "spec", "note")
		if m := managers(obj); m != "kubectl/Apply" {
			t.Fatalf("managedFields: %s, want one Apply entry of kubectl", m)
		}
	})

	t.Run("UpdateRemovesWhatTheFileDrops", func(t *testing.T) {
		feature(t, "kubectl", "server-side apply after an edit (a dropped field is removed)", "kubectl apply --server-side -f crontab-edited.yaml")
		out := s.kubectlOK(t, "apply", "--server-side", "-f", "testdata/crontab-edited.yaml")
		wantContains(t, out, "crontab.stable.example.com/my-crontab serverside-applied")
		obj := s.getJSON(t, "crontab", "my-crontab", "--show-managed-fields")
		wantValue(t, obj, "my-cron-image:2", "spec", "image")
		wantValue(t, obj, nil, "spec", "note")
	})

	t.Run("ShowManagedFields", func(t *testing.T) {
		feature(t, "kubectl", "get --show-managed-fields", "kubectl get crontab my-crontab -o yaml --show-managed-fields")
		out := s.kubectlOK(t, "get", "crontab", "my-crontab", "-o", "yaml", "--show-managed-fields")
		for _, want := range []string{"managedFields:", "manager: kubectl", "operation: Apply", "fieldsType: FieldsV1", "f:image: {}", "apiVersion: stable.example.com/v1", "time: "} {
			wantContains(t, out, want)
		}
		if out := s.kubectlOK(t, "get", "crontab", "my-crontab", "-o", "yaml"); strings.Contains(out, "managedFields") {
			t.Errorf("managedFields shown without --show-managed-fields:\n%s", out)
		}
	})

	other := write("other.yaml", crontab("my-crontab", "cronSpec: \"* * * * */5\"\nimage: my-cron-image:3"))
	t.Run("Conflict", func(t *testing.T) {
		feature(t, "kubectl", "server-side apply conflict between two field managers", "kubectl apply --server-side --field-manager=other -f other.yaml")
		r := s.kubectl(t, "apply", "--server-side", "--field-manager=other", "-f", other)
		if exitCode(r.err) != 1 {
			t.Fatalf("exit %v, want 1\n%s", r.err, r.stderr)
		}
		wantContains(t, r.stderr, `error: Apply failed with 1 conflict: conflict with "kubectl": .spec.image`)
		wantContains(t, r.stderr, "Please review the fields above--they currently have other managers.")
		wantValue(t, s.getJSON(t, "crontab", "my-crontab", "--show-managed-fields"), "my-cron-image:2", "spec", "image")
	})

	t.Run("ForceConflicts", func(t *testing.T) {
		feature(t, "kubectl", "server-side apply --force-conflicts", "kubectl apply --server-side --field-manager=other --force-conflicts -f other.yaml")
		out := s.kubectlOK(t, "apply", "--server-side", "--field-manager=other", "--force-conflicts", "-f", other)
		wantContains(t, out, "crontab.stable.example.com/my-crontab serverside-applied")
		obj := s.getJSON(t, "crontab", "my-crontab", "--show-managed-fields")
		wantValue(t, obj, "my-cron-image:3", "spec", "image")
		if m := managers(obj); m != "kubectl/Apply other/Apply" && m != "other/Apply kubectl/Apply" {
			t.Fatalf("managedFields: %s, want kubectl's and other's Apply entries", m)
		}
		if owner := ownerOf(obj, "f:image"); owner != "other" {
			t.Errorf("spec.image owned by %q, want other", owner)
		}
	})

	t.Run("DiffServerSide", func(t *testing.T) {
		feature(t, "kubectl", "diff --server-side", "kubectl diff --server-side -f changed.yaml")
		changed := write("changed.yaml", crontab("my-crontab", "cronSpec: \"* * * * */7\"\nimage: my-cron-image:2\nreplicas: 2"))
		r := s.kubectl(t, "diff", "--server-side", "--force-conflicts", "-f", changed)
		if exitCode(r.err) != 1 {
			t.Fatalf("kubectl diff --server-side: %v, want exit status 1 (a difference)\n%s", r.err, r.stderr)
		}
		wantContains(t, r.stdout, `-  cronSpec: '* * * * */5'`)
		wantContains(t, r.stdout, `+  cronSpec: '* * * * */7'`)
		wantValue(t, s.getJSON(t, "crontab", "my-crontab", "--show-managed-fields"), "* * * * */5", "spec", "cronSpec")
	})

	t.Run("ClientSideThenServerSide", func(t *testing.T) {
		feature(t, "kubectl", "client-side apply, then server-side apply (ownership migrates)", "kubectl apply -f m.yaml; kubectl apply --server-side -f m2.yaml")
		first := write("m.yaml", crontab("migrated", "cronSpec: \"* * * * */5\"\nimage: one"))
		s.kubectlOK(t, "apply", "-f", first)
		obj := s.getJSON(t, "crontab", "migrated", "--show-managed-fields")
		if m := managers(obj); m != "kubectl-client-side-apply/Update" {
			t.Fatalf("managedFields after client-side apply: %s", m)
		}
		second := write("m2.yaml", crontab("migrated", "cronSpec: \"* * * * */5\"\nimage: two"))
		out := s.kubectlOK(t, "apply", "--server-side", "-f", second)
		wantContains(t, out, "crontab.stable.example.com/migrated serverside-applied")
		obj = s.getJSON(t, "crontab", "migrated", "--show-managed-fields")
		wantValue(t, obj, "two", "spec", "image")
		if owner := ownerOf(obj, "f:image"); owner != "kubectl" {
			t.Fatalf("spec.image owned by %q after the migration, want kubectl (entries: %s)", owner, managers(obj))
		}
		if m := managers(obj); strings.Contains(m, "kubectl-client-side-apply") {
			t.Errorf("managedFields %s: kubectl should have migrated the client-side entry", m)
		}
		last, _ := lookup(obj, "metadata", "annotations", "kubectl.kubernetes.io/last-applied-configuration").(string)
		if !strings.Contains(last, `"image":"two"`) {
			t.Errorf("last-applied-configuration %q, want it to follow the server-side apply", last)
		}
	})

	t.Run("ApplySetPrune", func(t *testing.T) {
		feature(t, "kubectl", "ApplySet pruning (custom-resource parent)",
			"KUBECTL_APPLYSET=true kubectl apply --server-side --prune --applyset=crontabs.stable.example.com/set -f dir")
		// A CronTab is the parent: its CRD says it may be one, and the
		// parent exists with kubectl's tooling annotation, the set's ID and
		// an empty list of member kinds (kubectl creates only Secret and
		// ConfigMap parents itself).
		s.kubectlOK(t, "label", "crd", crdName, apply.ApplysetParentCRDLabel+"=true")
		sum := sha256.Sum256([]byte(strings.Join([]string{"set", "default", "CronTab", crdGroup}, ".")))
		id := fmt.Sprintf(apply.V1ApplySetIdFormat, base64.RawURLEncoding.EncodeToString(sum[:]))
		parent := write("parent.yaml", "apiVersion: stable.example.com/v1\nkind: CronTab\nmetadata:\n  name: set\n  labels:\n    "+
			apply.ApplySetParentIDLabel+": "+id+"\n  annotations:\n    "+apply.ApplySetToolingAnnotation+": kubectl/v1.37.2\n    "+apply.ApplySetGKsAnnotation+": \"\"\nspec:\n  cronSpec: \"* * * * */5\"\n  image: parent\n")
		s.kubectlOK(t, "create", "-f", parent)
		members := filepath.Join(dir, "members")
		if err := os.Mkdir(members, 0o700); err != nil {
			t.Fatal(err)
		}
		for _, n := range []string{"member-a", "member-b"} {
			if err := os.WriteFile(filepath.Join(members, n+".yaml"), []byte(crontab(n, "cronSpec: \"* * * * */5\"\nimage: m")), 0o600); err != nil {
				t.Fatal(err)
			}
		}
		env := []string{"KUBECTL_APPLYSET=true"}
		args := []string{"apply", "--server-side", "--prune", "--applyset=crontabs.stable.example.com/set", "-n", "default", "-f", members}
		r := s.kubectlEnv(t, env, args...)
		if r.err != nil {
			t.Fatalf("%v", r)
		}
		wantContains(t, r.stdout, "crontab.stable.example.com/member-a serverside-applied")
		wantContains(t, r.stdout, "crontab.stable.example.com/member-b serverside-applied")
		b := s.getJSON(t, "crontab", "member-b", "--show-managed-fields")
		wantValue(t, b, id, "metadata", "labels", apply.ApplysetPartOfLabel)
		p := s.getJSON(t, "crontab", "set", "--show-managed-fields")
		wantValue(t, p, "CronTab.stable.example.com", "metadata", "annotations", apply.ApplySetGKsAnnotation)
		if m := managers(p); !strings.Contains(m, "kubectl-applyset/Apply") {
			t.Errorf("parent's managedFields %s, want kubectl-applyset's Apply entry", m)
		}

		if err := os.Remove(filepath.Join(members, "member-b.yaml")); err != nil {
			t.Fatal(err)
		}
		r = s.kubectlEnv(t, env, args...)
		if r.err != nil {
			t.Fatalf("%v", r)
		}
		wantContains(t, r.stdout, "crontab.stable.example.com/member-b pruned")
		if r := s.kubectl(t, "get", "crontab", "member-b"); r.err == nil {
			t.Errorf("member-b is still there after the prune")
		}
		s.getJSON(t, "crontab", "member-a", "--show-managed-fields")
	})

	t.Run("ApplySetPruneSecretParent", func(t *testing.T) {
		feature(t, "kubectl", "ApplySet pruning (a Secret parent, kubectl's default)",
			"KUBECTL_APPLYSET=true kubectl apply --server-side --prune --applyset=crontabs -f dir")
		// kubectl creates the parent Secret itself, with a server-side
		// apply, and labels each member with the set's ID.
		members := filepath.Join(dir, "secret-set")
		if err := os.Mkdir(members, 0o700); err != nil {
			t.Fatal(err)
		}
		for _, n := range []string{"in-set-a", "in-set-b"} {
			if err := os.WriteFile(filepath.Join(members, n+".yaml"), []byte(crontab(n, "cronSpec: \"* * * * */5\"\nimage: m")), 0o600); err != nil {
				t.Fatal(err)
			}
		}
		env := []string{"KUBECTL_APPLYSET=true"}
		args := []string{"apply", "--server-side", "--prune", "--applyset=crontabs", "-n", "default", "-f", members}
		r := s.kubectlEnv(t, env, args...)
		if r.err != nil {
			t.Fatalf("%v", r)
		}
		wantContains(t, r.stdout, "crontab.stable.example.com/in-set-b serverside-applied")
		sum := sha256.Sum256([]byte(strings.Join([]string{"crontabs", "default", "Secret", ""}, ".")))
		id := fmt.Sprintf(apply.V1ApplySetIdFormat, base64.RawURLEncoding.EncodeToString(sum[:]))
		p := s.getJSON(t, "secret", "crontabs", "-n", "default", "--show-managed-fields")
		wantValue(t, p, id, "metadata", "labels", apply.ApplySetParentIDLabel)
		wantValue(t, p, "CronTab.stable.example.com", "metadata", "annotations", apply.ApplySetGKsAnnotation)
		if m := managers(p); !strings.Contains(m, "kubectl-applyset/Apply") {
			t.Errorf("parent Secret's managedFields %s, want kubectl-applyset's Apply entry", m)
		}
		wantValue(t, s.getJSON(t, "crontab", "in-set-b"), id, "metadata", "labels", apply.ApplysetPartOfLabel)

		if err := os.Remove(filepath.Join(members, "in-set-b.yaml")); err != nil {
			t.Fatal(err)
		}
		r = s.kubectlEnv(t, env, args...)
		if r.err != nil {
			t.Fatalf("%v", r)
		}
		wantContains(t, r.stdout, "crontab.stable.example.com/in-set-b pruned")
		if r := s.kubectl(t, "get", "crontab", "in-set-b"); r.err == nil {
			t.Errorf("in-set-b is still there after the prune")
		}
		s.getJSON(t, "crontab", "in-set-a")
		// The custom-resource set's members are not this set's.
		s.getJSON(t, "crontab", "member-a")
	})
}

// managers lists an object's managedFields as "manager/Operation", in
// order.
func managers(obj map[string]any) string {
	var out []string
	list, _ := lookup(obj, "metadata", "managedFields").([]any)
	for _, e := range list {
		m, _ := e.(map[string]any)
		s := fmt.Sprintf("%v/%v", m["manager"], m["operation"])
		if sub, _ := m["subresource"].(string); sub != "" {
			s += "/" + sub
		}
		out = append(out, s)
	}
	return strings.Join(out, " ")
}

// ownerOf returns the manager whose spec field set holds field ("f:image").
func ownerOf(obj map[string]any, field string) string {
	list, _ := lookup(obj, "metadata", "managedFields").([]any)
	for _, e := range list {
		m, _ := e.(map[string]any)
		spec, _ := lookup(m, "fieldsV1", "f:spec").(map[string]any)
		if _, ok := spec[field]; ok {
			s, _ := m["manager"].(string)
			return s
		}
	}
	return ""
}

func indent(s, prefix string) string {
	var b strings.Builder
	for _, l := range strings.Split(strings.TrimSpace(s), "\n") {
		b.WriteString(prefix + l + "\n")
	}
	return b.String()
}
