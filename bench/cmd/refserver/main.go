// Command refserver runs the upstream apiextensions-apiserver (k8s.io/apiextensions-apiserver
// v0.37.2) standalone, as the reference crdbench measures crdlab against.
//
// It is upstream's own server (pkg/cmd/server.Run) with what a standalone, single-user
// loopback server does not need switched off: authentication, authorization, admission,
// the core API (no kube-apiserver to talk to) and API priority and fairness (which needs
// the core API's flowcontrol objects). Everything on the request path of a custom resource
// is upstream's: handler chain, crdHandler, registry, watch cache (cacher) and the etcd3
// storage client.
//
// Besides upstream's TLS port (--secure-port, always on loopback here) it serves the same
// handler over plain HTTP on --http-address, because crdlab serves plain HTTP: the
// benchmark then compares servers, not TLS stacks. Root discovery (/apis), which upstream
// leaves to kube-apiserver, is turned back on so that kubectl and client-go can be pointed
// at it by hand.
//
// Usage:
//
//	refserver --etcd-servers=http://127.0.0.1:2379 --secure-port=6443 \
//	    --http-address=127.0.0.1:8081 --cert-dir=/tmp/refserver-certs
//
// Every flag of upstream's apiextensions-apiserver is accepted.
package main

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"os"
	"time"

	"github.com/spf13/pflag"
	noopoteltrace "go.opentelemetry.io/otel/trace/noop"

	"k8s.io/apiextensions-apiserver/pkg/apiserver"
	"k8s.io/apiextensions-apiserver/pkg/cmd/server/options"
	generatedopenapi "k8s.io/apiextensions-apiserver/pkg/generated/openapi"
	openapinamer "k8s.io/apiserver/pkg/endpoints/openapi"
	genericapiserver "k8s.io/apiserver/pkg/server"
	"k8s.io/apiserver/pkg/util/openapi"
	"k8s.io/apiserver/pkg/util/webhook"
	"k8s.io/client-go/kubernetes/scheme"
	netutils "k8s.io/utils/net"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "refserver:", err)
		os.Exit(1)
	}
}

func run() error {
	o := options.NewCustomResourceDefinitionsServerOptions(os.Stdout, os.Stderr)
	// A single anonymous user on loopback: no authn/authz/admission, no core API.
	o.RecommendedOptions.Authentication = nil
	o.RecommendedOptions.Authorization = nil
	o.RecommendedOptions.Admission = nil
	o.RecommendedOptions.CoreAPI = nil
	o.RecommendedOptions.Features.EnablePriorityAndFairness = false
	o.RecommendedOptions.SecureServing.BindAddress = netutils.ParseIPSloppy("127.0.0.1")

	fs := pflag.NewFlagSet("refserver", pflag.ExitOnError)
	o.AddFlags(fs)
	httpAddr := fs.String("http-address", "", "also serve the API over plain HTTP on this loopback address (host:port)")
	if err := fs.Parse(os.Args[1:]); err != nil {
		return err
	}
	if err := o.ServerRunOptions.ComponentGlobalsRegistry.Set(); err != nil {
		return err
	}
	if err := o.Complete(); err != nil {
		return err
	}
	if err := o.Validate(); err != nil {
		return err
	}
	config, err := buildConfig(o)
	if err != nil {
		return err
	}
	completed := config.Complete()
	// Standalone, nothing else serves /apis: turn root discovery back on.
	completed.GenericConfig.EnableDiscovery = true
	server, err := completed.New(genericapiserver.NewEmptyDelegate())
	if err != nil {
		return err
	}
	ctx := genericapiserver.SetupSignalContext()
	prepared := server.GenericAPIServer.PrepareRun()

	if *httpAddr != "" {
		if err := serveHTTP(ctx, *httpAddr, server.GenericAPIServer.Handler); err != nil {
			return err
		}
	}
	return prepared.RunWithContext(ctx)
}

