package archtest

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the graph in docs/architecture.md")

const module = "github.com/crdlab/crdlab"

// rule limits what packages under From import: with Allow set, only
// packages under From's own group or under one of Allow; with Deny set,
// nothing under Deny. Paths are relative to the module; "x" covers x and
// x/….
type rule struct {
	From  string
	Allow []string
	Deny  []string
	Why   string
}

// apimachinery lists what upstream keeps in k8s.io/apimachinery but crdlab
// keeps under apis: meta/v1 (and unstructured), the API errors and the
// field-error list. The apimachinery-style libraries may use them, as
// upstream's do; they may not use an API group.
var apimachinery = []string{"apis/meta", "apis/errors", "apis/validation"}

// groups is every top-level folder of the main module that holds Go code.
var groups = []string{
	"apis", "apiserver", "client", "cmd", "controller", "examples", "handler",
	"informer", "internal", "machinery", "notebooks", "registry", "scheme",
	"storage", "test", "trace",
}

// rules are the dependency rules of docs/architecture.md. The layers, from
// the bottom: scheme and machinery; apis; storage; registry; handler — and
// beside them client, informer, controller, which reach the server only
// over HTTP; apiserver assembles them; cmd runs it.
var rules = []rule{
	{"scheme", []string{"scheme", "internal"}, nil,
		"the scheme is the foundation: it knows no API group and no layer above it"},
	{"machinery", append([]string{"scheme", "internal"}, apimachinery...), nil,
		"the apimachinery-style libraries know nothing of API groups, storage or HTTP"},
	{"apis", []string{"scheme", "machinery", "internal"}, nil,
		"API types, conversions and validation sit on the scheme only"},
	{"trace", []string{"trace", "internal"}, nil,
		"tracing is imported by every layer, so it imports none of them"},
	{"storage", []string{"storage", "apis", "scheme", "machinery", "internal", "trace"}, nil,
		"storage knows nothing of the registry, HTTP or the control loop"},
	{"registry", []string{"registry", "storage", "apis", "scheme", "machinery", "internal", "trace"}, nil,
		"the registry sits on storage and knows nothing of HTTP"},
	{"handler", []string{"handler", "registry", "informer", "apis", "scheme", "machinery", "internal", "trace"}, nil,
		"the handler reaches storage only through the registry; it may follow CRDs through an informer, as upstream's crdHandler does"},
	{"client", []string{"client", "apis", "scheme", "machinery", "internal"}, nil,
		"a client speaks HTTP and nothing else"},
	{"informer", []string{"informer", "client", "apis", "scheme", "machinery", "internal", "trace"}, nil,
		"informers list and watch through a client"},
	{"controller", []string{"controller", "informer", "client", "apis", "scheme", "machinery", "internal", "trace"}, nil,
		"controllers talk to the server only through a client, as upstream's do over loopback; they own the small interfaces they need and apiserver wires them"},
	{"apiserver", nil, []string{"cmd", "examples", "test", "notebooks"},
		"the assembly is imported only by what runs it"},
	{"internal", nil, []string{"apiserver", "cmd", "controller", "handler", "registry", "storage", "informer", "client", "examples", "test", "notebooks"},
		"internal helpers are leaves (test harnesses live under the package they test)"},
	{"", nil, []string{"cmd", "test", "notebooks"},
		"nothing imports a command, an integration test or a notebook helper"},
}

// exempt lists packages that are test harnesses by purpose: they may reach
// any layer they exercise.
var exempt = []string{"internal/docmap", "internal/archtest"}

type pkg struct {
	Path    string   // relative to the module
	Imports []string // of this module, relative
}

func repoRoot(t *testing.T) string {
	t.Helper()
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}").Output()
	if err != nil {
		t.Fatalf("go list -m: %v", err)
	}
	return strings.TrimSpace(string(out))
}

// listed caches the main module's package list: the tests share one
// `go list` run.
var listed = struct {
	sync.Once
	pkgs []pkg
	err  error
}{}

func listPackages(t *testing.T, dir string) []pkg {
	t.Helper()
	listed.Do(func() { listed.pkgs, listed.err = goList(dir) })
	if listed.err != nil {
		t.Fatal(listed.err)
	}
	return listed.pkgs
}

func goList(dir string) ([]pkg, error) {
	cmd := exec.Command("go", "list", "-f", "{{.ImportPath}}{{range .Imports}} {{.}}{{end}}", "./...")
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("go list ./...: %v\n%s", err, stderr.String())
	}
	var pkgs []pkg
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Fields(line)
		p := pkg{Path: rel(f[0])}
		for _, imp := range f[1:] {
			if strings.HasPrefix(imp, module+"/") {
				p.Imports = append(p.Imports, rel(imp))
			}
		}
		pkgs = append(pkgs, p)
	}
	return pkgs, nil
}

