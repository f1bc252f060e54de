package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
)

// Modes of Verify.
const (
	// ModeStub: the notebook ran with exercise stubs in place — all of
	// them (as committed), or one (Solve with keep). The check cell of
	// each stubbed exercise must have failed at run time (a compile error
	// means the check itself is broken); no other cell may have failed.
	ModeStub = "stub"
	// ModeSolution: the notebook ran with the reference solutions in
	// place of the stubs. No cell may have failed.
	ModeSolution = "solution"
)

// setupMarker is what the first code cell must contain: the replace rule
// that makes the notebook's `import "github.com/crdlab/crdlab/..."` mean
// this checkout, not a published module.
const setupMarker = "go mod edit -replace github.com/crdlab/crdlab="

// cellID is what nbformat 4.5 allows as a cell id.
var cellID = regexp.MustCompile(`^[a-zA-Z0-9_-]{1,64}$`)

// Dirs are where the answers to a notebook's exercises live.
type Dirs struct {
	// Solutions holds the reference solutions: ID.go for exercise ID.
	Solutions string
	// Wrong holds the wrong answers: ID-MISTAKE.go for exercise ID.
	Wrong string
}

// DirsFor is where the answers of the notebook at path live:
// solutions/<name>/ and wrong/<name>/ beside it (name without .ipynb).
func DirsFor(path string) Dirs {
	name := strings.TrimSuffix(filepath.Base(path), ".ipynb")
	return Dirs{
		Solutions: filepath.Join(filepath.Dir(path), "solutions", name),
		Wrong:     filepath.Join(filepath.Dir(path), "wrong", name),
	}
}

// MinWrongAnswers is how many wrong answers each exercise keeps beside its
// solution, each of which its check must catch.
const MinWrongAnswers = 3

// Lint checks a notebook's structure without running it and returns how
// many exercises it has:
//
//   - nbformat 4.5 or later, the gonb kernel;
//   - every cell has a unique, valid id;
//   - the first code cell points the crdlab module at this checkout;
//   - at least one exercise; each exercise cell holds only Go (no %magic
//     or !shell line) and is followed by a check cell, the next code
//     cell; every check cell follows an exercise;
//   - dirs.Solutions holds exactly one solution per exercise, and each
//     differs from its stub;
//   - dirs.Wrong holds at least MinWrongAnswers wrong answers per
//     exercise, each naming its mistake and what the check says about
//     it, and each different from the stub, the solution and the others;
//   - markdown cells hold no mermaid block, and every image they show
//     exists (a diagram's picture drawn from its current source).
func Lint(nb *Notebook, dirs Dirs) (int, error) {
	solutionsDir := dirs.Solutions
	var errs []error
	fail := func(format string, args ...any) {
		errs = append(errs, fmt.Errorf("%s: "+format, append([]any{nb.Path}, args...)...))
	}
	if major, minor := nb.Format(); major != 4 || minor < 5 {
		fail("nbformat %d.%d: want 4.5 or later (cell ids)", major, minor)
	}
	if k := nb.KernelName(); k != "gonb" {
		fail("kernel %q: want gonb", k)
	}

	seen := map[string]bool{}
	var code []Cell
	for i, c := range nb.Cells {
		id := c.ID()
		switch {
		case !cellID.MatchString(id):
			fail("cell %d: id %q: want 1-64 letters, digits, - or _", i, id)
		case seen[id]:
			fail("cell %d: id %q used twice", i, id)
		}
		seen[id] = true
		if c.Type() == "code" {
			code = append(code, c)
		} else if c.HasTag(TagExercise) || c.HasTag(TagCheck) {
			fail("cell %q: only code cells may be tagged %q or %q", id, TagExercise, TagCheck)
		}
	}
	if len(code) == 0 || !strings.Contains(code[0].Source(), setupMarker) {
		fail("the first code cell must run `!*%s...` (see notebooks/README.md)", setupMarker)
	}

	exercises := map[string]Cell{}
	for i, c := range code {
		id := c.ID()
		switch {
		case c.HasTag(TagExercise) && c.HasTag(TagCheck):
			fail("cell %q: tagged both %q and %q", id, TagExercise, TagCheck)
		case c.HasTag(TagExercise):
			exercises[id] = c
			for _, line := range strings.Split(c.Source(), "\n") {
				if t := strings.TrimSpace(line); strings.HasPrefix(t, "%") || strings.HasPrefix(t, "!") {
					fail("exercise cell %q: %q: an exercise holds only Go declarations", id, t)
				}
			}
			if i+1 == len(code) || !code[i+1].HasTag(TagCheck) {
				fail("exercise cell %q: the next code cell must be tagged %q", id, TagCheck)
			}
		case c.HasTag(TagCheck):
			if i == 0 || !code[i-1].HasTag(TagExercise) {
				fail("check cell %q: must come right after an exercise cell", id)
			}
		}
	}
	if len(exercises) == 0 {
		fail("no exercise: every notebook ends with at least one (a cell tagged %q, then one tagged %q)", TagExercise, TagCheck)
	}

	solutions, err := readSolutions(solutionsDir)
	if err != nil {
		fail("%v", err)
	}
	for _, id := range sortedKeys(exercises) {
		sol, ok := solutions[id]
		switch {
		case !ok:
			fail("exercise cell %q has no solution %s", id, filepath.Join(solutionsDir, id+".go"))
		case normalize(sol) == normalize(exercises[id].Source()):
			fail("exercise cell %q: the solution is the stub", id)
		}
	}
	for _, id := range sortedKeys(solutions) {
		if _, ok := exercises[id]; !ok {
			fail("solution %s: no exercise cell has id %q", filepath.Join(solutionsDir, id+".go"), id)
		}
	}
	errs = append(errs, lintMarkdown(nb)...)
	wrongs, err := ReadWrongs(dirs.Wrong, sortedKeys(exercises))
	if err != nil {
		fail("%v", err)
	}
	for _, id := range sortedKeys(exercises) {
		if n := len(wrongs[id]); n < MinWrongAnswers {
			fail("exercise cell %q has %d wrong answers in %s, want at least %d (%s-MISTAKE.go)", id, n, dirs.Wrong, MinWrongAnswers, id)
		}
		seenBody := map[string]string{
			normalize(exercises[id].Source()): "the stub",
			normalize(solutions[id]):          "the solution",
		}
		for _, w := range wrongs[id] {
			if other, ok := seenBody[normalize(w.Body)]; ok {
				fail("wrong answer %s is %s", w.Path, other)
			}
			seenBody[normalize(w.Body)] = "the same as " + w.Path
		}
	}
	return len(exercises), errors.Join(errs...)
}

