package main

import (
	"context"
	"encoding/pem"
	"fmt"
	"io"
	"log/slog"
	"net/url"
	"os"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/crdlab/crdlab/apiserver"
	"github.com/crdlab/crdlab/apiserver/authz"
	"github.com/crdlab/crdlab/apiserver/limits"
	"github.com/crdlab/crdlab/apiserver/tlsutil"
	"github.com/crdlab/crdlab/storage"
	"github.com/crdlab/crdlab/storage/bolt"
	"github.com/crdlab/crdlab/trace"
)

// serveOptions are the flags of `crdlab serve`.
//
// Mirrors (a small part of) ServerRunOptions in cmd/kube-apiserver/app/options.
type serveOptions struct {
	dataDir       string
	listen        string
	acceptHosts   string
	runtimeConfig string
	logLevel      string

	// Access (apiserver/access.go): authentication, authorization, TLS.
	tokenFile               string
	authorizationMode       string
	authorizationPolicyFile string
	tlsCertFile             string
	tlsPrivateKeyFile       string
	selfSignedCertDir       string
	// Overload (apiserver/limits): 0 means no limit, as upstream.
	maxRequestsInFlight         int
	maxMutatingRequestsInFlight int
	maxWatches                  int
	profiling                   bool
	// trace turns tracing on: events narrated to traceLog ("-" is
	// stderr, "none" nothing) and streamed to /ui.
	trace    bool
	traceLog string
	// compactionInterval: history older than this is forgotten, as
	// kube-apiserver's --etcd-compaction-interval (0: never), except what a
	// watch from a list read in the last eventsHistoryWindow needs
	// (bolt.Options.KeepListed; upstream's watch cache keeps the events of
	// at least storagebackend.DefaultEventsHistoryWindow, 75 s).
	compactionInterval  time.Duration
	eventsHistoryWindow time.Duration
	// Storage backend: bbolt (default) or etcd (storage/etcd3).
	storageBackend string
	etcdServers    []string
	etcdPrefix     string
	// The built-in API: how long Events live, and whether objects need an
	// existing namespace.
	eventTTL           time.Duration
	namespaceLifecycle bool
	controllers        []string
}

