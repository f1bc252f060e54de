package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// cell is a test cell: kind "md" or "go", with optional tags and, for an
// executed notebook, outputs.
type cell struct {
	id, kind, src string
	tags          []string
	ran           bool
	outputs       []map[string]any
}

const setupSrc = "!*go mod edit -replace github.com/crdlab/crdlab=$(dirname \"$(cd \"$GONB_DIR\" && go env GOMOD)\") -require github.com/crdlab/crdlab@v0.0.0\n"

func stream(text string) map[string]any {
	return map[string]any{"output_type": "stream", "name": "stdout", "text": text}
}

func runtimeError() map[string]any {
	return map[string]any{"output_type": "error", "ename": "ERROR", "evalue": "exit status 1", "traceback": []any{"exit status 1"}}
}

func buildError() map[string]any {
	return map[string]any{"output_type": "error", "ename": "ERROR", "evalue": "# gonb_1234\n./main.go:7:33: undefined: x\n", "traceback": []any{"# gonb_1234", "undefined: x"}}
}

// notebook builds a parsed notebook at path from cells.
func notebook(t *testing.T, path string, cells ...cell) *Notebook {
	t.Helper()
	var raw []any
	for _, c := range cells {
		m := map[string]any{"id": c.id, "metadata": map[string]any{}, "source": c.src}
		if c.tags != nil {
			tags := make([]any, len(c.tags))
			for i, tag := range c.tags {
				tags[i] = tag
			}
			m["metadata"].(map[string]any)["tags"] = tags
		}
		if c.kind == "md" {
			m["cell_type"] = "markdown"
		} else {
			m["cell_type"] = "code"
			m["execution_count"] = nil
			if c.ran {
				m["execution_count"] = 1
			}
			outs := []any{}
			for _, o := range c.outputs {
				outs = append(outs, o)
			}
			m["outputs"] = outs
		}
		raw = append(raw, m)
	}
	data, err := json.Marshal(map[string]any{
		"cells":          raw,
		"metadata":       map[string]any{"kernelspec": map[string]any{"name": "gonb", "display_name": "Go (gonb)", "language": "go"}},
		"nbformat":       4,
		"nbformat_minor": 5,
	})
	if err != nil {
		t.Fatal(err)
	}
	nb, err := ParseNotebook(path, data)
	if err != nil {
		t.Fatal(err)
	}
	return nb
}

