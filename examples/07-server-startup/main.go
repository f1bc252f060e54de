// Command 07-server-startup builds and runs a crdlab API server step by
// step, the way seed 002 walks through kube-apiserver's start-up and the
// creation of the APIExtensions server: a Config is Completed, the
// completed config makes the server with New (storage, the CRD REST
// storage of each enabled version, the handler — crdlab's InstallAPIGroup),
// post-start hooks run once it listens, /readyz waits for them, requests it
// does not serve go to its delegate, and cancelling Run's context shuts it
// down.
//
//	go run ./examples/07-server-startup
//
// Upstream: kube-apiserver's CreateServerChain makes the
// apiextensions-apiserver first, with the empty delegate (404), then
// kube-apiserver with the apiextensions-apiserver as *its* delegate.
// crdlab's New does the same (apiserver/chain.go); step 8 sends a request
// to each link, and example 13 (examples/13-server-chain) follows the
// delegation step by step. crdlab serve does the same steps without the
// example's hook (cmd/crdlab/serve.go); notebook 4
// (notebooks/04-apiextensions-server.ipynb) explains them at more length.
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
	"strings"
	"time"

	metav1 "github.com/crdlab/crdlab/apis/meta/v1"
	"github.com/crdlab/crdlab/apiserver"
	"github.com/crdlab/crdlab/scheme"
)

func main() {
	dir, err := os.MkdirTemp("", "crdlab-07-server-startup")
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

	// 1. The Config: what the flags of `crdlab serve` fill in.
	const runtimeConfigFlag = "apiextensions.k8s.io/v1beta1=true"
	runtimeConfig, err := apiserver.ParseRuntimeConfig(runtimeConfigFlag)
	if err != nil {
		return err
	}
	cfg := apiserver.Config{
		DataDir:       dataDir,
		Listen:        "127.0.0.1:0", // a free port
		RuntimeConfig: runtimeConfig,
		Logger:        slog.New(slog.DiscardHandler),
	}
	cfg.Storage.NoSync = true // the example's data is thrown away
	say("Config: listen %s, --runtime-config=%s", cfg.Listen, runtimeConfigFlag)

	// 2. Complete: defaults, the scheme, and the ResourceConfig —
	// DefaultAPIResourceConfig (seed 000: "Default Configuration") with
	// the runtime config merged in ("Extend").
	defaults := apiserver.DefaultAPIResourceConfig()
	completed, err := cfg.Complete()
	if err != nil {
		return err
	}
	say("Complete: default resource config serves %v; with the runtime config: %v",
		enabled(defaults), completed.EnabledVersions())
	note("shutdown timeout defaulted to %s", completed.ShutdownTimeout)

	// 3. New: storage, the CRD REST storage for each enabled version, the
	// handler (routes, discovery, crdHandler). Nothing is served yet.
	srv, err := completed.New()
	if err != nil {
		return err
	}
	say("New: storage open, handler built, listening on 127.0.0.1:<free port> but not serving yet")

	// 4. A post-start hook runs once the server listens; /readyz waits
	// for every hook (upstream: AddPostStartHookOrDie).
	release := make(chan struct{})
	if err := srv.AddPostStartHook("example-hook", func(ctx context.Context) error {
		select {
		case <-release:
		case <-ctx.Done():
		}
		return nil
	}); err != nil {
		return err
	}
	say("AddPostStartHook(example-hook): it will run after the server starts listening")

	// 5. Run: serve, run the hooks (the CRD informer and controllers are
	// one of them), until ctx is done.
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- srv.Run(ctx) }()
	base := "http://" + srv.Addr()
	notReady, err := waitFor(base+"/readyz?verbose", func(code int, body string) bool {
		return code == http.StatusInternalServerError && strings.Contains(body, "[-]poststarthook/example-hook")
	})
	if err != nil {
		return err
	}
	for _, line := range strings.Split(notReady, "\n") {
		if strings.Contains(line, "poststarthook/example-hook") {
			say("Run: /readyz is 500 while a post-start hook has not finished: %s", line)
		}
	}

	// 6. The hook returns; so do the server's own (the CRD informer has
	// synced, the controllers run).
	close(release)
	if _, err := waitFor(base+"/readyz", func(code int, _ string) bool { return code == http.StatusOK }); err != nil {
		return err
	}
	say("the hook returned: /readyz is 200 ok")

	// 7. What New installed (seed 002: InstallAPIGroup): the group, its
	// versions in discovery, the CRD resource in each.
	var group metav1.APIGroup
	if err := getJSON(base+"/apis/apiextensions.k8s.io", &group); err != nil {
		return err
	}
	var versions []string
	for _, v := range group.Versions {
		versions = append(versions, v.Version)
	}
	var resources metav1.APIResourceList
	if err := getJSON(base+"/apis/apiextensions.k8s.io/v1", &resources); err != nil {
		return err
	}
	var names []string
	for _, r := range resources.APIResources {
		names = append(names, r.Name)
	}
	say("InstallAPIGroup: /apis/%s offers %v (preferred %s); v1 has %v",
		group.Name, versions, group.PreferredVersion.Version, names)

	// 8. Delegation, as CreateServerChain chains them: the kube-apiserver
	// link serves the built-in kinds and delegates everything else to the
	// apiextensions link, whose own delegate is the empty one (404).
	say("delegation along the chain kube-apiserver → apiextensions-apiserver → 404:")
	for _, p := range []string{
		"/api/v1/namespaces",
		"/apis/apiextensions.k8s.io/v1/customresourcedefinitions",
		"/apis/stable.example.com/v1/crontabs",
	} {
		code, body, err := get(base + p)
		if err != nil {
			return err
		}
		var st struct{ Kind, Reason string }
		_ = json.Unmarshal([]byte(body), &st)
		who := map[string]string{
			"NamespaceList":                "served by kube-apiserver",
			"CustomResourceDefinitionList": "delegated, served by apiextensions-apiserver",
			"Status":                       "delegated twice, and the end of the chain: " + st.Reason,
		}[st.Kind]
		note("GET %-56s → %d %s", p, code, who)
	}

	// 9. Shutdown: cancel Run's context. /readyz turns 500, hooks and
	// controllers stop, requests finish, the storage closes.
	cancel()
	select {
	case err := <-done:
		if err != nil {
			return fmt.Errorf("Run: %w", err)
		}
	case <-time.After(30 * time.Second):
		return errors.New("Run did not return within 30s of its context ending")
	}
	_, _, err = get(base + "/readyz")
	say("ctx cancelled: Run returned nil; the port is closed (%v)", err != nil)
	return nil
}

