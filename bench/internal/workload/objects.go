package workload

// The requests of the "many objects" family (issue 20): custom resources of 1–5 KB
// created and updated in bulk, full and paginated lists read as a stream (a list of
// 100,000 objects is hundreds of megabytes: the client counts its items without keeping
// it), a watch that catches up from an old resourceVersion, and a writer that times its
// writes while the server compacts.

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"
)

// SizedPayloadBytes is the payload of the i-th object of the family: 770 to 4,749 bytes,
// spread evenly, so that objects weigh 1 to 5 KB as sent.
func SizedPayloadBytes(i int) int { return 770 + (i*7919)%3980 }

// sizedPayload is a long string cut to n bytes.
var sizedPayload = strings.Repeat("0123456789abcdef", 5000/16+1)

// SizedObject is the manifest of the i-th object of the family, named name in ns.
func (c CRD) SizedObject(ns, name string, i int) []byte {
	return fmt.Appendf(nil, `{"apiVersion":"%s/%s","kind":%q,"metadata":{"name":%q,"namespace":%q,"labels":{"app":"crdbench","shard":"s%d"}},"spec":{"size":%d,"color":"blue","counter":0,"payload":%q,"tags":["alpha","beta","gamma"]}}`,
		Group, Version, c.Kind, name, ns, i%16, i%1000, sizedPayload[:SizedPayloadBytes(i)])
}

// CreateSized creates the objects prefix-first … prefix-(first+n-1) of the family in ns
// with the given number of concurrent clients.
func (t *Target) CreateSized(ctx context.Context, crd CRD, ns, prefix string, first, n, clients int) (Timed, error) {
	path := crd.Path(ns)
	return t.parallel(ctx, n, clients, func(ctx context.Context, i int) error {
		_, err := t.expect(ctx, http.StatusCreated, http.MethodPost, path, crd.SizedObject(ns, ObjectName(prefix, first+i), first+i), "")
		return err
	})
}

// PatchCounter sets spec.counter of the objects prefix-first … prefix-(first+n-1) to
// counter, one merge patch each (no precondition), with the given number of clients.
func (t *Target) PatchCounter(ctx context.Context, crd CRD, ns, prefix string, first, n, clients, counter int) (Timed, error) {
	body := fmt.Appendf(nil, `{"spec":{"counter":%d}}`, counter)
	return t.parallel(ctx, n, clients, func(ctx context.Context, i int) error {
		_, err := t.expect(ctx, http.StatusOK, http.MethodPatch, crd.Path(ns)+"/"+ObjectName(prefix, first+i), body, "application/merge-patch+json")
		return err
	})
}

// CurrentRV is the resourceVersion of a one-item list of crd in ns: the store's latest
// revision (a list without resourceVersion is a consistent read on both servers).
func (t *Target) CurrentRV(ctx context.Context, crd CRD, ns string) (string, error) {
	r, err := t.expect(ctx, http.StatusOK, http.MethodGet, crd.Path(ns)+"?limit=1", nil, "")
	if err != nil {
		return "", err
	}
	rv := listRV(r.Body)
	if rv == "" {
		return "", fmt.Errorf("%s: no resourceVersion in a list", t.Name)
	}
	return rv, nil
}

// listRV picks the list's own resourceVersion: its metadata may come before the items
// (crdlab) or after them (upstream encodes an unstructured list's keys in order).
func listRV(b []byte) string {
	items, meta := bytes.Index(b, []byte(`"items":[`)), bytes.Index(b, []byte(`"metadata":{`))
	if items >= 0 && meta > items {
		meta = bytes.LastIndex(b, []byte(`"metadata":{`))
	}
	if meta < 0 {
		return ""
	}
	return resourceVersion(b[meta:])
}

// StreamList is one list read as a stream.
type StreamList struct {
	Latency time.Duration
	Bytes   int64
	Items   int
	// Continue is the list's continue token ("" on the last page).
	Continue string
}

// ListStream GETs path (a list), counts the items of kind crd.Kind and picks the continue
// token, without keeping the body.
func (t *Target) ListStream(ctx context.Context, crd CRD, path string) (StreamList, error) {
	s := time.Now()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, t.Base+path, nil)
	if err != nil {
		return StreamList{}, err
	}
	req.Header.Set("Accept", "application/json")
	resp, err := t.http.Do(req)
	if err != nil {
		return StreamList{}, fmt.Errorf("%s: GET %s: %w", t.Name, path, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		b, _ := io.ReadAll(io.LimitReader(resp.Body, 300))
		return StreamList{}, fmt.Errorf("%s: GET %s: got %d, want 200: %s", t.Name, path, resp.StatusCode, b)
	}
	c := newCounter([]byte(`"kind":"`+crd.Kind+`"`), []byte(`"continue":"`))
	n, err := io.Copy(c, resp.Body)
	if err != nil {
		return StreamList{}, fmt.Errorf("%s: GET %s: reading: %w", t.Name, path, err)
	}
	return StreamList{Latency: time.Since(s), Bytes: n, Items: c.count, Continue: c.value}, nil
}

