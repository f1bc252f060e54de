package docmap

import (
	"encoding/json"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"strings"
)

// Ref is one reference found in a Markdown document.
type Ref struct {
	// Line is the 1-based line of the document it is on.
	Line int
	// Text is the code span as written.
	Text string
	// Path is the file or directory, relative to the repository root
	// (a directory ends in "/").
	Path string
	// Name is the Go declaration after ':' ("" if none): Name or Type.Member.
	Name string
	// Cell is the notebook cell id after '#' ("" if none).
	Cell string
	// Upstream is set for references to upstream code, which are not
	// checked.
	Upstream bool
}

// Link is one relative link target found in a Markdown document.
type Link struct {
	Line   int
	Target string // as written, without its #fragment
}

var (
	codeSpan = regexp.MustCompile("`([^`\n]+)`")
	// refShape: a path ending in .go, .ipynb or .md (with an optional
	// :Name, :Type.Member or #cell), or a directory path ending in /.
	refShape = regexp.MustCompile(`^((?:[A-Za-z0-9_.-]+/)*[A-Za-z0-9_.-]+\.(?:go|ipynb|md))(?::([A-Za-z_]\w*(?:\.[A-Za-z_]\w*)?)|#([A-Za-z0-9_-]+))?$|^((?:[A-Za-z0-9_.-]+/)+)$`)
	mdLink   = regexp.MustCompile(`\]\(([^)\s]+)\)`)
)

