package workload

// The "many CRDs" family of issue 20: real-size CRDs (internal/crdgen, written by
// internal/crdgen/gencrds), created in bulk, then the server's discovery, OpenAPI and
// custom-resource paths measured with all of them present.

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// GenCRD is one generated CRD of index.json.
type GenCRD struct {
	Name     string          `json:"name"`
	Group    string          `json:"group"`
	Plural   string          `json:"plural"`
	Kind     string          `json:"kind"`
	Versions []string        `json:"versions"` // the storage version last
	Object   json.RawMessage `json:"object"`   // an instance named "x", in the storage version
	Bytes    int             `json:"bytes"`
}

// ListPath is the path of the CRD's custom resources in its first version.
func (c GenCRD) ListPath() string { return "/apis/" + c.Group + "/" + c.Versions[0] + "/" + c.Plural }

// GenCRDs is a directory written by gencrds: crds.jsonl and index.json.
type GenCRDs struct {
	Dir   string
	Index []GenCRD
}

// LoadGenCRDs reads the index of a gencrds directory.
func LoadGenCRDs(dir string) (*GenCRDs, error) {
	b, err := os.ReadFile(filepath.Join(dir, "index.json"))
	if err != nil {
		return nil, err
	}
	g := &GenCRDs{Dir: dir}
	if err := json.Unmarshal(b, &g.Index); err != nil {
		return nil, fmt.Errorf("%s: %w", filepath.Join(dir, "index.json"), err)
	}
	return g, nil
}

