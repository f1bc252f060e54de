package apiserver

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"sort"
	"sync"
	"sync/atomic"
	"time"

	"github.com/crdlab/crdlab/apis/apiextensions/install"
	apiextensionsv1 "github.com/crdlab/crdlab/apis/apiextensions/v1"
	"github.com/crdlab/crdlab/apis/builtin"
	"github.com/crdlab/crdlab/apiserver/limits"
	"github.com/crdlab/crdlab/client"
	"github.com/crdlab/crdlab/controller/establish"
	"github.com/crdlab/crdlab/handler/request"
	"github.com/crdlab/crdlab/internal/version"
	"github.com/crdlab/crdlab/registry/core/event"
	"github.com/crdlab/crdlab/registry/customresourcedefinition"
	"github.com/crdlab/crdlab/scheme"
	"github.com/crdlab/crdlab/storage"
	"github.com/crdlab/crdlab/storage/bolt"
	"github.com/crdlab/crdlab/storage/etcd3"
	"github.com/crdlab/crdlab/trace"
)

// Defaults of Config.
const (
	DefaultDataDir         = "./crdlab-data"
	DefaultListen          = "127.0.0.1:8080"
	DefaultShutdownTimeout = 10 * time.Second
	// DefaultIdleTimeout closes idle keep-alive connections, as
	// upstream's secure serving does (90 s, http.DefaultTransport's
	// keep-alive timeout).
	DefaultIdleTimeout = 90 * time.Second
	// DefaultReadHeaderTimeout bounds how long a client may take to send
	// a request's headers (and the TLS handshake), as upstream's 32 s.
	DefaultReadHeaderTimeout = 32 * time.Second
	// DefaultWatchBufferSize is the server's bolt.Options.WatchBufferSize:
	// how many events a watcher may fall behind before it is closed with a
	// 410 (its client lists again). Events wait in a queue that grows
	// only while its watcher lags (32 bytes each; storage/bolt's
	// eventQueue); with events encoded once for all watchers (handler's
	// watchLines), a watcher that keeps up is rarely more than a few
	// events behind. Upstream's cacheWatcher buffers 10 to 1,000 events.
	DefaultWatchBufferSize = 256
	// DataFileName is the storage file inside DataDir.
	DataFileName = "crdlab.db"

	// StorageBolt and StorageEtcd are the values of Config.StorageBackend.
	StorageBolt = "bbolt"
	StorageEtcd = "etcd"
)

