package differential

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"
)

// Server is one server under test.
type Server struct {
	Name string
	Base string
	HTTP *http.Client
}

// Outcome is one server's answer to one step, normalized for comparison.
type Outcome struct {
	Code   int    `json:"code"`
	Reason string `json:"reason,omitempty"`
	// Message is the Status message when there are no causes (with causes,
	// upstream's message lists them in map order, so the causes speak).
	Message  string   `json:"message,omitempty"`
	Causes   []string `json:"causes,omitempty"`
	Warnings []string `json:"warnings,omitempty"`
	// Object is the object the server answered with (a custom resource
	// written), without its volatile metadata.
	Object json.RawMessage `json:"object,omitempty"`
}

// Result is one step run on both servers.
type Result struct {
	Case, Step string
	Op         string
	Expect     string
	Upstream   Outcome
	Crdlab     Outcome
	// Diff lists what differs; empty if the outcomes agree.
	Diff []string
	// ExpectationWrong is set when upstream's verdict is not the step's
	// Expect: the corpus, not crdlab, is wrong.
	ExpectationWrong bool
	// VerdictSame: the two answers agree on status code, reason, message
	// and causes (warnings and the object stored may still differ).
	VerdictSame bool
	// NotEstablished names the servers on which a CRD both created did not
	// become Established.
	NotEstablished []string
	// CausesCapped: upstream listed more causes than crdlab lists (its
	// documented cap, capNote), and crdlab listed some of upstream's and
	// counted the rest. The causes then count as the same.
	CausesCapped bool
}

// capNote is the cause crdlab adds when it lists no more.
var capNote = regexp.MustCompile(`^ : (\d+) more errors not listed: crdlab lists at most \d+ causes`)

// causesCapped says whether cr is up capped as crdlab documents: every
// cause cr lists is one of up's, and its note counts the others.
func causesCapped(up, cr []string) bool {
	var listed []string
	more := -1
	for _, c := range cr {
		if m := capNote.FindStringSubmatch(c); m != nil {
			more, _ = strconv.Atoi(m[1])
			continue
		}
		listed = append(listed, c)
	}
	if more < 0 || len(listed)+more != len(up) {
		return false
	}
	in := map[string]int{}
	for _, c := range up {
		in[c]++
	}
	for _, c := range listed {
		if in[c] == 0 {
			return false
		}
		in[c]--
	}
	return true
}

// Run runs the cases on both servers: every leading CRD step of every
// case first, then (once all those CRDs are Established on both) the rest
// of each case in order.
func Run(ctx context.Context, upstream, crdlab *Server, cases []Case) ([]Result, error) {
	var results []Result
	type pending struct{ ci, si int }
	var later []pending
	var established []int // results of CRD creates to wait for
	for ci, c := range cases {
		leading := true
		for si, s := range c.Steps {
			if leading && s.Op == OpCreateCRD {
				r, err := runStep(ctx, upstream, crdlab, c, s)
				if err != nil {
					return nil, err
				}
				results = append(results, r)
				if r.Upstream.Code == http.StatusCreated && r.Crdlab.Code == http.StatusCreated {
					established = append(established, len(results)-1)
				}
				continue
			}
			leading = false
			later = append(later, pending{ci, si})
		}
	}
	// Every CRD both servers created must become Established on both
	// within EstablishTimeout of the last one's creation; one that does
	// not is a difference of its create step.
	deadline := time.Now().Add(EstablishTimeout)
	for _, srv := range []*Server{upstream, crdlab} {
		for _, i := range established {
			r := &results[i]
			if err := waitEstablished(ctx, srv, crdName(stepOf(cases, r).Object), deadline); err != nil {
				if ctx.Err() != nil {
					return nil, err
				}
				r.Diff = append(r.Diff, err.Error())
				r.NotEstablished = append(r.NotEstablished, srv.Name)
			}
		}
	}
	for _, p := range later {
		c := cases[p.ci]
		s := c.Steps[p.si]
		r, err := runStep(ctx, upstream, crdlab, c, s)
		if err != nil {
			return nil, err
		}
		results = append(results, r)
		if s.Op == OpCreateCRD && r.Upstream.Code == http.StatusCreated && r.Crdlab.Code == http.StatusCreated {
			deadline := time.Now().Add(EstablishTimeout)
			for _, srv := range []*Server{upstream, crdlab} {
				if err := waitEstablished(ctx, srv, crdName(s.Object), deadline); err != nil {
					if ctx.Err() != nil {
						return nil, err
					}
					last := &results[len(results)-1]
					last.Diff = append(last.Diff, err.Error())
					last.NotEstablished = append(last.NotEstablished, srv.Name)
				}
			}
		}
	}
	return results, nil
}

// EstablishTimeout is how long the CRDs created together have to become
// Established.
var EstablishTimeout = 60 * time.Second

// stepOf finds the step a result is of.
func stepOf(cases []Case, r *Result) Step {
	for _, c := range cases {
		if c.Name != r.Case {
			continue
		}
		for _, s := range c.Steps {
			if s.Name == r.Step {
				return s
			}
		}
	}
	return Step{}
}

