package render

import (
	"bufio"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/chromedp/chromedp"
)

// Header is the first line of a rendered diagram: which source, at which
// sha256, it was drawn from. nbtool (main module) reads the same line.
func Header(name, source string) string {
	sum := sha256.Sum256([]byte(source))
	return fmt.Sprintf("<!-- crdlab diagram: drawn from %s.mmd sha256=%s by `make diagrams`; do not edit -->", name, hex.EncodeToString(sum[:]))
}

// mermaidConfig draws labels as SVG text (no HTML in foreignObject), so
// that the picture shows the same in an <img>, on GitHub and in Jupyter.
const mermaidConfig = `{"startOnLoad": false, "theme": "default", "securityLevel": "strict",
  "htmlLabels": false, "flowchart": {"htmlLabels": false, "wrappingWidth": 360}, "fontFamily": "DejaVu Sans, Verdana, Arial, sans-serif"}`

// asXML re-serialises the SVG mermaid returns (HTML syntax: <br>) as XML,
// which a standalone .svg file must be.
const asXML = `(svg) => { const doc = new DOMParser().parseFromString(svg, "text/html");
  return new XMLSerializer().serializeToString(doc.querySelector("svg")); }`

// Render draws each mermaid source (by name) with the mermaid browser
// bundle at mermaidJS, in the browser tab ctx, and returns the SVGs, each
// starting with its Header line.
func Render(ctx context.Context, mermaidJS string, sources map[string]string) (map[string]string, error) {
	abs, err := filepath.Abs(mermaidJS)
	if err != nil {
		return nil, err
	}
	page := filepath.Join(filepath.Dir(abs), "crdlab-render.html")
	html := `<!doctype html><meta charset="utf-8"><body><script src="file://` + abs + `"></script></body>`
	if err := os.WriteFile(page, []byte(html), 0o644); err != nil {
		return nil, err
	}
	defer os.Remove(page)
	if err := chromedp.Do(ctx, chromedp.Navigate("file://"+page)); err != nil {
		return nil, err
	}
	ok, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`typeof mermaid !== "undefined" && (mermaid.initialize(`+mermaidConfig+`), true)`))
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, fmt.Errorf("%s did not define mermaid", mermaidJS)
	}
	out := map[string]string{}
	for name, src := range sources {
		js := fmt.Sprintf(`mermaid.render(%q, %q).then(r => (%s)(r.svg))`, "d-"+safeID(name), src, asXML)
		svg, err := chromedp.Run(ctx, chromedp.Evaluate[string](js, chromedp.EvalAwaitPromise))
		if err != nil {
			return nil, fmt.Errorf("%s.mmd: %w", name, err)
		}
		if !strings.HasPrefix(svg, "<svg") {
			return nil, fmt.Errorf("%s.mmd: mermaid returned no SVG: %.200s", name, svg)
		}
		out[name] = Header(name, src) + "\n" + svg + "\n"
	}
	return out, nil
}

var notID = regexp.MustCompile(`[^a-zA-Z0-9-]`)

func safeID(name string) string { return notID.ReplaceAllString(name, "-") }

// ReadSources reads dir/*.mmd by name (without .mmd).
func ReadSources(dir string) (map[string]string, error) {
	paths, err := filepath.Glob(filepath.Join(dir, "*.mmd"))
	if err != nil {
		return nil, err
	}
	out := map[string]string{}
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			return nil, err
		}
		out[strings.TrimSuffix(filepath.Base(p), ".mmd")] = string(data)
	}
	return out, nil
}

// FirstLine is the first line of the file at path.
func FirstLine(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	s := bufio.NewScanner(f)
	s.Buffer(make([]byte, 64*1024), 1024*1024)
	if s.Scan() {
		return s.Text(), nil
	}
	return "", s.Err()
}