// Config is what a crdlab server is made from; zero fields get defaults
// in Complete.
//
// Mirrors the Config of k8s.io/apiextensions-apiserver/pkg/apiserver
// together with the parts of the generic server's Config crdlab has
// (listen address, resource config, storage).
type Config struct {
	// DataDir holds the storage file; created if missing.
	DataDir string
	// Listen is the TCP address to serve on; port 0 picks a free port
	// (see Server.Addr).
	Listen string
	// RuntimeConfig turns group versions on and off, as kube-apiserver's
	// --runtime-config: {"apiextensions.k8s.io/v1beta1": true}.
	RuntimeConfig map[string]bool
	// Logger gets the server's logs; nil means slog.Default().
	Logger *slog.Logger
	// Storage tunes the storage (compaction, fsync …).
	Storage bolt.Options
	// StorageBackend is StorageBolt (the default: a bbolt file in
	// DataDir, one server) or StorageEtcd (an etcd v3 cluster at
	// EtcdServers, which several servers may share; see storage/etcd3).
	StorageBackend string
	// EtcdServers and EtcdPrefix are kube-apiserver's --etcd-servers and
	// --etcd-prefix, for StorageBackend StorageEtcd.
	EtcdServers []string
	EtcdPrefix  string
	// AcceptHosts are regular expressions the Host header of every
	// request must match (its host name, without the port; an IPv6
	// address in brackets), as kubectl proxy's --accept-hosts. Nil: on a
	// loopback Listen, DefaultAcceptHosts; on any other, every host
	// (authentication is on there). The host the server's own client
	// dials is always accepted. A request with another Host, or whose
	// Origin header names a site other than the server itself or a
	// loopback host, is answered 403 (hostcheck.go).
	AcceptHosts []string
	// RequestTimeout bounds every request but watches; 0 is the
	// handler's default (60 s).
	RequestTimeout time.Duration
	// IdleTimeout closes a keep-alive connection that has carried no
	// request for this long; 0 is DefaultIdleTimeout.
	IdleTimeout time.Duration
	// ReadHeaderTimeout bounds how long a client may take to send a
	// request's headers; 0 is DefaultReadHeaderTimeout.
	ReadHeaderTimeout time.Duration
	// ShutdownTimeout bounds how long Run waits for requests to finish
	// once its context is done.
	ShutdownTimeout time.Duration
	// WatchWriteTimeout ends a watch whose client stops reading; 0 is
	// the handler's default (endpoints.DefaultWatchWriteTimeout, a minute).
	WatchWriteTimeout time.Duration

	// Authentication, Authorization and SecureServing control access
	// (access.go); a non-loopback Listen needs Authentication.
	Authentication AuthenticationConfig
	Authorization  AuthorizationConfig
	SecureServing  SecureServingConfig
	// Limits cap the requests in flight and the open watches (zero
	// fields: upstream's defaults, 400 and 200; 10000 watches).
	Limits limits.Config
	// Tracer, if set, gets an event at each step a request and the
	// control loop take (package trace), streamed to /ui through
	// /debug/crdlab/events; `crdlab serve --trace` sets one that also
	// narrates to stderr. Nil: tracing off.
	Tracer *trace.Tracer
	// Profiling serves /debug/pprof/ (to those authorized), as
	// kube-apiserver's --profiling.
	Profiling bool
	// EventTTL is how long an Event lives after its last write
	// (kube-apiserver's --event-ttl); 0 means an hour.
	EventTTL time.Duration
	// DisableNamespaceLifecycle turns the NamespaceLifecycle admission
	// off (crdlab serve --namespace-lifecycle=false): objects may then be
	// created in namespaces that do not exist, as crdlab allowed before it
	// served Namespaces. Upstream always runs the plugin.
	DisableNamespaceLifecycle bool
	// Controllers are the kube-controller-manager controllers the server
	// runs besides the apiextensions ones, as its --controllers: nil or
	// "*" runs every one (KnownControllers), "-name" turns one off. With
	// the garbage collector off, deletes ignore propagationPolicy (as
	// kube-apiserver's --enable-garbage-collector=false).
	Controllers []string
}

// CompletedConfig is a Config with every default filled in; only it can
// make a Server.
//
// Mirrors CompletedConfig in apiextensions-apiserver's apiserver.go.
type CompletedConfig struct {
	*completedConfig
}

type completedConfig struct {
	Config
	// ResourceConfig is DefaultAPIResourceConfig with RuntimeConfig applied.
	ResourceConfig *ResourceConfig
	// scheme knows the apiextensions.k8s.io types and the built-in
	// groups (package apis/builtin).
	scheme *scheme.Scheme
	// events is the one Event storage of core/v1 and events.k8s.io/v1,
	// made by the first of the two to ask (controlplane.go).
	events *event.REST
}

// Complete fills in the defaults and works out the resource config. It
// fails if RuntimeConfig names a group version crdlab does not have.
//
// Mirrors (*Config).Complete in apiextensions-apiserver's apiserver.go;
// upstream checks --runtime-config earlier, in its options.
func (c *Config) Complete() (CompletedConfig, error) {
	cc := &completedConfig{Config: *c}
	if cc.DataDir == "" {
		cc.DataDir = DefaultDataDir
	}
	if cc.Listen == "" {
		cc.Listen = DefaultListen
	}
	if cc.Logger == nil {
		cc.Logger = slog.Default()
	}
	if cc.ShutdownTimeout <= 0 {
		cc.ShutdownTimeout = DefaultShutdownTimeout
	}
	if cc.IdleTimeout <= 0 {
		cc.IdleTimeout = DefaultIdleTimeout
	}
	if cc.ReadHeaderTimeout <= 0 {
		cc.ReadHeaderTimeout = DefaultReadHeaderTimeout
	}
	if cc.Storage.WatchBufferSize <= 0 {
		cc.Storage.WatchBufferSize = DefaultWatchBufferSize
	}
	if cc.Storage.Logger == nil {
		cc.Storage.Logger = cc.Logger.With("component", "storage")
	}
	if cc.Storage.Tracer == nil {
		cc.Storage.Tracer = cc.Tracer
	}
	if cc.Controllers == nil {
		cc.Controllers = []string{"*"}
	}
	if err := validateControllers(cc.Controllers); err != nil {
		return CompletedConfig{}, err
	}
	cc.scheme = scheme.NewScheme()
	install.Install(cc.scheme)
	builtin.Install(cc.scheme)
	registered := append(cc.scheme.PrioritizedVersionsForGroup(apiextensionsv1.GroupName), builtin.GroupVersions...)
	rc, err := MergeAPIResourceConfigs(DefaultAPIResourceConfig(), cc.RuntimeConfig, registered)
	if err != nil {
		return CompletedConfig{}, err
	}
	cc.ResourceConfig = rc
	return CompletedConfig{cc}, nil
}

