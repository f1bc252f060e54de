// Command 13-server-chain follows seed 002's server chain in a crdlab
// server it starts in-process, and shows how the built-in kinds of the
// chain's first link differ from the custom resources of its second.
//
//	go run ./examples/13-server-chain
//
// The chain (apiserver/chain.go): the kube-apiserver link serves the
// built-in kinds and hands what it does not serve to its delegate, the
// apiextensions link, which serves CRDs and their custom resources and
// hands the rest to the end of the chain, a 404. Tracing shows each hand-
// over ("delegate") and which link answered ("served by …"); the same
// events stream to /ui.
//
// Built-in kinds against custom resources:
//   - compiled in: a Secret is a Go type registered in the scheme when the
//     binary is built (apis/builtin); a CronTab is known only once its
//     CRD is, and is held as Unstructured;
//   - typed storage: a Secret is stored as core/v1 JSON by a REST storage
//     written for it (registry/core/secret), with its own strategy; every
//     CRD's custom resources share one generic storage
//     (registry/customresource) driven by the CRD's schema;
//   - conversion through __internal: a built-in kind goes from its
//     version to the hub and back through Go conversion functions
//     (stringData merged into data; events.k8s.io's note becomes core's
//     message); a custom resource's versions differ only by apiVersion
//     (the None strategy).
package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"os"
	"sort"
	"strings"
	"time"

	"github.com/crdlab/crdlab/apis/builtin"
	"github.com/crdlab/crdlab/apis/core"
	corev1 "github.com/crdlab/crdlab/apis/core/v1"
	"github.com/crdlab/crdlab/apis/events"
	"github.com/crdlab/crdlab/apiserver"
	"github.com/crdlab/crdlab/scheme"
	"github.com/crdlab/crdlab/trace"
)

func main() {
	dir, err := os.MkdirTemp("", "crdlab-13-server-chain")
	if err != nil {
		fmt.Fprintln(os.Stderr, "error:", err)
		os.Exit(1)
	}
	defer os.RemoveAll(dir)
	if err := run(os.Stdout, dir); err != nil {
		fmt.Fprintln(os.Stderr, "error:", err)
		os.Exit(1)
	}
}