// writeSolution writes solutions/<name>/<id>.go with body under dir.
func writeSolution(t *testing.T, dir, id, body string) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	src := "//go:build ignore\n\n// Solution.\npackage solutions\n\n" + body
	if err := os.WriteFile(filepath.Join(dir, id+".go"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
}

// writeWrongs writes MinWrongAnswers wrong answers to exercise id under
// dir (wrong/<name>/).
func writeWrongs(t *testing.T, dir, id string) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for i, body := range wrongBodies {
		src := "//go:build ignore\n\n// Mistake: " + fmt.Sprint("mistake ", i) + "\n// Check says: add(1, 2)\npackage wrong\n\n" + body
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("%s-m%d.go", id, i)), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

var wrongBodies = []string{
	"func add(a, b int) int { return a - b }\n",
	"func add(a, b int) int { return a * b }\n",
	"func add(a, b int) int { return a }\n",
}

// answers writes the solution and wrong answers of exercise "ex" of
// dir/nb.ipynb and returns their Dirs.
func answers(t *testing.T, dir string) Dirs {
	t.Helper()
	d := DirsFor(filepath.Join(dir, "nb.ipynb"))
	writeSolution(t, d.Solutions, "ex", solution)
	writeWrongs(t, d.Wrong, "ex")
	return d
}

const (
	stub     = "func add(a, b int) int {\n\treturn 0 // TODO\n}\n"
	solution = "func add(a, b int) int {\n\treturn a + b\n}\n"
	check    = "%test\nfunc TestAdd(t *testing.T) {\n\tif add(1, 2) != 3 {\n\t\tt.Error(\"add(1, 2) != 3\")\n\t}\n}\n"
)

func goodCells() []cell {
	return []cell{
		{id: "intro", kind: "md", src: "# Title"},
		{id: "setup", kind: "go", src: setupSrc},
		{id: "ex", kind: "go", src: stub, tags: []string{TagExercise}},
		{id: "check", kind: "go", src: check, tags: []string{TagCheck}},
	}
}

func TestLint(t *testing.T) {
	t.Run("OK", func(t *testing.T) {
		dir := t.TempDir()
		d := answers(t, dir)
		if want := filepath.Join(dir, "solutions", "nb"); d.Solutions != want {
			t.Fatalf("DirsFor = %+v, want solutions in %s", d, want)
		}
		nb := notebook(t, filepath.Join(dir, "nb.ipynb"), goodCells()...)
		n, err := Lint(nb, d)
		if err != nil || n != 1 {
			t.Fatalf("Lint = %d, %v; want 1 exercise, no error", n, err)
		}
	})

	for _, tc := range []struct {
		name   string
		change func(cells []cell) []cell
		sol    map[string]string // exercise id → solution body; nil: {"ex": solution}
		want   string
	}{
		{"ErrNoID", func(c []cell) []cell { c[0].id = ""; return c }, nil, `id ""`},
		{"ErrDuplicateID", func(c []cell) []cell { c[3].id = "ex"; return c }, nil, `"ex" used twice`},
		{"ErrNoSetup", func(c []cell) []cell { c[1].src = "%%\nfmt.Println(1)"; return c }, nil, "first code cell"},
		{"ErrNoExercise", func(c []cell) []cell { return c[:2] }, map[string]string{}, "no exercise"},
		{"ErrExerciseWithoutCheck", func(c []cell) []cell { return c[:3] }, nil, "must be tagged \"check\""},
		{"ErrCheckWithoutExercise", func(c []cell) []cell {
			return append(c, cell{id: "check2", kind: "go", src: check, tags: []string{TagCheck}})
		}, nil, "must come right after an exercise"},
		{"ErrMagicInExercise", func(c []cell) []cell { c[2].src = "%%\n" + stub; return c }, nil, "only Go declarations"},
		{"ErrTaggedMarkdown", func(c []cell) []cell { c[0].tags = []string{TagCheck}; return c }, nil, "only code cells"},
		{"ErrMissingSolution", nil, map[string]string{}, "has no solution"},
		{"ErrOrphanSolution", nil, map[string]string{"ex": solution, "gone": solution}, `no exercise cell has id "gone"`},
		{"ErrSolutionIsStub", nil, map[string]string{"ex": stub}, "the solution is the stub"},
		{"ErrTooFewWrongAnswers", nil, nil, "has 2 wrong answers"},
		{"ErrWrongAnswerIsSolution", nil, nil, "is the solution"},
		{"ErrWrongAnswerWithoutMistake", nil, nil, `"// Mistake:" line`},
		{"ErrWrongAnswerOfNoExercise", nil, nil, "EXERCISE-MISTAKE.go for an exercise"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			d := DirsFor(filepath.Join(dir, "nb.ipynb"))
			sols := tc.sol
			if sols == nil {
				sols = map[string]string{"ex": solution}
			}
			for id, body := range sols {
				writeSolution(t, d.Solutions, id, body)
			}
			writeWrongs(t, d.Wrong, "ex")
			switch tc.name {
			case "ErrTooFewWrongAnswers":
				os.Remove(filepath.Join(d.Wrong, "ex-m0.go"))
			case "ErrWrongAnswerIsSolution":
				os.WriteFile(filepath.Join(d.Wrong, "ex-m0.go"), []byte("//go:build ignore\n\n// Mistake: none\n// Check says: x\npackage wrong\n\n"+solution), 0o644)
			case "ErrWrongAnswerWithoutMistake":
				os.WriteFile(filepath.Join(d.Wrong, "ex-m0.go"), []byte("//go:build ignore\n\npackage wrong\n\n"+wrongBodies[0]), 0o644)
			case "ErrWrongAnswerOfNoExercise":
				os.WriteFile(filepath.Join(d.Wrong, "other-m0.go"), []byte("//go:build ignore\n\n// Mistake: m\n// Check says: x\npackage wrong\n\n"+wrongBodies[0]), 0o644)
			}
			cells := goodCells()
			if tc.change != nil {
				cells = tc.change(cells)
			}
			_, err := Lint(notebook(t, filepath.Join(dir, "nb.ipynb"), cells...), d)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("Lint error = %v, want one containing %q", err, tc.want)
			}
		})
	}
}