func rel(path string) string {
	if path == module {
		return ""
	}
	return strings.TrimPrefix(path, module+"/")
}

// under reports whether path is prefix or below it ("" covers everything).
func under(path, prefix string) bool {
	return prefix == "" || path == prefix || strings.HasPrefix(path, prefix+"/")
}

func group(path string) string {
	g, _, _ := strings.Cut(path, "/")
	return g
}

func TestDependencyRules(t *testing.T) {
	pkgs := listPackages(t, repoRoot(t))
	seen := map[string]bool{}
	for _, p := range pkgs {
		seen[group(p.Path)] = true
	}
	for g := range seen {
		if g != "" && !slices.Contains(groups, g) {
			t.Errorf("top-level folder %q holds Go code but is not in archtest's groups: add it and decide its rule", g)
		}
	}
	for _, p := range pkgs {
		if slices.Contains(exempt, p.Path) {
			continue
		}
		for _, r := range rules {
			if !under(p.Path, r.From) {
				continue
			}
			for _, imp := range p.Imports {
				if r.Allow != nil && group(imp) != group(p.Path) && !slices.ContainsFunc(r.Allow, func(a string) bool { return under(imp, a) }) {
					t.Errorf("%s imports %s: %s may import only %s (%s)", p.Path, imp, r.From, strings.Join(r.Allow, ", "), r.Why)
				}
				for _, to := range r.Deny {
					// A group may always import itself; the "" rule
					// forbids cmd, test and notebooks to everyone else.
					if under(imp, to) && !under(p.Path, to) {
						t.Errorf("%s imports %s: %s must not import %s (%s)", p.Path, imp, orRoot(r.From), to, r.Why)
					}
				}
			}
		}
	}
}

func orRoot(s string) string {
	if s == "" {
		return "no package"
	}
	return s
}

// TestNoKubernetesImports checks that only the test-only modules depend on
// k8s.io/*: the main module, and every other module of the repository,
// writes what the articles describe.
func TestNoKubernetesImports(t *testing.T) {
	root := repoRoot(t)
	// reference builds the real kube-apiserver for e2e's side-by-side
	// checks (reference/doc.go).
	testOnly := map[string]bool{"e2e": true, "bench": true, "reference": true}
	var mods []string
	err := filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".")) && path != root {
			return filepath.SkipDir
		}
		if !d.IsDir() && d.Name() == "go.mod" {
			mods = append(mods, filepath.Dir(path))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, dir := range mods {
		r, _ := filepath.Rel(root, dir)
		if testOnly[r] {
			continue
		}
		if r == "tools" {
			// The tools module pins GoNB and goimports for the
			// notebooks; it builds no code of ours.
			continue
		}
		cmd := exec.Command("go", "list", "-deps", "-f", "{{.ImportPath}}", "./...")
		cmd.Dir = dir
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("go list -deps in %s: %v", r, err)
		}
		for _, dep := range strings.Fields(string(out)) {
			if strings.HasPrefix(dep, "k8s.io/") {
				t.Errorf("module %q depends on %s: only the test-only modules (e2e, bench, reference) may import k8s.io/*", r, dep)
			}
		}
	}
}

// graph returns the group-level import graph as mermaid lines, sorted.
func graph(pkgs []pkg) []string {
	edges := map[string]bool{}
	for _, p := range pkgs {
		from := group(p.Path)
		if from == "examples" || from == "test" || from == "notebooks" || slices.Contains(exempt, p.Path) {
			continue // the learning material and harnesses use everything
		}
		for _, imp := range p.Imports {
			to := group(imp)
			if to != from && to != "internal" {
				edges[fmt.Sprintf("  %s --> %s", from, to)] = true
			}
		}
	}
	var lines []string
	for e := range edges {
		lines = append(lines, e)
	}
	slices.Sort(lines)
	return lines
}

const (
	beginMarker = "<!-- archtest:graph begin -->"
	endMarker   = "<!-- archtest:graph end -->"
)

func TestArchitectureGraph(t *testing.T) {
	root := repoRoot(t)
	want := "```mermaid\nflowchart TD\n" + strings.Join(graph(listPackages(t, root)), "\n") + "\n```"
	path := filepath.Join(root, "docs", "architecture.md")
	doc, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	before, rest, ok1 := strings.Cut(string(doc), beginMarker)
	_, after, ok2 := strings.Cut(rest, endMarker)
	if !ok1 || !ok2 {
		t.Fatalf("%s: no %s … %s block", path, beginMarker, endMarker)
	}
	got := strings.TrimSpace(rest[:strings.Index(rest, endMarker)])
	if got == want {
		return
	}
	if *update {
		out := before + beginMarker + "\n" + want + "\n" + endMarker + after
		if err := os.WriteFile(path, []byte(out), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	t.Errorf("docs/architecture.md's graph is stale; run `go test ./internal/archtest -update`.\nwant:\n%s\ngot:\n%s", want, got)
}
