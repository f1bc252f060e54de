package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// runCLI runs crdlab with args and returns stdout, stderr and the exit code.
func runCLI(t *testing.T, stdin string, args ...string) (string, string, int) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	code := run(context.Background(), args, strings.NewReader(stdin), &stdout, &stderr)
	return stdout.String(), stderr.String(), code
}

// TestConvert_Golden replays seed 002: kubectl convert of an apps/v1beta1
// Deployment to apps/v1, and of a v1beta1 CRD to v1. Run with -update to
// rewrite the expected files.
func TestConvert_Golden(t *testing.T) {
	for _, tc := range []struct {
		name, in, golden string
		args             []string
	}{
		{"Deployment", "deployment-v1beta1.yaml", "deployment-v1.yaml", []string{"--output-version", "apps/v1"}},
		{"DeploymentJSON", "deployment-v1beta1.yaml", "deployment-v1.json", []string{"--output-version", "apps/v1", "-o", "json"}},
		{"CRD", "crd-v1beta1.yaml", "crd-v1.yaml", nil},
		{"Both", "both-v1beta1.yaml", "both-v1.json", []string{"-o", "json"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := filepath.Join("testdata", "seed002", tc.in)
			golden := filepath.Join("testdata", "seed002", tc.golden)
			stdout, stderr, code := runCLI(t, "", append([]string{"convert", "-f", in}, tc.args...)...)
			if code != 0 {
				t.Fatalf("exit code %d, stderr: %s", code, stderr)
			}
			if *update {
				if err := os.WriteFile(golden, []byte(stdout), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test -update to create it)", err)
			}
			if stdout != string(want) {
				t.Errorf("output differs from %s (run go test -update after checking the change):\n--- got\n%s\n--- want\n%s", golden, stdout, want)
			}
		})
	}
}

func TestConvert_Seed002KeyLines(t *testing.T) {
	stdout, _, code := runCLI(t, "", "convert", "-f", "testdata/seed002/deployment-v1beta1.yaml")
	if code != 0 {
		t.Fatalf("exit code %d", code)
	}
	for _, line := range []string{
		"apiVersion: apps/v1",
		"kind: Deployment",
		"  revisionHistoryLimit: 2", // defaulted in v1beta1, before conversion
		"      app: nginx",          // selector taken from the template in v1beta1
		"      maxSurge: 25%",
	} {
		if !strings.Contains(stdout, line+"\n") {
			t.Errorf("output lacks %q:\n%s", line, stdout)
		}
	}
}

func TestConvert_Stdin(t *testing.T) {
	in := `{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"d","annotations":{"deprecated.deployment.rollback.to":"3"}},"spec":{"selector":{"matchLabels":{"a":"b"}},"template":{"metadata":{"labels":{"a":"b"}},"spec":{"containers":[{"name":"c","image":"busybox"}]}}}}`
	stdout, stderr, code := runCLI(t, in, "convert", "-f", "-", "--output-version", "apps/v1beta1", "-o", "json")
	if code != 0 {
		t.Fatalf("exit code %d: %s", code, stderr)
	}
	var got struct {
		APIVersion string `json:"apiVersion"`
		Metadata   struct {
			Annotations map[string]string `json:"annotations"`
		} `json:"metadata"`
		Spec struct {
			RollbackTo           *struct{ Revision int64 } `json:"rollbackTo"`
			RevisionHistoryLimit int32                     `json:"revisionHistoryLimit"`
		} `json:"spec"`
	}
	if err := json.Unmarshal([]byte(stdout), &got); err != nil {
		t.Fatal(err)
	}
	if got.APIVersion != "apps/v1beta1" {
		t.Errorf("apiVersion = %q", got.APIVersion)
	}
	if got.Spec.RollbackTo == nil || got.Spec.RollbackTo.Revision != 3 {
		t.Errorf("rollbackTo not restored from the annotation: %s", stdout)
	}
	if len(got.Metadata.Annotations) != 0 {
		t.Errorf("annotation kept: %v", got.Metadata.Annotations)
	}
	if got.Spec.RevisionHistoryLimit != 10 {
		t.Errorf("revisionHistoryLimit = %d, want v1's default 10", got.Spec.RevisionHistoryLimit)
	}
}

