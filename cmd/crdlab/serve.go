package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/url"
	"strings"

	"github.com/spf13/cobra"

	"github.com/crdlab/crdlab/apiserver"
)

// serveOptions are the flags of `crdlab serve`.
//
// Mirrors (a small part of) ServerRunOptions in cmd/kube-apiserver/app/options.
type serveOptions struct {
	dataDir       string
	listen        string
	runtimeConfig string
	logLevel      string
}

// newServeCommand is `crdlab serve`: run the API server until SIGINT or
// SIGTERM (the command's context, from main), then shut down gracefully.
//
// Mirrors NewAPIServerCommand in cmd/kube-apiserver/app/server.go.
func newServeCommand() *cobra.Command {
	o := serveOptions{dataDir: apiserver.DefaultDataDir, listen: apiserver.DefaultListen, logLevel: "info"}
	cmd := &cobra.Command{
		Use:   "serve",
		Short: "Run the crdlab API server",
		Long: `Run the crdlab API server: CustomResourceDefinitions and their custom
resources over the Kubernetes API, kept in a bbolt file in --data-dir.
Point kubectl at it with
  kubectl --server http://127.0.0.1:8080 get crd
or
  KUBECONFIG=<(crdlab kubeconfig) kubectl get crd`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runServe(cmd.Context(), cmd.ErrOrStderr(), o)
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.dataDir, "data-dir", o.dataDir, "directory of the storage file (created if missing)")
	f.StringVar(&o.listen, "listen", o.listen, "address to serve HTTP on (port 0 picks a free port)")
	f.StringVar(&o.runtimeConfig, "runtime-config", "", `group versions to turn on or off, as kube-apiserver's: "apiextensions.k8s.io/v1beta1=true" (api/all, api/ga, api/beta, api/alpha also work)`)
	f.StringVar(&o.logLevel, "log-level", o.logLevel, "log level: debug, info, warn or error")
	return cmd
}

// parseLogLevel reads --log-level.
func parseLogLevel(s string) (slog.Level, error) {
	switch strings.ToLower(s) {
	case "debug":
		return slog.LevelDebug, nil
	case "info":
		return slog.LevelInfo, nil
	case "warn", "warning":
		return slog.LevelWarn, nil
	case "error":
		return slog.LevelError, nil
	}
	return 0, fmt.Errorf("invalid --log-level %q: want debug, info, warn or error", s)
}

// runServe builds the server from the flags and runs it until ctx is done.
// Logs go to stderr, one line each (slog's text format); the line
// "msg=serving ... addr=<host:port>" says where the server listens.
func runServe(ctx context.Context, stderr io.Writer, o serveOptions) error {
	level, err := parseLogLevel(o.logLevel)
	if err != nil {
		return err
	}
	runtimeConfig, err := apiserver.ParseRuntimeConfig(o.runtimeConfig)
	if err != nil {
		return fmt.Errorf("invalid --runtime-config: %w", err)
	}
	log := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: level}))
	cfg := &apiserver.Config{
		DataDir:       o.dataDir,
		Listen:        o.listen,
		RuntimeConfig: runtimeConfig,
		Logger:        log,
	}
	completed := cfg.Complete()
	srv, err := completed.New()
	if err != nil {
		return err
	}
	server := "http://" + srv.Addr()
	log.Info("crdlab is ready to serve",
		"addr", srv.Addr(),
		"dataDir", o.dataDir,
		"apis", strings.Join(completed.EnabledVersions(), ","),
		"try", "kubectl --server "+server+" get crd",
		"or", "KUBECONFIG=<(crdlab kubeconfig --server "+server+") kubectl get crd")
	return srv.Run(ctx)
}

// kubeconfigTemplate is a kubeconfig with one cluster, user and context,
// all named crdlab. The dummy token keeps kubectl from asking for
// credentials; crdlab over plain HTTP checks none.
const kubeconfigTemplate = `apiVersion: v1
kind: Config
clusters:
- name: crdlab
  cluster:
    server: %s
users:
- name: crdlab
  user:
    token: crdlab
contexts:
- name: crdlab
  context:
    cluster: crdlab
    user: crdlab
current-context: crdlab
preferences: {}
`

// newKubeconfigCommand is `crdlab kubeconfig [--server URL]`: print a
// kubeconfig that points kubectl at a crdlab server.
func newKubeconfigCommand() *cobra.Command {
	server := "http://" + apiserver.DefaultListen
	cmd := &cobra.Command{
		Use:   "kubeconfig",
		Short: "Print a kubeconfig that points kubectl at crdlab",
		Long: `Print a kubeconfig that points kubectl at a crdlab server, e.g.
  crdlab kubeconfig > crdlab.kubeconfig && kubectl --kubeconfig crdlab.kubeconfig get crd
  KUBECONFIG=<(crdlab kubeconfig --server http://127.0.0.1:9090) kubectl get crd`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			u, err := url.Parse(server)
			if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
				return fmt.Errorf("invalid --server %q: want a URL such as http://127.0.0.1:8080", server)
			}
			_, err = fmt.Fprintf(cmd.OutOrStdout(), kubeconfigTemplate, server)
			return err
		},
	}
	cmd.Flags().StringVar(&server, "server", server, "URL of the crdlab server")
	return cmd
}