func runStep(ctx context.Context, upstream, crdlab *Server, c Case, s Step) (Result, error) {
	r := Result{Case: c.Name, Step: s.Name, Op: s.Op, Expect: s.Expect}
	var err error
	if r.Upstream, err = do(ctx, upstream, s); err != nil {
		return r, fmt.Errorf("%s/%s on %s: %w", c.Name, s.Name, upstream.Name, err)
	}
	if r.Crdlab, err = do(ctx, crdlab, s); err != nil {
		return r, fmt.Errorf("%s/%s on %s: %w", c.Name, s.Name, crdlab.Name, err)
	}
	r.Diff = compare(r.Upstream, r.Crdlab)
	r.CausesCapped = causesCapped(r.Upstream.Causes, r.Crdlab.Causes)
	r.VerdictSame = r.Upstream.Code == r.Crdlab.Code && r.Upstream.Reason == r.Crdlab.Reason &&
		r.Upstream.Message == r.Crdlab.Message && (slices.Equal(r.Upstream.Causes, r.Crdlab.Causes) || r.CausesCapped)
	ok := r.Upstream.Code < 300
	r.ExpectationWrong = s.Expect == "ok" && !ok || s.Expect == "invalid" && ok
	return r, nil
}

// do sends one step to one server. An update that meets a 409 Conflict
// (a controller wrote the object between the read of its resourceVersion
// and the write: the CRD's status) is read and sent again, as a client
// does, a few times.
func do(ctx context.Context, srv *Server, s Step) (Outcome, error) {
	for attempt := 0; ; attempt++ {
		o, err := doOnce(ctx, srv, s)
		if err != nil || o.Code != http.StatusConflict || attempt == 4 || (s.Op != OpUpdate && s.Op != OpUpdateCRD) {
			return o, err
		}
	}
}

func doOnce(ctx context.Context, srv *Server, s Step) (Outcome, error) {
	var method, path, contentType string
	body := []byte(s.Object)
	switch s.Op {
	case OpCreateCRD:
		method, path = http.MethodPost, "/apis/apiextensions.k8s.io/v1/customresourcedefinitions"
	case OpUpdateCRD:
		name := crdName(s.Object)
		path = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions/" + name
		var err error
		if body, err = withStoredResourceVersion(ctx, srv, path, body); err != nil {
			return Outcome{}, err
		}
		method = http.MethodPut
	case OpCreate:
		method, path = http.MethodPost, collectionPath(s)
	case OpUpdate:
		name := s.Target
		if name == "" {
			name = objectName(s.Object)
		}
		path = collectionPath(s) + "/" + name
		var err error
		if body, err = withStoredResourceVersion(ctx, srv, path, body); err != nil {
			return Outcome{}, err
		}
		method = http.MethodPut
	case OpPatch:
		method, path, contentType = http.MethodPatch, collectionPath(s)+"/"+s.Target, "application/merge-patch+json"
	}
	if s.Query != "" {
		path += "?" + s.Query
	}
	code, respBody, warnings, err := send(ctx, srv, method, path, body, contentType)
	if err != nil {
		return Outcome{}, err
	}
	return normalize(code, respBody, warnings, s.Op == OpCreate || s.Op == OpUpdate || s.Op == OpPatch), nil
}

func collectionPath(s Step) string {
	p := "/apis/" + s.Group + "/" + s.Version
	if s.Namespace != "" {
		p += "/namespaces/" + s.Namespace
	}
	return p + "/" + s.Resource
}

func send(ctx context.Context, srv *Server, method, path string, body []byte, contentType string) (int, []byte, []string, error) {
	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, method, srv.Base+path, rd)
	if err != nil {
		return 0, nil, nil, err
	}
	req.Header.Set("Accept", "application/json")
	if body != nil {
		if contentType == "" {
			contentType = "application/json"
		}
		req.Header.Set("Content-Type", contentType)
	}
	resp, err := srv.HTTP.Do(req)
	if err != nil {
		return 0, nil, nil, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		return 0, nil, nil, err
	}
	return resp.StatusCode, b, resp.Header.Values("Warning"), nil
}

// withStoredResourceVersion reads the stored object and puts its
// resourceVersion into body (each server has its own).
func withStoredResourceVersion(ctx context.Context, srv *Server, path string, body []byte) ([]byte, error) {
	code, got, _, err := send(ctx, srv, http.MethodGet, path, nil, "")
	if err != nil {
		return nil, err
	}
	if code != http.StatusOK {
		// Nothing stored: send the body as is (the server answers 404).
		return body, nil
	}
	var stored struct {
		Metadata struct {
			ResourceVersion string `json:"resourceVersion"`
		} `json:"metadata"`
	}
	if err := json.Unmarshal(got, &stored); err != nil {
		return nil, err
	}
	var obj map[string]any
	if err := json.Unmarshal(body, &obj); err != nil {
		return nil, err
	}
	md, _ := obj["metadata"].(map[string]any)
	if md == nil {
		md = map[string]any{}
		obj["metadata"] = md
	}
	md["resourceVersion"] = stored.Metadata.ResourceVersion
	return json.Marshal(obj)
}