func TestConvert_Errors(t *testing.T) {
	dir := t.TempDir()
	write := func(name, content string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	deploy := "testdata/seed002/deployment-v1beta1.yaml"
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"ErrNoFile", []string{"convert"}, "must specify -f"},
		{"ErrMissingFile", []string{"convert", "-f", filepath.Join(dir, "nope.yaml")}, "no such file"},
		{"ErrUnknownKind", []string{"convert", "-f", write("k.yaml", "apiVersion: apps/v1\nkind: Gadget\nmetadata:\n  name: x\n")}, `no kind "Gadget" is registered for version "apps/v1"`},
		{"ErrUnknownGroup", []string{"convert", "-f", write("g.yaml", "apiVersion: example.com/v1\nkind: Widget\n")}, `no kind "Widget" is registered`},
		{"ErrMalformedYAML", []string{"convert", "-f", write("m.yaml", "apiVersion: apps/v1\nkind: [Deployment\n")}, "error converting YAML to JSON"},
		{"ErrMissingKind", []string{"convert", "-f", write("nk.yaml", "apiVersion: apps/v1\n")}, "Object 'Kind' is missing"},
		{"ErrUnknownField", []string{"convert", "-f", write("u.yaml", "apiVersion: apps/v1beta1\nkind: Deployment\nspec:\n  replicaz: 3\n")}, `unknown field "spec.replicaz"`},
		{"ErrNoSuchVersion", []string{"convert", "-f", deploy, "--output-version", "apps/v2"}, `version "v2" does not exist in group "apps"`},
		{"ErrNoSuchGroup", []string{"convert", "-f", deploy, "--output-version", "nothing.io/v1"}, `unknown API group "nothing.io"`},
		{"ErrInternalVersion", []string{"convert", "-f", deploy, "--output-version", "apps/__internal"}, "external group/version"},
		{"ErrBadFormat", []string{"convert", "-f", deploy, "-o", "xml"}, "--output must be"},
		{"ErrEmpty", []string{"convert", "-f", write("e.yaml", "# nothing\n")}, "no objects found"},
		{"ErrSecondDoc", []string{"convert", "-f", write("two.yaml", "apiVersion: apps/v1beta1\nkind: Deployment\n---\nkind: Foo\napiVersion: v9\n")}, "object 2:"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			stdout, stderr, code := runCLI(t, "", tc.args...)
			if code != 1 {
				t.Errorf("exit code %d, want 1", code)
			}
			if stdout != "" {
				t.Errorf("stdout not empty: %q", stdout)
			}
			if !strings.Contains(stderr, tc.want) {
				t.Errorf("stderr %q lacks %q", stderr, tc.want)
			}
			if strings.Count(stderr, "\n") != 1 || !strings.HasPrefix(stderr, "error: ") {
				t.Errorf("stderr is not one 'error:' line: %q", stderr)
			}
		})
	}
}

func TestVersion(t *testing.T) {
	stdout, _, code := runCLI(t, "", "version")
	if code != 0 || !strings.HasPrefix(stdout, "crdlab v1.37.0-crdlab (Kubernetes API 1.37,") {
		t.Errorf("version: code %d, %q", code, stdout)
	}
	stdout, _, code = runCLI(t, "", "version", "-o", "json")
	var v map[string]string
	if code != 0 || json.Unmarshal([]byte(stdout), &v) != nil || v["gitVersion"] != "v1.37.0-crdlab" || v["major"] != "1" {
		t.Errorf("version -o json: code %d, %q", code, stdout)
	}
}
