package main

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
)

// Diagrams: Debian's Jupyter Notebook 6.4 shows a ```mermaid block as
// code, so a notebook's diagram is a picture, diagrams/NAME.svg, drawn
// from the mermaid source diagrams/NAME.mmd by `make diagrams`
// (notebooks/render). The picture's first line records the sha256 of the
// source it was drawn from.

// diagramHeader is the first line of the picture of source NAME.mmd; it
// is the line notebooks/render writes (render.Header).
func diagramHeader(name, source string) string {
	sum := sha256.Sum256([]byte(source))
	return fmt.Sprintf("<!-- crdlab diagram: drawn from %s.mmd sha256=%s by `make diagrams`; do not edit -->", name, hex.EncodeToString(sum[:]))
}

var mdImage = regexp.MustCompile(`!\[[^\]]*\]\(([^)\s]+)\)`)

// lintMarkdown checks the notebook's markdown cells: no mermaid block
// (it does not render in the Jupyter the set-up installs), every image
// exists, and every diagram's picture was drawn from its current source.
func lintMarkdown(nb *Notebook) []error {
	var errs []error
	dir := filepath.Dir(nb.Path)
	for _, c := range nb.Cells {
		if c.Type() != "markdown" {
			continue
		}
		src := c.Source()
		if strings.Contains(src, "```mermaid") {
			errs = append(errs, fmt.Errorf("%s: cell %q: a ```mermaid block shows as code in Jupyter Notebook 6.4: put the source in diagrams/NAME.mmd, run `make diagrams`, and show ![…](diagrams/NAME.svg)", nb.Path, c.ID()))
		}
		for _, m := range mdImage.FindAllStringSubmatch(src, -1) {
			target := m[1]
			if strings.Contains(target, "://") {
				continue
			}
			p := filepath.Join(dir, filepath.FromSlash(target))
			if _, err := os.Stat(p); err != nil {
				errs = append(errs, fmt.Errorf("%s: cell %q: image %s: no such file", nb.Path, c.ID(), target))
				continue
			}
			if strings.HasSuffix(target, ".svg") && filepath.Base(filepath.Dir(p)) == "diagrams" {
				if err := checkDiagram(p); err != nil {
					errs = append(errs, fmt.Errorf("%s: cell %q: %w", nb.Path, c.ID(), err))
				}
			}
		}
	}
	return errs
}

// checkDiagram checks that the picture at svgPath was drawn from the
// current NAME.mmd beside it.
func checkDiagram(svgPath string) error {
	name := strings.TrimSuffix(filepath.Base(svgPath), ".svg")
	mmd := strings.TrimSuffix(svgPath, ".svg") + ".mmd"
	src, err := os.ReadFile(mmd)
	if err != nil {
		return fmt.Errorf("diagram %s has no source %s", svgPath, mmd)
	}
	f, err := os.Open(svgPath)
	if err != nil {
		return err
	}
	defer f.Close()
	s := bufio.NewScanner(f)
	s.Buffer(make([]byte, 64*1024), 1024*1024)
	first := ""
	if s.Scan() {
		first = s.Text()
	}
	if first != diagramHeader(name, string(src)) {
		return fmt.Errorf("diagram %s was not drawn from the current %s: run `make diagrams`", svgPath, mmd)
	}
	return nil
}