func TestSolve(t *testing.T) {
	dir := t.TempDir()
	d := answers(t, dir)
	cells := goodCells()
	cells[1].ran, cells[1].outputs = true, []map[string]any{stream("ready\n")}
	nb := notebook(t, filepath.Join(dir, "nb.ipynb"), cells...)
	if err := Solve(nb, d, ""); err != nil {
		t.Fatal(err)
	}
	if got := nb.Cells[2].Source(); got != solution {
		t.Errorf("exercise source = %q, want the solution %q", got, solution)
	}
	if got := nb.Cells[3].Source(); got != check {
		t.Errorf("check source changed: %q", got)
	}
	if nb.Cells[1].Executed() || len(nb.Cells[1].Outputs()) != 0 {
		t.Errorf("outputs not cleared: %v", nb.Cells[1].Raw)
	}

	// The written notebook parses back to the same sources.
	data, err := nb.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	back, err := ParseNotebook("solved.ipynb", data)
	if err != nil {
		t.Fatal(err)
	}
	if back.Cells[2].Source() != solution || back.KernelName() != "gonb" {
		t.Errorf("round trip lost the solution or the kernel: %s", data)
	}
}

func TestSolve_Keep(t *testing.T) {
	dir := t.TempDir()
	d := answers(t, dir)
	writeSolution(t, d.Solutions, "ex2", "func sub(a, b int) int { return a - b }\n")
	cells := append(goodCells(),
		cell{id: "ex2", kind: "go", src: "func sub(a, b int) int { return 0 }\n", tags: []string{TagExercise}},
		cell{id: "check2", kind: "go", src: check, tags: []string{TagCheck}})
	nb := notebook(t, filepath.Join(dir, "nb.ipynb"), cells...)
	if got := Exercises(nb); fmt.Sprint(got) != "[ex ex2]" {
		t.Fatalf("Exercises = %v", got)
	}
	if err := Solve(nb, d, "ex"); err != nil {
		t.Fatal(err)
	}
	// ex's stub and check, then (wrong answer, check) × 3 and (solution,
	// check), then ex2 solved.
	var got []string
	for _, c := range nb.Cells[2:] {
		role, md := c.role()
		got = append(got, fmt.Sprintf("%s/%s/%v", c.ID(), role, md["wrong"]))
	}
	want := "[ex//<nil> check//<nil> ex-w1/wrong-answer/m0 check-w1/wrong-check/m0 ex-w2/wrong-answer/m1 check-w2/wrong-check/m1 " +
		"ex-w3/wrong-answer/m2 check-w3/wrong-check/m2 ex-sol/solution-answer/<nil> check-sol/solution-check/<nil> ex2//<nil> check2//<nil>]"
	if fmt.Sprint(got) != want {
		t.Errorf("cells after Solve keep ex:\n%v\nwant\n%s", got, want)
	}
	if nb.Cells[2].Source() != stub || nb.Cells[4].Source() != wrongBodies[0] || nb.Cells[5].Source() != check ||
		nb.Cells[10].Source() != solution || !strings.Contains(nb.Cells[12].Source(), "a - b") {
		t.Errorf("keep ex: sources %q %q %q %q %q", nb.Cells[2].Source(), nb.Cells[4].Source(), nb.Cells[5].Source(), nb.Cells[10].Source(), nb.Cells[12].Source())
	}
	if len(nb.Raw["cells"].([]any)) != len(nb.Cells) {
		t.Errorf("Raw has %d cells, Cells %d", len(nb.Raw["cells"].([]any)), len(nb.Cells))
	}
	if err := Solve(nb, d, "nope"); err == nil || !strings.Contains(err.Error(), `no exercise cell has id "nope"`) {
		t.Errorf("Solve keep=nope: %v", err)
	}
}

