package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// Wrong is a plausible wrong answer to an exercise, kept in
// wrong/<notebook>/<exercise id>-<mistake>.go: a build-ignored Go file
// whose header names the mistake and a piece of what the check prints
// when it catches it.
//
//	//go:build ignore
//
//	// Mistake: a nil replicas is read without a check.
//	// Check says: replicas
//	package wrong
//
//	func … // the wrong answer, in place of the stub
type Wrong struct {
	Exercise string // the exercise cell id
	Name     string // the mistake's part of the file name
	Mistake  string // what is wrong, in one line
	Says     string // what the failing check's output contains
	Body     string // the Go after the package clause
	Path     string
}

// Header lines of a wrong answer.
const (
	mistakePrefix = "// Mistake: "
	saysPrefix    = "// Check says: "
)

// ReadWrongs reads the wrong answers in dir (a missing dir holds none),
// grouped by exercise. A file must be named after one of exercises.
func ReadWrongs(dir string, exercises []string) (map[string][]Wrong, error) {
	entries, err := os.ReadDir(dir)
	if errors.Is(err, os.ErrNotExist) {
		return map[string][]Wrong{}, nil
	}
	if err != nil {
		return nil, err
	}
	// Longest id first, so that "exercise-a-b" is not taken for "exercise-a".
	ids := append([]string(nil), exercises...)
	sort.Slice(ids, func(i, j int) bool { return len(ids[i]) > len(ids[j]) })
	out := map[string][]Wrong{}
	var errs []error
	for _, e := range entries {
		path := filepath.Join(dir, e.Name())
		base := strings.TrimSuffix(e.Name(), ".go")
		if e.IsDir() || base == e.Name() {
			errs = append(errs, fmt.Errorf("%s: only wrong answers (EXERCISE-MISTAKE.go) belong in %s", path, dir))
			continue
		}
		w := Wrong{Path: path}
		for _, id := range ids {
			if name, ok := strings.CutPrefix(base, id+"-"); ok && name != "" {
				w.Exercise, w.Name = id, name
				break
			}
		}
		if w.Exercise == "" {
			errs = append(errs, fmt.Errorf("%s: the name must be EXERCISE-MISTAKE.go for an exercise of the notebook (%s)", path, strings.Join(exercises, ", ")))
			continue
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return nil, err
		}
		if w.Body, err = solutionBody(string(data)); err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", path, err))
			continue
		}
		head, _, _ := strings.Cut(string(data), "\npackage ")
		for _, line := range strings.Split(head, "\n") {
			if v, ok := strings.CutPrefix(line, mistakePrefix); ok {
				w.Mistake = strings.TrimSpace(v)
			}
			if v, ok := strings.CutPrefix(line, saysPrefix); ok {
				w.Says = strings.TrimSpace(v)
			}
		}
		if w.Mistake == "" || w.Says == "" {
			errs = append(errs, fmt.Errorf("%s: the header must have a %q line and a %q line", path, strings.TrimSpace(mistakePrefix), strings.TrimSpace(saysPrefix)))
			continue
		}
		out[w.Exercise] = append(out[w.Exercise], w)
	}
	return out, errors.Join(errs...)
}

// Roles of the cells that Solve inserts after a kept exercise's check, kept
// in the cell's metadata.nbtool.role.
const (
	RoleWrongAnswer    = "wrong-answer"    // a wrong answer in place of the stub
	RoleWrongCheck     = "wrong-check"     // the check again: must fail on it
	RoleSolutionAnswer = "solution-answer" // the solution in place of the stub
	RoleSolutionCheck  = "solution-check"  // the check again: must pass
)

// insertAnswers puts, after the check cell that follows exercise keep, a
// pair of cells (answer, check) for each wrong answer and then one for the
// solution.
func insertAnswers(nb *Notebook, keep string, wrongs []Wrong, solution string) error {
	at := -1
	for i, c := range nb.Cells {
		if c.ID() == keep && c.HasTag(TagExercise) {
			at = i
		}
	}
	if at < 0 {
		return fmt.Errorf("%s: no exercise cell has id %q", nb.Path, keep)
	}
	check := -1
	for i := at + 1; i < len(nb.Cells) && check < 0; i++ {
		if nb.Cells[i].Type() == "code" {
			check = i
		}
	}
	if check < 0 || !nb.Cells[check].HasTag(TagCheck) {
		return fmt.Errorf("%s: no check cell follows exercise %q", nb.Path, keep)
	}
	checkSrc := nb.Cells[check].Source()
	var added []Cell
	pair := func(suffix, answerRole, checkRole, src string, w Wrong) {
		md := map[string]any{"exercise": keep}
		if w.Name != "" {
			md["wrong"], md["mistake"], md["says"] = w.Name, w.Mistake, w.Says
		}
		for _, c := range []struct{ id, role, src string }{
			{keep + "-" + suffix, answerRole, src},
			{nb.Cells[check].ID() + "-" + suffix, checkRole, checkSrc},
		} {
			m := map[string]any{"role": c.role}
			for k, v := range md {
				m[k] = v
			}
			added = append(added, Cell{Raw: map[string]any{
				"cell_type":       "code",
				"id":              c.id,
				"metadata":        map[string]any{"nbtool": m},
				"source":          c.src,
				"outputs":         []any{},
				"execution_count": nil,
			}})
		}
	}
	for i, w := range wrongs {
		pair(fmt.Sprintf("w%d", i+1), RoleWrongAnswer, RoleWrongCheck, w.Body, w)
	}
	pair("sol", RoleSolutionAnswer, RoleSolutionCheck, solution, Wrong{})

	cells := append(append(append([]Cell(nil), nb.Cells[:check+1]...), added...), nb.Cells[check+1:]...)
	raw := make([]any, len(cells))
	for i, c := range cells {
		raw[i] = c.Raw
	}
	nb.Cells, nb.Raw["cells"] = cells, raw
	return nil
}

// role is the cell's metadata.nbtool.role ("" for a cell of the notebook).
func (c Cell) role() (role string, md map[string]any) {
	m, _ := c.Raw["metadata"].(map[string]any)
	md, _ = m["nbtool"].(map[string]any)
	role, _ = md["role"].(string)
	return role, md
}