// Refs returns the references in a Markdown document, in order. Code spans
// that do not have the shape of a reference (`go test ./...`, `OnAdd`) are
// not references.
func Refs(md []byte) []Ref {
	var refs []Ref
	inFence := false
	for i, line := range strings.Split(string(md), "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), "```") {
			inFence = !inFence
			continue
		}
		if inFence {
			continue
		}
		for _, m := range codeSpan.FindAllStringSubmatch(line, -1) {
			text := m[1]
			s := refShape.FindStringSubmatch(text)
			if s == nil || !strings.Contains(text, "/") {
				// A bare file name (`doc.go`) names a file of the
				// package being discussed, not a path: not checked.
				continue
			}
			r := Ref{Line: i + 1, Text: text, Path: s[1], Name: s[2], Cell: s[3]}
			if r.Path == "" {
				r.Path = s[4]
			}
			if first, _, _ := strings.Cut(r.Path, "/"); strings.Contains(first, ".") && strings.Contains(r.Path, "/") {
				r.Upstream = true
			}
			refs = append(refs, r)
		}
	}
	return refs
}

// bareRef is a reference written without a code span, as in a diagram
// source: a path with a slash, ending in .go, with an optional :Name or
// :Type.Member.
var bareRef = regexp.MustCompile(`(?:[A-Za-z0-9_.-]+/)+[A-Za-z0-9_-]+\.go(?::[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)?)?`)

// DiagramRefs returns the references in a diagram source
// (notebooks/diagrams/NAME.mmd), in order: mermaid has no code spans, so
// every `path/file.go` or `path/file.go:Name` token is one.
func DiagramRefs(src []byte) []Ref {
	var refs []Ref
	for i, line := range strings.Split(string(src), "\n") {
		for _, text := range bareRef.FindAllString(line, -1) {
			path, name, _ := strings.Cut(text, ":")
			r := Ref{Line: i + 1, Text: text, Path: path, Name: name}
			if first, _, _ := strings.Cut(path, "/"); strings.Contains(first, ".") {
				r.Upstream = true
			}
			refs = append(refs, r)
		}
	}
	return refs
}

// Links returns the relative link targets of a Markdown document: not
// URLs, not in-page anchors.
func Links(md []byte) []Link {
	var links []Link
	for i, line := range strings.Split(string(md), "\n") {
		for _, m := range mdLink.FindAllStringSubmatch(line, -1) {
			target, _, _ := strings.Cut(m[1], "#")
			if target == "" || strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
				continue
			}
			links = append(links, Link{Line: i + 1, Target: target})
		}
	}
	return links
}

// Check verifies r against the repository at root: the path exists, the
// Go file declares Name, the notebook has a cell with id Cell. Upstream
// references always pass.
func (r Ref) Check(root string) error {
	if r.Upstream {
		return nil
	}
	p := filepath.Join(root, filepath.FromSlash(r.Path))
	fi, err := os.Stat(p)
	if err != nil {
		return fmt.Errorf("%s: no such file or directory", r.Path)
	}
	if strings.HasSuffix(r.Path, "/") != fi.IsDir() {
		return fmt.Errorf("%s: a directory is written with a final /, a file without", r.Path)
	}
	switch {
	case r.Name != "":
		decls, err := Decls(p)
		if err != nil {
			return err
		}
		if !decls[r.Name] {
			return fmt.Errorf("%s declares no %s", r.Path, r.Name)
		}
	case r.Cell != "":
		ids, err := cellIDs(p)
		if err != nil {
			return err
		}
		if !ids[r.Cell] {
			return fmt.Errorf("%s has no cell with id %q", r.Path, r.Cell)
		}
	}
	return nil
}

// Decls returns the names a Go file declares at top level: functions,
// types, variables and constants as Name; methods as Type.Method; and the
// methods of interface types and fields of struct types as Type.Member.
func Decls(path string) (map[string]bool, error) {
	f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.SkipObjectResolution)
	if err != nil {
		return nil, err
	}
	decls := map[string]bool{}
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			if d.Recv == nil || len(d.Recv.List) == 0 {
				decls[d.Name.Name] = true
				continue
			}
			if recv := receiverType(d.Recv.List[0].Type); recv != "" {
				decls[recv+"."+d.Name.Name] = true
			}
		case *ast.GenDecl:
			for _, s := range d.Specs {
				switch s := s.(type) {
				case *ast.TypeSpec:
					decls[s.Name.Name] = true
					addMembers(decls, s.Name.Name, s.Type)
				case *ast.ValueSpec:
					for _, n := range s.Names {
						decls[n.Name] = true
					}
				}
			}
		}
	}
	return decls, nil
}

// receiverType is the type name of a method receiver: T for T, *T, T[K]
// and *T[K].
func receiverType(e ast.Expr) string {
	for {
		switch t := e.(type) {
		case *ast.StarExpr:
			e = t.X
		case *ast.IndexExpr:
			e = t.X
		case *ast.IndexListExpr:
			e = t.X
		case *ast.Ident:
			return t.Name
		default:
			return ""
		}
	}
}

func addMembers(decls map[string]bool, typ string, e ast.Expr) {
	var fields *ast.FieldList
	switch t := e.(type) {
	case *ast.InterfaceType:
		fields = t.Methods
	case *ast.StructType:
		fields = t.Fields
	default:
		return
	}
	for _, f := range fields.List {
		for _, n := range f.Names {
			decls[typ+"."+n.Name] = true
		}
		if len(f.Names) == 0 { // embedded: reachable by its type name
			if name := receiverType(f.Type); name != "" {
				decls[typ+"."+name] = true
			} else if sel, ok := f.Type.(*ast.SelectorExpr); ok {
				decls[typ+"."+sel.Sel.Name] = true
			}
		}
	}
}

// cellIDs returns the ids of a notebook's cells.
func cellIDs(path string) (map[string]bool, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var nb struct {
		Cells []struct {
			ID string `json:"id"`
		} `json:"cells"`
	}
	if err := json.Unmarshal(data, &nb); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	ids := map[string]bool{}
	for _, c := range nb.Cells {
		ids[c.ID] = true
	}
	return ids, nil
}

// CheckFile checks every reference and relative link of the Markdown file
// at mdPath (relative to root) and returns one error per broken one, each
// prefixed with the file and line.
//
// Unless strict, a reference whose first path element is not an entry of
// root (`testdata/fuzz/`, `cmd/kube-apiserver/`) is taken for prose about
// some package's files and left alone; strict checks it too, so that a
// typo in the first element cannot hide a reference.
func CheckFile(root, mdPath string, strict bool) []error {
	md, err := os.ReadFile(filepath.Join(root, mdPath))
	if err != nil {
		return []error{err}
	}
	var errs []error
	for _, r := range Refs(md) {
		if !strict && !r.Upstream {
			first, _, _ := strings.Cut(r.Path, "/")
			if _, err := os.Stat(filepath.Join(root, first)); err != nil {
				continue
			}
		}
		if err := r.Check(root); err != nil {
			errs = append(errs, fmt.Errorf("%s:%d: `%s`: %w", mdPath, r.Line, r.Text, err))
		}
	}
	dir := filepath.Dir(filepath.Join(root, mdPath))
	for _, l := range Links(md) {
		if _, err := os.Stat(filepath.Join(dir, filepath.FromSlash(l.Target))); err != nil {
			errs = append(errs, fmt.Errorf("%s:%d: link %s: no such file or directory", mdPath, l.Line, l.Target))
		}
	}
	return errs
}

// Section is the text under one Markdown heading, up to the next heading
// of the same or a higher level.
type Section struct {
	Heading string
	Level   int
	Body    []byte
}

// Sections splits a Markdown document at its headings (outside code
// fences).
func Sections(md []byte) []Section {
	var out []Section
	lines := strings.Split(string(md), "\n")
	inFence := false
	type open struct{ idx, level, start int }
	var stack []open
	closeTo := func(level, end int) {
		for len(stack) > 0 && stack[len(stack)-1].level >= level {
			o := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			out[o.idx].Body = []byte(strings.Join(lines[o.start:end], "\n"))
		}
	}
	for i, line := range lines {
		if strings.HasPrefix(strings.TrimSpace(line), "```") {
			inFence = !inFence
		}
		if inFence || !strings.HasPrefix(line, "#") {
			continue
		}
		level := len(line) - len(strings.TrimLeft(line, "#"))
		if level > 6 || !strings.HasPrefix(line[level:], " ") {
			continue
		}
		closeTo(level, i)
		out = append(out, Section{Heading: strings.TrimSpace(line[level:]), Level: level})
		stack = append(stack, open{idx: len(out) - 1, level: level, start: i + 1})
	}
	closeTo(1, len(lines))
	return out
}
