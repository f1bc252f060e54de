package ui

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/crdlab/crdlab/e2e/internal/proc"
	"sigs.k8s.io/yaml"
)

// Bounds of the waits. Every wait is a poll with a deadline.
const (
	startTimeout = 30 * time.Second // crdlab serve started → /readyz ok
	stopTimeout  = 20 * time.Second // SIGTERM → exit
	pageTimeout  = 20 * time.Second // a state the page reaches on its own
	pollInterval = 100 * time.Millisecond
)

const (
	crdName = "crontabs.stable.example.com"
	crdPath = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions"
	// crdFile is the CronTab CRD the other e2e tests use.
	crdFile = "../testdata/crontab-crd.yaml"
	// screenshotPath is the CI artifact; docsScreenshot the README's image.
	screenshotPath = "testoutput/ui-established.png"
	docsScreenshot = "../../docs/ui.png"
)

// crdlabBinary is built by TestMain from this tree.
var crdlabBinary string

func TestMain(m *testing.M) {
	os.Exit(run(m))
}

func run(m *testing.M) int {
	dir, err := os.MkdirTemp("", "crdlab-e2e-ui-")
	if err != nil {
		fmt.Fprintln(os.Stderr, "e2e/ui:", err)
		return 1
	}
	defer os.RemoveAll(dir)
	crdlabBinary = filepath.Join(dir, "crdlab")
	if err := proc.Build("../..", crdlabBinary, "./cmd/crdlab", ""); err != nil {
		fmt.Fprintln(os.Stderr, "e2e/ui: building crdlab:", err)
		return 1
	}
	return m.Run()
}