// buildConfig is upstream's options.Config (pkg/cmd/server/options) less the one part that
// needs the core API: the Service lister that resolves conversion-webhook services. The
// benchmark's CRDs have no webhooks; a webhook would fail with noServices.
func buildConfig(o *options.CustomResourceDefinitionsServerOptions) (*apiserver.Config, error) {
	if err := o.RecommendedOptions.SecureServing.MaybeDefaultWithSelfSignedCerts("localhost", nil, []net.IP{netutils.ParseIPSloppy("127.0.0.1")}); err != nil {
		return nil, fmt.Errorf("creating self-signed certificates: %w", err)
	}
	serverConfig := genericapiserver.NewRecommendedConfig(apiserver.Codecs)
	if err := o.ServerRunOptions.ApplyTo(&serverConfig.Config); err != nil {
		return nil, err
	}
	if err := o.RecommendedOptions.ApplyTo(serverConfig); err != nil {
		return nil, err
	}
	if err := o.APIEnablement.ApplyTo(&serverConfig.Config, apiserver.DefaultAPIResourceConfigSource(), apiserver.Scheme); err != nil {
		return nil, err
	}
	// Both OpenAPI configs, as kube-apiserver has them: with the v2 one unset the generic
	// server has no StaticOpenAPISpec, and apiextensions' apiserver.go then starts neither
	// CRD OpenAPI controller (v2 nor v3): no CRD would be published in /openapi/v2 or
	// /openapi/v3 (their group versions answer 200 with an empty body), and the reference
	// would skip the work that makes many CRDs costly upstream. Upstream's standalone
	// options (pkg/cmd/server/options, options.go) set the v3 one only, as this server did
	// before session 25; the runs before then measured that.
	defs := openapi.GetOpenAPIDefinitionsWithoutDisabledFeatures(generatedopenapi.GetOpenAPIDefinitions)
	serverConfig.OpenAPIConfig = genericapiserver.DefaultOpenAPIConfig(defs, openapinamer.NewDefinitionNamer(apiserver.Scheme, scheme.Scheme))
	serverConfig.OpenAPIV3Config = genericapiserver.DefaultOpenAPIV3Config(defs, openapinamer.NewDefinitionNamer(apiserver.Scheme, scheme.Scheme))
	return &apiserver.Config{
		GenericConfig: serverConfig,
		ExtraConfig: apiserver.ExtraConfig{
			CRDRESTOptionsGetter: options.NewCRDRESTOptionsGetter(*o.RecommendedOptions.Etcd, serverConfig.ResourceTransformers, serverConfig.StorageObjectCountTracker),
			ServiceResolver:      noServices{},
			AuthResolverWrapper:  webhook.NewDefaultAuthenticationInfoResolverWrapper(nil, nil, serverConfig.LoopbackClientConfig, noopoteltrace.NewTracerProvider()),
		},
	}, nil
}

// noServices resolves no Service: there is no core API to look them up in.
type noServices struct{}

func (noServices) ResolveEndpoint(namespace, name string, port int32) (*url.URL, error) {
	return nil, fmt.Errorf("service %s/%s: no core API in a standalone apiextensions-apiserver", namespace, name)
}

// serveHTTP serves h over plain HTTP on addr, which must be a loopback address, until ctx
// is done.
func serveHTTP(ctx context.Context, addr string, h http.Handler) error {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("--http-address: %w", err)
	}
	if ip := net.ParseIP(host); host != "localhost" && (ip == nil || !ip.IsLoopback()) {
		return fmt.Errorf("--http-address %s: only loopback addresses are allowed", addr)
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 30 * time.Second}
	go func() {
		if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			fmt.Fprintln(os.Stderr, "refserver: plain HTTP:", err)
		}
	}()
	go func() {
		<-ctx.Done()
		sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = srv.Shutdown(sctx)
	}()
	return nil
}