// controllerEnabled reports whether Controllers runs name.
func (c *completedConfig) controllerEnabled(name string) bool {
	return controllerEnabled(name, c.Controllers)
}

// garbageCollection reports whether the garbage collector runs, and so
// whether deletes honour propagationPolicy (upstream's
// --enable-garbage-collector, which must agree with the controller
// manager's).
func (c *completedConfig) garbageCollection() bool {
	return c.controllerEnabled(GarbageCollectorControllerName)
}

// Server is a running crdlab API server: storage, the HTTP handler, the
// health, version and metrics endpoints, and the hooks started after it
// listens.
//
// Mirrors CustomResourceDefinitions (apiextensions-apiserver) and the
// GenericAPIServer it wraps.
type Server struct {
	cfg *completedConfig
	log *slog.Logger
	db  backend
	// chain is the server chain: its kube-apiserver link serves
	// everything the mux does not (chain.go).
	chain    *serverChain
	listener net.Listener
	// pipe is the in-process listener of the server's own controllers
	// (LoopbackClientConfig); nil over TLS and where the system has no
	// socketpair.
	pipe *client.PipeListener
	http *http.Server
	// fresh are the connections that have sent no request yet
	// (newconns.go): Shutdown closes them at once.
	fresh   newConns
	metrics *metrics
	// controllers are the CRD informer and controllers (controllers.go).
	controllers *crdControllers
	// kubeControllers are the namespace controller and the garbage
	// collector (kubecontrollers.go).
	kubeControllers *kubeControllers
	// queueStats are the controllers' workqueue numbers (debug.go).
	queueStats *queueStats
	// access is authentication, authorization, limits and TLS (access.go).
	access *access
	// kubeconfigPath is the kubeconfig written into the self-signed
	// cert dir, if any.
	kubeconfigPath string

	healthz, livez, readyz healthChecks

	// shuttingDown is set when Run's context is done: /readyz fails.
	shuttingDown atomic.Bool
	// watchCtx is the parent of every watch request's context; canceled
	// on shutdown so that watches end cleanly.
	watchCtx    context.Context
	cancelWatch context.CancelFunc

	mu        sync.Mutex // guards postStart and running
	postStart []*postStartHook
	running   bool

	closeOnce sync.Once
	closeErr  error
}

type postStartHook struct {
	name string
	fn   func(ctx context.Context) error
	done atomic.Bool
}