// TestPage_CRDLifecycle is issue 11's "done means": the page shows a CRD
// created over HTTP reaching Established, and the request's path through
// the components.
func TestPage_CRDLifecycle(t *testing.T) {
	chromiumPath(t) // before anything else: no browser, no test
	s := startServer(t, "--trace")
	p := openPage(t, s.url+"/ui/")

	p.waitFor(t, "the page connects to the event stream", `document.body.dataset.connection === "connected"`)

	s.createCRD(t)

	t.Run("Established", func(t *testing.T) {
		p.waitFor(t, "the CRD's panel lights Established",
			`document.querySelector('section.crd[data-crd="`+crdName+`"]')?.dataset.state === "Established"`)
		// The earlier states are shown as passed, the later ones not.
		got := p.eval(t, `JSON.stringify([...document.querySelectorAll('section.crd[data-crd="`+crdName+`"] .machine li')].map(li => li.dataset.step + ":" + li.className))`)
		want := `["NamesAccepted:done","Established:lit","Terminating:","gone:"]`
		if got != want {
			t.Errorf("state machine items = %s, want %s", got, want)
		}
	})

	t.Run("Path", func(t *testing.T) {
		// Select the CRD's key as a user does: click its name in the panel.
		if err := chromedp.Do(p.ctx, chromedp.Click(chromedp.CSS(`section.crd[data-crd="`+crdName+`"] button.key`))); err != nil {
			t.Fatalf("clicking the CRD's name: %v", err)
		}
		want := []string{"handler", "registry", "storage", "watch", "reflector", "deltafifo", "informer", "workqueue", "controller"}
		wantJSON, _ := json.Marshal(want)
		// The path lists each component once, in the order the key first
		// reached it; every component of the write's round trip must be in
		// it, in travel order.
		p.waitFor(t, "the CRD's path through the components", `(() => {
			const ol = document.getElementById("path");
			if (ol.dataset.key !== "`+crdName+`") return false;
			const got = [...ol.querySelectorAll("li[data-component]")].map(li => li.dataset.component);
			const want = `+string(wantJSON)+`;
			const at = want.map(c => got.indexOf(c));
			return at.every((i, n) => i >= 0 && (n === 0 || i > at[n-1]));
		})()`)
		got := p.eval(t, `JSON.stringify([...document.querySelectorAll("#path li")].map(li => li.dataset.component))`)
		var path []string
		if err := json.Unmarshal([]byte(got), &path); err != nil {
			t.Fatalf("path %s: %v", got, err)
		}
		if path[0] != "handler" {
			t.Errorf("path = %v: want it to start at the handler", path)
		}
		seen := map[string]bool{}
		for _, c := range path {
			if seen[c] {
				t.Errorf("path = %v: %s twice", path, c)
			}
			seen[c] = true
		}
		t.Logf("path of %s: %v", crdName, path)
	})

	t.Run("EventList", func(t *testing.T) {
		// Rows of the key from the components the stream must show,
		// each storage row with its revision and each row's upstream
		// function linked to pkg.go.dev.
		p.waitFor(t, "rows of the CRD's key in the event list", `(() => {
			const rows = [...document.querySelectorAll('#rows tr[data-key="`+crdName+`"]')];
			const comps = new Set(rows.map(r => r.dataset.component));
			return ["handler", "storage", "controller"].every(c => comps.has(c));
		})()`)
		rv := p.eval(t, `document.querySelector('#rows tr[data-key="`+crdName+`"][data-component="storage"] td.rv')?.textContent ?? ""`)
		if !regexp.MustCompile(`^[0-9]+$`).MatchString(rv) {
			t.Errorf("a storage row of %s has resourceVersion %q, want a revision", crdName, rv)
		}
		link := p.eval(t, `document.querySelector('#rows tr[data-key="`+crdName+`"][data-component="storage"] td.upstream a')?.href ?? ""`)
		if !strings.HasPrefix(link, "https://pkg.go.dev/k8s.io/") || !strings.Contains(link, "#") {
			t.Errorf("a storage row's upstream link is %q, want https://pkg.go.dev/k8s.io/...#Symbol", link)
		}
		// The status write comes back into the handler from the
		// server's own loopback client. The kube controllers' discovery
		// reads can push it out of the newest rows, so list only the
		// CRD's key first, as a student would.
		p.eval(t, `(() => { const f = document.querySelector('#key-filter'); f.value = "`+crdName+`"; f.dispatchEvent(new Event('input')); return 'ok'; })()`)
		p.waitFor(t, "a status write in the list", `[...document.querySelectorAll('#rows tr[data-component="handler"] td.msg')].some(td => /^(UPDATE|PATCH|PUT) \S*\/status\b/.test(td.textContent))`)
		p.eval(t, `(() => { const f = document.querySelector('#key-filter'); f.value = ""; f.dispatchEvent(new Event('input')); return 'ok'; })()`)
	})

	t.Run("Numbers", func(t *testing.T) {
		p.waitFor(t, "the informer cache holds the CRD", `[...document.querySelectorAll("#informers tr[data-informer]")].some(tr => Number(tr.dataset.cacheSize) >= 1)`)
		p.waitFor(t, "the workqueues are listed", `document.querySelectorAll("#queues tr[data-queue]").length > 0`)
	})

	// The picture of the page with the CRD established and its path shown, before
	// the tests below click around.
	p.screenshot(t, screenshotPath)
	if os.Getenv("CRDLAB_WRITE_SCREENSHOT") == "1" {
		p.screenshot(t, docsScreenshot)
	}

	t.Run("ComponentFilter", func(t *testing.T) {
		// A click on the storage box lists only storage's events; another
		// click lists them all again.
		box := chromedp.CSS(`#diagram g.box[data-component="storage"]`)
		if err := chromedp.Do(p.ctx, chromedp.Click(box)); err != nil {
			t.Fatalf("clicking the storage box: %v", err)
		}
		p.waitFor(t, "only storage rows", `(() => {
			const rows = [...document.querySelectorAll("#rows tr")];
			return rows.length > 0 && rows.every(r => r.dataset.component === "storage");
		})()`)
		if err := chromedp.Do(p.ctx, chromedp.Click(box)); err != nil {
			t.Fatalf("clicking the storage box again: %v", err)
		}
		p.waitFor(t, "all rows again", `new Set([...document.querySelectorAll("#rows tr")].map(r => r.dataset.component)).size > 1`)
	})

	t.Run("UpstreamURL", func(t *testing.T) {
		// app.js's copy of trace.UpstreamURL, on the cases of its doc.
		for in, want := range map[string]string{
			"k8s.io/client-go/tools/cache.(*DeltaFIFO).Pop":      "https://pkg.go.dev/k8s.io/client-go/tools/cache#DeltaFIFO.Pop",
			"k8s.io/apiserver/pkg/storage/etcd3.(*store).Create": "https://pkg.go.dev/k8s.io/apiserver/pkg/storage/etcd3#store.Create",
			"k8s.io/client-go/util/workqueue.NewTyped":           "https://pkg.go.dev/k8s.io/client-go/util/workqueue#NewTyped",
			"fmt.Println":                  "https://pkg.go.dev/fmt#Println",
			"k8s.io/client-go/tools/cache": "https://pkg.go.dev/k8s.io/client-go/tools/cache",
			"":                             "",
		} {
			arg, _ := json.Marshal(in)
			if got := p.eval(t, "window.crdlab.upstreamURL("+string(arg)+")"); got != want {
				t.Errorf("upstreamURL(%q) = %q, want %q", in, got, want)
			}
		}
	})

	t.Run("Deleted", func(t *testing.T) {
		// Pause the list first: the deletion's events must wait for
		// "resume" to show, while the panels keep moving.
		if err := chromedp.Do(p.ctx, chromedp.Click(chromedp.CSS("#pause"))); err != nil {
			t.Fatalf("clicking pause: %v", err)
		}
		p.waitFor(t, "the list is paused", `document.body.dataset.paused === "true"`)
		before := p.eval(t, `String(document.querySelectorAll("#rows tr").length)`)
		pausedAt := p.eval(t, `String(window.crdlab.lastSeq)`)
		// newRows: rows of the key with events that came after the pause.
		newRows := `[...document.querySelectorAll('#rows tr[data-key="` + crdName + `"]')].some(tr => Number(tr.dataset.seq) > ` + pausedAt + `)`

		s.deleteCRD(t)
		p.waitFor(t, "the CRD's panel goes Terminating or gone",
			`["Terminating", "gone"].includes(document.querySelector('section.crd[data-crd="`+crdName+`"]')?.dataset.state)`)
		p.waitFor(t, "the pause button counts the new events", `/resume \([0-9]+ new\)/.test(document.getElementById("pause").textContent)`)
		if after := p.eval(t, `String(document.querySelectorAll("#rows tr").length)`); after != before {
			t.Errorf("rows while paused: %s, then %s; want no change", before, after)
		}
		if p.eval(t, `String(`+newRows+`)`) == "true" {
			t.Errorf("rows of events after the pause are listed while paused")
		}
		if err := chromedp.Do(p.ctx, chromedp.Click(chromedp.CSS("#pause"))); err != nil {
			t.Fatalf("clicking resume: %v", err)
		}
		p.waitFor(t, "the deletion's rows after resume", newRows)
		p.waitFor(t, "the gone CRD's panel is removed", `document.querySelector('section.crd[data-crd="`+crdName+`"]') === null`)
	})

	p.noExceptions(t)
}

