package apiserver

import (
	"bufio"
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/crdlab/crdlab/apiserver/tlsutil"
)

// longRunning reads apiserver_longrunning_requests from /metrics.
func longRunning(t *testing.T, url string) int {
	t.Helper()
	_, body := get(t, url+"/metrics")
	m := regexp.MustCompile(`apiserver_longrunning_requests\{verb="WATCH"\} (\d+)`).FindStringSubmatch(body)
	if m == nil {
		t.Fatalf("no apiserver_longrunning_requests in /metrics")
	}
	n, _ := strconv.Atoi(m[1])
	return n
}

// TestServer_WatchOfAStalledClientEnds checks that a watch whose client
// stops reading ends once a write has waited WatchWriteTimeout, instead
// of holding its goroutine, connection and --max-watches slot forever.
//
// It counts the server's open watches, so it runs without the kube
// controllers: the garbage collector opens a watch on crontabs whenever its
// discovery sync notices the new resource, which on a slow machine (or with
// -cpu 1, every time) is after the count before the stalled watch was taken.
func TestServer_WatchOfAStalledClientEnds(t *testing.T) {
	ts := startServer(t, Config{WatchWriteTimeout: 300 * time.Millisecond,
		Controllers: []string{"*", "-" + GarbageCollectorControllerName, "-" + NamespaceControllerName}})
	eventually(t, "ready", func() bool { code, _ := get(t, ts.url+"/readyz"); return code == 200 })
	if code := post(t, ts.url+"/apis/apiextensions.k8s.io/v1/customresourcedefinitions", crdJSON); code != 201 {
		t.Fatalf("create CRD: %d", code)
	}
	crontabs := ts.url + "/apis/stable.example.com/v1/namespaces/default/crontabs"
	eventually(t, "crontabs served", func() bool { code, _ := get(t, crontabs); return code == 200 })
	pad := strings.Repeat("x", 200<<10)
	obj := func(i int) string {
		return fmt.Sprintf(`{"apiVersion":"stable.example.com/v1","kind":"CronTab","metadata":{"name":"big"},"spec":{"n":%d,"pad":%q}}`, i, pad)
	}
	if code := post(t, crontabs, obj(0)); code != 201 {
		t.Fatalf("create: %d", code)
	}
	base := longRunning(t, ts.url)

	// A client that asks for a watch with a tiny receive buffer and never
	// reads it.
	d := net.Dialer{Control: func(_, _ string, c syscall.RawConn) error {
		var err error
		if cerr := c.Control(func(fd uintptr) {
			err = syscall.SetsockoptInt(int(fd), syscall.SOL_SOCKET, syscall.SO_RCVBUF, 4096)
		}); cerr != nil {
			return cerr
		}
		return err
	}}
	conn, err := d.Dial("tcp", strings.TrimPrefix(ts.url, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	fmt.Fprintf(conn, "GET /apis/stable.example.com/v1/namespaces/default/crontabs?watch=true HTTP/1.1\r\nHost: localhost\r\n\r\n")
	eventually(t, "the watch is open", func() bool { return longRunning(t, ts.url) == base+1 })

	// 60 updates of 200 KiB: far more than the socket buffers hold.
	for i := 1; i <= 60; i++ {
		req, err := http.NewRequest("PATCH", crontabs+"/big", strings.NewReader(fmt.Sprintf(`{"spec":{"n":%d}}`, i)))
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Content-Type", "application/merge-patch+json")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != 200 {
			t.Fatalf("update %d: %d", i, resp.StatusCode)
		}
	}
	eventually(t, "the stalled watch has ended", func() bool { return longRunning(t, ts.url) == base })
}

// TestServer_IdleWatchOutlivesWriteTimeout checks that the watch write
// timeout bounds writes only: a watch idle for longer than it still gets
// the next event, over HTTP/1.1 and over HTTP/2 (where a passed deadline
// would reset the stream even without a write).
func TestServer_IdleWatchOutlivesWriteTimeout(t *testing.T) {
	const writeTimeout = 200 * time.Millisecond
	for _, proto := range []string{"HTTP/1.1", "HTTP/2.0"} {
		t.Run(proto, func(t *testing.T) {
			cfg := Config{WatchWriteTimeout: writeTimeout}
			var certs string
			if proto == "HTTP/2.0" {
				certs = filepath.Join(t.TempDir(), "certs")
				cfg.SecureServing.SelfSignedCertDir = certs
			}
			ts := startServer(t, cfg)
			url, c := ts.URL(), http.DefaultClient
			if certs != "" {
				roots := x509.NewCertPool()
				ca, err := os.ReadFile(filepath.Join(certs, tlsutil.CACertFile))
				if err != nil || !roots.AppendCertsFromPEM(ca) {
					t.Fatalf("ca.crt: %v", err)
				}
				c = &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: roots}, ForceAttemptHTTP2: true}}
				t.Cleanup(c.CloseIdleConnections)
			}
			eventually(t, "ready", func() bool { code, _ := call(t, c, "GET", url+"/readyz", "", ""); return code == 200 })
			if code, body := call(t, c, "POST", url+crdsPath, "", crdJSON); code != 201 {
				t.Fatalf("create the CRD: %d %s", code, body)
			}
			waitEstablished(t, c, url, "")

			resp, err := c.Get(url + crontabsPath + "?watch=true")
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			if resp.Proto != proto {
				t.Fatalf("watch over %s, want %s", resp.Proto, proto)
			}
			lines := make(chan string, 1)
			go func() {
				sc := bufio.NewScanner(resp.Body)
				for sc.Scan() {
					lines <- sc.Text()
				}
				close(lines)
			}()
			// Idle for five write timeouts (the subject of the test, not a
			// wait for something to happen), then an event must arrive.
			time.Sleep(5 * writeTimeout)
			body := `{"apiVersion":"stable.example.com/v1","kind":"CronTab","metadata":{"name":"late"},"spec":{}}`
			if code, b := call(t, c, "POST", url+crontabsPath, "", body); code != 201 {
				t.Fatalf("create: %d %s", code, b)
			}
			select {
			case line, ok := <-lines:
				if !ok || !strings.Contains(line, `"type":"ADDED"`) || !strings.Contains(line, `"name":"late"`) {
					t.Fatalf("after an idle spell the watch gave %q (open %v)", line, ok)
				}
			case <-time.After(10 * time.Second):
				t.Fatal("no event after an idle spell")
			}
		})
	}
}
