package apiserver

import (
	"fmt"
	"net"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
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
func TestServer_WatchOfAStalledClientEnds(t *testing.T) {
	ts := startServer(t, Config{WatchWriteTimeout: 300 * time.Millisecond})
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
	fmt.Fprintf(conn, "GET /apis/stable.example.com/v1/namespaces/default/crontabs?watch=true HTTP/1.1\r\nHost: x\r\n\r\n")
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
