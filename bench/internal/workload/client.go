// Package workload is the client side of crdbench: the same requests, made the same way,
// against any server that speaks the Kubernetes API for CustomResourceDefinitions.
//
// It uses plain net/http and hand-written JSON on purpose: no client-go, no informers, so
// that what is measured is the server and the client costs the same for both servers.
// Responses are read in full (a request is done when its last byte is in), and only the
// few fields the workload needs are picked out of them.
package workload

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"time"
)

// Group and Version of the benchmark's CRDs.
const (
	Group   = "bench.crdlab.dev"
	Version = "v1"
)

// Target is one server under test.
type Target struct {
	// Name names the server in the results: "reference" or "crdlab".
	Name string
	// Base is the server's URL, e.g. http://127.0.0.1:8080.
	Base string
	// Pids are the processes whose CPU time and memory count as the server's (for the
	// reference: the apiserver and etcd).
	Pids []int

	http *http.Client
}

// NewTarget makes a Target with its own pooled HTTP client: keep-alive connections
// enough for 16 concurrent clients, no gzip (both servers would otherwise compress large
// lists, and the benchmark compares servers, not compression).
func NewTarget(name, base string, pids ...int) *Target {
	return &Target{Name: name, Base: base, Pids: pids, http: &http.Client{Transport: newTransport(64)}}
}

func newTransport(idle int) *http.Transport {
	return &http.Transport{
		DialContext:         (&net.Dialer{Timeout: 10 * time.Second, KeepAlive: 30 * time.Second}).DialContext,
		MaxIdleConns:        idle,
		MaxIdleConnsPerHost: idle,
		IdleConnTimeout:     90 * time.Second,
		DisableCompression:  true,
		ForceAttemptHTTP2:   false,
	}
}

// response is what the workload keeps of an HTTP response.
type response struct {
	Code int
	Body []byte
}

// do sends one request and reads the whole response.
func (t *Target) do(ctx context.Context, method, path string, body []byte, contentType string) (response, error) {
	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, method, t.Base+path, rd)
	if err != nil {
		return response{}, err
	}
	req.Header.Set("Accept", "application/json")
	if body != nil {
		if contentType == "" {
			contentType = "application/json"
		}
		req.Header.Set("Content-Type", contentType)
	}
	resp, err := t.http.Do(req)
	if err != nil {
		return response{}, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		return response{}, err
	}
	return response{Code: resp.StatusCode, Body: b}, nil
}

// expect is do that fails unless the response code is want.
func (t *Target) expect(ctx context.Context, want int, method, path string, body []byte, contentType string) (response, error) {
	r, err := t.do(ctx, method, path, body, contentType)
	if err != nil {
		return r, fmt.Errorf("%s %s %s: %w", t.Name, method, path, err)
	}
	if r.Code != want {
		return r, fmt.Errorf("%s %s %s: got %d, want %d: %s", t.Name, method, path, r.Code, want, truncate(r.Body, 300))
	}
	return r, nil
}

func truncate(b []byte, n int) string {
	if len(b) > n {
		return string(b[:n]) + "…"
	}
	return string(b)
}

var rvKey = []byte(`"resourceVersion":"`)

// resourceVersion picks the first "resourceVersion" string out of a JSON object: for an
// object, its metadata.resourceVersion (no other field of the benchmark's objects has
// that name); for a list, the list's.
func resourceVersion(b []byte) string {
	i := bytes.Index(b, rvKey)
	if i < 0 {
		return ""
	}
	b = b[i+len(rvKey):]
	j := bytes.IndexByte(b, '"')
	if j < 0 {
		return ""
	}
	return string(b[:j])
}

var typeKey = []byte(`"type":"`)

// eventType picks the type out of a watch event line.
func eventType(b []byte) string {
	i := bytes.Index(b, typeKey)
	if i < 0 {
		return ""
	}
	b = b[i+len(typeKey):]
	j := bytes.IndexByte(b, '"')
	if j < 0 {
		return ""
	}
	return string(b[:j])
}

// CRDPath is the path of the CRD resource, or of one CRD.
func CRDPath(name string) string {
	p := "/apis/apiextensions.k8s.io/v1/customresourcedefinitions"
	if name != "" {
		p += "/" + name
	}
	return p
}

