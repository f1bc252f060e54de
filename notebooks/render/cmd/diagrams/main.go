// Command diagrams draws crdlab's notebook diagrams: every
// notebooks/diagrams/NAME.mmd (mermaid) becomes NAME.svg beside it, drawn
// by the mermaid browser bundle in Debian's headless Chromium.
//
//	make diagrams      # = go -C notebooks/render run ./cmd/diagrams
//
// Mermaid is the npm package pinned below, fetched once with `npm pack`
// (the package alone, no dependencies) into $XDG_CACHE_HOME/crdlab.
// Only sources whose picture is missing or stale are drawn, unless -all.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"time"

	"github.com/crdlab/crdlab/notebooks/render"
)

// mermaidVersion is the npm package drawing the diagrams.
const mermaidVersion = "12.3.0"

func main() {
	dir := flag.String("dir", "../diagrams", "the folder of NAME.mmd sources")
	all := flag.Bool("all", false, "redraw every diagram, not only the stale ones")
	flag.Parse()
	if err := run(*dir, *all); err != nil {
		fmt.Fprintln(os.Stderr, "diagrams:", err)
		os.Exit(1)
	}
}

func run(dir string, all bool) error {
	sources, err := render.ReadSources(dir)
	if err != nil {
		return err
	}
	stale := map[string]string{}
	for name, src := range sources {
		first, err := render.FirstLine(filepath.Join(dir, name+".svg"))
		if all || err != nil || first != render.Header(name, src) {
			stale[name] = src
		}
	}
	if len(stale) == 0 {
		fmt.Printf("diagrams: all %d pictures in %s are up to date\n", len(sources), dir)
		return nil
	}
	js, err := mermaidBundle()
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	tab, stop, err := render.NewBrowser(ctx, 1200, 900)
	if err != nil {
		return err
	}
	defer stop()
	svgs, err := render.Render(tab, js, stale)
	if err != nil {
		return err
	}
	names := make([]string, 0, len(svgs))
	for name := range svgs {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		p := filepath.Join(dir, name+".svg")
		if err := os.WriteFile(p, []byte(svgs[name]), 0o644); err != nil {
			return err
		}
		fmt.Println("diagrams: drew", p)
	}
	return nil
}

// mermaidBundle returns the path of mermaid's self-contained browser
// bundle, fetching the npm package once.
func mermaidBundle() (string, error) {
	cache, err := os.UserCacheDir()
	if err != nil {
		return "", err
	}
	dir := filepath.Join(cache, "crdlab", "mermaid-"+mermaidVersion)
	js := filepath.Join(dir, "package", "dist", "mermaid.min.js")
	if _, err := os.Stat(js); err == nil {
		return js, nil
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	fmt.Println("diagrams: fetching mermaid", mermaidVersion, "with npm pack into", dir)
	pack := exec.Command("npm", "pack", "--silent", "mermaid@"+mermaidVersion)
	pack.Dir, pack.Stderr = dir, os.Stderr
	out, err := pack.Output()
	if err != nil {
		return "", fmt.Errorf("npm pack mermaid@%s (npm is needed to draw diagrams, not to show them): %w", mermaidVersion, err)
	}
	tgz := filepath.Join(dir, string(trimNL(out)))
	untar := exec.Command("tar", "-xzf", tgz, "-C", dir, "package/dist/mermaid.min.js")
	untar.Stderr = os.Stderr
	if err := untar.Run(); err != nil {
		return "", fmt.Errorf("unpack %s: %w", tgz, err)
	}
	os.Remove(tgz)
	return js, nil
}

func trimNL(b []byte) []byte {
	for len(b) > 0 && (b[len(b)-1] == '\n' || b[len(b)-1] == '\r') {
		b = b[:len(b)-1]
	}
	return b
}
