package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

const usage = `usage:
  nbtool lint NB.ipynb...
  nbtool exercises NB.ipynb
  nbtool wrongs NB.ipynb
  nbtool solve [-keep ID] [-with ID=ANSWER.go] NB.ipynb OUT.ipynb
  nbtool verify -mode stub|solution [-exercise ID] EXECUTED.ipynb...
  nbtool publish EXECUTED.ipynb DEST.ipynb
  nbtool grade-prepare REF.ipynb STUDENT.ipynb OUT.ipynb
  nbtool grade-report CLASS REF.ipynb...
`

// errUsage is returned for a command line nbtool does not understand.
var errUsage = errors.New("usage")

func run(args []string, stdout, stderr io.Writer) int {
	err := dispatch(args, stdout, stderr)
	switch {
	case errors.Is(err, errUsage):
		fmt.Fprint(stderr, usage)
		return 2
	case err != nil:
		fmt.Fprintln(stderr, err)
		return 1
	}
	return 0
}

func dispatch(args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		return errUsage
	}
	switch cmd, rest := args[0], args[1:]; cmd {
	case "lint":
		if len(rest) == 0 {
			return errUsage
		}
		return forEach(rest, stdout, func(nb *Notebook) (string, error) {
			ex, err := Lint(nb, DirsFor(nb.Path))
			return fmt.Sprintf("%d cells, %d exercises", len(nb.Cells), ex), err
		})
	case "exercises":
		if len(rest) != 1 {
			return errUsage
		}
		nb, err := ReadNotebook(rest[0])
		if err != nil {
			return err
		}
		for _, id := range Exercises(nb) {
			fmt.Fprintln(stdout, id)
		}
		return nil
	case "wrongs":
		if len(rest) != 1 {
			return errUsage
		}
		nb, err := ReadNotebook(rest[0])
		if err != nil {
			return err
		}
		wrongs, err := ReadWrongs(DirsFor(rest[0]).Wrong, Exercises(nb))
		if err != nil {
			return err
		}
		for _, id := range Exercises(nb) {
			for _, w := range wrongs[id] {
				fmt.Fprintf(stdout, "%s\t%s\t%s\n", id, w.Path, w.Mistake)
			}
		}
		return nil
	case "solve":
		fs := flag.NewFlagSet("solve", flag.ContinueOnError)
		fs.SetOutput(stderr)
		keep := fs.String("keep", "", "the exercise whose stub stays, followed by its wrong answers and solution")
		with := fs.String("with", "", "ID=ANSWER.go: exercise ID gets the answer in that file (a student's, a wrong one)")
		if fs.Parse(rest) != nil || fs.NArg() != 2 || (*with != "" && !strings.Contains(*with, "=")) {
			return errUsage
		}
		return solveFile(fs.Arg(0), fs.Arg(1), *keep, *with)
	case "grade-prepare":
		if len(rest) != 3 {
			return errUsage
		}
		ref, err := ReadNotebook(rest[0])
		if err != nil {
			return err
		}
		student, err := ReadNotebook(rest[1])
		if err != nil {
			return err
		}
		GradePrepare(ref, student)
		return ref.Write(rest[2])
	case "grade-report":
		if len(rest) < 2 {
			return errUsage
		}
		return GradeReport(stdout, rest[1:], rest[0])
	case "verify":
		fs := flag.NewFlagSet("verify", flag.ContinueOnError)
		fs.SetOutput(stderr)
		mode := fs.String("mode", "", "stub or solution")
		exercise := fs.String("exercise", "", "with -mode stub: the only exercise left unsolved")
		if fs.Parse(rest) != nil || fs.NArg() == 0 || (*mode != ModeStub && *mode != ModeSolution) ||
			(*exercise != "" && *mode != ModeStub) {
			return errUsage
		}
		return forEach(fs.Args(), stdout, func(nb *Notebook) (string, error) {
			return Verify(nb, *mode, *exercise)
		})
	case "publish":
		if len(rest) != 2 {
			return errUsage
		}
		return publish(rest[0], rest[1])
	}
	return errUsage
}

// forEach reads each notebook and applies fn, printing one line per
// notebook and, under a failing one, what failed; it goes through every
// notebook, not only up to the first failure.
func forEach(paths []string, stdout io.Writer, fn func(*Notebook) (string, error)) error {
	failed := 0
	for _, p := range paths {
		nb, err := ReadNotebook(p)
		if err == nil {
			var summary string
			summary, err = fn(nb)
			if err == nil {
				fmt.Fprintf(stdout, "ok   %s: %s\n", p, summary)
				continue
			}
		}
		failed++
		fmt.Fprintf(stdout, "FAIL %s\n%s\n", p, err)
	}
	if failed > 0 {
		return fmt.Errorf("nbtool: %d of %d notebooks failed", failed, len(paths))
	}
	return nil
}

func solveFile(in, out, keep, with string) error {
	nb, err := ReadNotebook(in)
	if err != nil {
		return err
	}
	if _, err := Lint(nb, DirsFor(in)); err != nil {
		return err
	}
	if err := Solve(nb, DirsFor(in), keep); err != nil {
		return err
	}
	if with != "" {
		id, file, _ := strings.Cut(with, "=")
		data, err := os.ReadFile(file)
		if err != nil {
			return err
		}
		body, err := solutionBody(string(data))
		if err != nil {
			return fmt.Errorf("%s: %w", file, err)
		}
		found := false
		for _, c := range nb.Cells {
			if c.ID() == id && c.HasTag(TagExercise) {
				c.SetSource(body)
				found = true
			}
		}
		if !found {
			return fmt.Errorf("%s: no exercise cell has id %q", in, id)
		}
	}
	return nb.Write(out)
}

func publish(executed, dest string) error {
	nb, err := ReadNotebook(executed)
	if err != nil {
		return err
	}
	nb.Clean()
	return nb.Write(dest)
}
