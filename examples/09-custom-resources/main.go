// Command 09-custom-resources sends custom resources to a crdlab server it
// starts in-process and shows, in numbered steps, what the crdHandler does
// with them under a CRD that serves two versions: per-version defaulting,
// pruning of unknown fields (with a warning, or a 400 under
// fieldValidation=Strict), 422 Invalid with one cause per field, the same
// object read in either version, and defaults applied on read after the
// schema gains a field.
//
//	go run ./examples/09-custom-resources
//
// To watch it move, open the /ui page of the server it starts (the
// example waits for the page, and keeps it up until Ctrl-C):
//
//	CRDLAB_UI=127.0.0.1:8090 go run ./examples/09-custom-resources   # open http://127.0.0.1:8090/ui/
//
// The requests are plain HTTP with JSON bodies, as kubectl sends them.
// The code at work: handler/crdinfo.go (the per-version codec: prune,
// default, validate, convert), apis/apiextensions/structural (the
// structural schema), apiserver/customresources.go. Seed 000, "CRD
// Handler"; notebook 4 has an exercise on the same schema.
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"sort"
	"strings"
	"time"

	apiextensionsv1 "github.com/crdlab/crdlab/apis/apiextensions/v1"
	metav1 "github.com/crdlab/crdlab/apis/meta/v1"
	"github.com/crdlab/crdlab/client"
	"github.com/crdlab/crdlab/examples/internal/labserver"
)

