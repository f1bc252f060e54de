package reliability

import (
	"bufio"
	"bytes"
	"context"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// These tests are issue 21's findings, each replayed against a real
// `crdlab serve` as the outside attack did; each failed before its fix.

// rssMB is the server process's resident set size now, in MiB.
func (s *server) rssMB() int {
	s.t.Helper()
	return s.procStatusMB("VmRSS")
}

func (s *server) procStatusMB(field string) int {
	s.t.Helper()
	status, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", s.cmd.Process.Pid))
	if err != nil {
		s.t.Fatal(err)
	}
	for _, line := range strings.Split(string(status), "\n") {
		if v, ok := strings.CutPrefix(line, field+":"); ok {
			var kb int
			fmt.Sscanf(v, "%d", &kb)
			return kb >> 10
		}
	}
	s.t.Fatalf("no %s in /proc/<pid>/status", field)
	return 0
}

// randomToken is n random upper-case letters: a valid HTTP method.
func randomToken(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	for i := range b {
		b[i] = 'A' + b[i]%26
	}
	return string(b)
}

// rawStatus sends one raw HTTP/1.1 request over a new connection and
// returns the answer's status code.
func rawStatus(t *testing.T, host, requestLine string, header ...string) int {
	t.Helper()
	conn, err := net.DialTimeout("tcp", host, 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	_ = conn.SetDeadline(time.Now().Add(60 * time.Second))
	w := bufio.NewWriter(conn)
	fmt.Fprintf(w, "%s\r\nHost: %s\r\nConnection: close\r\n", requestLine, host)
	for _, h := range header {
		fmt.Fprintf(w, "%s\r\n", h)
	}
	w.WriteString("\r\n")
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatal(err)
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return resp.StatusCode
}

// TestHardening_MetricsLabelsBounded (finding 1): requests with huge
// random methods, huge random resource names and thousands of short
// random methods add no series to /metrics and no memory to the server,
// and /readyz answers while /metrics is scraped.
func TestHardening_MetricsLabelsBounded(t *testing.T) {
	s := startServer(t, t.TempDir(), serverOptions{})
	host := strings.TrimPrefix(s.url, "http://")
	base := len(s.must(200, "GET", "/metrics", ""))
	rss0 := s.rssMB()

	const big = 500 << 10 // within the 1 MiB header limit
	for range 100 {
		rawStatus(t, host, randomToken(big)+" /livez HTTP/1.1")
		rawStatus(t, host, "GET /apis/g/v1/"+strings.ToLower(randomToken(big))+" HTTP/1.1")
	}
	var wg sync.WaitGroup
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 500 {
				req, _ := http.NewRequest(randomToken(12), s.url+"/livez", nil)
				if resp, err := s.client.Do(req); err == nil {
					_, _ = io.Copy(io.Discard, resp.Body)
					resp.Body.Close()
				}
				if resp, err := s.client.Get(s.url + "/apis/g/v1/" + strings.ToLower(randomToken(20))); err == nil {
					_, _ = io.Copy(io.Discard, resp.Body)
					resp.Body.Close()
				}
			}
		}()
	}
	wg.Wait()

	metrics := s.must(200, "GET", "/metrics", "")
	if len(metrics) > base+16<<10 {
		t.Errorf("/metrics grew from %d to %d bytes", base, len(metrics))
	}
	if !strings.Contains(string(metrics), `verb="other"`) {
		t.Errorf("unknown methods are not counted as other:\n%s", metrics)
	}
	rss := s.rssMB()
	// 100 MB of methods and paths went in; without bounded labels they
	// stayed (RSS +1.5 GB once /metrics was scraped).
	if rss > rss0+64 {
		t.Errorf("RSS grew from %d to %d MiB", rss0, rss)
	}

	// /readyz while /metrics is scraped, over and over.
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	go func() {
		for ctx.Err() == nil {
			_, _, _ = s.do(ctx, "GET", "/metrics", "")
		}
	}()
	var slowest time.Duration
	for ctx.Err() == nil {
		t0 := time.Now()
		code, _, err := s.do(context.Background(), "GET", "/readyz", "")
		slowest = max(slowest, time.Since(t0))
		if err != nil || code != 200 {
			t.Errorf("/readyz: %d %v", code, err)
		}
		time.Sleep(10 * time.Millisecond)
	}
	// Generous, as TestOverload's: CI runs this beside other tests.
	if slowest > 2*time.Second {
		t.Errorf("/readyz took %v while /metrics was scraped", slowest)
	}
	t.Logf("after 200 requests of 500 KB methods and paths and 4,000 random ones: /metrics %d → %d bytes, RSS %d → %d MiB; slowest /readyz during scrapes %v",
		base, len(metrics), rss0, rss, slowest.Round(time.Millisecond))
}