func waitEstablished(ctx context.Context, srv *Server, name string, deadline time.Time) error {
	for delay := 20 * time.Millisecond; ; delay = min(2*delay, 500*time.Millisecond) {
		code, b, _, err := send(ctx, srv, http.MethodGet, "/apis/apiextensions.k8s.io/v1/customresourcedefinitions/"+name, nil, "")
		if err != nil {
			return err
		}
		if code == http.StatusOK {
			var crd struct {
				Status struct {
					Conditions []struct{ Type, Status string } `json:"conditions"`
				} `json:"status"`
			}
			if err := json.Unmarshal(b, &crd); err == nil {
				for _, c := range crd.Status.Conditions {
					if c.Type == "Established" && c.Status == "True" {
						return nil
					}
				}
			}
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("%s: CRD %s not Established in time", srv.Name, name)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(delay):
		}
	}
}

func crdName(obj json.RawMessage) string { return objectName(obj) }

func objectName(obj json.RawMessage) string {
	var o struct {
		Metadata struct {
			Name string `json:"name"`
		} `json:"metadata"`
	}
	_ = json.Unmarshal(obj, &o)
	return o.Metadata.Name
}

// selfType is the per-compilation name of a rule's self type.
var selfType = regexp.MustCompile(`selfType\d+`)

// normalize turns a response into an Outcome.
func normalize(code int, body []byte, warnings []string, keepObject bool) Outcome {
	o := Outcome{Code: code}
	for _, w := range warnings {
		o.Warnings = append(o.Warnings, selfType.ReplaceAllString(w, "selfTypeN"))
	}
	sort.Strings(o.Warnings)
	if code >= 300 {
		var st struct {
			Reason  string `json:"reason"`
			Message string `json:"message"`
			Details struct {
				Causes []struct {
					Reason  string `json:"reason"`
					Field   string `json:"field"`
					Message string `json:"message"`
				} `json:"causes"`
			} `json:"details"`
		}
		if err := json.Unmarshal(body, &st); err != nil {
			o.Message = "undecodable body: " + string(body)
			return o
		}
		o.Reason = st.Reason
		for _, c := range st.Details.Causes {
			o.Causes = append(o.Causes, selfType.ReplaceAllString(c.Reason+" "+c.Field+": "+c.Message, "selfTypeN"))
		}
		sort.Strings(o.Causes)
		if len(o.Causes) == 0 {
			o.Message = selfType.ReplaceAllString(st.Message, "selfTypeN")
		}
		return o
	}
	if keepObject {
		var obj map[string]any
		if err := json.Unmarshal(body, &obj); err == nil {
			if md, ok := obj["metadata"].(map[string]any); ok {
				for _, k := range []string{"uid", "resourceVersion", "creationTimestamp", "managedFields", "selfLink"} {
					delete(md, k)
				}
			}
			o.Object, _ = json.Marshal(obj)
		}
	}
	return o
}

// compare lists the differences of two outcomes.
func compare(up, cr Outcome) []string {
	var d []string
	if up.Code != cr.Code {
		d = append(d, fmt.Sprintf("code: upstream %d, crdlab %d", up.Code, cr.Code))
	}
	if up.Reason != cr.Reason {
		d = append(d, fmt.Sprintf("reason: upstream %q, crdlab %q", up.Reason, cr.Reason))
	}
	if up.Message != cr.Message {
		d = append(d, fmt.Sprintf("message:\n    upstream %q\n    crdlab   %q", up.Message, cr.Message))
	}
	if a, b := strings.Join(up.Causes, "\n"), strings.Join(cr.Causes, "\n"); a != b && !causesCapped(up.Causes, cr.Causes) {
		d = append(d, fmt.Sprintf("causes:\n    upstream %s\n    crdlab   %s", listOrNone(up.Causes), listOrNone(cr.Causes)))
	}
	if a, b := strings.Join(up.Warnings, "\n"), strings.Join(cr.Warnings, "\n"); a != b {
		d = append(d, fmt.Sprintf("warnings:\n    upstream %s\n    crdlab   %s", listOrNone(up.Warnings), listOrNone(cr.Warnings)))
	}
	if !jsonEqual(up.Object, cr.Object) {
		d = append(d, fmt.Sprintf("object:\n    upstream %s\n    crdlab   %s", up.Object, cr.Object))
	}
	return d
}

func listOrNone(l []string) string {
	if len(l) == 0 {
		return "(none)"
	}
	return strings.Join(l, "\n             ")
}

func jsonEqual(a, b json.RawMessage) bool {
	if len(a) == 0 || len(b) == 0 {
		return len(a) == len(b)
	}
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return bytes.Equal(a, b)
	}
	xb, _ := json.Marshal(x)
	yb, _ := json.Marshal(y)
	return bytes.Equal(xb, yb)
}