// New opens the storage, builds the handler and listens on Listen. The
// server serves nothing until Run.
//
// Mirrors completedConfig.New in apiextensions-apiserver's apiserver.go:
// the CRD REST storage installed for each enabled version of
// apiextensions.k8s.io, the crdHandler behind it, and the CRD informer
// and the controllers fed by it (controllers.go), started after the server.
func (c CompletedConfig) New() (*Server, error) {
	log := c.Logger
	// Access first: a public address without authentication, or a bad
	// token, policy or certificate file, fails before anything listens.
	acc, err := newAccess(c.completedConfig, log)
	if err != nil {
		return nil, err
	}
	// Then listen: a bad or busy address is the likeliest mistake, and
	// should fail before the storage is touched.
	ln, err := net.Listen("tcp", c.Listen)
	if err != nil {
		return nil, err
	}
	db, err := openBackend(c.completedConfig)
	if err != nil {
		ln.Close()
		return nil, err
	}
	s := &Server{cfg: c.completedConfig, log: log, db: db, listener: ln, access: acc}
	// Over plain HTTP the controllers' own connections are a socketpair
	// each, served by the same http.Server (LoopbackClientConfig).
	if acc.tls == nil {
		if pipe, err := client.NewPipeListener(ln.Addr()); err == nil {
			s.pipe = pipe
		}
	}
	s.watchCtx, s.cancelWatch = context.WithCancel(context.Background())
	fail := func(err error) (*Server, error) {
		s.cancelWatch()
		ln.Close()
		db.Close()
		return nil, err
	}

	// The server chain (chain.go): the kube-apiserver link, then the
	// apiextensions link, then 404.
	chain, err := c.createServerChain(db, acc)
	if err != nil {
		return fail(err)
	}
	s.chain = chain
	s.queueStats = newQueueStats()
	s.controllers = newCRDControllers(chain.extensions.GenericAPIServer, log.With("component", "apiextensions-controllers"))
	s.controllers.tracer, s.controllers.queueStats = c.Tracer, s.queueStats
	if c.StorageBackend == StorageEtcd {
		// Several servers may share the etcd: as upstream with more than
		// one apiserver, a CRD is Established only once every server's
		// CRD informer has had time to see it (docs/storage.md, "Several servers on one etcd").
		s.controllers.establishDelay = establish.HAEstablishDelay
	}

	ping := HealthChecker{Name: "ping", Check: func(*http.Request) error { return nil }}
	// storage fails once a commit has failed: the data file then takes
	// no writes until the process restarts and reopens it.
	store := HealthChecker{Name: "storage", Check: func(*http.Request) error { return db.Healthy() }}
	for _, h := range []*healthChecks{&s.healthz, &s.livez, &s.readyz} {
		h.add(ping)
		h.add(store)
	}
	// The system namespaces (default, kube-system, kube-public,
	// kube-node-lease) exist before the server is ready.
	if err := s.AddPostStartHook("start-system-namespaces-controller", chain.kube.ensureSystemNamespaces); err != nil {
		return fail(err)
	}
	if chain.namespaces != nil {
		if err := chain.namespaces.install(s); err != nil {
			return fail(err)
		}
	}
	if err := s.controllers.install(s); err != nil {
		return fail(err)
	}
	s.kubeControllers = &kubeControllers{
		log: log.With("component", "kube-controllers"), tracer: c.Tracer, queueStats: s.queueStats,
		namespace: c.controllerEnabled(NamespaceControllerName), gc: c.garbageCollection(),
	}
	// A CRD's group version served or removed: the collector follows it.
	s.controllers.onDiscoveryChange = s.kubeControllers.resyncGC
	if err := s.kubeControllers.install(s); err != nil {
		return fail(err)
	}
	s.readyz.add(HealthChecker{Name: "shutdown", Check: func(*http.Request) error {
		if s.shuttingDown.Load() {
			return errors.New("process is shutting down")
		}
		return nil
	}})

	s.metrics = newMetrics(db.CurrentRevision)
	s.metrics.served = func(group, version, resource, subresource string) bool {
		return chain.kube.GenericAPIServer.Discovery().Serves(scheme.GroupVersion{Group: group, Version: version}, resource, subresource)
	}
	mux := http.NewServeMux()
	installHealthz(mux, "/healthz", &s.healthz, log)
	installHealthz(mux, "/livez", &s.livez, log)
	installHealthz(mux, "/readyz", &s.readyz, log)
	mux.Handle("/metrics", s.metrics)
	mux.HandleFunc("/version", serveVersion)
	if c.Profiling {
		installProfiling(mux)
	}
	s.installDebug(mux)
	mux.Handle("/", chain.kube.GenericAPIServer)
	s.metrics.limits = acc.limiter.Stats

	if acc.selfSigned != nil {
		if s.kubeconfigPath, err = acc.writeKubeconfig(s.Addr()); err != nil {
			return fail(fmt.Errorf("--self-signed-cert-dir: writing the kubeconfig: %w", err))
		}
	}
	// As upstream's SecureServingInfo.Serve: headers within 32 s and up
	// to 1 MiB (with tokens, selectors), idle connections closed after
	// 90 s (HTTP/2 too). No ReadTimeout or WriteTimeout: over HTTP/1.1 a
	// passed read deadline cancels the request's context, which would end
	// every watch; withRequestChecks (access.go) sets the deadlines of
	// each request that is not long-running instead, and paces its body.
	s.http = &http.Server{
		Handler:           withRequestInfo(s.metrics.instrument(withHostCheck(withUI(s.frontChain(s.withWatchShutdown(mux))), acc.hosts), isLongRunning)),
		ReadHeaderTimeout: c.ReadHeaderTimeout,
		IdleTimeout:       c.IdleTimeout,
		MaxHeaderBytes:    1 << 20,
		TLSConfig:         acc.tls,
		ErrorLog:          slog.NewLogLogger(log.Handler(), slog.LevelWarn),
		ConnState:         s.fresh.track,
	}
	s.http.RegisterOnShutdown(s.fresh.closeAll)
	return s, nil
}