// rawHost sends one raw HTTP/1.1 GET of path to addr with the given Host
// and extra header lines, and returns the status code.
func rawHost(t *testing.T, addr, method, path, host string, header ...string) int {
	t.Helper()
	code, _, _, err := sendRaw(addr, badRequest{method: method, target: path, header: append([]string{"Host: " + host}, header...)})
	if err != nil {
		t.Fatalf("%s %s Host %s: %v", method, path, host, err)
	}
	return code
}

// TestHardening_HostAndOrigin (finding 5): in the default mode (loopback,
// no authentication) the server answers only requests whose Host is a
// loopback name and whose Origin, if any, is itself or a loopback page —
// so a web page reaching it by DNS rebinding or a cross-site request is
// refused (TestBadInput has those cases) while kubectl, curl and the /ui
// page keep working; --accept-hosts widens the list.
func TestHardening_HostAndOrigin(t *testing.T) {
	s := startServer(t, t.TempDir(), serverOptions{})
	addr := strings.TrimPrefix(s.url, "http://")
	_, port, _ := net.SplitHostPort(addr)
	for _, c := range []struct {
		method, path, host string
		header             []string
		want               int
	}{
		{"GET", "/apis", addr, nil, 200},
		{"GET", "/apis", "localhost:" + port, nil, 200},
		{"GET", "/apis", "localhost", nil, 200},
		{"GET", "/apis", "[::1]:" + port, nil, 200},
		{"GET", "/apis", "127.0.0.1", nil, 200},
		{"GET", "/apis", addr, []string{"Origin: " + s.url}, 200},
		{"GET", "/apis", addr, []string{"Origin: http://localhost:3000"}, 200},
		{"GET", "/apis", addr, []string{"Origin: http://[::1]:3000"}, 200},
		{"GET", "/ui/", addr, nil, 200},
		// DNS rebinding: the attacker's name, re-pointed at 127.0.0.1.
		{"GET", "/apis", "attacker.example:" + port, nil, 403},
		{"GET", "/ui/", "attacker.example:" + port, nil, 403},
		{"GET", "/livez", "attacker.example", nil, 403},
		{"GET", "/apis", "", nil, 403},
		{"GET", "/apis", addr, []string{"Origin: http://attacker.example:" + port}, 403},
		{"GET", "/apis", addr, []string{"Origin: file://"}, 403},
	} {
		if got := rawHost(t, addr, c.method, c.path, c.host, c.header...); got != c.want {
			t.Errorf("%s %s Host %q %v: %d, want %d", c.method, c.path, c.host, c.header, got, c.want)
		}
	}
	// A page's no-cors POST: no Content-Type. Nothing is written.
	setupCRD(s)
	rev := s.settledRevision()
	code, _, body, err := sendRaw(addr, badRequest{method: "POST", target: crontabsPath, body: cronTab("default", "nocors", "page", 1)})
	if err != nil || code != 415 || !strings.Contains(string(body), "no Content-Type") {
		t.Errorf("POST without Content-Type: %d %s %v", code, body, err)
	}
	code, _, body, err = sendRaw(addr, badRequest{method: "POST", target: crontabsPath, body: cronTab("default", "nocors", "page", 1),
		header: []string{"User-Agent: Mozilla/5.0 (X11; Linux x86_64) kubernetes/x"}})
	if err != nil || code != 415 {
		t.Errorf("POST without Content-Type from a browser: %d %s %v", code, body, err)
	}
	s.must(404, "GET", crontabsPath+"/nocors", "")
	if r := s.revision(); r != rev {
		t.Errorf("revision moved from %d to %d", rev, r)
	}
	// client-go's own User-Agent without a Content-Type, as `kubectl
	// create --raw -f` sends it: read as JSON, as upstream.
	code, _, body, err = sendRaw(addr, badRequest{method: "POST", target: crontabsPath, body: cronTab("default", "raw", "kubectl", 1),
		header: []string{"User-Agent: kubectl/v1.37.2 (linux/amd64) kubernetes/0123abc"}})
	if err != nil || code != 201 {
		t.Errorf("kubectl create --raw: %d %s %v", code, body, err)
	}

	// --accept-hosts widens (replaces) the list; the server's own client
	// (Host 127.0.0.1) keeps working, so the CRD still becomes served.
	w := startServer(t, t.TempDir(), serverOptions{args: []string{"--accept-hosts", `^crdlab\.lan$,^10\.0\.0\.\d+$`}})
	waddr := strings.TrimPrefix(w.url, "http://")
	setupCRD(w)
	for host, want := range map[string]int{"crdlab.lan": 200, "10.0.0.7:80": 200, "localhost": 403, "crdlab.lan.attacker.example": 403, waddr: 200} {
		if got := rawHost(t, waddr, "GET", crontabsPath, host); got != want {
			t.Errorf("--accept-hosts: Host %q: %d, want %d", host, got, want)
		}
	}
}