// CRD is one of the benchmark's CustomResourceDefinitions: namespaced, group
// bench.crdlab.dev, one version v1 with a structural schema and a status subresource.
type CRD struct {
	Plural string
	Kind   string
	// cel: the CRD is CELRoutes (its own schema and objects).
	cel bool
}

// NewCRD names a CRD after plural ("widgets" → kind Widget).
func NewCRD(plural string) CRD {
	kind := strings.ToUpper(plural[:1]) + strings.TrimSuffix(plural[1:], "s")
	return CRD{Plural: plural, Kind: kind}
}

// Name is the CRD's metadata.name.
func (c CRD) Name() string { return c.Plural + "." + Group }

// Path is the collection path of its custom resources in namespace ns.
func (c CRD) Path(ns string) string {
	return "/apis/" + Group + "/" + Version + "/namespaces/" + ns + "/" + c.Plural
}

// JSON is the CRD's manifest.
func (c CRD) JSON() []byte {
	if c.cel {
		return celRouteJSON(c)
	}
	return fmt.Appendf(nil, `{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition",
"metadata":{"name":%q},
"spec":{"group":%q,"scope":"Namespaced",
 "names":{"plural":%q,"singular":%q,"kind":%q,"listKind":%q},
 "versions":[{"name":%q,"served":true,"storage":true,
  "subresources":{"status":{}},
  "schema":{"openAPIV3Schema":{"type":"object","properties":{
   "spec":{"type":"object","properties":{
     "size":{"type":"integer"},"color":{"type":"string"},"counter":{"type":"integer"},
     "payload":{"type":"string"},"tags":{"type":"array","items":{"type":"string"}},
     "ports":{"type":"array","x-kubernetes-list-type":"map","x-kubernetes-list-map-keys":["name"],
      "items":{"type":"object","required":["name"],"properties":{"name":{"type":"string"},"port":{"type":"integer"}}}}}},
   "status":{"type":"object","properties":{"phase":{"type":"string"}}}}}}}]}}`,
		c.Name(), Group, c.Plural, strings.ToLower(c.Kind), c.Kind, c.Kind+"List", Version)
}

// payload makes a custom resource weigh about 600 bytes as served, so that a list of
// 5,000 is about 3 MB.
var payload = strings.Repeat("0123456789abcdef", 20)

// Object is the manifest of custom resource name in ns; rv, if set, is the
// resourceVersion an update is conditional on; counter is what updates change.
func (c CRD) Object(ns, name string, counter int, rv string) []byte {
	if c.cel {
		return celRouteObject(c, ns, name, counter)
	}
	var rvField string
	if rv != "" {
		rvField = fmt.Sprintf(`,"resourceVersion":%q`, rv)
	}
	return fmt.Appendf(nil, `{"apiVersion":"%s/%s","kind":%q,"metadata":{"name":%q,"namespace":%q,"labels":{"app":"crdbench","shard":"s%d"}%s},"spec":{"size":%d,"color":"blue","counter":%d,"payload":%q,"tags":["alpha","beta","gamma"]}}`,
		Group, Version, c.Kind, name, ns, counter%16, rvField, counter%1000, counter, payload)
}

// ApplyObject is the apply configuration of custom resource name in ns: the fields of
// Object, and ports, a list-type map of `ports` entries keyed by name, whose entry
// counter%ports has port 8000+counter (the others 7000+index), so that each counter
// changes one entry.
func (c CRD) ApplyObject(ns, name string, counter, ports int) []byte {
	b := fmt.Appendf(nil, `{"apiVersion":"%s/%s","kind":%q,"metadata":{"name":%q,"namespace":%q,"labels":{"app":"crdbench"}},"spec":{"size":%d,"color":"blue","counter":%d,"payload":%q,"tags":["alpha","beta","gamma"]`,
		Group, Version, c.Kind, name, ns, counter%1000, counter, payload)
	if ports > 0 {
		b = append(b, `,"ports":[`...)
		for i := range ports {
			if i > 0 {
				b = append(b, ',')
			}
			port := 7000 + i
			if i == counter%ports {
				port = 8000 + counter
			}
			b = fmt.Appendf(b, `{"name":"p%02d","port":%d}`, i, port)
		}
		b = append(b, ']')
	}
	return append(b, "}}"...)
}

// ObjectName is the name of the i-th custom resource of a phase.
func ObjectName(prefix string, i int) string { return fmt.Sprintf("%s-%06d", prefix, i) }
