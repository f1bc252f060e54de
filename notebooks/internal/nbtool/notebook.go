package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"regexp"
	"strings"
)

// Cell tags that give a cell a role in an exercise.
const (
	// TagExercise marks the cell a student completes. It holds only Go
	// declarations (no %magic or !shell lines), so that its solution can
	// stand in for it.
	TagExercise = "exercise"
	// TagCheck marks the cell that checks the exercise just above it: it
	// must fail (at run time) on the stub and pass on the solution.
	TagCheck = "check"
)

// Notebook is a Jupyter notebook (nbformat 4) read as generic JSON, so that
// writing it back keeps every field nbtool does not know about.
type Notebook struct {
	// Path is where the notebook was read from.
	Path string
	// Raw is the whole document; Raw["cells"] is what Cells indexes.
	Raw   map[string]any
	Cells []Cell
}

// Cell is one cell of a Notebook; its fields point into the notebook's Raw
// document, so SetSource and ClearOutputs change the notebook.
type Cell struct {
	Raw map[string]any
}

// ReadNotebook reads and parses the notebook at path.
func ReadNotebook(path string) (*Notebook, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return ParseNotebook(path, data)
}

// ParseNotebook parses data, the JSON of a notebook read from path.
func ParseNotebook(path string, data []byte) (*Notebook, error) {
	nb := &Notebook{Path: path}
	if err := json.Unmarshal(data, &nb.Raw); err != nil {
		return nil, fmt.Errorf("%s: not a notebook: %w", path, err)
	}
	cells, ok := nb.Raw["cells"].([]any)
	if !ok {
		return nil, fmt.Errorf("%s: not a notebook: no cells", path)
	}
	for i, c := range cells {
		m, ok := c.(map[string]any)
		if !ok {
			return nil, fmt.Errorf("%s: cell %d is not an object", path, i)
		}
		nb.Cells = append(nb.Cells, Cell{Raw: m})
	}
	return nb, nil
}

// Marshal renders the notebook as Jupyter writes it: sorted keys, one-space
// indent, no HTML escaping, a final newline.
func (nb *Notebook) Marshal() ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", " ")
	if err := enc.Encode(nb.Raw); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// Write writes the notebook to path.
func (nb *Notebook) Write(path string) error {
	data, err := nb.Marshal()
	if err != nil {
		return err
	}
	return os.WriteFile(path, data, 0o644)
}

// KernelName is metadata.kernelspec.name, e.g. "gonb".
func (nb *Notebook) KernelName() string {
	md, _ := nb.Raw["metadata"].(map[string]any)
	ks, _ := md["kernelspec"].(map[string]any)
	name, _ := ks["name"].(string)
	return name
}

// Format is nbformat and nbformat_minor, e.g. 4, 5.
func (nb *Notebook) Format() (major, minor int) {
	f, _ := nb.Raw["nbformat"].(float64)
	m, _ := nb.Raw["nbformat_minor"].(float64)
	return int(f), int(m)
}

// ID is the cell's id ("" if it has none).
func (c Cell) ID() string {
	id, _ := c.Raw["id"].(string)
	return id
}

// Type is "code", "markdown" or "raw".
func (c Cell) Type() string {
	t, _ := c.Raw["cell_type"].(string)
	return t
}

// Source is the cell's text; nbformat allows a string or a list of lines.
func (c Cell) Source() string {
	return joinText(c.Raw["source"])
}

// SetSource replaces the cell's text.
func (c Cell) SetSource(src string) { c.Raw["source"] = src }

// Tags are metadata.tags.
func (c Cell) Tags() []string {
	md, _ := c.Raw["metadata"].(map[string]any)
	raw, _ := md["tags"].([]any)
	var tags []string
	for _, t := range raw {
		if s, ok := t.(string); ok {
			tags = append(tags, s)
		}
	}
	return tags
}

// HasTag reports whether tag is among the cell's tags.
func (c Cell) HasTag(tag string) bool {
	for _, t := range c.Tags() {
		if t == tag {
			return true
		}
	}
	return false
}