// TestHardening_AnonymousAndStreams (finding 4): under ReadOnlyAnonymous
// the anonymous user reads resources, discovery and OpenAPI, but not
// profiling, /metrics or the /ui event stream; and event streams are
// long-running requests with a budget of their own (--max-watches), so
// that holding many open leaves the read-only request slots to others.
func TestHardening_AnonymousAndStreams(t *testing.T) {
	dir := t.TempDir()
	tokens := writeFile(t, dir, "tokens.csv", "admin-token,admin,1\n")
	s := startServer(t, filepath.Join(dir, "data"), serverOptions{token: "admin-token", args: []string{
		"--token-file", tokens, "--authorization-mode", "ReadOnlyAnonymous", "--trace", "--max-requests-inflight", "4"}})
	setupCRD(s)
	anon := &server{t: t, url: s.url, client: newClient(nil, "")}
	for path, want := range map[string]int{
		"/readyz": 200, "/livez": 200, "/healthz": 200, "/version": 200,
		"/apis": 200, "/openapi/v3": 200, crontabsPath: 200,
		"/metrics": 403, "/debug/pprof/": 403, "/debug/pprof/cmdline": 403, "/debug/pprof/goroutine?debug=2": 403,
		"/debug/pprof/profile?seconds=1": 403, "/debug/pprof/trace?seconds=1": 403,
		"/debug/crdlab/events": 403, "/debug/crdlab/state": 403,
	} {
		// The status only: an event stream let through would never end.
		req, _ := http.NewRequestWithContext(t.Context(), "GET", s.url+path, nil)
		resp, err := anon.client.Do(req)
		if err != nil {
			t.Fatalf("anonymous GET %s: %v", path, err)
		}
		resp.Body.Close()
		if resp.StatusCode != want {
			t.Errorf("anonymous GET %s: %d, want %d", path, resp.StatusCode, want)
		}
	}
	// The admin may still profile.
	s.must(200, "GET", "/debug/pprof/cmdline", "")

	// Twice as many event streams as read-only slots, held open.
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	for i := range 8 {
		req, _ := http.NewRequestWithContext(ctx, "GET", s.url+"/debug/crdlab/events", nil)
		req.Header.Set("Authorization", "Bearer admin-token")
		resp, err := s.client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		if resp.StatusCode != 200 {
			t.Fatalf("event stream %d: %d", i, resp.StatusCode)
		}
	}
	s.poll("8 long-running requests counted", func() bool {
		return countLongRunning(string(s.must(200, "GET", "/metrics", ""))) >= 8
	})
	for _, path := range []string{crontabsPath, "/apis", "/openapi/v3"} {
		for range 3 {
			if code, body, err := s.do(t.Context(), "GET", path, ""); err != nil || code != 200 {
				t.Fatalf("GET %s with 8 event streams open and 4 read-only slots: %d %v %s", path, code, err, abbreviate(string(body)))
			}
		}
	}
}