func run(w io.Writer, dataDir string) error {
	step := 0
	say := func(format string, args ...any) {
		step++
		fmt.Fprintf(w, "%d. "+format+"\n", append([]any{step}, args...)...)
	}
	note := func(format string, args ...any) { fmt.Fprintf(w, "   "+format+"\n", args...) }

	// 1. Compiled in: the built-in groups are Go types in the scheme.
	s := scheme.NewScheme()
	builtin.Install(s)
	var kinds []string
	for kind := range s.KnownTypes(corev1.SchemeGroupVersion) {
		if !strings.HasSuffix(kind, "List") {
			kinds = append(kinds, kind)
		}
	}
	sort.Strings(kinds)
	_, cronTabKnown := s.KnownTypes(scheme.GroupVersion{Group: "stable.example.com", Version: "v1"})["CronTab"]
	say("compiled in: core/v1 has %v; a CronTab is in the scheme: %v (a CRD adds it at run time, as Unstructured)", kinds, cronTabKnown)

	// 2. Conversion through __internal: v1 → hub → v1.
	codecs := scheme.NewCodecFactory(s)
	hub, err := codecs.DecodeToVersion([]byte(`{"apiVersion":"v1","kind":"Secret","metadata":{"name":"db"},"stringData":{"password":"hunter2"}}`),
		core.SchemeGroupVersion, scheme.DecodeOptions{})
	if err != nil {
		return err
	}
	secret := hub.(*core.Secret)
	out, err := codecs.Encode(hub, corev1.SchemeGroupVersion)
	if err != nil {
		return err
	}
	say("Secret v1 → %T: data[password]=%q type=%s (stringData merged, Opaque by default)", hub, secret.Data["password"], secret.Type)
	note("→ v1 again: %s", out)

	// 3. A second example: one Event, two groups, one hub.
	hub, err = codecs.DecodeToVersion([]byte(`{"apiVersion":"events.k8s.io/v1","kind":"Event","metadata":{"name":"e","namespace":"default"},
		"eventTime":"2026-01-02T03:04:05.000000Z","regarding":{"kind":"Secret","name":"db"},"note":"rotated","reason":"Rotated",
		"action":"Rotate","type":"Normal","reportingController":"example.com/rotator","reportingInstance":"r-1"}`),
		events.SchemeGroupVersion, scheme.DecodeOptions{})
	if err != nil {
		return err
	}
	ev, err := s.ConvertToVersion(hub, corev1.SchemeGroupVersion)
	if err != nil {
		return err
	}
	e := ev.(*corev1.Event)
	say("Event events.k8s.io/v1 → %T → v1: message=%q involvedObject=%s/%s reportingComponent=%q",
		hub, e.Message, e.InvolvedObject.Kind, e.InvolvedObject.Name, e.ReportingController)

	// 4. The chain, with tracing on.
	tr := trace.New(trace.Options{})
	cfg := apiserver.Config{DataDir: dataDir, Listen: "127.0.0.1:0", Logger: slog.New(slog.DiscardHandler), Tracer: tr}
	cfg.Storage.NoSync = true
	completed, err := cfg.Complete()
	if err != nil {
		return err
	}
	srv, err := completed.New()
	if err != nil {
		return err
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- srv.Run(ctx) }()
	a := api{base: "http://" + srv.Addr()}
	if err := a.waitReady(); err != nil {
		return err
	}
	say("the chain: kube-apiserver → apiextensions-apiserver → 404 (what each request met):")
	follow := func(method, path, body string) error {
		since := tr.Seq()
		code, msg, err := a.do(method, path, body)
		if err != nil {
			return err
		}
		note("%s %s → %d%s", method, path, code, msg)
		for _, ev := range tr.Recent(since) {
			if ev.Actor != userAgent {
				continue // the server's own controllers talk to it too
			}
			switch {
			case ev.Component == trace.Handler && ev.Step == "delegate":
				from, _, _ := strings.Cut(ev.Message, " ")
				_, to, _ := strings.Cut(ev.Message, "handed to ")
				note("    %s hands it to %s", from, to)
			case ev.Component == trace.Handler && ev.Step == "response" && strings.Contains(ev.Message, "(served by "):
				note("    %s", ev.Message[strings.Index(ev.Message, "(")+1:len(ev.Message)-1])
			}
		}
		return nil
	}
	crd := `{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition","metadata":{"name":"crontabs.stable.example.com"},
		"spec":{"group":"stable.example.com","scope":"Namespaced","names":{"plural":"crontabs","kind":"CronTab"},
		"versions":[{"name":"v1","served":true,"storage":true,"schema":{"openAPIV3Schema":{"type":"object","x-kubernetes-preserve-unknown-fields":true}}}]}}`
	for _, r := range []struct{ method, path, body string }{
		{"POST", "/api/v1/namespaces/default/secrets", `{"apiVersion":"v1","kind":"Secret","metadata":{"name":"db"},"stringData":{"password":"hunter2"}}`},
		{"POST", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions", crd},
	} {
		if err := follow(r.method, r.path, r.body); err != nil {
			return err
		}
	}
	if err := a.waitFor("/apis/stable.example.com/v1/crontabs", 200); err != nil {
		return err
	}
	for _, r := range []struct{ method, path, body string }{
		{"POST", "/apis/stable.example.com/v1/namespaces/default/crontabs", `{"apiVersion":"stable.example.com/v1","kind":"CronTab","metadata":{"name":"c"},"spec":{"cronSpec":"* * * * */5"}}`},
		{"GET", "/apis/apps/v1/namespaces/default/deployments", ""},
	} {
		if err := follow(r.method, r.path, r.body); err != nil {
			return err
		}
	}

	// 5. Namespaces are the kube-apiserver link's, and every object needs
	// one — a custom resource too (admission: NamespaceLifecycle).
	code, msg, err := a.do("POST", "/apis/stable.example.com/v1/namespaces/nowhere/crontabs",
		`{"apiVersion":"stable.example.com/v1","kind":"CronTab","metadata":{"name":"c"}}`)
	if err != nil {
		return err
	}
	say("a CronTab in a namespace that does not exist → %d%s", code, msg)

	// 6. One storage, two versions: the Event written through core/v1 is
	// read back through events.k8s.io/v1.
	if _, _, err := a.do("POST", "/api/v1/namespaces/default/events", `{"apiVersion":"v1","kind":"Event","metadata":{"name":"rotated"},
		"involvedObject":{"kind":"Secret","name":"db","namespace":"default"},"reason":"Rotated","message":"password rotated","type":"Normal"}`); err != nil {
		return err
	}
	var got struct {
		APIVersion string `json:"apiVersion"`
		Note       string `json:"note"`
		Regarding  struct{ Name string }
	}
	if err := a.getJSON("/apis/events.k8s.io/v1/namespaces/default/events/rotated", &got); err != nil {
		return err
	}
	say("written as v1 Event, read as %s: note=%q regarding=%s (one storage, /registry/events)", got.APIVersion, got.Note, got.Regarding.Name)

	cancel()
	select {
	case err := <-done:
		if err != nil {
			return fmt.Errorf("Run: %w", err)
		}
	case <-time.After(30 * time.Second):
		return errors.New("Run did not return within 30s of its context ending")
	}
	say("server stopped")
	return nil
}

// userAgent marks the example's requests in the trace.
const userAgent = "example-13"

// api sends JSON requests to the server.
type api struct{ base string }

// do sends a request and returns its code and, for an error, its reason
// and message.
func (a api) do(method, path, body string) (int, string, error) {
	req, err := http.NewRequest(method, a.base+path, strings.NewReader(body))
	if err != nil {
		return 0, "", err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", userAgent)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, "", err
	}
	defer resp.Body.Close()
	var st struct{ Kind, Reason, Message string }
	if err := json.NewDecoder(resp.Body).Decode(&st); err != nil {
		return 0, "", err
	}
	if st.Kind == "Status" {
		return resp.StatusCode, fmt.Sprintf(" %s: %s", st.Reason, st.Message), nil
	}
	return resp.StatusCode, "", nil
}

func (a api) getJSON(path string, into any) error {
	resp, err := http.Get(a.base + path)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("GET %s: %d", path, resp.StatusCode)
	}
	return json.NewDecoder(resp.Body).Decode(into)
}

// waitFor polls path until it answers code (at most 10 s).
func (a api) waitFor(path string, code int) error {
	deadline := time.Now().Add(10 * time.Second)
	for {
		resp, err := http.Get(a.base + path)
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == code {
				return nil
			}
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("%s did not answer %d within 10s", path, code)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func (a api) waitReady() error { return a.waitFor("/readyz", http.StatusOK) }