// Solve replaces the source of every exercise cell but keep ("" for none)
// by its solution from solutionsDir, and clears all outputs: the notebook
// of a student who solved every exercise, or every exercise but keep.
//
// With keep set, the check of keep is followed by one more pair of cells
// per wrong answer in dirs.Wrong (the wrong answer in place of the stub,
// then the check again), and a last pair with the solution: one run of
// the notebook then shows the check failing on the stub and on every
// wrong answer and passing on the solution (Verify judges it). The cells
// after it run with the solution in place.
func Solve(nb *Notebook, dirs Dirs, keep string) error {
	solutionsDir := dirs.Solutions
	solutions, err := readSolutions(solutionsDir)
	if err != nil {
		return err
	}
	if keep != "" {
		wrongs, err := ReadWrongs(dirs.Wrong, Exercises(nb))
		if err != nil {
			return err
		}
		if err := insertAnswers(nb, keep, wrongs[keep], solutions[keep]); err != nil {
			return err
		}
	}
	kept := false
	for _, c := range nb.Cells {
		c.ClearOutputs()
		if !c.HasTag(TagExercise) {
			continue
		}
		if c.ID() == keep {
			kept = true
			continue
		}
		sol, ok := solutions[c.ID()]
		if !ok {
			return fmt.Errorf("%s: exercise cell %q has no solution in %s", nb.Path, c.ID(), solutionsDir)
		}
		c.SetSource(sol)
	}
	if keep != "" && !kept {
		return fmt.Errorf("%s: no exercise cell has id %q", nb.Path, keep)
	}
	return nil
}

// Exercises returns the ids of the notebook's exercise cells, in order.
func Exercises(nb *Notebook) []string {
	var ids []string
	for _, c := range nb.Cells {
		if c.Type() == "code" && c.HasTag(TagExercise) {
			ids = append(ids, c.ID())
		}
	}
	return ids
}