// countLongRunning sums apiserver_longrunning_requests over its verbs.
func countLongRunning(metrics string) int {
	n := 0
	for _, line := range strings.Split(metrics, "\n") {
		if strings.HasPrefix(line, "apiserver_longrunning_requests{") {
			var v int
			fmt.Sscanf(line[strings.LastIndexByte(line, ' ')+1:], "%d", &v)
			n += v
		}
	}
	return n
}

// TestHardening_WatchFromCompacted (finding 10): a watch from a
// resourceVersion older than the compacted history answers 200 and then
// one ERROR event carrying the 410 Expired Status, and ends — as upstream's
// cacher (newErrWatcher) does — instead of an HTTP 410.
func TestHardening_WatchFromCompacted(t *testing.T) {
	// The lists of the server's own informers at its start would keep
	// the history after them for --events-history-window (75 s).
	s := startServer(t, t.TempDir(), serverOptions{args: []string{"--compaction-interval", "500ms", "--events-history-window", "0"}})
	setupCRD(s)
	first := s.must(201, "POST", crontabsPath, cronTab("default", "c0", "w", 0))
	o, err := parseObject(first)
	if err != nil {
		t.Fatal(err)
	}
	old := o.Metadata.ResourceVersion
	var status int
	var body []byte
	n := 0
	s.poll("the first write's resourceVersion is compacted", func() bool {
		n++
		s.must(200, "PATCH", crontabsPath+"/c0", fmt.Sprintf(`{"spec":{"counter":%d}}`, n))
		status, body, err = s.do(t.Context(), "GET", crontabsPath+"?watch=1&timeoutSeconds=1&resourceVersion="+old, "")
		if err != nil {
			t.Fatal(err)
		}
		return status != 200 || strings.Contains(string(body), `"type":"ERROR"`)
	})
	lines := strings.Split(strings.TrimSpace(string(body)), "\n")
	if status != 200 || len(lines) != 1 || !strings.HasPrefix(lines[0], `{"type":"ERROR","object":{`) ||
		!strings.Contains(lines[0], `"kind":"Status"`) || !strings.Contains(lines[0], `"reason":"Expired"`) || !strings.Contains(lines[0], `"code":410`) {
		t.Errorf("watch from the compacted resourceVersion %s: HTTP %d\n%s\nwant 200 and one ERROR event with the 410 Expired Status", old, status, body)
	}
}

// TestHardening_SlowBody (finding 8, the body deadline): a client that
// trickles its body a byte at a time loses its request once the body
// falls behind the minimum pace (after apiserver.BodyGracePeriod, 10 s),
// so it cannot hold a mutating slot for the whole request timeout (70 s).
// It gets a 408 Timeout Status — not the 504 of the request timeout, and
// not silence — and nothing is written.
func TestHardening_SlowBody(t *testing.T) {
	s := startServer(t, t.TempDir(), serverOptions{})
	setupCRD(s)
	addr := strings.TrimPrefix(s.url, "http://")
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	body := cronTab("default", "slow", "s", 1)
	fmt.Fprintf(conn, "POST %s HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n", crontabsPath, addr, len(body))
	t0 := time.Now()
	type answer struct {
		resp *http.Response
		body []byte
	}
	answered := make(chan answer, 1)
	go func() {
		var a answer
		resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
		if err == nil {
			a.resp = resp
			a.body, _ = io.ReadAll(resp.Body)
		}
		answered <- a
	}()
	tick := time.NewTicker(500 * time.Millisecond)
	defer tick.Stop()
	limit := time.After(40 * time.Second)
	for sent := 0; ; {
		select {
		case a := <-answered:
			d := time.Since(t0)
			var st struct {
				Kind, Reason string
				Code         int
			}
			if a.resp != nil {
				_ = json.Unmarshal(a.body, &st)
			}
			if a.resp == nil || a.resp.StatusCode != http.StatusRequestTimeout || st.Kind != "Status" || st.Reason != "Timeout" || st.Code != 408 {
				t.Errorf("answer to the trickled body after %v: %v %s, want a 408 Timeout Status", d, a.resp, a.body)
			}
			// The grace period is the lower bound; the upper one is generous (CI load).
			if d < 9*time.Second || d > 30*time.Second {
				t.Errorf("answered after %v, want about 10 s (the grace period)", d)
			}
			t.Logf("a body trickled at 2 bytes/s was cut after %v (%d of %d bytes sent): %s", d.Round(time.Millisecond), sent, len(body), bytes.TrimSpace(a.body))
			var list struct{ Items []object }
			if err := json.Unmarshal(s.must(200, "GET", crontabsPath, ""), &list); err != nil {
				t.Fatal(err)
			}
			if len(list.Items) != 0 {
				t.Errorf("%d objects stored after a cut body, want none", len(list.Items))
			}
			return
		case <-tick.C:
			if sent < len(body)-1 { // never the last byte: the body stays incomplete
				_, _ = conn.Write([]byte{body[sent]}) // a write error: the server has closed; the answer tells
				sent++
			}
		case <-limit:
			t.Fatalf("no answer after 40 s of a trickled body")
		}
	}
}