func TestVerify(t *testing.T) {
	// Two exercises: cells 2/3 (ex, check) and 4/5 (ex2, check2).
	executed := func(change func(c []cell)) *Notebook {
		cells := append(goodCells(),
			cell{id: "ex2", kind: "go", src: "func sub(a, b int) int { return 0 }\n", tags: []string{TagExercise}},
			cell{id: "check2", kind: "go", src: check, tags: []string{TagCheck}})
		for i := range cells {
			if cells[i].kind == "go" {
				cells[i].ran = true
			}
		}
		cells[1].outputs = []map[string]any{stream("ready\n")}
		change(cells)
		return notebook(t, "out/nb.ipynb", cells...)
	}
	fails := func() []map[string]any { return []map[string]any{stream("--- FAIL\n"), runtimeError()} }
	for _, tc := range []struct {
		name     string
		mode     string
		exercise string
		change   func(c []cell)
		want     string // "" = passes
	}{
		{"OK/AllStubsAllChecksFail", ModeStub, "", func(c []cell) { c[3].outputs, c[5].outputs = fails(), fails() }, ""},
		{"OK/OneStubItsCheckFails", ModeStub, "ex2", func(c []cell) { c[5].outputs = fails() }, ""},
		{"OK/SolutionPasses", ModeSolution, "", func(c []cell) { c[3].outputs = []map[string]any{stream("PASS\n")} }, ""},
		{"ErrStubCheckPasses", ModeStub, "", func(c []cell) { c[3].outputs = fails() }, `cell "check2": the check of "ex2" passed on its unsolved stub`},
		{"ErrOneStubItsCheckPasses", ModeStub, "ex", func(c []cell) { c[5].outputs = fails() }, `the check of "ex" passed`},
		{"OK/OneStubLaterCheckMayFail", ModeStub, "ex", func(c []cell) { c[3].outputs, c[5].outputs = fails(), fails() }, ""},
		{"OK/OneStubLaterCheckMayPass", ModeStub, "ex", func(c []cell) { c[3].outputs = fails() }, ""},
		{"ErrOneStubEarlierCheckFails", ModeStub, "ex2", func(c []cell) { c[3].outputs, c[5].outputs = fails(), fails() }, `cell "check": failed`},
		{"ErrStubCheckDoesNotCompile", ModeStub, "ex", func(c []cell) { c[3].outputs = []map[string]any{buildError()} }, "does not compile"},
		{"ErrStubOtherCellFails", ModeStub, "ex", func(c []cell) {
			c[1].outputs = []map[string]any{runtimeError()}
			c[3].outputs = fails()
		}, `cell "setup": failed`},
		{"ErrNoSuchExercise", ModeStub, "nope", func(c []cell) {}, `no check cell follows exercise "nope"`},
		{"ErrSolutionCheckFails", ModeSolution, "", func(c []cell) { c[3].outputs = []map[string]any{stream("--- FAIL: TestAdd\n"), runtimeError()} }, "--- FAIL: TestAdd"},
		{"ErrDidNotRun", ModeSolution, "", func(c []cell) { c[2].ran = false }, `cell "ex": did not run`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Verify(executed(tc.change), tc.mode, tc.exercise)
			switch {
			case tc.want == "" && err != nil:
				t.Fatalf("Verify: %v", err)
			case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
				t.Fatalf("Verify error = %v, want one containing %q", err, tc.want)
			}
		})
	}
}

func TestClean(t *testing.T) {
	cells := goodCells()
	cells[1].ran = true
	cells[1].outputs = []map[string]any{stream("\x1b[7mpanic\x1b[0m\n"), runtimeError()}
	nb := notebook(t, "nb.ipynb", cells...)
	nb.Cells[1].Raw["metadata"].(map[string]any)["execution"] = map[string]any{"iopub.status.busy": "2026-01-01T00:00:00Z"}
	nb.Clean()
	if _, ok := nb.Cells[1].Raw["metadata"].(map[string]any)["execution"]; ok {
		t.Error("execution timings kept")
	}
	if got := nb.Cells[1].Text(); got != "panic\n" {
		t.Errorf("text = %q, want colour codes gone", got)
	}
}