// newServeCommand is `crdlab serve`: run the API server until SIGINT or
// SIGTERM (the command's context, from main), then shut down gracefully.
//
// Mirrors NewAPIServerCommand in cmd/kube-apiserver/app/server.go.
func newServeCommand() *cobra.Command {
	o := serveOptions{
		dataDir: apiserver.DefaultDataDir, listen: apiserver.DefaultListen, logLevel: "info",
		authorizationMode:           authz.ModeAlwaysAllow,
		maxRequestsInFlight:         limits.DefaultMaxRequestsInFlight,
		maxMutatingRequestsInFlight: limits.DefaultMaxMutatingRequestsInFlight,
		maxWatches:                  limits.DefaultMaxWatches,
		profiling:                   true,
		compactionInterval:          5 * time.Minute,
		eventsHistoryWindow:         75 * time.Second,
		storageBackend:              apiserver.StorageBolt,
		etcdPrefix:                  storage.KeyRoot,
		traceLog:                    "-",
		eventTTL:                    time.Hour,
		namespaceLifecycle:          true,
	}
	cmd := &cobra.Command{
		Use:   "serve",
		Short: "Run the crdlab API server",
		Long: `Run the crdlab API server: CustomResourceDefinitions and their custom
resources over the Kubernetes API, kept in a bbolt file in --data-dir,
or with --storage=etcd in an etcd v3 cluster that several crdlab servers
may share (--etcd-servers, --etcd-prefix; see storage/etcd3).
Point kubectl at it with
  kubectl --server http://127.0.0.1:8080 get crd
or
  KUBECONFIG=<(crdlab kubeconfig) kubectl get crd

It serves plain HTTP on loopback unless told otherwise. To serve other
machines, turn authentication on (a non-loopback --listen without
--token-file is refused), and preferably TLS:
  crdlab serve --listen 0.0.0.0:8443 --token-file tokens.csv \
    --self-signed-cert-dir certs --authorization-mode Static \
    --authorization-policy-file policy.yaml
  KUBECONFIG=certs/kubeconfig kubectl get crd
docs/access.md explains the token file, the modes and the policy file.

To watch the machinery move, run it with --trace and open /ui in a
browser: every step a request takes (handler, registry, storage at a
revision, watch fan-out, informer, workqueue, controllers) is narrated
on stderr and drawn on the page:
  crdlab serve --trace        # then open http://127.0.0.1:8080/ui/`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runServe(cmd.Context(), cmd.ErrOrStderr(), o)
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.dataDir, "data-dir", o.dataDir, "directory of the storage file (created if missing)")
	f.StringVar(&o.listen, "listen", o.listen, "address to serve on (port 0 picks a free port); not a loopback address only with --token-file")
	f.StringVar(&o.acceptHosts, "accept-hosts", "", `regular expressions, comma separated, that the Host header of every request must match (its host name, without the port), as kubectl proxy's --accept-hosts; unset: on a loopback --listen only localhost, 127.0.0.1 and [::1] (and the --listen host), elsewhere any`)
	f.StringVar(&o.runtimeConfig, "runtime-config", "", `group versions to turn on or off, as kube-apiserver's: "apiextensions.k8s.io/v1beta1=true" (api/all, api/ga, api/beta, api/alpha also work)`)
	f.StringVar(&o.logLevel, "log-level", o.logLevel, "log level: debug, info, warn or error")

	f.StringVar(&o.tokenFile, "token-file", "", `bearer tokens: a CSV file of token,user,uid[,"group1,group2"] lines; turns authentication on (requests with other tokens get 401)`)
	f.StringVar(&o.authorizationMode, "authorization-mode", o.authorizationMode, "who may do what: "+strings.Join(authz.Modes, ", ")+" (Static reads --authorization-policy-file)")
	f.StringVar(&o.authorizationPolicyFile, "authorization-policy-file", "", "the YAML rules of --authorization-mode=Static, a simplified RBAC (docs/access.md)")
	f.StringVar(&o.tlsCertFile, "tls-cert-file", "", "serve HTTPS with this PEM certificate (chain); needs --tls-private-key-file")
	f.StringVar(&o.tlsPrivateKeyFile, "tls-private-key-file", "", "the PEM private key of --tls-cert-file")
	f.StringVar(&o.selfSignedCertDir, "self-signed-cert-dir", "", "serve HTTPS with a CA and a serving certificate made in this directory on first start (and kept), and write DIR/kubeconfig that trusts the CA")
	f.IntVar(&o.maxRequestsInFlight, "max-requests-inflight", o.maxRequestsInFlight, "most read-only requests served at once; more get 429 with Retry-After (0: no limit)")
	f.IntVar(&o.maxMutatingRequestsInFlight, "max-mutating-requests-inflight", o.maxMutatingRequestsInFlight, "most mutating requests served at once; more get 429 with Retry-After (0: no limit)")
	f.IntVar(&o.maxWatches, "max-watches", o.maxWatches, "most watches open at once; more get 429 with Retry-After (0: no limit)")
	f.BoolVar(&o.trace, "trace", false, "trace every step of requests and the control loop: narrate them (see --trace-log) and stream them to the /ui page")
	f.StringVar(&o.traceLog, "trace-log", o.traceLog, `where --trace narrates: "-" for stderr, "none" for nowhere (the /ui page only), or a file to append to`)
	f.BoolVar(&o.profiling, "profiling", o.profiling, "serve Go's profiles under /debug/pprof/ (to those authorized)")
	f.DurationVar(&o.compactionInterval, "compaction-interval", o.compactionInterval, "every interval, forget the history written before the previous one, as kube-apiserver's --etcd-compaction-interval; watches and lists from older resourceVersions then get 410 Gone, except a watch from the resourceVersion of a list read within --events-history-window (0: keep all history, which grows without bound)")
	f.DurationVar(&o.eventsHistoryWindow, "events-history-window", o.eventsHistoryWindow, "how long the resourceVersion a list answers stays watchable through --compaction-interval's compactions (bbolt), so that an informer's watch after its list is not told 410 Gone: upstream's watch cache keeps the events of at least this long (storagebackend.DefaultEventsHistoryWindow, 75s) whatever etcd compacted (0: compactions keep nothing for lists)")
	f.StringVar(&o.storageBackend, "storage", o.storageBackend, `where objects are kept: "bbolt" (a file in --data-dir, one server) or "etcd" (an etcd v3 cluster at --etcd-servers, which several crdlab servers may share)`)
	f.StringSliceVar(&o.etcdServers, "etcd-servers", nil, "etcd client URLs for --storage=etcd, comma separated, as kube-apiserver's --etcd-servers")
	f.StringVar(&o.etcdPrefix, "etcd-prefix", o.etcdPrefix, "the key prefix of every object in etcd, as kube-apiserver's --etcd-prefix (servers sharing objects use the same prefix)")
	f.DurationVar(&o.eventTTL, "event-ttl", o.eventTTL, "how long an Event is kept after its last write, as kube-apiserver's --event-ttl")
	f.StringSliceVar(&o.controllers, "controllers", []string{"*"}, "the kube-controller-manager controllers to run in the server, as its --controllers: '*' runs namespace-controller and garbage-collector-controller, '-name' turns one off (with the garbage collector off, deletes ignore propagationPolicy)")
	f.BoolVar(&o.namespaceLifecycle, "namespace-lifecycle", o.namespaceLifecycle, "objects can only be created in a namespace that exists and is not being deleted, and default, kube-system and kube-public cannot be deleted (upstream's NamespaceLifecycle admission); false accepts any namespace name, as crdlab did before it served Namespaces")
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
	// Upstream's flags say 0 for "no limit"; Config says so with -1.
	noLimit := func(n int) int {
		if n <= 0 {
			return -1
		}
		return n
	}
	var acceptHosts []string
	if o.acceptHosts != "" {
		acceptHosts = strings.Split(o.acceptHosts, ",")
	}
	cfg := &apiserver.Config{
		DataDir:        o.dataDir,
		Listen:         o.listen,
		AcceptHosts:    acceptHosts,
		RuntimeConfig:  runtimeConfig,
		Logger:         log,
		Authentication: apiserver.AuthenticationConfig{TokenFile: o.tokenFile},
		Authorization:  apiserver.AuthorizationConfig{Mode: o.authorizationMode, PolicyFile: o.authorizationPolicyFile},
		SecureServing: apiserver.SecureServingConfig{
			CertFile: o.tlsCertFile, KeyFile: o.tlsPrivateKeyFile, SelfSignedCertDir: o.selfSignedCertDir,
		},
		Limits: limits.Config{
			MaxRequestsInFlight:         noLimit(o.maxRequestsInFlight),
			MaxMutatingRequestsInFlight: noLimit(o.maxMutatingRequestsInFlight),
			MaxWatches:                  noLimit(o.maxWatches),
		},
		Profiling: o.profiling,
		Storage:   bolt.Options{RetainAge: o.compactionInterval, CompactInterval: o.compactionInterval, KeepListed: o.eventsHistoryWindow},

		StorageBackend: o.storageBackend,
		EtcdServers:    o.etcdServers,
		EtcdPrefix:     o.etcdPrefix,

		EventTTL:                  o.eventTTL,
		DisableNamespaceLifecycle: !o.namespaceLifecycle,
		Controllers:               o.controllers,
	}
	if o.storageBackend == apiserver.StorageEtcd && len(o.etcdServers) == 0 {
		return fmt.Errorf("--storage=etcd needs --etcd-servers")
	}
	if o.trace {
		traceLog, closeLog, err := openTraceLog(o.traceLog, stderr)
		if err != nil {
			return err
		}
		defer closeLog()
		cfg.Tracer = trace.New(trace.Options{Log: traceLog})
	} else if o.traceLog != "-" {
		return fmt.Errorf("--trace-log needs --trace")
	}
	completed, err := cfg.Complete()
	if err != nil {
		return err
	}
	srv, err := completed.New()
	if err != nil {
		return err
	}
	server := srv.URL()
	attrs := []any{
		"addr", srv.Addr(),
		"dataDir", o.dataDir,
		"storage", o.storageBackend,
		"apis", strings.Join(completed.EnabledVersions(), ","),
	}
	switch {
	case srv.KubeconfigPath() != "":
		attrs = append(attrs, "try", "KUBECONFIG="+srv.KubeconfigPath()+" kubectl get crd")
	case strings.HasPrefix(server, "https://"):
		attrs = append(attrs, "try", "KUBECONFIG=<(crdlab kubeconfig --server "+server+" --certificate-authority CA.crt --token TOKEN) kubectl get crd")
	case o.tokenFile != "":
		attrs = append(attrs, "try", "KUBECONFIG=<(crdlab kubeconfig --server "+server+" --token TOKEN) kubectl get crd")
	default:
		attrs = append(attrs,
			"try", "kubectl --server "+server+" get crd",
			"or", "KUBECONFIG=<(crdlab kubeconfig --server "+server+") kubectl get crd")
	}
	if o.trace {
		attrs = append(attrs, "watch", server+apiserver.UIPath)
	}
	log.Info("crdlab is ready to serve", attrs...)
	return srv.Run(ctx)
}