// Verify checks the outputs of an executed notebook and returns a
// one-line summary. In ModeStub, stubbed is the exercise whose stub was
// kept (Solve with keep): its check must fail, every cell before it and
// every non-check cell after it must pass, and the checks of later
// exercises are not judged (an exercise may build on an earlier one; each
// check is judged in its own exercise's run). "" means every exercise
// kept its stub, and every check must fail.
//
// The pairs Solve inserts after the kept exercise's check are judged by
// their role: each wrong answer must compile and its check must fail with
// a test failure (not a compile error) whose output contains what the
// wrong answer's header says; the solution's check must pass.
func Verify(nb *Notebook, mode, stubbed string) (string, error) {
	var errs []error
	fail := func(c Cell, format string, args ...any) {
		errs = append(errs, fmt.Errorf("%s: cell %q: "+format, append([]any{nb.Path, c.ID()}, args...)...))
	}
	ran, checks, wrongCaught, solutionPassed := 0, 0, 0, 0
	exercise := ""       // the exercise the next check cell checks
	pastStubbed := false // a later exercise's check may build on the stubbed one
	for _, c := range nb.Cells {
		if c.Type() != "code" {
			continue
		}
		if c.HasTag(TagExercise) {
			pastStubbed = pastStubbed || exercise == stubbed && stubbed != ""
			exercise = c.ID()
		}
		if !c.Executed() {
			fail(c, "did not run")
			continue
		}
		ran++
		cellErrs := c.Errors()
		if role, md := c.role(); role != "" {
			wrong, _ := md["wrong"].(string)
			mistake, _ := md["mistake"].(string)
			says, _ := md["says"].(string)
			switch {
			case role == RoleWrongAnswer && len(cellErrs) > 0:
				fail(c, "the wrong answer %q (%s) failed by itself; it must compile and be caught by the check:\n%s", wrong, mistake, indent(cellErrs[0].String()))
			case role == RoleSolutionAnswer && len(cellErrs) > 0:
				fail(c, "the solution failed by itself:\n%s", indent(cellErrs[0].String()))
			case role == RoleWrongCheck && len(cellErrs) == 0:
				fail(c, "the check of %q passed on the wrong answer %q (%s): it must catch it\n%s", exercise, wrong, mistake, indent(c.Text()))
			case role == RoleWrongCheck && cellErrs[0].BuildFailure():
				fail(c, "the check did not compile with the wrong answer %q; it must fail at run time:\n%s", wrong, indent(cellErrs[0].String()))
			case role == RoleWrongCheck && !strings.Contains(c.Text(), "--- FAIL"):
				fail(c, "the check of %q failed on the wrong answer %q without a test failure (--- FAIL):\n%s%s", exercise, wrong, indent(c.Text()), indent(cellErrs[0].String()))
			case role == RoleWrongCheck && !strings.Contains(c.Text(), says):
				fail(c, "the check caught the wrong answer %q (%s) but its output does not say %q, which points at the mistake:\n%s", wrong, mistake, says, indent(c.Text()))
			case role == RoleWrongCheck:
				wrongCaught++
			case role == RoleSolutionCheck && len(cellErrs) > 0:
				fail(c, "the check failed on the solution after the wrong answers:\n%s%s", indent(c.Text()), indent(cellErrs[0].String()))
			case role == RoleSolutionCheck:
				solutionPassed++
			}
			continue
		}
		expectFailure := mode == ModeStub && c.HasTag(TagCheck) && (stubbed == "" || stubbed == exercise)
		if expectFailure {
			checks++
		}
		if mode == ModeStub && c.HasTag(TagCheck) && pastStubbed {
			continue // may fail or pass: its own run decides
		}
		switch {
		case expectFailure && len(cellErrs) == 0:
			fail(c, "the check of %q passed on its unsolved stub: it checks nothing\n%s", exercise, indent(c.Text()))
		case expectFailure && cellErrs[0].BuildFailure():
			fail(c, "the check does not compile (it must fail at run time on the stub):\n%s", indent(cellErrs[0].String()))
		case !expectFailure && len(cellErrs) > 0:
			fail(c, "failed:\n%s%s", indent(c.Text()), indent(cellErrs[0].String()))
		}
	}
	if mode == ModeStub && stubbed != "" && checks == 0 {
		errs = append(errs, fmt.Errorf("%s: no check cell follows exercise %q", nb.Path, stubbed))
	}
	summary := fmt.Sprintf("%d code cells ran without error", ran)
	switch {
	case mode == ModeStub && stubbed != "":
		summary = fmt.Sprintf("%d code cells ran; with only %q unsolved, its check failed on the stub and on %d wrong answers, passed on the solution (%d), and no cell before it failed", ran, stubbed, wrongCaught, solutionPassed)
	case mode == ModeStub:
		summary = fmt.Sprintf("%d code cells ran; %d checks failed on their stubs, as they must", ran, checks)
	}
	return summary, errors.Join(errs...)
}

// readSolutions reads every ID.go in dir: the Go after its package clause
// is the solution of exercise cell ID. A missing dir holds no solutions.
func readSolutions(dir string) (map[string]string, error) {
	entries, err := os.ReadDir(dir)
	if errors.Is(err, os.ErrNotExist) {
		return map[string]string{}, nil
	}
	if err != nil {
		return nil, err
	}
	out := map[string]string{}
	for _, e := range entries {
		if e.IsDir() || !strings.HasSuffix(e.Name(), ".go") {
			return nil, fmt.Errorf("%s: only solutions (ID.go) belong in %s", e.Name(), dir)
		}
		path := filepath.Join(dir, e.Name())
		data, err := os.ReadFile(path)
		if err != nil {
			return nil, err
		}
		body, err := solutionBody(string(data))
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		out[strings.TrimSuffix(e.Name(), ".go")] = body
	}
	return out, nil
}

// solutionBody is what follows the package clause of a solution file,
// which must be build-ignored (it is a cell, not a package of this module).
func solutionBody(src string) (string, error) {
	lines := strings.Split(src, "\n")
	if len(lines) == 0 || strings.TrimSpace(lines[0]) != "//go:build ignore" {
		return "", errors.New(`a solution starts with "//go:build ignore"`)
	}
	for i, l := range lines {
		if strings.HasPrefix(l, "package ") {
			body := strings.TrimSpace(strings.Join(lines[i+1:], "\n"))
			if body == "" {
				return "", errors.New("empty solution")
			}
			return body + "\n", nil
		}
	}
	return "", errors.New("no package clause")
}

// normalize is s without blank space differences, to compare cells.
func normalize(s string) string { return strings.Join(strings.Fields(s), " ") }

func indent(s string) string {
	s = strings.TrimRight(s, "\n")
	if s == "" {
		return ""
	}
	return "    " + strings.ReplaceAll(s, "\n", "\n    ") + "\n"
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