// backend is the storage a server runs on: bolt.DB or etcd3.Backend.
type backend interface {
	storage.Backend
	Healthy() error
}

// openBackend opens the storage Config.StorageBackend names.
func openBackend(c *completedConfig) (backend, error) {
	switch c.StorageBackend {
	case "", StorageBolt:
		if err := os.MkdirAll(c.DataDir, 0o700); err != nil {
			return nil, fmt.Errorf("data dir: %w", err)
		}
		opts := c.Storage
		if opts.Writer == "" {
			// What this build's codecs write: lists of CRDs take the
			// bytes written since (customresourcedefinition/stored.go).
			opts.Writer = customresourcedefinition.CodecVersion
		}
		db, err := bolt.Open(filepath.Join(c.DataDir, DataFileName), opts)
		if err != nil {
			return nil, dataFileError(err)
		}
		return db, nil
	case StorageEtcd:
		b, err := etcd3.New(context.Background(), etcd3.Config{
			Endpoints:       c.EtcdServers,
			Prefix:          c.EtcdPrefix,
			WatchBufferSize: c.Storage.WatchBufferSize,
		})
		if err != nil {
			return nil, fmt.Errorf("--etcd-servers: %w", err)
		}
		return b, nil
	}
	return nil, fmt.Errorf("unknown storage backend %q: want %q or %q", c.StorageBackend, StorageBolt, StorageEtcd)
}

// dataFileError adds to an error of bolt.Open what the operator can do
// about it. crdlab never re-initialises a file it cannot read.
func dataFileError(err error) error {
	switch {
	case errors.Is(err, bolt.ErrForeignFile), errors.Is(err, bolt.ErrCorrupt):
		return fmt.Errorf("%w; crdlab will not overwrite it: restore a backup, or move the file away to start with an empty store", err)
	case errors.Is(err, bolt.ErrLocked):
		return fmt.Errorf("%w: is another crdlab serve using the same --data-dir?", err)
	}
	return err
}

// Addr is the address the server listens on, e.g. 127.0.0.1:43117.
func (s *Server) Addr() string { return s.listener.Addr().String() }

// AddReadyzCheck adds a check to /readyz: the server is ready only when
// fn returns nil. Checks may be added before or while the server runs.
//
// Mirrors (*GenericAPIServer).AddReadyzChecks.
func (s *Server) AddReadyzCheck(name string, fn func() error) {
	s.readyz.add(HealthChecker{Name: name, Check: func(*http.Request) error { return fn() }})
}

// AddPostStartHook registers fn to run (in its own goroutine) once the
// server listens; ctx is done at shutdown. /readyz fails with
// poststarthook/<name> until fn has returned nil; an error from fn stops
// the server. Hooks start controllers and informers, which need the server
// to be up (they talk to it over HTTP, as upstream's do over loopback).
//
// Mirrors (*GenericAPIServer).AddPostStartHook.
func (s *Server) AddPostStartHook(name string, fn func(ctx context.Context) error) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.running {
		return fmt.Errorf("unable to add %q because PostStartHooks have already been run", name)
	}
	for _, h := range s.postStart {
		if h.name == name {
			return fmt.Errorf("unable to add %q because it was already registered", name)
		}
	}
	h := &postStartHook{name: name, fn: fn}
	s.postStart = append(s.postStart, h)
	s.AddReadyzCheck("poststarthook/"+name, func() error {
		if !h.done.Load() {
			return errors.New("not finished")
		}
		return nil
	})
	return nil
}