// newKubeconfigCommand is `crdlab kubeconfig [--server URL] [--token T]
// [--certificate-authority FILE]`: print a kubeconfig that points kubectl
// at a crdlab server.
func newKubeconfigCommand() *cobra.Command {
	server := "http://" + apiserver.DefaultListen
	var token, caFile string
	cmd := &cobra.Command{
		Use:   "kubeconfig",
		Short: "Print a kubeconfig that points kubectl at crdlab",
		Long: `Print a kubeconfig that points kubectl at a crdlab server, e.g.
  crdlab kubeconfig > crdlab.kubeconfig && kubectl --kubeconfig crdlab.kubeconfig get crd
  KUBECONFIG=<(crdlab kubeconfig --server http://127.0.0.1:9090) kubectl get crd
For a server with --token-file and TLS:
  crdlab kubeconfig --server https://10.0.0.5:8443 --token s3cret \
    --certificate-authority certs/ca.crt > crdlab.kubeconfig
(crdlab serve --self-signed-cert-dir DIR also writes DIR/kubeconfig.)
Without --token the kubeconfig carries a dummy token, which a server
without --token-file ignores.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			u, err := url.Parse(server)
			if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
				return fmt.Errorf("invalid --server %q: want a URL such as http://127.0.0.1:8080", server)
			}
			if strings.ContainsAny(token, " \t\r\n") {
				return fmt.Errorf("invalid --token: a token has no spaces")
			}
			o := tlsutil.KubeconfigOptions{Server: server, Token: token}
			if caFile != "" {
				if u.Scheme != "https" {
					return fmt.Errorf("--certificate-authority needs an https:// --server, not %q", server)
				}
				o.CAData, err = os.ReadFile(caFile)
				if err != nil {
					return fmt.Errorf("--certificate-authority: %w", err)
				}
				if block, _ := pem.Decode(o.CAData); block == nil || block.Type != "CERTIFICATE" {
					return fmt.Errorf("--certificate-authority %s: not a PEM certificate", caFile)
				}
			}
			_, err = cmd.OutOrStdout().Write(tlsutil.Kubeconfig(o))
			return err
		},
	}
	cmd.Flags().StringVar(&server, "server", server, "URL of the crdlab server")
	cmd.Flags().StringVar(&token, "token", "", "bearer token (one of --token-file's); empty: a dummy token")
	cmd.Flags().StringVar(&caFile, "certificate-authority", "", "PEM file of the CA that signed the server's certificate, embedded as certificate-authority-data")
	return cmd
}

// openTraceLog opens where --trace narrates: stderr for "-", nowhere for
// "none", else a file appended to.
func openTraceLog(where string, stderr io.Writer) (io.Writer, func(), error) {
	switch where {
	case "-":
		return stderr, func() {}, nil
	case "none", "":
		return nil, func() {}, nil
	}
	f, err := os.OpenFile(where, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
	if err != nil {
		return nil, nil, fmt.Errorf("--trace-log: %w", err)
	}
	return f, func() { f.Close() }, nil
}