// TestPage_TracingOff: a server without --trace has no event stream; the
// page says how to turn it on, and its CRD panels still work (they read
// /debug/crdlab/state, which needs no tracing).
func TestPage_TracingOff(t *testing.T) {
	chromiumPath(t) // before anything else: no browser, no test
	s := startServer(t)
	p := openPage(t, s.url+"/ui/")

	p.waitFor(t, "the page says tracing is off", `document.body.dataset.connection === "tracing-off"`)
	status := p.eval(t, `document.getElementById("conn").textContent`)
	if !strings.Contains(status, "tracing is off") || !strings.Contains(status, "crdlab serve --trace") {
		t.Errorf("status = %q, want it to say tracing is off and to restart with crdlab serve --trace", status)
	}
	if hidden := p.eval(t, `String(document.getElementById("notice").hidden)`); hidden != "false" {
		t.Errorf("the notice is hidden (%s), want it shown", hidden)
	}

	s.createCRD(t)
	p.waitFor(t, "the CRD's panel lights Established without tracing",
		`document.querySelector('section.crd[data-crd="`+crdName+`"]')?.dataset.state === "Established"`)
	if n := p.eval(t, `String(window.crdlab.events)`); n != "0" {
		t.Errorf("window.crdlab.events = %s with tracing off, want 0", n)
	}
	p.noExceptions(t)
}