// TestHardening_FairShare (finding 8, the fair share): a user that takes
// mutating slots with bodies it never finishes — 8 creates at once, with
// 4 slots — gets half of them (its fair share alone) and 429 with
// Retry-After: 1 for the rest; another user's creates, sent while the
// flood holds its slots, all succeed.
func TestHardening_FairShare(t *testing.T) {
	dir := t.TempDir()
	tokens := writeFile(t, dir, "tokens.csv", "admin-token,admin,1,system:masters\nmallory-token,mallory,2\nalice-token,alice,3\n")
	s := startServer(t, filepath.Join(dir, "data"), serverOptions{token: "admin-token", args: []string{
		"--token-file", tokens, "--max-mutating-requests-inflight", "4"}})
	setupCRD(s)
	addr := strings.TrimPrefix(s.url, "http://")
	inflight := func() int { return int(s.metric(`apiserver_current_inflight_requests{request_kind="mutating"}`)) }

	// The server's own controllers (system:masters) take a free slot too:
	// start from none in flight.
	s.poll("no mutating request in flight", func() bool { return inflight() == 0 })

	// The flood: each create sends its headers and one byte of its body.
	const flood = 8
	type answer struct {
		code       int
		retryAfter string
		reason     string
	}
	answers := make(chan answer, flood)
	for i := range flood {
		conn, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		body := cronTab("default", fmt.Sprintf("flood-%d", i), "mallory", i)
		fmt.Fprintf(conn, "POST %s HTTP/1.1\r\nHost: %s\r\nAuthorization: Bearer mallory-token\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n%c",
			crontabsPath, addr, len(body), body[0])
		go func() {
			resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
			if err != nil {
				return // closed at the end of the test
			}
			var st struct{ Reason string }
			_ = json.NewDecoder(resp.Body).Decode(&st)
			answers <- answer{resp.StatusCode, resp.Header.Get("Retry-After"), st.Reason}
		}()
	}
	// Every create of the flood is either refused or holds a slot.
	var refused []answer
	s.poll("the flood's creates refused or in flight", func() bool {
		for {
			select {
			case a := <-answers:
				refused = append(refused, a)
				continue
			default:
			}
			return len(refused)+inflight() == flood
		}
	})
	held := flood - len(refused)
	for _, a := range refused {
		if a.code != 429 || a.retryAfter != "1" || a.reason != "TooManyRequests" {
			t.Errorf("a refused create of the flood: %+v, want 429 TooManyRequests with Retry-After: 1", a)
		}
	}
	if held != 2 {
		t.Errorf("the flooding user holds %d of the 4 mutating slots, want 2 (its fair share alone)", held)
	}

	// The victim, while the flood holds its slots.
	alice := &server{t: t, url: s.url, client: newClient(nil, "alice-token")}
	created := 0
	for i := range 3 {
		if code, body, err := alice.do(t.Context(), "POST", crontabsPath, cronTab("default", fmt.Sprintf("alice-%d", i), "alice", i)); err != nil || code != 201 {
			t.Errorf("alice's create %d while mallory floods: %d %v %s", i, code, err, abbreviate(string(body)))
		} else {
			created++
		}
	}
	if n := inflight(); n < held {
		t.Errorf("the flood's creates ended before alice's (%d of %d in flight): the test proved nothing", n, held)
	}
	if n := int(s.metric(`crdlab_fair_share_rejected_total{request_kind="mutating"}`)); n != len(refused) {
		t.Errorf("crdlab_fair_share_rejected_total{request_kind=\"mutating\"} %d, want %d", n, len(refused))
	}
	t.Logf("flood of %d creates with 4 slots: %d held, %d refused with 429; %d of alice's 3 creates succeeded", flood, held, len(refused), created)
}

