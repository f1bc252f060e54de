package reliability

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// TestOverload squeezes a server with tiny limits (2 read-only and 2
// mutating requests in flight, 5 watches) with 64 writers, 64 readers and
// 20 watches: the excess must be answered at once with 429
// TooManyRequests and Retry-After: 1, a refused create must write
// nothing, and /readyz must keep answering (health checks are never
// limited).
func TestOverload(t *testing.T) {
	s := startServer(t, t.TempDir(), serverOptions{args: []string{
		"--max-requests-inflight", "2", "--max-mutating-requests-inflight", "2", "--max-watches", "5"}})
	setupCRD(s)
	// ctx ends the load: no request starts after it, but those started
	// run to the end (a create cut off by its client may or may not
	// have happened, which would blur the check below); the watches end
	// with it.
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	bg := context.Background()

	var created sync.Map // name → true, for every 201
	var codes [600]atomic.Int64
	var badRetryAfter atomic.Int64
	var wg sync.WaitGroup
	record := func(code int, header http.Header, body []byte) {
		codes[code].Add(1)
		if code == 429 {
			var st struct{ Reason string }
			_ = json.Unmarshal(body, &st)
			if header.Get("Retry-After") != "1" || st.Reason != "TooManyRequests" {
				badRetryAfter.Add(1)
			}
		}
	}
	for g := range 64 {
		wg.Add(2)
		go func() { // a writer
			defer wg.Done()
			for i := 0; ctx.Err() == nil; i++ {
				name := fmt.Sprintf("o%02d-%d", g, i)
				code, header, body, err := s.doHeader(bg, "POST", crontabsPath, cronTab("default", name, "o", i))
				if err != nil {
					return
				}
				record(code, header, body)
				if code == 201 {
					created.Store(name, true)
				}
			}
		}()
		go func() { // a reader
			defer wg.Done()
			for ctx.Err() == nil {
				code, header, body, err := s.doHeader(bg, "GET", crontabsPath, "")
				if err != nil {
					return
				}
				record(code, header, body)
			}
		}()
	}
	// Watches: hold them open; the sixth and later must be refused.
	var watches429 atomic.Int64
	for range 20 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			req, _ := http.NewRequestWithContext(ctx, "GET", s.url+crontabsPath+"?watch=1", nil)
			resp, err := s.client.Do(req)
			if err != nil {
				return
			}
			defer resp.Body.Close()
			if resp.StatusCode == 429 {
				watches429.Add(1)
				return
			}
			<-ctx.Done()
		}()
	}
	var readyMax time.Duration
	for ctx.Err() == nil {
		t0 := time.Now()
		code, _, err := s.do(context.Background(), "GET", "/readyz", "")
		readyMax = max(readyMax, time.Since(t0))
		if err != nil || code != 200 {
			t.Errorf("/readyz under overload: %d %v", code, err)
		}
		time.Sleep(100 * time.Millisecond)
	}
	wg.Wait()

	if codes[429].Load() == 0 || watches429.Load() < 15 {
		t.Errorf("429s: %d requests, %d watches; want some requests and at least 15 of the 20 watches refused", codes[429].Load(), watches429.Load())
	}
	if n := badRetryAfter.Load(); n > 0 {
		t.Errorf("%d 429s without Retry-After: 1 or a TooManyRequests Status", n)
	}
	for c := 500; c < 600; c++ {
		if n := codes[c].Load(); n > 0 {
			t.Errorf("%d answers %d", n, c)
		}
	}
	// Generous: CI runs this beside other tests, with -race.
	if readyMax > 5*time.Second {
		t.Errorf("/readyz took %v under overload", readyMax)
	}
	// Exactly the acknowledged creates are there.
	var list struct {
		Items []object
	}
	if err := json.Unmarshal(s.must(200, "GET", crontabsPath, ""), &list); err != nil {
		t.Fatal(err)
	}
	n := 0
	created.Range(func(any, any) bool { n++; return true })
	for _, o := range list.Items {
		if _, ok := created.Load(o.Metadata.Name); !ok {
			t.Errorf("%s is stored, but its create was not acknowledged", o.Metadata.Name)
		}
	}
	if len(list.Items) != n {
		t.Errorf("%d objects stored, %d creates acknowledged", len(list.Items), n)
	}
	t.Logf("overload (2+2 in flight, 5 watches): %d created, %d lists served, %d requests and %d of 20 watches answered 429 with Retry-After: 1; /readyz slowest %v",
		codes[201].Load(), codes[200].Load(), codes[429].Load(), watches429.Load(), readyMax.Round(time.Millisecond))
}

// doHeader is do that also returns the answer's header.
func (s *server) doHeader(ctx context.Context, method, path, body string) (int, http.Header, []byte, error) {
	var header http.Header
	code, b, err := s.doWith(ctx, method, path, body, func(h http.Header) { header = h })
	return code, header, b, err
}