func TestSolutionBody(t *testing.T) {
	for _, tc := range []struct {
		name, src, want, err string
	}{
		{"OK", "//go:build ignore\n\n// Doc.\npackage solutions\n\nimport \"fmt\"\n\nfunc f() { fmt.Println() }\n", "import \"fmt\"\n\nfunc f() { fmt.Println() }\n", ""},
		{"ErrNotIgnored", "package solutions\n\nfunc f() {}\n", "", "go:build ignore"},
		{"ErrNoPackage", "//go:build ignore\n\nfunc f() {}\n", "", "no package clause"},
		{"ErrEmpty", "//go:build ignore\n\npackage solutions\n", "", "empty"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := solutionBody(tc.src)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("error = %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil || got != tc.want {
				t.Fatalf("solutionBody = %q, %v; want %q", got, err, tc.want)
			}
		})
	}
}

func TestRun_Usage(t *testing.T) {
	for _, args := range [][]string{nil, {"bogus"}, {"lint"}, {"exercises"}, {"solve", "a"}, {"verify", "x.ipynb"},
		{"verify", "-mode", "maybe", "x.ipynb"}, {"verify", "-mode", "solution", "-exercise", "ex", "x.ipynb"}} {
		var out, errOut bytes.Buffer
		if code := run(args, &out, &errOut); code != 2 || !strings.Contains(errOut.String(), "usage:") {
			t.Errorf("run(%q) = %d, stderr %q; want 2 and the usage", args, code, errOut.String())
		}
	}
}

// TestRepoNotebooks lints the committed notebooks: the structure and the
// solutions, checked by `go test ./...` without Jupyter. Executing them is
// scripts/notebooks.sh's job (make notebooks).
func TestRepoNotebooks(t *testing.T) {
	paths, err := filepath.Glob(filepath.Join("..", "..", "*.ipynb"))
	if err != nil {
		t.Fatal(err)
	}
	if len(paths) == 0 {
		t.Fatal("no notebooks found in notebooks/")
	}
	for _, p := range paths {
		t.Run(filepath.Base(p), func(t *testing.T) {
			var out bytes.Buffer
			if code := run([]string{"lint", p}, &out, &out); code != 0 {
				t.Fatalf("nbtool lint %s:\n%s", p, out.String())
			}
		})
	}
}

func TestGradePrepare(t *testing.T) {
	ref := notebook(t, "ref.ipynb", goodCells()...)
	student := notebook(t, "alice.ipynb",
		cell{id: "intro", kind: "md", src: "# my notes"},
		cell{id: "ex", kind: "go", src: solution},
		cell{id: "check", kind: "go", src: "%test\nfunc TestAdd(t *testing.T) {}\n"}, // a check the student emptied
		cell{id: "scratch", kind: "go", src: "%%\nfmt.Println(add(1, 2))"})
	if missing := GradePrepare(ref, student); len(missing) != 0 {
		t.Fatalf("missing = %v", missing)
	}
	if got := ref.Cells[2].Source(); got != solution {
		t.Errorf("exercise = %q, want the student's", got)
	}
	if got := ref.Cells[3].Source(); got != check {
		t.Errorf("check = %q, want the reference's, whatever the student did to theirs", got)
	}
	if len(ref.Cells) != 4 {
		t.Errorf("%d cells, want the reference's 4 (the student's scratch cells are not graded)", len(ref.Cells))
	}

	ref = notebook(t, "ref.ipynb", goodCells()...)
	if missing := GradePrepare(ref, notebook(t, "bob.ipynb", cell{id: "intro", kind: "md", src: "x"})); fmt.Sprint(missing) != "[ex]" {
		t.Errorf("missing = %v, want [ex]", missing)
	}
}

