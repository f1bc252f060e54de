package docmap

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestRefs(t *testing.T) {
	md := "Intro `scheme/scheme.go:Scheme.ConvertToVersion` and `go test ./...`.\n" +
		"```\n`not/inside.go:Fence`\n```\n" +
		"- `k8s.io/apiserver/pkg/server/config.go:completedConfig.New`, `examples/07-server-startup/`\n" +
		"- `notebooks/01-x.ipynb#intro`, `docs/map.md`, `OnAdd`, `apps/v1`, `doc.go`\n"
	want := []Ref{
		{Line: 1, Text: "scheme/scheme.go:Scheme.ConvertToVersion", Path: "scheme/scheme.go", Name: "Scheme.ConvertToVersion"},
		{Line: 5, Text: "k8s.io/apiserver/pkg/server/config.go:completedConfig.New", Path: "k8s.io/apiserver/pkg/server/config.go", Name: "completedConfig.New", Upstream: true},
		{Line: 5, Text: "examples/07-server-startup/", Path: "examples/07-server-startup/"},
		{Line: 6, Text: "notebooks/01-x.ipynb#intro", Path: "notebooks/01-x.ipynb", Cell: "intro"},
		{Line: 6, Text: "docs/map.md", Path: "docs/map.md"},
	}
	got := Refs([]byte(md))
	if len(got) != len(want) {
		t.Fatalf("Refs found %d references, want %d:\n%+v", len(got), len(want), got)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("ref %d = %+v, want %+v", i, got[i], want[i])
		}
	}
}

func TestLinks(t *testing.T) {
	md := "[a](questions.md) [b](../notebooks/01-x.ipynb#cell) [c](https://example.com/x) [d](#section)\n"
	got := Links([]byte(md))
	if len(got) != 2 || got[0].Target != "questions.md" || got[1].Target != "../notebooks/01-x.ipynb" {
		t.Fatalf("Links = %+v", got)
	}
}

func TestRef_Check(t *testing.T) {
	root := filepath.Join("testdata", "repo")
	for _, tc := range []struct {
		ref  string
		want string // "" = passes
	}{
		{"pkg/thing.go", ""},
		{"pkg/thing.go:Thing", ""},
		{"pkg/thing.go:New", ""},
		{"pkg/thing.go:Max", ""},
		{"pkg/thing.go:defaultThing", ""},
		{"pkg/thing.go:Thing.Run", ""},
		{"pkg/thing.go:Thing.Name", ""},
		{"pkg/thing.go:Thing.Embedded", ""},
		{"pkg/thing.go:Doer.Do", ""},
		{"pkg/thing.go:List.Len", ""},
		{"examples/01-x/", ""},
		{"notebooks/01-x.ipynb#intro", ""},
		{"k8s.io/nowhere/file.go:Anything", ""},
		{"pkg/thing.go:Missing", "declares no Missing"},
		{"pkg/thing.go:Thing.Stop", "declares no Thing.Stop"},
		{"pkg/gone.go:New", "no such file"},
		{"examples/02-y/", "no such file"},
		{"examples/01-x/main.go/", "final /"},
		{"pkg/", ""},
		{"notebooks/01-x.ipynb#outro", `no cell with id "outro"`},
	} {
		t.Run(tc.ref, func(t *testing.T) {
			refs := Refs([]byte("`" + tc.ref + "`"))
			if len(refs) != 1 {
				t.Fatalf("%q is not a reference", tc.ref)
			}
			err := refs[0].Check(root)
			switch {
			case tc.want == "" && err != nil:
				t.Fatalf("Check: %v", err)
			case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
				t.Fatalf("Check error = %v, want one containing %q", err, tc.want)
			}
		})
	}
	t.Run("ErrDirectoryWithoutSlash", func(t *testing.T) {
		r := Ref{Text: "pkg.go", Path: "examples/01-x"} // a directory named as a file
		if err := r.Check(root); err == nil || !strings.Contains(err.Error(), "final /") {
			t.Fatalf("Check = %v", err)
		}
	})
}

