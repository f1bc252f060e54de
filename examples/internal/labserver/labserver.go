// Package labserver starts a crdlab API server inside an example's own
// process — a fresh data directory, a free loopback port, no logs — so an
// example runs on a fresh clone with nothing else running. It is the same
// server `crdlab serve` runs (package apiserver), with its informer and
// controllers.
//
// To watch an example move, set CRDLAB_UI to a loopback address:
//
//	CRDLAB_UI=127.0.0.1:8090 go run ./examples/08-crd-lifecycle
//
// The server then listens there with tracing on, Start prints where the
// /ui page is and waits until a page has connected, and Stop waits for
// Ctrl-C, so that the page can still be looked at when the example is
// done.
package labserver

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/crdlab/crdlab/apis/apiextensions/helpers"
	apiextensionsv1 "github.com/crdlab/crdlab/apis/apiextensions/v1"
	metav1 "github.com/crdlab/crdlab/apis/meta/v1"
	"github.com/crdlab/crdlab/apiserver"
	"github.com/crdlab/crdlab/client"
	"github.com/crdlab/crdlab/trace"
)

// Server is a running in-process crdlab.
type Server struct {
	// URL is the server's base URL, e.g. http://127.0.0.1:43117.
	URL string
	// Config reaches the server, with no client-side rate limit.
	Config *client.Config

	cancel context.CancelFunc
	done   chan error
	// tracer is set with CRDLAB_UI.
	tracer *trace.Tracer
}

// Start runs a server on a free loopback port (CRDLAB_UI's address, if
// set) with its data in dataDir and returns once /readyz passes.
func Start(ctx context.Context, dataDir string) (*Server, error) {
	cfg := apiserver.Config{
		DataDir: dataDir,
		Listen:  "127.0.0.1:0",
		Logger:  slog.New(slog.DiscardHandler),
	}
	cfg.Storage.NoSync = true // an example's data is thrown away: skip fsync
	ui := os.Getenv(UIEnv)
	if ui != "" {
		cfg.Listen, cfg.Tracer = ui, trace.New(trace.Options{})
	}
	completed, err := cfg.Complete()
	if err != nil {
		return nil, err
	}
	s, err := completed.New()
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithCancel(ctx)
	srv := &Server{
		URL:    "http://" + s.Addr(),
		Config: &client.Config{Host: "http://" + s.Addr(), QPS: -1},
		cancel: cancel,
		done:   make(chan error, 1),
		tracer: cfg.Tracer,
	}
	go func() { srv.done <- s.Run(ctx) }()
	if ui != "" {
		fmt.Fprintf(os.Stderr, "%s: open %s%s to watch this example; it starts once the page is open\n", UIEnv, srv.URL, apiserver.UIPath)
		for cfg.Tracer.Subscribers() == 0 {
			select {
			case <-ctx.Done():
				return nil, ctx.Err()
			case <-time.After(100 * time.Millisecond):
			}
		}
	}

	deadline := time.Now().Add(10 * time.Second)
	for {
		resp, err := http.Get(srv.URL + "/readyz")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return srv, nil
			}
		}
		if time.Now().After(deadline) {
			_ = srv.Stop()
			return nil, errors.New("labserver: not ready within 10s")
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// Stop shuts the server down and waits for it. With CRDLAB_UI set, it
// first waits for Ctrl-C (SIGINT or SIGTERM), so that the page stays up.
func (s *Server) Stop() error {
	if s.tracer != nil {
		fmt.Fprintf(os.Stderr, "%s: the example is done; %s%s stays up until Ctrl-C\n", UIEnv, s.URL, apiserver.UIPath)
		ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
		<-ctx.Done()
		stop()
	}
	s.cancel()
	return <-s.done
}

// UIEnv is the environment variable that turns on tracing and the /ui
// page at the address it holds.
const UIEnv = "CRDLAB_UI"

// InstallCRD creates crd and waits until it is Established.
func (s *Server) InstallCRD(ctx context.Context, crd *apiextensionsv1.CustomResourceDefinition) error {
	cs, err := client.NewForConfig(s.Config)
	if err != nil {
		return err
	}
	crds := cs.ApiextensionsV1().CustomResourceDefinitions()
	if _, err := crds.Create(ctx, crd, metav1.CreateOptions{}); err != nil {
		return err
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		got, err := crds.Get(ctx, crd.Name, metav1.GetOptions{})
		if err == nil && helpers.IsCRDConditionTrue(got, apiextensionsv1.Established) {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("labserver: %s not Established within 10s", crd.Name)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// CronTabCRD is the CronTab CRD of the Kubernetes documentation
// (crontabs.stable.example.com, short name ct), with a status subresource.
func CronTabCRD() *apiextensionsv1.CustomResourceDefinition {
	preserve := true
	return &apiextensionsv1.CustomResourceDefinition{
		TypeMeta:   metav1.TypeMeta{APIVersion: "apiextensions.k8s.io/v1", Kind: "CustomResourceDefinition"},
		ObjectMeta: metav1.ObjectMeta{Name: "crontabs.stable.example.com"},
		Spec: apiextensionsv1.CustomResourceDefinitionSpec{
			Group: "stable.example.com",
			Scope: apiextensionsv1.NamespaceScoped,
			Names: apiextensionsv1.CustomResourceDefinitionNames{
				Plural: "crontabs", Singular: "crontab", Kind: "CronTab", ListKind: "CronTabList", ShortNames: []string{"ct"},
			},
			Versions: []apiextensionsv1.CustomResourceDefinitionVersion{{
				Name: "v1", Served: true, Storage: true,
				Schema: &apiextensionsv1.CustomResourceValidation{OpenAPIV3Schema: &apiextensionsv1.JSONSchemaProps{
					Type: "object", XPreserveUnknownFields: &preserve,
				}},
				Subresources: &apiextensionsv1.CustomResourceSubresources{Status: &apiextensionsv1.CustomResourceSubresourceStatus{}},
			}},
		},
	}
}