// each calls fn with CRD i's JSON for i in [from, to), reading crds.jsonl in order.
func (g *GenCRDs) each(ctx context.Context, from, to int, fn func(i int, body []byte) error) error {
	f, err := os.Open(filepath.Join(g.Dir, "crds.jsonl"))
	if err != nil {
		return err
	}
	defer f.Close()
	r := bufio.NewReaderSize(f, 1<<20)
	for i := 0; i < to; i++ {
		line, err := r.ReadBytes('\n')
		if err != nil {
			return fmt.Errorf("crds.jsonl, line %d: %w", i+1, err)
		}
		if i < from {
			continue
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		if err := fn(i, line[:len(line)-1]); err != nil {
			return err
		}
	}
	return nil
}

// CreateCRDs creates CRDs [from, to) with the given number of clients and times each
// create (201 expected).
func (t *Target) CreateCRDs(ctx context.Context, g *GenCRDs, from, to, clients int) (Timed, error) {
	bodies := make(chan []byte, clients)
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	readErr := make(chan error, 1)
	go func() {
		defer close(bodies)
		readErr <- g.each(ctx, from, to, func(_ int, b []byte) error {
			select {
			case bodies <- b:
				return nil
			case <-ctx.Done():
				return ctx.Err()
			}
		})
	}()
	timed, err := t.parallel(ctx, to-from, clients, func(ctx context.Context, _ int) error {
		b, ok := <-bodies
		if !ok {
			return fmt.Errorf("crds.jsonl ended early")
		}
		_, err := t.expect(ctx, http.StatusCreated, http.MethodPost, "/apis/apiextensions.k8s.io/v1/customresourcedefinitions", b, "")
		return err
	})
	cancel()
	if rerr := <-readErr; err == nil && rerr != nil && ctx.Err() == nil {
		err = rerr
	}
	return timed, err
}

// AggregatedDiscovery is the Accept header of aggregated discovery (apidiscovery v2).
const AggregatedDiscovery = "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList"

// get sends a GET with an Accept header and reads the whole response.
func (t *Target) get(ctx context.Context, path, accept string) (response, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, t.Base+path, nil)
	if err != nil {
		return response{}, err
	}
	req.Header.Set("Accept", accept)
	resp, err := t.http.Do(req)
	if err != nil {
		return response{}, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	return response{Code: resp.StatusCode, Body: b}, err
}

// GetBody GETs path with the Accept header accept and returns the body (200 expected).
func (t *Target) GetBody(ctx context.Context, path, accept string) ([]byte, error) {
	r, err := t.get(ctx, path, accept)
	if err != nil {
		return nil, err
	}
	if r.Code != http.StatusOK {
		return nil, fmt.Errorf("%s GET %s: %d: %s", t.Name, path, r.Code, truncate(r.Body, 300))
	}
	return r.Body, nil
}

// Discovered counts the CRDs of crds that aggregated discovery lists in every one of
// their versions: in both servers (as upstream's DiscoveryController), only Established
// CRDs are listed.
func (t *Target) Discovered(ctx context.Context, crds []GenCRD) (int, error) {
	r, err := t.get(ctx, "/apis", AggregatedDiscovery)
	if err != nil {
		return 0, err
	}
	if r.Code != http.StatusOK {
		return 0, fmt.Errorf("%s GET /apis (aggregated): %d: %s", t.Name, r.Code, truncate(r.Body, 300))
	}
	var list struct {
		Items []struct {
			Metadata struct{ Name string }
			Versions []struct {
				Version   string
				Resources []struct{ Resource string }
			}
		}
	}
	if err := json.Unmarshal(r.Body, &list); err != nil {
		return 0, fmt.Errorf("%s aggregated discovery: %w", t.Name, err)
	}
	seen := map[string]bool{}
	for _, g := range list.Items {
		for _, v := range g.Versions {
			for _, res := range v.Resources {
				seen[g.Metadata.Name+"/"+v.Version+"/"+res.Resource] = true
			}
		}
	}
	n := 0
	for _, c := range crds {
		all := true
		for _, v := range c.Versions {
			all = all && seen[c.Group+"/"+v+"/"+c.Plural]
		}
		if all {
			n++
		}
	}
	return n, nil
}

// Served lists the custom resources of every CRD of crds (200 expected), with the given
// number of clients.
func (t *Target) Served(ctx context.Context, crds []GenCRD, clients int) error {
	_, err := t.parallel(ctx, len(crds), clients, func(ctx context.Context, i int) error {
		_, err := t.expect(ctx, http.StatusOK, http.MethodGet, crds[i].ListPath(), nil, "")
		return err
	})
	return err
}

// TimedGets sends GETs of paths[i % len(paths)], n in all, one client, with the Accept
// header accept, and times each (200 expected). With encoding "gzip" each request says
// Accept-Encoding: gzip, as kubectl's and client-go's do (Go's transport adds it), and the
// body is read as it arrives, compressed or not: the time is the server's answer, not
// the client's decompression. Timed.Bytes is the last body's size as received; a
// compressed body is checked to decompress.
//
// Each body is read into one buffer the client keeps, and dropped: reading
// a 2 MB document (aggregated discovery at 2,000 CRDs) with io.ReadAll
// grew a new buffer by doubling on every request, and the client's own
// collections of that garbage stretched the p99 (2.9 → 1.8 ms p50 and
// 15 → 5.5 ms p99 for the same server, session 19).
func (t *Target) TimedGets(ctx context.Context, paths []string, n int, accept, encoding string) (Timed, error) {
	var buf []byte
	var gzipped bool
	timed, err := t.parallel(ctx, n, 1, func(ctx context.Context, i int) error {
		p := paths[i%len(paths)]
		code, ce, body, err := t.getInto(ctx, p, accept, encoding, buf[:0])
		if err != nil {
			return err
		}
		if code != http.StatusOK {
			return fmt.Errorf("%s GET %s: %d: %s", t.Name, p, code, truncate(body, 300))
		}
		buf, gzipped = body, ce == "gzip"
		return nil
	})
	if err != nil {
		return timed, err
	}
	timed.Bytes = len(buf)
	if gzipped {
		zr, err := gzip.NewReader(bytes.NewReader(buf))
		if err == nil {
			_, err = io.Copy(io.Discard, zr)
		}
		if err != nil {
			return timed, fmt.Errorf("%s GET %s: the gzip-compressed body: %w", t.Name, paths[(n-1)%len(paths)], err)
		}
	}
	return timed, nil
}

// getInto is get reading the body into buf (grown if it must be), as it arrives: the
// transport does not decompress (DisableCompression), so a body the server compressed
// stays compressed (ce is its Content-Encoding).
func (t *Target) getInto(ctx context.Context, path, accept, encoding string, buf []byte) (code int, ce string, body []byte, err error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, t.Base+path, nil)
	if err != nil {
		return 0, "", buf, err
	}
	req.Header.Set("Accept", accept)
	if encoding != "" {
		req.Header.Set("Accept-Encoding", encoding)
	}
	resp, err := t.http.Do(req)
	if err != nil {
		return 0, "", buf, err
	}
	defer resp.Body.Close()
	b := bytes.NewBuffer(buf)
	_, err = b.ReadFrom(resp.Body)
	return resp.StatusCode, resp.Header.Get("Content-Encoding"), b.Bytes(), err
}

// CreateCRs creates n instances of c (its object with the names prefix-0 …), one client,
// and times each (201 expected).
func (t *Target) CreateCRs(ctx context.Context, c GenCRD, prefix string, n int) (Timed, error) {
	path := "/apis/" + c.Group + "/" + c.Versions[len(c.Versions)-1] + "/" + c.Plural
	return t.parallel(ctx, n, 1, func(ctx context.Context, i int) error {
		body := strings.Replace(string(c.Object), `"name":"x"`, fmt.Sprintf(`"name":"%s-%d"`, prefix, i), 1)
		_, err := t.expect(ctx, http.StatusCreated, http.MethodPost, path, []byte(body), "")
		return err
	})
}

// WaitDiscovered polls aggregated discovery every interval until every CRD of crds is
// listed, stop returns a reason to give up (a budget), or ctx ends. It returns how many
// were listed at the end and stop's reason, if it stopped.
func (t *Target) WaitDiscovered(ctx context.Context, crds []GenCRD, interval time.Duration, stop func() string) (int, string, error) {
	for {
		n, err := t.Discovered(ctx, crds)
		if err != nil {
			return n, "", err
		}
		if n == len(crds) {
			return n, "", nil
		}
		if why := stop(); why != "" {
			return n, why, nil
		}
		select {
		case <-ctx.Done():
			return n, "", ctx.Err()
		case <-time.After(interval):
		}
	}
}