func TestGradeReport(t *testing.T) {
	class := t.TempDir()
	refDir := t.TempDir()
	ref := filepath.Join(refDir, "nb.ipynb")
	two := append(goodCells(),
		cell{id: "ex2", kind: "go", src: "func sub(a, b int) int { return 0 }\n", tags: []string{TagExercise}},
		cell{id: "check2", kind: "go", src: check, tags: []string{TagCheck}})
	if err := notebook(t, ref, two...).Write(ref); err != nil {
		t.Fatal(err)
	}
	other := filepath.Join(refDir, "other.ipynb") // nobody handed it in: not in the table
	if err := notebook(t, other, goodCells()...).Write(other); err != nil {
		t.Fatal(err)
	}
	// executed writes what Jupyter would leave for a student.
	executed := func(student string, change func(c []cell)) {
		cells := append([]cell(nil), two...)
		for i := range cells {
			if cells[i].kind == "go" {
				cells[i].ran = true
			}
		}
		change(cells)
		nb := notebook(t, "x.ipynb", cells...)
		if student == "dan" {
			GradePrepare(nb, notebook(t, "dan.ipynb", cell{id: "ex2", kind: "go", src: "x"}))
			for _, c := range nb.Cells {
				if c.Type() == "code" {
					c.Raw["execution_count"] = 1
				}
			}
		}
		if err := os.MkdirAll(filepath.Join(class, student), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := nb.Write(filepath.Join(class, student, "nb.ipynb")); err != nil {
			t.Fatal(err)
		}
	}
	fails := func() []map[string]any { return []map[string]any{stream("--- FAIL\n"), runtimeError()} }
	executed("alice", func(c []cell) {})
	executed("bob", func(c []cell) { c[3].outputs = fails() })
	executed("carol", func(c []cell) { c[2].outputs = []map[string]any{buildError()}; c[3].ran, c[5].ran = false, false })
	executed("dan", func(c []cell) {})
	if err := os.MkdirAll(filepath.Join(class, "erin"), 0o755); err != nil { // handed in nothing
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := GradeReport(&out, []string{ref, other}, class); err != nil {
		t.Fatal(err)
	}
	want := "" +
		"notebook  exercise  alice  bob   carol          dan      erin\n" +
		"nb        ex        pass   FAIL  compile error  missing  -\n" +
		"nb        ex2       pass   pass  not run        pass     -\n" +
		"passed              2/2    1/2   0/2            1/2      0/2\n"
	if out.String() != want {
		t.Errorf("GradeReport:\n%s\nwant:\n%s", out.String(), want)
	}
}

func TestLint_Diagrams(t *testing.T) {
	dir := t.TempDir()
	d := answers(t, dir)
	if err := os.MkdirAll(filepath.Join(dir, "diagrams"), 0o755); err != nil {
		t.Fatal(err)
	}
	src := "flowchart LR\n    a --> b\n"
	write := func(name, data string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(dir, "diagrams", name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("ab.mmd", src)
	write("ab.svg", diagramHeader("ab", src)+"\n<svg></svg>\n")
	lint := func(md string) error {
		cells := append([]cell{{id: "pic", kind: "md", src: md}}, goodCells()...)
		_, err := Lint(notebook(t, filepath.Join(dir, "nb.ipynb"), cells...), d)
		return err
	}
	if err := lint("![a to b](diagrams/ab.svg)"); err != nil {
		t.Fatalf("OK: %v", err)
	}
	for _, tc := range []struct{ name, md, want string }{
		{"ErrMermaid", "```mermaid\nflowchart LR\n```", "shows as code"},
		{"ErrMissingImage", "![x](diagrams/nope.svg)", "no such file"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if err := lint(tc.md); err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("Lint = %v, want %q", err, tc.want)
			}
		})
	}
	t.Run("ErrStalePicture", func(t *testing.T) {
		write("ab.mmd", src+"    b --> c\n")
		if err := lint("![a to b](diagrams/ab.svg)"); err == nil || !strings.Contains(err.Error(), "make diagrams") {
			t.Fatalf("Lint = %v, want a stale picture", err)
		}
	})
}