// withWatchShutdown gives every watch a context that ends at shutdown, so
// that http.Server.Shutdown is not held up by watches: they end, and
// clients see a clean end of stream and watch again (elsewhere).
func (s *Server) withWatchShutdown(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if info, _ := request.RequestInfoFrom(r.Context()); info.LongRunning() {
			ctx, cancel := context.WithCancel(r.Context())
			stop := context.AfterFunc(s.watchCtx, cancel)
			defer func() { stop(); cancel() }()
			r = r.WithContext(ctx)
		}
		h.ServeHTTP(w, r)
	})
}

// Run serves until ctx is done, then shuts down gracefully: /readyz turns
// unhealthy, post-start hooks and the controllers they started are told to
// stop, the listener closes, watches end, requests in flight get up to
// ShutdownTimeout to finish, the controllers are waited for, and the
// storage is closed. It returns nil after a clean shutdown.
//
// Mirrors (*GenericAPIServer).PrepareRun().RunWithContext.
func (s *Server) Run(ctx context.Context) error {
	s.mu.Lock()
	if s.running {
		s.mu.Unlock()
		return errors.New("apiserver: Run called twice")
	}
	s.running = true
	hooks := s.postStart
	s.mu.Unlock()

	hookCtx, stopHooks := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	errc := make(chan error, 1+len(hooks))

	for _, h := range hooks {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := h.fn(hookCtx); err != nil {
				errc <- fmt.Errorf("poststarthook/%s failed: %w", h.name, err)
				return
			}
			h.done.Store(true)
		}()
	}
	wg.Add(1)
	go func() {
		defer wg.Done()
		g := defaultIdleGC
		g.requests = s.metrics.activity
		g.log = s.log
		g.run(hookCtx)
	}()
	serveErr := make(chan error, 1)
	go func() {
		if s.access.tls != nil {
			// The certificates are in TLSConfig (GetCertificate);
			// ServeTLS adds HTTP/2.
			serveErr <- s.http.ServeTLS(s.listener, "", "")
			return
		}
		serveErr <- s.http.Serve(s.listener)
	}()
	if s.pipe != nil {
		go func() {
			if err := s.http.Serve(s.pipe); !errors.Is(err, http.ErrServerClosed) {
				select {
				case serveErr <- err:
				default: // the TCP listener's error came first
				}
			}
		}()
	}
	s.log.Info("serving", "addr", s.Addr(), "url", s.URL(), "dataDir", s.cfg.DataDir)

	var runErr error
	select {
	case <-ctx.Done():
	case err := <-serveErr:
		if !errors.Is(err, http.ErrServerClosed) {
			runErr = err
		}
	case err := <-errc:
		runErr = err
	}

	s.log.Info("shutting down")
	s.shuttingDown.Store(true)
	// Hooks first: the controllers they started are clients of this
	// server, and should not find it closing under their requests.
	stopHooks()
	s.cancelWatch()
	shutdownCtx, cancel := context.WithTimeout(context.Background(), s.cfg.ShutdownTimeout)
	if err := s.http.Shutdown(shutdownCtx); err != nil {
		s.log.Warn("requests still running at shutdown timeout; closing them", "err", err)
		_ = s.http.Close()
	}
	cancel()
	wg.Wait()
	s.controllers.wait()
	s.kubeControllers.wait()
	if s.chain.namespaces != nil {
		s.chain.namespaces.wait()
	}
	if err := s.close(); err != nil && runErr == nil {
		runErr = err
	}
	s.log.Info("stopped")
	return runErr
}

// Close releases a server that was never Run: the listener and the
// storage. Run closes them itself.
func (s *Server) Close() error {
	_ = s.listener.Close()
	if s.pipe != nil {
		_ = s.pipe.Close()
	}
	return s.close()
}

func (s *Server) close() error {
	s.closeOnce.Do(func() {
		s.cancelWatch()
		s.closeErr = s.db.Close()
	})
	return s.closeErr
}

// serveVersion answers /version.
func serveVersion(w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(version.Get())
}

// EnabledVersions lists the served group versions (apiextensions.k8s.io
// and the built-in groups), for logs.
// logs.
func (c CompletedConfig) EnabledVersions() []string {
	var out []string
	for gv, on := range c.ResourceConfig.GroupVersionConfigs {
		if on {
			out = append(out, gv.String())
		}
	}
	sort.Strings(out)
	return out
}