// TestHardening_RefusedBodyNotAwaited (finding 8): a request refused
// before its body is read — a bad path (400), a rebound Host (403), no
// Content-Type (415) — is answered at once and its connection closed,
// although the client sends none of the body it announced. net/http
// would otherwise read the rest of the body (up to 256 KiB) before
// answering: with no read deadline yet, for as long as the client holds
// it.
func TestHardening_RefusedBodyNotAwaited(t *testing.T) {
	s := startServer(t, t.TempDir(), serverOptions{})
	setupCRD(s)
	addr := strings.TrimPrefix(s.url, "http://")
	for _, tt := range []struct {
		name, path, host, contentType string
		want                          int
	}{
		{"BadPath", "/apis/stable.example.com/v1/namespaces/default/crontabs/a%2Fb", addr, "application/json", 400},
		{"ReboundHost", crontabsPath, "evil.example.com", "application/json", 403},
		{"NoContentType", crontabsPath, addr, "", 415},
	} {
		t.Run(tt.name, func(t *testing.T) {
			conn, err := net.Dial("tcp", addr)
			if err != nil {
				t.Fatal(err)
			}
			defer conn.Close()
			ct := ""
			if tt.contentType != "" {
				ct = "Content-Type: " + tt.contentType + "\r\n"
			}
			fmt.Fprintf(conn, "POST %s HTTP/1.1\r\nHost: %s\r\n%sContent-Length: 1000\r\n\r\n{", tt.path, tt.host, ct)
			// A bound that only a server waiting for the body reaches.
			_ = conn.SetReadDeadline(time.Now().Add(20 * time.Second))
			resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
			if err != nil {
				t.Fatalf("no answer while the body is unsent: %v", err)
			}
			resp.Body.Close()
			if resp.StatusCode != tt.want || !resp.Close {
				t.Errorf("%d, Connection: close %v; want %d and the connection closed", resp.StatusCode, resp.Close, tt.want)
			}
		})
	}
}

// TestHardening_ListMemory (finding 9): 8 concurrent lists of a 20 MB
// collection (500 objects of 40 KiB) raise the server's peak RSS by less
// than one list's size. Lists stream a 64 KiB chunk at a time over
// storage's shared objects; before, each list was built whole several
// times over (8 lists of 83 MB took RSS from 232 MB to 2 GB; now 256 MB).
func TestHardening_ListMemory(t *testing.T) {
	s := startServer(t, t.TempDir(), serverOptions{})
	setupCRD(s)
	payload := strings.Repeat("x", 40<<10)
	for i := range 500 {
		body := fmt.Sprintf(`{"apiVersion":"stable.example.com/v1","kind":"CronTab","metadata":{"name":"big-%03d","namespace":"default"},"spec":{"cronSpec":"* * * * */5","image":%q}}`, i, payload)
		s.must(201, "POST", crontabsPath, body)
	}
	size := len(s.must(200, "GET", crontabsPath, ""))
	before := s.procStatusMB("VmHWM")
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			code, body, err := s.do(t.Context(), "GET", crontabsPath, "")
			if err != nil || code != 200 || len(body) != size {
				t.Errorf("list: %d %v, %d bytes, want %d", code, err, len(body), size)
			}
		}()
	}
	wg.Wait()
	after := s.procStatusMB("VmHWM")
	t.Logf("8 concurrent lists of %d MB: peak RSS %d → %d MB", size>>20, before, after)
	if after-before > size>>20 {
		t.Errorf("8 concurrent lists of %d MB raised the peak RSS by %d MB, want less than one list's size", size>>20, after-before)
	}
}