// PagedList lists crd in ns in pages of limit, following continue tokens, and returns the
// whole walk: its time, bytes and items, and the number of pages.
func (t *Target) PagedList(ctx context.Context, crd CRD, ns string, limit int) (StreamList, int, error) {
	var total StreamList
	pages := 0
	cont := ""
	s := time.Now()
	for {
		q := url.Values{"limit": {strconv.Itoa(limit)}}
		if cont != "" {
			q.Set("continue", cont)
		}
		l, err := t.ListStream(ctx, crd, crd.Path(ns)+"?"+q.Encode())
		if err != nil {
			return total, pages, err
		}
		pages++
		total.Bytes += l.Bytes
		total.Items += l.Items
		if l.Items > limit {
			return total, pages, fmt.Errorf("%s: a page of limit %d has %d items", t.Name, limit, l.Items)
		}
		if l.Continue == "" {
			break
		}
		cont = l.Continue
	}
	total.Latency = time.Since(s)
	return total, pages, nil
}

// counter counts the occurrences of a pattern in what is written to it, and keeps the
// JSON string value after the first occurrence of key (a continue token: short, and the
// only field of that name in a list).
type counter struct {
	pat, key []byte
	count    int
	carry    []byte // the last bytes seen, which may start an occurrence
	state    int    // 0: key not seen; 1: reading its value; 2: value read
	val      []byte
	value    string
}

func newCounter(pat, key []byte) *counter { return &counter{pat: pat, key: key} }

// Write counts in p, and in the few bytes where the last write and this one meet: it
// copies only those (a list of 345 MB copied whole into the carry cost the client about
// 0.4 s, as much as crdlab took to send it).
func (c *counter) Write(p []byte) (int, error) {
	n := len(p)
	if c.state == 1 {
		p = c.readValue(p)
	}
	// The carry is shorter than the pattern and the key, and so is the head of p joined
	// to it: an occurrence in the joint crosses the boundary, one in p does not, and none
	// is counted twice.
	keep := max(len(c.pat), len(c.key)) - 1
	tail := len(c.carry)
	joint := append(c.carry, p[:min(len(p), keep)]...)
	c.count += countPattern(joint, c.pat) + countPattern(p, c.pat)
	if c.state == 0 {
		if i := bytes.Index(joint, c.key); i >= 0 {
			c.state = 1
			c.readValue(p[i+len(c.key)-tail:])
		} else if i := bytes.Index(p, c.key); i >= 0 {
			c.state = 1
			c.readValue(p[i+len(c.key):])
		}
	}
	if len(p) >= keep {
		c.carry = append(joint[:0], p[len(p)-keep:]...)
	} else {
		c.carry = append(joint[:0], joint[max(0, len(joint)-keep):]...)
	}
	return n, nil
}

// countPattern is bytes.Count(s, pat), faster for a pattern with an upper-case letter (a
// kind): it looks for that byte with bytes.IndexByte, rare in a list's JSON, where
// bytes.Count's search starts from pat's first byte, a quote, which is everywhere.
func countPattern(s, pat []byte) int {
	anchor := bytes.IndexFunc(pat, func(r rune) bool { return r >= 'A' && r <= 'Z' })
	if anchor < 0 {
		return bytes.Count(s, pat)
	}
	n := 0
	for from := anchor; from < len(s); {
		i := bytes.IndexByte(s[from:], pat[anchor])
		if i < 0 {
			break
		}
		at := from + i - anchor // where pat would start
		if at+len(pat) <= len(s) && bytes.Equal(s[at:at+len(pat)], pat) {
			n++
			from = at + len(pat) + anchor
			continue
		}
		from += i + 1
	}
	return n
}

// readValue gathers the value's bytes up to its closing quote and returns what follows.
func (c *counter) readValue(p []byte) []byte {
	j := bytes.IndexByte(p, '"')
	if j < 0 {
		c.val = append(c.val, p...)
		return nil
	}
	c.val = append(c.val, p[:j]...)
	c.value = string(c.val)
	c.state = 2
	return p[j+1:]
}

// CatchUp is a watch from an old resourceVersion, read until it has caught up.
type CatchUp struct {
	// First is the time from sending the watch to its first event; All to the last of
	// the events wanted.
	First, All time.Duration
	Events     int
	OutOfOrder int
}

// ErrWatchExpired is a watch answered with 410 Gone (its resourceVersion is older than
// the history the server keeps).
var ErrWatchExpired = errors.New("resourceVersion too old: 410 Gone")

