package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"text/tabwriter"
)

// Grading: a teacher collects the students' notebooks as
// CLASS/<student>/<notebook>.ipynb. For each one, GradePrepare builds the
// reference notebook with the student's exercise cells in place of the
// stubs (the checks are always the reference's, whatever the student did
// to theirs); Jupyter executes it; GradeReport reads the executed
// notebooks and prints a table of exercise × student.

// Results of one exercise for one student.
const (
	GradePass         = "pass"
	GradeFail         = "FAIL"          // the check ran and failed
	GradeCompileError = "compile error" // the student's cell does not compile
	GradeMissing      = "missing"       // the notebook has no cell with the exercise's id
	GradeNotRun       = "not run"       // the kernel never reached the check
	GradeNotHandedIn  = "-"             // no such notebook from this student
)

// GradePrepare returns the reference notebook ref with every exercise cell
// replaced by the cell of the same id in student, and the ids of the
// exercises student has no cell for (they keep the stub, and are graded
// missing).
func GradePrepare(ref, student *Notebook) (missing []string) {
	answers := map[string]string{}
	for _, c := range student.Cells {
		if c.Type() == "code" && c.ID() != "" {
			answers[c.ID()] = c.Source()
		}
	}
	for _, c := range ref.Cells {
		c.ClearOutputs()
		if !c.HasTag(TagExercise) {
			continue
		}
		if src, ok := answers[c.ID()]; ok {
			c.SetSource(src)
		} else {
			missing = append(missing, c.ID())
		}
	}
	md, _ := ref.Raw["metadata"].(map[string]any)
	if md == nil {
		md = map[string]any{}
		ref.Raw["metadata"] = md
	}
	list := make([]any, len(missing))
	for i, id := range missing {
		list[i] = id
	}
	md["nbtool"] = map[string]any{"missing": list}
	return missing
}

// Grade is the result of each exercise in one executed notebook, by
// exercise id.
func Grade(executed *Notebook) map[string]string {
	md, _ := executed.Raw["metadata"].(map[string]any)
	tool, _ := md["nbtool"].(map[string]any)
	missing := map[string]bool{}
	if list, ok := tool["missing"].([]any); ok {
		for _, id := range list {
			if s, ok := id.(string); ok {
				missing[s] = true
			}
		}
	}
	out := map[string]string{}
	var code []Cell
	for _, c := range executed.Cells {
		if c.Type() == "code" {
			code = append(code, c)
		}
	}
	for i, c := range code {
		if !c.HasTag(TagExercise) {
			continue
		}
		id := c.ID()
		var check *Cell
		if i+1 < len(code) && code[i+1].HasTag(TagCheck) {
			check = &code[i+1]
		}
		errs := c.Errors()
		switch {
		case missing[id]:
			out[id] = GradeMissing
		case len(errs) > 0 && errs[0].BuildFailure():
			out[id] = GradeCompileError
		case check == nil || !check.Executed() || !c.Executed():
			out[id] = GradeNotRun
		case len(errs) > 0 || len(check.Errors()) > 0:
			out[id] = GradeFail
		default:
			out[id] = GradePass
		}
	}
	return out
}

// GradeReport writes the table of exercise × student for the reference
// notebooks refs and the executed notebooks under classDir
// (<student>/<notebook name>.ipynb), and a last line with each student's
// number of passed exercises. A notebook that no student handed in is
// left out; one that some did is "-" for the others.
func GradeReport(w io.Writer, refs []string, classDir string) error {
	entries, err := os.ReadDir(classDir)
	if err != nil {
		return err
	}
	var students []string
	for _, e := range entries {
		if e.IsDir() {
			students = append(students, e.Name())
		}
	}
	sort.Strings(students)
	if len(students) == 0 {
		return fmt.Errorf("%s: no student folders (CLASS/<student>/<notebook>.ipynb)", classDir)
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "notebook\texercise\t%s\n", strings.Join(students, "\t"))
	passed := make([]int, len(students))
	total := 0
	var errs []error
	for _, refPath := range refs {
		ref, err := ReadNotebook(refPath)
		if err != nil {
			return err
		}
		name := strings.TrimSuffix(filepath.Base(refPath), ".ipynb")
		grades := make([]map[string]string, len(students))
		handedIn := false
		for i, s := range students {
			p := filepath.Join(classDir, s, name+".ipynb")
			nb, err := ReadNotebook(p)
			switch {
			case errors.Is(err, os.ErrNotExist):
				continue
			case err != nil:
				errs = append(errs, err)
				continue
			}
			grades[i] = Grade(nb)
			handedIn = true
		}
		if !handedIn {
			continue // a notebook nobody handed in is not part of this grading
		}
		for _, id := range Exercises(ref) {
			total++
			row := []string{name, id}
			for i, g := range grades {
				r := GradeNotHandedIn
				if g != nil {
					r = g[id]
					if r == "" {
						r = GradeMissing
					}
				}
				if r == GradePass {
					passed[i]++
				}
				row = append(row, r)
			}
			fmt.Fprintln(tw, strings.Join(row, "\t"))
		}
	}
	row := []string{"passed", ""}
	for _, n := range passed {
		row = append(row, fmt.Sprintf("%d/%d", n, total))
	}
	fmt.Fprintln(tw, strings.Join(row, "\t"))
	if err := tw.Flush(); err != nil {
		return err
	}
	return errors.Join(errs...)
}
