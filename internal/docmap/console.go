package docmap

import (
	"fmt"
	"regexp"
	"strings"
)

// A lab sheet (docs/lab/README.md) shows what to type and what comes back
// in ```console blocks: a line starting with "$ " is a command, the lines
// after it, up to the next command, are its expected output. The lab
// checker (cmd/labcheck) runs the commands in order, in one shell, and
// compares.
//
// In expected output, "⋯" stands for what changes from run to run: a line
// that is only "⋯" matches any number of lines (none too), and "⋯" inside
// a line matches any text. A last line "(exit status N)" expects the
// command to fail with status N; otherwise it must succeed.

// Command is one command of a console block and its expected output.
type Command struct {
	// Line is the 1-based line of the command in its document.
	Line int
	// Cmd is what follows "$ ".
	Cmd string
	// Want is the expected output, one string per line.
	Want []string
	// Status is the expected exit status.
	Status int
}

// Wildcard stands for output that changes from run to run.
const Wildcard = "⋯"

var exitStatus = regexp.MustCompile(`^\(exit status (\d+)\)$`)

// ConsoleCommands returns the commands of the ```console blocks of a
// Markdown document, in order.
func ConsoleCommands(md []byte) []Command {
	var out []Command
	in := false
	for i, line := range strings.Split(string(md), "\n") {
		t := strings.TrimSpace(line)
		switch {
		case !in && t == "```console":
			in = true
			continue
		case in && t == "```":
			in = false
			continue
		case !in:
			continue
		}
		if cmd, ok := strings.CutPrefix(line, "$ "); ok {
			out = append(out, Command{Line: i + 1, Cmd: cmd})
			continue
		}
		if len(out) == 0 {
			continue // output before any command: prose in a block
		}
		c := &out[len(out)-1]
		if m := exitStatus.FindStringSubmatch(t); m != nil {
			fmt.Sscan(m[1], &c.Status)
			continue
		}
		c.Want = append(c.Want, strings.TrimRight(line, " \t"))
	}
	return out
}

// MatchOutput reports whether got (the command's output) matches want,
// with Wildcard as described above; trailing blank space and a final
// empty line are ignored.
func MatchOutput(want []string, got string) bool {
	lines := strings.Split(strings.TrimRight(got, "\n"), "\n")
	if strings.TrimRight(got, "\n") == "" {
		lines = nil
	}
	for i := range lines {
		lines[i] = strings.TrimRight(lines[i], " \t\r")
	}
	return matchLines(want, lines)
}

func matchLines(want, got []string) bool {
	if len(want) == 0 {
		return len(got) == 0
	}
	if want[0] == Wildcard {
		for skip := 0; skip <= len(got); skip++ {
			if matchLines(want[1:], got[skip:]) {
				return true
			}
		}
		return false
	}
	if len(got) == 0 || !matchLine(want[0], got[0]) {
		return false
	}
	return matchLines(want[1:], got[1:])
}

// matchLine matches one line, Wildcard inside it matching any text.
func matchLine(want, got string) bool {
	if !strings.Contains(want, Wildcard) {
		return want == got
	}
	parts := strings.Split(want, Wildcard)
	var re strings.Builder
	re.WriteString("^")
	for i, p := range parts {
		if i > 0 {
			re.WriteString(".*")
		}
		re.WriteString(regexp.QuoteMeta(p))
	}
	re.WriteString("$")
	return regexp.MustCompile(re.String()).MatchString(got)
}