// enabled lists the group versions a resource config turns on.
func enabled(c *apiserver.ResourceConfig) []string {
	var out []string
	for _, v := range []string{"v1", "v1beta1"} {
		gv := scheme.GroupVersion{Group: "apiextensions.k8s.io", Version: v}
		if c.VersionEnabled(gv) {
			out = append(out, gv.String())
		}
	}
	return out
}

func get(url string) (int, string, error) {
	resp, err := http.Get(url)
	if err != nil {
		return 0, "", err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	return resp.StatusCode, string(body), err
}

func getJSON(url string, into any) error {
	code, body, err := get(url)
	if err != nil {
		return err
	}
	if code != http.StatusOK {
		return fmt.Errorf("GET %s: %d %s", url, code, body)
	}
	return json.Unmarshal([]byte(body), into)
}

// waitFor polls url until ok accepts the answer, for up to 10s, and
// returns the accepted body.
func waitFor(url string, ok func(code int, body string) bool) (string, error) {
	deadline := time.Now().Add(10 * time.Second)
	for {
		code, body, err := get(url)
		if err == nil && ok(code, body) {
			return body, nil
		}
		if time.Now().After(deadline) {
			return "", fmt.Errorf("GET %s: still %d %q (%v) after 10s", url, code, body, err)
		}
		time.Sleep(10 * time.Millisecond)
	}
}