func TestSections(t *testing.T) {
	md := "# Top\nintro\n## A\na text\n### A1\na1 text\n## B\n```\n## not a heading\n```\nb text\n"
	var got []string
	for _, s := range Sections([]byte(md)) {
		got = append(got, s.Heading+"="+strings.Join(strings.Fields(string(s.Body)), " "))
	}
	want := []string{
		"Top=intro ## A a text ### A1 a1 text ## B ``` ## not a heading ``` b text",
		"A=a text ### A1 a1 text",
		"A1=a1 text",
		"B=``` ## not a heading ``` b text",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("Sections:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// repoRoot is the repository root, two levels up.
var repoRoot = filepath.Join("..", "..")

// strictDocs are checked reference by reference, whatever their first
// path element: the map and the answers, which exist to point at code.
var strictDocs = map[string]bool{"docs/map.md": true, "docs/questions.md": true, "docs/zh/map.md": true, "docs/zh/glossary.md": true}

// TestRepoDocs checks every reference and relative link in docs/,
// docs/lab/ and docs/zh/: a renamed function, a moved file or a notebook
// cell that lost its id fails here.
func TestRepoDocs(t *testing.T) {
	var docs []string
	for _, pattern := range []string{"*.md", "lab/*.md", "zh/*.md"} {
		found, err := filepath.Glob(filepath.Join(repoRoot, "docs", pattern))
		if err != nil || len(found) == 0 {
			t.Fatalf("no docs/%s found: %v", pattern, err)
		}
		docs = append(docs, found...)
	}
	for _, p := range docs {
		rel, _ := filepath.Rel(repoRoot, p)
		rel = filepath.ToSlash(rel)
		t.Run(rel, func(t *testing.T) {
			for _, err := range CheckFile(repoRoot, rel, strictDocs[rel]) {
				t.Error(err)
			}
		})
	}
}

func TestCheckFile_Strict(t *testing.T) {
	root := t.TempDir()
	if err := os.MkdirAll(filepath.Join(root, "docs"), 0o755); err != nil {
		t.Fatal(err)
	}
	md := "Fuzz corpora live in each package's `testdata/fuzz/`.\n"
	if err := os.WriteFile(filepath.Join(root, "docs", "x.md"), []byte(md), 0o644); err != nil {
		t.Fatal(err)
	}
	if errs := CheckFile(root, "docs/x.md", false); len(errs) != 0 {
		t.Errorf("lenient: %v, want no error (testdata/ is not a top-level entry)", errs)
	}
	if errs := CheckFile(root, "docs/x.md", true); len(errs) != 1 {
		t.Errorf("strict: %v, want one error", errs)
	}
}

// seedHeadings are the section headings of the two seed articles that
// docs/map.md must cover (issue 7).
var seedHeadings = []string{
	// seed 002
	"startup flow", "APIExtensions server creation", "scheme", "conversion",
	// seed 000
	"ResourceConfig", "Default Configuration", "Extend", "Runtime Support", "Storage",
	"State Transition", "Landscape", "Clientset", "SharedInformerFactory", "Relationship",
	"Add Informers", "Management", "EstablishingController", "CRD Handler", "CRD Controller",
}

// TestMap_CoversSeedHeadings checks that docs/map.md has a section for
// every seed heading, and that each names all four things: crdlab code,
// upstream code, an example and a notebook.
func TestMap_CoversSeedHeadings(t *testing.T) {
	md, err := os.ReadFile(filepath.Join(repoRoot, "docs", "map.md"))
	if err != nil {
		t.Fatal(err)
	}
	sections := map[string]Section{}
	for _, s := range Sections(md) {
		sections[strings.ToLower(s.Heading)] = s
	}
	for _, h := range seedHeadings {
		t.Run(h, func(t *testing.T) {
			s, ok := sections[strings.ToLower(h)]
			if !ok {
				t.Fatalf("docs/map.md has no section %q", h)
			}
			var code, upstream, example, notebook bool
			for _, r := range Refs(s.Body) {
				switch {
				case r.Upstream:
					upstream = true
				case strings.HasPrefix(r.Path, "examples/"):
					example = true
				case strings.HasPrefix(r.Path, "notebooks/") && strings.HasSuffix(r.Path, ".ipynb"):
					notebook = true
				case strings.HasSuffix(r.Path, ".go") && r.Name != "":
					code = true
				}
			}
			for what, ok := range map[string]bool{"crdlab file:function": code, "upstream file:function": upstream, "example": example, "notebook": notebook} {
				if !ok {
					t.Errorf("section %q names no %s", h, what)
				}
			}
		})
	}
}

func TestDiagramRefs(t *testing.T) {
	src := "flowchart LR\n" +
		`    a["A · cmd/crdlab/serve.go:runServe<br/>apiserver/apiserver.go:Config.Complete"] --> b["handler/notfound.go"]` + "\n" +
		`    u["k8s.io/kubernetes/cmd/kube-apiserver/app/server.go · apiserver.Config"]` + "\n"
	got := DiagramRefs([]byte(src))
	want := []Ref{
		{Line: 2, Text: "cmd/crdlab/serve.go:runServe", Path: "cmd/crdlab/serve.go", Name: "runServe"},
		{Line: 2, Text: "apiserver/apiserver.go:Config.Complete", Path: "apiserver/apiserver.go", Name: "Config.Complete"},
		{Line: 2, Text: "handler/notfound.go", Path: "handler/notfound.go"},
		{Line: 3, Text: "k8s.io/kubernetes/cmd/kube-apiserver/app/server.go", Path: "k8s.io/kubernetes/cmd/kube-apiserver/app/server.go", Upstream: true},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("DiagramRefs:\n got %+v\nwant %+v", got, want)
	}
}

// TestDiagrams checks every crdlab reference in the notebooks' diagram
// sources (notebooks/diagrams/*.mmd): a picture that names crdlab code
// cannot outlive a rename.
func TestDiagrams(t *testing.T) {
	sources, err := filepath.Glob(filepath.Join(repoRoot, "notebooks", "diagrams", "*.mmd"))
	if err != nil || len(sources) == 0 {
		t.Fatalf("no notebooks/diagrams/*.mmd found: %v", err)
	}
	checked := 0
	for _, p := range sources {
		src, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range DiagramRefs(src) {
			if err := r.Check(repoRoot); err != nil {
				t.Errorf("%s:%d: %s: %v", filepath.Base(p), r.Line, r.Text, err)
			}
			checked++
		}
	}
	if checked == 0 {
		t.Error("no diagram names crdlab code: is DiagramRefs finding references?")
	}
}