// WatchCatchUp watches crd in ns from resourceVersion rv and reads want events (ADDED,
// MODIFIED or DELETED; bookmarks are skipped), checking that their resourceVersions
// rise. It fails after timeout.
func (t *Target) WatchCatchUp(ctx context.Context, crd CRD, ns, rv string, want int, timeout time.Duration) (CatchUp, error) {
	var res CatchUp
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	q := url.Values{"watch": {"1"}, "resourceVersion": {rv}, "timeoutSeconds": {strconv.Itoa(int(timeout.Seconds()) + 60)}}
	wclient := &http.Client{Transport: newTransport(0)}
	defer wclient.CloseIdleConnections()
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, t.Base+crd.Path(ns)+"?"+q.Encode(), nil)
	s := time.Now()
	resp, err := wclient.Do(req)
	if err != nil {
		return res, fmt.Errorf("%s: watch from %s: %w", t.Name, rv, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode == http.StatusGone {
		return res, fmt.Errorf("%s: watch from %s: %w", t.Name, rv, ErrWatchExpired)
	}
	if resp.StatusCode != http.StatusOK {
		b, _ := io.ReadAll(io.LimitReader(resp.Body, 300))
		return res, fmt.Errorf("%s: watch from %s: HTTP %d: %s", t.Name, rv, resp.StatusCode, b)
	}
	br := bufio.NewReaderSize(resp.Body, 64<<10)
	var last int64
	for res.Events < want {
		line, err := br.ReadBytes('\n')
		if err != nil {
			return res, fmt.Errorf("%s: watch from %s ended after %d of %d events: %w", t.Name, rv, res.Events, want, err)
		}
		switch typ := eventType(line); typ {
		case "BOOKMARK":
			continue
		case "ADDED", "MODIFIED", "DELETED":
		case "ERROR":
			if bytes.Contains(line, []byte(`"code":410`)) {
				return res, fmt.Errorf("%s: watch from %s: %w (%s)", t.Name, rv, ErrWatchExpired, truncate(line, 200))
			}
			return res, fmt.Errorf("%s: watch from %s: ERROR event %s", t.Name, rv, truncate(line, 300))
		default:
			return res, fmt.Errorf("%s: watch from %s: unexpected event %s", t.Name, rv, truncate(line, 300))
		}
		if res.Events == 0 {
			res.First = time.Since(s)
		}
		res.Events++
		n, _ := strconv.ParseInt(resourceVersion(line), 10, 64)
		if n <= last {
			res.OutOfOrder++
		}
		last = n
	}
	res.All = time.Since(s)
	return res, nil
}

// Write is one timed write of a Writer.
type Write struct {
	Start, End time.Time
}

// Writer updates objects one after the other, from one client, until stopped, and
// times every write: the load whose latency a compaction may disturb.
type Writer struct {
	stop chan struct{}
	done chan struct{}
	mu   sync.Mutex
	w    []Write // guarded by mu
	err  error   // guarded by mu
}

// StartWriter patches spec.counter of prefix-0 … prefix-(n-1) in turn until Stop.
func (t *Target) StartWriter(ctx context.Context, crd CRD, ns, prefix string, n int) *Writer {
	w := &Writer{stop: make(chan struct{}), done: make(chan struct{})}
	go func() {
		defer close(w.done)
		for i := 0; ; i++ {
			select {
			case <-w.stop:
				return
			case <-ctx.Done():
				return
			default:
			}
			body := fmt.Appendf(nil, `{"spec":{"counter":%d}}`, 1_000_000+i)
			s := time.Now()
			_, err := t.expect(ctx, http.StatusOK, http.MethodPatch, crd.Path(ns)+"/"+ObjectName(prefix, i%n), body, "application/merge-patch+json")
			e := time.Now()
			w.mu.Lock()
			if err != nil {
				if w.err == nil {
					w.err = err
				}
			} else {
				w.w = append(w.w, Write{s, e})
			}
			w.mu.Unlock()
			if err != nil {
				return
			}
		}
	}()
	return w
}

// Count is the number of writes done so far.
func (w *Writer) Count() int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return len(w.w)
}

// Stop stops the writer and returns its writes and its first error.
func (w *Writer) Stop() ([]Write, error) {
	close(w.stop)
	<-w.done
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.w, w.err
}

// Split sorts writes into those that overlap [from, to] and the others.
func Split(ws []Write, from, to time.Time) (during, outside []time.Duration) {
	for _, w := range ws {
		d := w.End.Sub(w.Start)
		if w.End.Before(from) || w.Start.After(to) {
			outside = append(outside, d)
		} else {
			during = append(during, d)
		}
	}
	return during, outside
}

// PrepareNamespace creates namespace ns if the server serves namespaces (crdlab admits
// objects only in existing ones); one that exists is fine, and a server that serves none
// (404: the reference apiextensions-apiserver, which admits any name) needs none.
func (t *Target) PrepareNamespace(ctx context.Context, ns string) error {
	r, err := t.do(ctx, http.MethodPost, "/api/v1/namespaces", fmt.Appendf(nil, `{"apiVersion":"v1","kind":"Namespace","metadata":{"name":%q}}`, ns), "")
	if err != nil {
		return fmt.Errorf("%s: create namespace %s: %w", t.Name, ns, err)
	}
	switch r.Code {
	case http.StatusCreated, http.StatusConflict, http.StatusNotFound:
		return nil
	}
	return fmt.Errorf("%s: create namespace %s: %d %s", t.Name, ns, r.Code, truncate(r.Body, 200))
}

// Post sends a JSON body to path and returns the response body if the answer is 200.
func (t *Target) Post(ctx context.Context, path string, body []byte) ([]byte, error) {
	r, err := t.expect(ctx, http.StatusOK, http.MethodPost, path, body, "")
	return r.Body, err
}