func main() {
	dir, err := os.MkdirTemp("", "crdlab-09-custom-resources")
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

// schema is a version's openAPIV3Schema: spec.cronSpec (a required string),
// spec.image, and spec.replicas (1 to 10) defaulting to defaultReplicas.
// Fields it does not name are pruned.
func schema(defaultReplicas int) *apiextensionsv1.JSONSchemaProps {
	return &apiextensionsv1.JSONSchemaProps{
		Type: "object",
		Properties: map[string]apiextensionsv1.JSONSchemaProps{
			"spec": {
				Type:     "object",
				Required: []string{"cronSpec"},
				Properties: map[string]apiextensionsv1.JSONSchemaProps{
					"cronSpec": {Type: "string"},
					"image":    {Type: "string"},
					"replicas": {
						Type: "integer", Minimum: new(1.0), Maximum: new(10.0),
						Default: &apiextensionsv1.JSON{Raw: fmt.Appendf(nil, "%d", defaultReplicas)},
					},
				},
			},
		},
	}
}

// crd serves CronTabs as v1 (stored, replicas default 1) and v2 (replicas
// default 3). With the None conversion strategy the versions share one
// shape: only apiVersion changes between them.
func crd() *apiextensionsv1.CustomResourceDefinition {
	c := labserver.CronTabCRD()
	c.Spec.Versions = []apiextensionsv1.CustomResourceDefinitionVersion{
		{Name: "v1", Served: true, Storage: true, Schema: &apiextensionsv1.CustomResourceValidation{OpenAPIV3Schema: schema(1)}},
		{Name: "v2", Served: true, Storage: false, Schema: &apiextensionsv1.CustomResourceValidation{OpenAPIV3Schema: schema(3)}},
	}
	return c
}

// api sends JSON requests to the server.
type api struct{ base string }

// answer is what came back: the status code, the Warning headers and the
// decoded body.
type answer struct {
	code     int
	warnings []string
	body     map[string]any
}

func (a api) do(method, path, body string) (answer, error) {
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, err := http.NewRequest(method, a.base+path, rd)
	if err != nil {
		return answer{}, err
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return answer{}, err
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		return answer{}, err
	}
	ans := answer{code: resp.StatusCode, warnings: resp.Header.Values("Warning")}
	if err := json.Unmarshal(raw, &ans.body); err != nil {
		return ans, fmt.Errorf("%s %s: %d, body %q: %w", method, path, resp.StatusCode, raw, err)
	}
	return ans, nil
}

// field reads a nested field of the answer's body, e.g. "spec", "replicas".
func (a answer) field(path ...string) any {
	var v any = a.body
	for _, p := range path {
		m, ok := v.(map[string]any)
		if !ok {
			return nil
		}
		v = m[p]
	}
	return v
}

// spec prints the answer's spec with sorted keys.
func (a answer) spec() string {
	spec, _ := a.field("spec").(map[string]any)
	keys := make([]string, 0, len(spec))
	for k := range spec {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var parts []string
	for _, k := range keys {
		parts = append(parts, fmt.Sprintf("%s=%v", k, spec[k]))
	}
	return "{" + strings.Join(parts, " ") + "}"
}

// status prints an error answer: code, reason, message and causes.
func (a answer) status() string {
	s := fmt.Sprintf("%d %v", a.code, a.field("reason"))
	causes, _ := a.field("details", "causes").([]any)
	if len(causes) == 0 {
		return s + ": " + fmt.Sprint(a.field("message"))
	}
	for _, c := range causes {
		cm, _ := c.(map[string]any)
		s += fmt.Sprintf("\n     - %v: %v", cm["field"], cm["message"])
	}
	return s
}

func crontab(version, name, spec string) string {
	return fmt.Sprintf(`{"apiVersion":"stable.example.com/%s","kind":"CronTab","metadata":{"name":%q},"spec":%s}`, version, name, spec)
}

const base = "/apis/stable.example.com"

func path(version, name string) string {
	p := base + "/" + version + "/namespaces/default/crontabs"
	if name != "" {
		p += "/" + name
	}
	return p
}

func run(w io.Writer, dataDir string) error {
	step := 0
	say := func(format string, args ...any) {
		step++
		fmt.Fprintf(w, "%d. "+format+"\n", append([]any{step}, args...)...)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()

	srv, err := labserver.Start(ctx, dataDir)
	if err != nil {
		return err
	}
	defer srv.Stop()
	if err := srv.InstallCRD(ctx, crd()); err != nil {
		return err
	}
	say("CRD crontabs.stable.example.com: v1 (storage, replicas default 1) and v2 (replicas default 3), conversion None; unknown fields are pruned")
	a := api{base: srv.URL}

	// Defaulting and pruning happen in the version of the request.
	got, err := a.do("POST", path("v1", ""), crontab("v1", "nightly", `{"cronSpec":"0 3 * * *","extra":"?"}`))
	if err != nil {
		return err
	}
	say("POST v1 nightly {cronSpec, extra} → %d, spec %s; Warning: %s", got.code, got.spec(), strings.Join(got.warnings, "; "))

	got, err = a.do("POST", path("v2", ""), crontab("v2", "hourly", `{"cronSpec":"@hourly"}`))
	if err != nil {
		return err
	}
	say("POST v2 hourly {cronSpec} → %d, spec %s: v2's default", got.code, got.spec())

	// One object, two versions: stored once (as v1), served as either.
	for _, v := range []string{"v1", "v2"} {
		got, err = a.do("GET", path(v, "nightly"), "")
		if err != nil {
			return err
		}
		say("GET %s nightly → apiVersion %v, spec %s", v, got.field("apiVersion"), got.spec())
	}

	// Validation: every violation is one cause of one 422.
	got, err = a.do("POST", path("v1", ""), crontab("v1", "broken", `{"cronSpec":5,"replicas":20}`))
	if err != nil {
		return err
	}
	say("POST v1 broken {cronSpec: 5, replicas: 20} → %s", got.status())
	got, err = a.do("POST", path("v2", ""), crontab("v2", "empty", `{"image":"busybox"}`))
	if err != nil {
		return err
	}
	say("POST v2 empty {image} → %s", got.status())

	cur, err := a.do("GET", path("v1", "nightly"), "")
	if err != nil {
		return err
	}
	if spec, ok := cur.field("spec").(map[string]any); ok {
		spec["replicas"] = 0
	}
	body, _ := json.Marshal(cur.body)
	got, err = a.do("PUT", path("v1", "nightly"), string(body))
	if err != nil {
		return err
	}
	say("PUT v1 nightly with replicas 0 → %s", got.status())

	// Strict field validation rejects what would have been pruned.
	got, err = a.do("POST", path("v1", "")+"?fieldValidation=Strict", crontab("v1", "strict", `{"cronSpec":"@daily","extra":"?"}`))
	if err != nil {
		return err
	}
	say("POST v1 strict {cronSpec, extra} ?fieldValidation=Strict → %s", got.status())

	// The schema gains a defaulted field: objects stored before get it on
	// read, without being written.
	before, err := a.do("GET", path("v1", "nightly"), "")
	if err != nil {
		return err
	}
	if err := addSuspend(ctx, srv.Config); err != nil {
		return err
	}
	var after answer
	for deadline := time.Now().Add(10 * time.Second); ; {
		if after, err = a.do("GET", path("v1", "nightly"), ""); err != nil {
			return err
		}
		if after.field("spec", "suspend") != nil || time.Now().After(deadline) {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	say("add spec.suspend (default false) to v1's schema; GET v1 nightly → spec %s, resourceVersion %s → %s (no write)",
		after.spec(), before.field("metadata", "resourceVersion"), after.field("metadata", "resourceVersion"))
	return nil
}

// addSuspend adds a boolean spec.suspend with default false to the v1
// schema of the CRD.
func addSuspend(ctx context.Context, cfg *client.Config) error {
	cs, err := client.NewForConfig(cfg)
	if err != nil {
		return err
	}
	crds := cs.ApiextensionsV1().CustomResourceDefinitions()
	c, err := crds.Get(ctx, "crontabs.stable.example.com", metav1.GetOptions{})
	if err != nil {
		return err
	}
	spec := c.Spec.Versions[0].Schema.OpenAPIV3Schema.Properties["spec"]
	spec.Properties["suspend"] = apiextensionsv1.JSONSchemaProps{Type: "boolean", Default: &apiextensionsv1.JSON{Raw: []byte("false")}}
	c.Spec.Versions[0].Schema.OpenAPIV3Schema.Properties["spec"] = spec
	_, err = crds.Update(ctx, c, metav1.UpdateOptions{})
	return err
}