// TestPage_Token: a server with --token-file refuses the page's requests
// until the user pastes a token; then the stream and the panels work. The
// page itself is served without one.
func TestPage_Token(t *testing.T) {
	chromiumPath(t) // before anything else: no browser, no test
	const token = "s3cret-ui-token"
	tokens := filepath.Join(t.TempDir(), "tokens.csv")
	if err := os.WriteFile(tokens, []byte(token+",teacher,uid-1\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	s := startServer(t, "--trace", "--token-file", tokens)
	s.token = token
	p := openPage(t, s.url+"/ui/")

	p.waitFor(t, "the page asks for a token", `document.body.dataset.connection === "unauthorized"`)
	if err := chromedp.Do(p.ctx,
		chromedp.SendKeys(chromedp.CSS("#token"), token+"\r"),
	); err != nil {
		t.Fatalf("typing the token: %v", err)
	}
	p.waitFor(t, "the page connects with the token", `document.body.dataset.connection === "connected"`)
	s.createCRD(t)
	p.waitFor(t, "the CRD's panel lights Established",
		`document.querySelector('section.crd[data-crd="`+crdName+`"]')?.dataset.state === "Established"`)
	p.waitFor(t, "events of the CRD", `window.crdlab.events > 0 && document.querySelector('#rows tr[data-key="`+crdName+`"]') !== null`)
	p.noExceptions(t)
}

// ---- the server ----

// server is one `crdlab serve` process (package proc) on a port of its
// choosing.
type server struct {
	url   string
	token string // sent as a bearer token, if set
	proc  *proc.Server
}

// startServer runs crdlab serve --listen 127.0.0.1:0 with the extra args
// and waits for /readyz. It is stopped with SIGTERM when t ends and must
// exit cleanly.
func startServer(t testing.TB, args ...string) *server {
	t.Helper()
	dir := t.TempDir()
	p, err := proc.Start(crdlabBinary, filepath.Join(dir, "data"), filepath.Join(dir, "crdlab.log"), startTimeout, args...)
	s := &server{proc: p}
	if p != nil {
		t.Cleanup(func() { s.stop(t) })
	}
	if err == nil {
		s.url = p.URL
		err = p.WaitReady(nil, startTimeout)
	}
	if err != nil {
		if p != nil {
			s.dumpLog(t)
		}
		t.Fatalf("crdlab serve: %v", err)
	}
	return s
}

func (s *server) stop(t testing.TB) {
	t.Helper()
	if err := s.proc.Stop(stopTimeout); err != nil {
		t.Error(err)
	}
	if t.Failed() || os.Getenv("CRDLAB_E2E_LOGS") == "1" {
		s.dumpLog(t)
	}
}

func (s *server) dumpLog(t testing.TB) {
	t.Helper()
	t.Logf("crdlab serve log (%s):\n%s", s.proc.LogPath, s.proc.Log(100000))
}

// createCRD POSTs the CronTab CRD as JSON, as curl would.
func (s *server) createCRD(t testing.TB) {
	t.Helper()
	y, err := os.ReadFile(crdFile)
	if err != nil {
		t.Fatal(err)
	}
	j, err := yaml.YAMLToJSON(y)
	if err != nil {
		t.Fatalf("%s: %v", crdFile, err)
	}
	s.do(t, http.MethodPost, crdPath, j, http.StatusCreated)
}

func (s *server) deleteCRD(t testing.TB) {
	t.Helper()
	s.do(t, http.MethodDelete, crdPath+"/"+crdName, nil, http.StatusOK)
}

func (s *server) do(t testing.TB, method, path string, body []byte, want int) {
	t.Helper()
	req, err := http.NewRequest(method, s.url+path, bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if s.token != "" {
		req.Header.Set("Authorization", "Bearer "+s.token)
	}
	client := &http.Client{Timeout: 10 * time.Second}
	resp, err := client.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != want {
		t.Fatalf("%s %s: %d %s, want %d", method, path, resp.StatusCode, bytes.TrimSpace(b), want)
	}
}

// ---- the browser ----

// chromiumPath is Debian's Chromium, or CRDLAB_CHROMIUM.
func chromiumPath(t testing.TB) string {
	t.Helper()
	p := os.Getenv("CRDLAB_CHROMIUM")
	if p == "" {
		p = "/usr/bin/chromium"
	}
	if _, err := os.Stat(p); err != nil {
		t.Fatalf("no Chromium at %s (%v): the browser tests need it; install Debian's package "+
			"(apt-get install chromium) or set CRDLAB_CHROMIUM to a Chromium or Chrome binary", p, err)
	}
	return p
}

// page is one browser tab on the page under test.
type page struct {
	ctx context.Context // chromedp's context of the tab

	mu         sync.Mutex // guards the fields below
	console    []string   // what the page wrote to its console
	exceptions []string   // uncaught exceptions
}

// openPage starts a headless Chromium with a fresh profile, opens url in a
// 1600×1000 viewport and records the page's console. The browser is
// closed when t ends.
func openPage(t testing.TB, url string) *page {
	t.Helper()
	exe := chromiumPath(t)
	// Not t.TempDir: Chromium's helpers can still write in the profile for
	// a moment after it exits, which would fail TempDir's cleanup.
	profile, err := os.MkdirTemp("", "crdlab-e2e-ui-chromium-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(profile) })

	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(exe),
		chromedp.Headless,
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.NoDefaultBrowserCheck,
		chromedp.UserDataDir(profile),
		chromedp.WindowSize(1600, 1000),
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-extensions", true),
		chromedp.Flag("disable-default-apps", true),
		chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.Flag("force-color-profile", "srgb"),
		chromedp.Flag("password-store", "basic"),
	}
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancelTab := chromedp.NewContext(actx)
	t.Cleanup(func() {
		cancelTab()
		cancelAlloc()
	})
	// Start the browser before subscribing to its console, so that only
	// one goroutine starts it.
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(1600, 1000)); err != nil {
		t.Fatalf("starting %s: %v", exe, err)
	}
	p := &page{ctx: ctx}
	messages := chromedp.Console(ctx)
	go func() {
		for m, err := range messages {
			if err != nil {
				return
			}
			p.mu.Lock()
			p.console = append(p.console, m.String())
			if m.IsException() {
				p.exceptions = append(p.exceptions, m.String())
			}
			p.mu.Unlock()
		}
	}()
	t.Cleanup(func() {
		if t.Failed() {
			p.mu.Lock()
			t.Logf("browser console:\n%s", strings.Join(p.console, "\n"))
			p.mu.Unlock()
		}
	})
	if err := chromedp.Do(ctx, chromedp.Navigate(url)); err != nil {
		t.Fatalf("opening %s: %v", url, err)
	}
	return p
}

// waitFor polls the JavaScript expression until it is true, or fails t
// after pageTimeout with what the page shows.
func (p *page) waitFor(t testing.TB, what, expr string) {
	t.Helper()
	start := time.Now()
	_, err := chromedp.Run(p.ctx, chromedp.Poll[chromedp.Void](expr,
		chromedp.WithPollingInterval(pollInterval), chromedp.WithPollingTimeout(pageTimeout)))
	if err != nil {
		t.Fatalf("%s: not after %v: %v\nthe page: %s", what, time.Since(start).Round(time.Millisecond), err, p.describe())
	}
	t.Logf("%s (%v)", what, time.Since(start).Round(time.Millisecond))
}

// eval returns the string value of a JavaScript expression.
func (p *page) eval(t testing.TB, expr string) string {
	t.Helper()
	v, err := chromedp.Run(p.ctx, chromedp.Evaluate[string](expr))
	if err != nil {
		t.Fatalf("evaluating %s: %v", expr, err)
	}
	return v
}

// describe is what the page shows, for a failure message.
func (p *page) describe() string {
	v, err := chromedp.Run(p.ctx, chromedp.Evaluate[string](`JSON.stringify({
		connection: document.body.dataset.connection,
		status: document.getElementById("conn")?.textContent,
		events: window.crdlab?.events, lastSeq: window.crdlab?.lastSeq, stateUpdates: window.crdlab?.stateUpdates,
		crds: [...document.querySelectorAll("section.crd")].map(s => s.dataset.crd + "=" + s.dataset.state),
		path: document.getElementById("path")?.dataset.key + ": " + [...document.querySelectorAll("#path li")].map(li => li.dataset.component).join(" "),
		rows: document.querySelectorAll("#rows tr").length,
	})`))
	if err != nil {
		return "(cannot read the page: " + err.Error() + ")"
	}
	return v
}

// noExceptions fails t if the page threw an exception nothing caught.
func (p *page) noExceptions(t testing.TB) {
	t.Helper()
	p.mu.Lock()
	defer p.mu.Unlock()
	if len(p.exceptions) > 0 {
		t.Errorf("the page threw %d uncaught exceptions:\n%s", len(p.exceptions), strings.Join(p.exceptions, "\n"))
	}
}

// screenshot saves a PNG of the whole page.
func (p *page) screenshot(t testing.TB, path string) {
	t.Helper()
	png, err := chromedp.Run(p.ctx, chromedp.FullScreenshot(100))
	if err != nil {
		t.Fatalf("screenshot: %v", err)
	}
	if !bytes.HasPrefix(png, []byte("\x89PNG")) {
		t.Fatalf("screenshot: not a PNG (%d bytes)", len(png))
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, png, 0o644); err != nil {
		t.Fatal(err)
	}
	abs, _ := filepath.Abs(path)
	t.Logf("screenshot: %s (%d bytes)", abs, len(png))
}

// TestPage_Speed checks the diagram's speed menu: choosing "slow" slows
// the replay (body[data-speed]) and is remembered across a reload.
func TestPage_Speed(t *testing.T) {
	chromiumPath(t)
	s := startServer(t, "--trace")
	p := openPage(t, s.url+"/ui/")
	p.waitFor(t, "the page connects to the event stream", `document.body.dataset.connection === "connected"`)
	if got := p.eval(t, `document.body.dataset.speed`); got != "normal" {
		t.Fatalf("speed at first: %q, want normal", got)
	}
	if err := chromedp.Do(p.ctx, chromedp.SetValue(chromedp.CSS("#speed"), "slow")); err != nil {
		t.Fatal(err)
	}
	// SetValue sets the value as a script would; the page listens for the
	// change event a user's choice fires.
	p.eval(t, `(document.getElementById("speed").dispatchEvent(new Event("change")), "")`)
	p.waitFor(t, "the diagram slows down", `document.body.dataset.speed === "slow"`)
	if err := chromedp.Do(p.ctx, chromedp.Reload()); err != nil {
		t.Fatal(err)
	}
	p.waitFor(t, "the choice survives a reload", `document.body.dataset.speed === "slow" && document.getElementById("speed").value === "slow"`)
	p.noExceptions(t)
}