// Executed reports whether a kernel ran the cell (execution_count is set).
func (c Cell) Executed() bool {
	n, ok := c.Raw["execution_count"].(float64)
	return ok && n > 0
}

// ClearOutputs forgets what the cell printed and that it ran.
func (c Cell) ClearOutputs() {
	if c.Type() != "code" {
		return
	}
	c.Raw["outputs"] = []any{}
	c.Raw["execution_count"] = nil
}

// Outputs are the cell's outputs (code cells only).
func (c Cell) Outputs() []map[string]any {
	raw, _ := c.Raw["outputs"].([]any)
	var out []map[string]any
	for _, o := range raw {
		if m, ok := o.(map[string]any); ok {
			out = append(out, m)
		}
	}
	return out
}

// CellError is an output of type "error": what a failed cell leaves.
type CellError struct {
	Name, Value string
	Traceback   string
}

// BuildFailure reports whether the error is a compile error rather than a
// failure of the program at run time. GoNB reports a failed `go build` or
// `go test` build with the compiler's output, which starts with
// "# <package>"; a program that ran and failed (panic, os.Exit(n), a
// failing %test) gives "exit status N".
func (e CellError) BuildFailure() bool {
	return strings.HasPrefix(e.Value, "# ")
}

func (e CellError) String() string {
	s := strings.TrimSpace(e.Traceback)
	if s == "" {
		s = strings.TrimSpace(e.Value)
	}
	return e.Name + ": " + s
}

// Errors are the cell's error outputs.
func (c Cell) Errors() []CellError {
	var errs []CellError
	for _, o := range c.Outputs() {
		if o["output_type"] != "error" {
			continue
		}
		name, _ := o["ename"].(string)
		value, _ := o["evalue"].(string)
		errs = append(errs, CellError{
			Name:      name,
			Value:     stripANSI(value),
			Traceback: stripANSI(joinLines(o["traceback"])),
		})
	}
	return errs
}

// Text is everything the cell printed on stdout and stderr.
func (c Cell) Text() string {
	var b strings.Builder
	for _, o := range c.Outputs() {
		if o["output_type"] == "stream" {
			b.WriteString(stripANSI(joinText(o["text"])))
		}
	}
	return b.String()
}

// Clean removes what changes from run to run without being content: the
// timing metadata nbclient records and terminal colour codes in outputs
// (GitHub shows them as garbage).
func (nb *Notebook) Clean() {
	for _, c := range nb.Cells {
		if md, ok := c.Raw["metadata"].(map[string]any); ok {
			delete(md, "execution")
		}
		for _, o := range c.Outputs() {
			switch o["output_type"] {
			case "stream":
				o["text"] = stripANSI(joinText(o["text"]))
			case "error":
				if v, ok := o["evalue"].(string); ok {
					o["evalue"] = stripANSI(v)
				}
				if tb, ok := o["traceback"].([]any); ok {
					for i, l := range tb {
						if s, ok := l.(string); ok {
							tb[i] = stripANSI(s)
						}
					}
				}
			}
		}
	}
}

// joinText joins a multi-line string field: nbformat stores them either as
// one string or as a list of lines, each keeping its "\n".
func joinText(v any) string {
	switch v := v.(type) {
	case string:
		return v
	case []any:
		var b strings.Builder
		for _, l := range v {
			s, _ := l.(string)
			b.WriteString(s)
		}
		return b.String()
	}
	return ""
}

// joinLines joins a traceback: a list of lines without their "\n".
func joinLines(v any) string {
	raw, _ := v.([]any)
	var lines []string
	for _, l := range raw {
		s, _ := l.(string)
		lines = append(lines, s)
	}
	return strings.Join(lines, "\n")
}

var ansi = regexp.MustCompile(`\x1b\[[0-9;]*[A-Za-z]`)

func stripANSI(s string) string { return ansi.ReplaceAllString(s, "") }
