package render

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// repoRoot is the checkout: this module lives in notebooks/render.
var repoRoot = filepath.Join("..", "..")

// TestNotebooksRenderInJupyter opens every notebook in Debian's Jupyter
// Notebook 6.4 (what `make notebooks-setup` installs) in headless
// Chromium, as a student would, and checks that every diagram is drawn:
// each image of a markdown cell loaded and has a size, and no cell shows
// a mermaid block as code. It saves a screenshot of each notebook's
// first diagram in $NOTEBOOK_SCREENSHOTS (default
// ../../.ci/out/notebooks/screenshots).
func TestNotebooksRenderInJupyter(t *testing.T) {
	jupyter, err := exec.LookPath("jupyter-notebook")
	if err != nil {
		t.Fatalf("jupyter-notebook is missing: run `make notebooks-setup` (Debian's jupyter-notebook): %v", err)
	}
	shots := os.Getenv("NOTEBOOK_SCREENSHOTS")
	if shots == "" {
		shots = filepath.Join(repoRoot, ".ci", "out", "notebooks", "screenshots")
	}
	if err := os.MkdirAll(shots, 0o755); err != nil {
		t.Fatal(err)
	}
	notebooks, err := filepath.Glob(filepath.Join(repoRoot, "notebooks", "*.ipynb"))
	if err != nil || len(notebooks) == 0 {
		t.Fatalf("no notebooks in %s: %v", filepath.Join(repoRoot, "notebooks"), err)
	}

	// Jupyter serves a copy: it autosaves what it opens, and the checkout
	// must stay as committed.
	served := t.TempDir()
	copyTree(t, filepath.Join(repoRoot, "notebooks"), filepath.Join(served, "notebooks"))
	base, token := startJupyter(t, jupyter, served)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	tab, stop, err := NewBrowser(ctx, 1280, 1000)
	if err != nil {
		t.Fatal(err)
	}
	defer stop()

	for _, nb := range notebooks {
		name := filepath.Base(nb)
		t.Run(name, func(t *testing.T) {
			want := countImages(t, nb)
			if err := chromedp.Do(tab, chromedp.Navigate(base+"/notebooks/notebooks/"+name+"?token="+token)); err != nil {
				t.Fatal(err)
			}
			// The notebook page renders markdown cells in the browser;
			// wait for every image to have loaded (or failed).
			const state = `(() => {
				const imgs = [...document.querySelectorAll("#notebook-container .text_cell_render img")];
				return JSON.stringify({
					cells: document.querySelectorAll("#notebook-container .cell").length,
					images: imgs.map(i => ({src: i.getAttribute("src"), done: i.complete, w: i.naturalWidth, h: i.naturalHeight})),
					mermaid: [...document.querySelectorAll("#notebook-container .text_cell_render pre code")]
						.filter(c => /^\s*(flowchart|sequenceDiagram|stateDiagram)/.test(c.textContent)).length,
				});
			})()`
			type image struct {
				Src  string
				Done bool
				W, H int
			}
			var got struct {
				Cells   int
				Images  []image
				Mermaid int
			}
			deadline := time.Now().Add(60 * time.Second)
			for {
				raw, err := chromedp.Run(tab, chromedp.Evaluate[string](state))
				if err != nil {
					t.Fatal(err)
				}
				if err := json.Unmarshal([]byte(raw), &got); err != nil {
					t.Fatal(err)
				}
				done := got.Cells > 0 && len(got.Images) >= want
				for _, im := range got.Images {
					done = done && im.Done
				}
				if done {
					break
				}
				if time.Now().After(deadline) {
					t.Fatalf("the notebook did not finish rendering within 60s: %+v (want %d images)", got, want)
				}
				time.Sleep(100 * time.Millisecond) // poll the page
			}
			if got.Mermaid > 0 {
				t.Errorf("%d markdown cells show a mermaid diagram as code", got.Mermaid)
			}
			if len(got.Images) != want {
				t.Errorf("%d images rendered, the notebook has %d", len(got.Images), want)
			}
			for _, im := range got.Images {
				if im.W == 0 || im.H == 0 {
					t.Errorf("image %s did not load (naturalWidth %d, naturalHeight %d)", im.Src, im.W, im.H)
				}
			}
			// A screenshot of the first diagram, scrolled into view.
			if len(got.Images) > 0 {
				if err := chromedp.Do(tab, chromedp.ScrollIntoView(chromedp.CSS("#notebook-container .text_cell_render img"))); err != nil {
					t.Fatal(err)
				}
				png, err := chromedp.Run(tab, chromedp.CaptureScreenshot())
				if err != nil {
					t.Fatal(err)
				}
				out := filepath.Join(shots, strings.TrimSuffix(name, ".ipynb")+".png")
				if err := os.WriteFile(out, png, 0o644); err != nil {
					t.Fatal(err)
				}
				t.Logf("screenshot: %s", out)
			}
		})
	}
}

var mdImage = regexp.MustCompile(`!\[[^\]]*\]\([^)\s]+\)`)

// countImages counts the images the notebook's markdown cells show.
func countImages(t *testing.T, path string) int {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var nb struct {
		Cells []struct {
			Type   string `json:"cell_type"`
			Source any    `json:"source"`
		} `json:"cells"`
	}
	if err := json.Unmarshal(data, &nb); err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, c := range nb.Cells {
		if c.Type != "markdown" {
			continue
		}
		var src string
		switch s := c.Source.(type) {
		case string:
			src = s
		case []any:
			for _, l := range s {
				src += fmt.Sprint(l)
			}
		}
		n += len(mdImage.FindAllString(src, -1))
	}
	return n
}

// copyTree copies the notebooks and their diagrams (*.ipynb, *.svg, *.mmd)
// from src to dst.
func copyTree(t *testing.T, src, dst string) {
	t.Helper()
	for _, pattern := range []string{"*.ipynb", "diagrams/*.svg", "diagrams/*.mmd"} {
		paths, err := filepath.Glob(filepath.Join(src, pattern))
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range paths {
			rel, _ := filepath.Rel(src, p)
			data, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			out := filepath.Join(dst, rel)
			if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(out, data, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// startJupyter runs `jupyter notebook` on a free loopback port with a
// random token, serving root, until the test ends.
func startJupyter(t *testing.T, jupyter, root string) (base, token string) {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	b := make([]byte, 16)
	rand.Read(b)
	token = hex.EncodeToString(b)
	cmd := exec.Command(jupyter, "--no-browser", "--allow-root", "--ip=127.0.0.1",
		fmt.Sprintf("--port=%d", port), "--port-retries=0",
		"--NotebookApp.token="+token, "--notebook-dir="+root)
	cmd.Env = append(os.Environ(), "JUPYTER_CONFIG_DIR="+t.TempDir(), "JUPYTER_RUNTIME_DIR="+t.TempDir())
	logf, err := os.Create(filepath.Join(t.TempDir(), "jupyter.log"))
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stdout, cmd.Stderr = logf, logf
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
		logf.Close()
	})
	base = fmt.Sprintf("http://127.0.0.1:%d", port)
	for deadline := time.Now().Add(60 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		resp, err := http.Get(base + "/api/status?token=" + token)
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return base, token
			}
		}
		if time.Now().After(deadline) {
			log, _ := os.ReadFile(logf.Name())
			t.Fatalf("jupyter notebook did not answer within 60s: %v\n%s", err, log)
		}
	}
}
